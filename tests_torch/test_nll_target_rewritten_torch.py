"""nll_loss's backward reads its saved target as it is now, and checks it as PyTorch's does.

A target written through ``.data`` after the forward is not seen by any version counter, so
backward runs on the new values: PyTorch's kernel skips the targets now equal to
``ignore_index`` and raises "Target 2 is out of bounds." for one outside the classes (except
for the per-element losses of a batch, where it checks nothing: what it writes is undefined,
so no program here does that). Each program runs in both libraries (found by random programs,
seed 45112579).
"""

from __future__ import annotations

from _cases import parametrize_in_one

from tests_torch.random_programs.shrink import assert_agrees

PROGRAMS = {
    # seed 45112579, shrunk: forward's common case (no target ignored), then target 2
    "out_of_bounds_after_the_common_case": """
t1 = torch.tensor([[1.5, -1.0], [1.5, 3.0]], requires_grad=True)
t2 = torch.tensor([1, 1])
t3 = torch.nn.functional.cross_entropy(t1, t2, ignore_index=0)
t4 = t2.data
t4 *= 2
t3.sum().backward()
""",
    "now_ignored": """
t1 = torch.tensor([[1.5, -1.0], [1.5, 3.0]], requires_grad=True)
t2 = torch.tensor([1, 1])
t3 = torch.nn.functional.nll_loss(t1, t2, ignore_index=0)
t4 = t2.data
t4 -= 1
t3.backward()
""",
    "other_classes": """
t1 = torch.tensor([[1.5, -1.0], [1.5, 3.0]], requires_grad=True)
t2 = torch.tensor([1, 1])
t3 = torch.nn.functional.cross_entropy(t1, t2)
t4 = t2.data
t4 -= 1
t3.sum().backward()
""",
    "weighted_sum": """
t1 = torch.tensor([[1.5, -1.0], [1.5, 3.0]], requires_grad=True)
t2 = torch.tensor([1, 0])
t3 = torch.nn.functional.nll_loss(t1, t2, reduction='sum', weight=torch.tensor([1.0, 2.0]))
t4 = t2.data
t4 += 1
t3.sum().backward()
""",
    "unbatched": """
t1 = torch.tensor([1.5, -1.0, 2.0], requires_grad=True)
t2 = torch.tensor(1)
t3 = torch.nn.functional.nll_loss(t1, t2)
t4 = t2.data
t4 += 5
t3.sum().backward()
""",
    "images": """
t1 = torch.tensor([[[[1.5, -1.0]], [[1.5, 3.0]]]], requires_grad=True)
t2 = torch.tensor([[[1, 0]]])
t3 = torch.nn.functional.nll_loss(t1, t2)
t4 = t2.data
t4 += 3
t3.sum().backward()
""",
}


@parametrize_in_one("name", list(PROGRAMS))
def test_programs_agree_with_pytorch(name: str) -> None:
    assert_agrees(PROGRAMS[name])
