"""A tensor's hooks belong to the tensor: ``detach_()`` keeps them, a new grad_fn ends them.

PyTorch keeps ``register_hook``'s hooks in one list per tensor (``_backward_hooks``), handed to
the tensor's grad_fn when the first is registered and run by a leaf's accumulator: after
``detach_()`` (the tensor a leaf) they run on the leaf's gradient; an in-place op or a
regenerated view gives the tensor a new grad_fn, and the next hook starts a new list there.
Each program runs in both libraries (random_programs' runner), which must agree on every
statement and every tensor's state at the end (found by random programs, seed 44205146).
"""

from __future__ import annotations

from _cases import parametrize_in_one

from tests_torch.random_programs.shrink import assert_agrees

PROGRAMS = {
    # seed 44205146, shrunk: the hook still doubles the (now leaf) t3's gradient
    "detach_then_leaf": """
t0 = torch.tensor([[0.5, 0.5, 3.0], [1.0, -1.5, 3.0]])
t1 = torch.tensor([-1.5, 2.0, 2.0], requires_grad=True)
t3 = t0 ** t1
t3.register_hook(lambda g: g * 2)
t3.detach_()
t3.requires_grad_()
t3.sum().backward(retain_graph=True)
""",
    "detach_then_more_hooks": """
t1 = torch.tensor([-1.5, 2.0, 2.0], requires_grad=True)
t3 = t1 * 2
t3.register_hook(lambda g: g * 2)
t3.detach_()
t3.requires_grad_()
t3.register_hook(lambda g: g * 3)
t3.sum().backward()
""",
    "detach_then_grad": """
t1 = torch.tensor([-1.5, 2.0, 2.0], requires_grad=True)
t3 = t1 * 2
t3.register_hook(lambda g: g * 2)
t3.detach_()
t3.requires_grad_()
t4 = torch.autograd.grad(t3.sum(), t3)[0]
""",
    "inplace_then_detach_": """
t1 = torch.tensor([-1.5, 2.0, 2.0], requires_grad=True)
t3 = t1 * 2
t3.register_hook(lambda g: g * 2)
t3.mul_(t1)
t3.detach_()
t3.requires_grad_()
t3.sum().backward()
""",
    # a leaf's hooks end when an in-place op gives it a grad_fn
    "leaf_inplace_ends_hooks": """
t0 = torch.tensor([-1.5, 2.0, 2.0], requires_grad=True)
t1 = torch.tensor([-1.5, 2.0, 2.0], requires_grad=True)
t1.register_hook(lambda g: g * 2)
t1.detach_()
t1.mul_(t0)
t1.detach_()
t1.requires_grad_()
t1.sum().backward()
""",
    # the same function registered twice runs twice (a dict keyed by handle)
    "twice_on_a_leaf": """
t0 = torch.tensor([-1.5, 2.0], requires_grad=True)
t1 = lambda g: g * 2
t2 = t0.register_hook(t1)
t3 = t0.register_hook(t1)
t0.sum().backward()
""",
    # a base without grad keeps its list when a view's write gives it CopySlices: the next
    # hook joins that list (on the old node), not the new node
    "base_without_grad_keeps_its_list": """
t1 = torch.tensor([-1.5, 2.0, 2.0], requires_grad=True)
t3 = t1 * 2
t3.register_hook(lambda g: g * 2)
t3.detach_()
t4 = t3[1:]
t4.mul_(t1[1:])
t3.register_hook(lambda g: g * 3)
t3.sum().backward()
""",
    "view_regenerated_starts_a_list": """
t1 = torch.tensor([-1.5, 2.0, 2.0], requires_grad=True)
t3 = t1 * 2
t4 = t3[1:]
t4.register_hook(lambda g: g * 2)
t3.mul_(2)
t5 = t4.grad_fn
t4.register_hook(lambda g: g * 3)
t3.sum().backward()
""",
    # seed 45140137: the first hook starts the list, then reading grad_fn raises (a split's
    # view whose base was written); the next hook joins the list without reading grad_fn
    "list_made_before_the_view_raises": """
t0 = torch.tensor([[1.5, -0.5, 2.0], [1.5, -0.5, 1.5]], requires_grad=True)
t1 = t0 ** t0
t2 = t1.chunk(2, 1)[0]
t1.mul_(t0)
t2.register_hook(lambda g: None)
t2.register_hook(lambda g: None)
""",
    "retain_grad_then_detach_": """
t1 = torch.tensor([-1.5, 2.0, 2.0], requires_grad=True)
t3 = t1 * 2
t3.register_hook(lambda g: g * 2)
t3.retain_grad()
t3.detach_()
t3.requires_grad_()
t3.retain_grad()
t3.sum().backward()
t5 = torch.tensor(t3.retains_grad)
""",
}


@parametrize_in_one("name", list(PROGRAMS))
def test_hooks_follow_the_tensor_as_in_pytorch(name: str) -> None:
    assert_agrees(PROGRAMS[name])
