"""Backward through CopySlices refuses a base whose elements share memory, as PyTorch's.

PyTorch's CopySlices copies the incoming gradient into memory laid out like the base
(``new_empty_strided`` with the base's strides): for an expanded base (a stride 0) that copy
raises "unsupported operation: more than one element of the written-to tensor refers to a
single memory location", in backward, not at the write. Each program runs in both libraries
(found by random programs, seed 45256233).
"""

from __future__ import annotations

from _cases import parametrize_in_one

from tests_torch.random_programs.shrink import assert_agrees

PROGRAMS = {
    # seed 45256233, shrunk
    "setitem_into_a_detached_expand": """
t0 = torch.tensor([[0.0, 0.0, -1.5]], requires_grad=True)
t1 = t0.expand(2, *t0.shape)
t2 = t0.transpose(0, 1)
t3 = t1.detach()
t3[0] = t2.sum()
t3.sum().backward()
""",
    "inplace_op_through_a_row": """
t0 = torch.tensor([[0.0, 0.0, -1.5]], requires_grad=True)
t1 = t0.expand(2, 3)
t3 = t1.detach()
t3[0].mul_(t0[0])
t3.sum().backward()
""",
    "create_graph": """
t0 = torch.tensor([[0.0, 0.0, -1.5]], requires_grad=True)
t1 = t0.expand(2, 3)
t3 = t1.detach()
t3[0].mul_(t0[0])
t4 = torch.autograd.grad(t3.sum(), t0, create_graph=True)
""",
    # an expand to a size of 1 shares nothing: backward runs
    "expanded_to_one_row": """
t0 = torch.tensor([[0.0, 0.0, -1.5]], requires_grad=True)
t1 = torch.zeros(1, 3).expand(1, 3)
t3 = t1.detach()
t3[0].mul_(t0[0])
t3.sum().backward()
""",
}


@parametrize_in_one("name", list(PROGRAMS))
def test_programs_agree_with_pytorch(name: str) -> None:
    assert_agrees(PROGRAMS[name])
