"""``other / tensor`` for an ``other`` that is no operand computes the reciprocal first.

PyTorch's ``Tensor.__rtruediv__`` is ``self.reciprocal() * other``, its TypeError turned into
NotImplemented: the reciprocal runs first, so its error (a view made under no_grad whose base
was written since) is what a program sees, not Python's TypeError. Each program runs in both
libraries (found by random programs, seed 45192296: an unused input's gradient, None, divided
in place by such a view).
"""

from __future__ import annotations

from _cases import parametrize_in_one

from tests_torch.random_programs.shrink import assert_agrees

PROGRAMS = {
    # seed 45192296, shrunk
    "none_by_an_unusable_view": """
t0 = torch.ones((2, 3), requires_grad=True)
t1 = torch.tensor(3.0, requires_grad=True)
with torch.no_grad():
    t2 = t1.unsqueeze(0)
with torch.no_grad():
    t2.relu_()
t3 = torch.autograd.grad(t0.sum(), t1, retain_graph=True, allow_unused=True)[0]
t3 /= t2
""",
    "none_by_a_tensor": """
t1 = torch.tensor(3.0, requires_grad=True)
t2 = t1 * 2
t3 = None
t3 /= t2
""",
    "text_by_an_integer_tensor": """
t1 = torch.tensor([3, 4])
t3 = "a" / t1
""",
}


@parametrize_in_one("name", list(PROGRAMS))
def test_programs_agree_with_pytorch(name: str) -> None:
    assert_agrees(PROGRAMS[name])
