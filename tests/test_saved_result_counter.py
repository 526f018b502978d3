"""A saved result's version counter, made only when something first needs it.

An op that saves its own result (exp, sigmoid, tanh, relu, a custom Function saving its output)
makes no counter for it: the result and the node share one, made by whichever needs it first
(a write, a view, ``detach()``, ``detach_()``, the alias ``grad_fn._saved_result``, a backward
with create_graph; autograd/tensor_base.py ``saved_output_counter``). Every way of writing to
the result must still reach the node's check, and the result, its views and aliases must see
one version. Every expected value and message here is what PyTorch 2.13 printed for the same
program (MINIGRAD_TEST_REFERENCE=torch runs them against it), except the tests marked as
minigrad's own layout.
"""

import threading

import pytest
from _backend import LIB, mg, text
from _cases import parametrize_in_one

HINT = (
    "Hint: enable anomaly detection to find the operation that failed to compute its gradient, "
    "with minigrad.autograd.set_detect_anomaly(True, check_nan=False)."
)
OPS = [("exp", "Exp"), ("sigmoid", "Sigmoid"), ("tanh", "Tanh"), ("relu", "Relu")]


def _stale(shape: int, node: str, version: int = 1) -> str:
    return text(
        "one of the variables needed for gradient computation has been modified by an inplace "
        f"operation: [minigrad.FloatTensor [{shape}]], which is output 0 of {node}, is at "
        f"version {version}; expected version 0 instead. {HINT}"
    )


def _raises_stale(run, shape: int, node: str, version: int = 1) -> None:
    with pytest.raises(RuntimeError) as excinfo:
        run()
    assert str(excinfo.value) == _stale(shape, node, version)


def _detach_in_place_then_write(e):
    e.detach_()
    e.mul_(2)


@parametrize_in_one(
    "write",
    [
        lambda e: e.add_(1),
        lambda e: e[1:].mul_(2),  # a view made after the op
        lambda e: e.view(3).add_(1),
        lambda e: e.detach().add_(1),  # an alias made after the op: it shares the counter
        lambda e: e.detach().detach()[0:1].zero_(),
        _detach_in_place_then_write,
        lambda e: e.grad_fn._saved_result.detach().add_(1),
        lambda e: e.exp_(),  # an in-place op that saves its own result, on the saved result
    ],
    ids=[
        "in place",
        "later slice",
        "later view",
        "later detach",
        "detach of detach, view",
        "after detach_",
        "through _saved_result",
        "exp_",
    ],
)
@parametrize_in_one(("op", "node"), OPS)
def test_every_write_to_a_saved_result_reaches_its_node(write, op, node):
    a = mg.tensor([1.0, 2.0, 3.0], requires_grad=True)
    e = getattr(a, op)()
    total = e.sum()  # backward runs through the node that saved e
    write(e)
    _raises_stale(total.backward, 3, node)


@pytest.mark.parametrize(("op", "node"), OPS)
def test_views_and_aliases_alone_do_not_count_as_writes(op, node):
    a = mg.tensor([1.0, 2.0, 3.0], requires_grad=True)
    e = getattr(a, op)()
    total = e.sum()
    e[0:2]
    e.view(3)
    e.detach()
    alias = e.grad_fn._saved_result
    assert (e._version, alias._version) == (0, 0)
    total.backward()
    expected = mg.tensor([1.0, 2.0, 3.0], requires_grad=True)
    getattr(expected, op)().sum().backward()
    assert a.grad.tolist() == expected.grad.tolist()


def test_a_write_through_data_is_not_seen_as_in_pytorch():
    a = mg.tensor([1.0, 2.0, 3.0], requires_grad=True)
    e = a.exp()
    total = e.sum()
    e.data.mul_(2)  # a fresh counter: PyTorch's documented hole, backward uses the new values
    assert e._version == 0
    total.backward()
    assert a.grad.tolist() == pytest.approx(
        [5.436563491821289, 14.778112411499023, 40.17107391357422]
    )


def test_a_write_through_the_saved_results_alias_is_seen_by_every_node_that_saved_the_result():
    a = mg.tensor([1.0, 2.0], requires_grad=True)
    w = mg.tensor([3.0, 4.0], requires_grad=True)
    e = a.exp()
    alias = e.grad_fn._saved_result
    z = e * w  # Mul saves e as its input, at version 0
    alias.detach().add_(1)
    assert (e._version, alias._version) == (1, 1)
    _raises_stale(lambda: z.sum().backward(), 2, "Exp")


def test_a_write_through_the_alias_before_the_result_is_saved_again():
    a = mg.tensor([1.0, 2.0], requires_grad=True)
    w = mg.tensor([3.0, 4.0], requires_grad=True)
    e = a.exp()
    e.grad_fn._saved_result.detach().add_(1)
    z = e * w  # saved at version 1: Mul's own check passes, Exp's (through e) does not
    assert e._version == 1
    _raises_stale(lambda: z.sum().backward(), 2, "Exp")


def test_a_second_backward_with_a_retained_graph_checks_again():
    a = mg.tensor([1.0, 2.0], requires_grad=True)
    e = a.sigmoid()
    total = e.sum()
    total.backward(retain_graph=True)
    total.backward(retain_graph=True)
    assert a.grad.tolist() == pytest.approx([0.3932238519191742, 0.20998725295066833])
    e.add_(1)
    _raises_stale(total.backward, 2, "Sigmoid")


def test_create_graph_unpacks_the_saved_result_sharing_its_counter():
    a = mg.tensor([1.0, 2.0], requires_grad=True)
    e = a.exp()
    (g,) = mg.autograd.grad(e.sum(), a, create_graph=True)
    g.sum().backward()
    assert a.grad.tolist() == pytest.approx([2.7182817459106445, 7.389056205749512])
    b = mg.tensor([1.0, 2.0], requires_grad=True)
    f = b.exp()
    (g,) = mg.autograd.grad(f.sum(), b, create_graph=True)
    f.add_(1)  # the gradient's graph saved the unpacked result: it shares f's counter
    _raises_stale(lambda: g.sum().backward(), 2, "Exp")


class _SavesItsOutput(mg.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        y = x * 2
        ctx.save_for_backward(y)
        return y

    @staticmethod
    def backward(ctx, grad):
        (y,) = ctx.saved_tensors
        return grad * 2


def test_a_custom_functions_saved_output():
    a = mg.tensor([1.0, 2.0], requires_grad=True)
    y = _SavesItsOutput.apply(a)
    total = y.sum()
    y.detach()
    assert y._version == 0
    total.backward()
    assert a.grad.tolist() == [2.0, 2.0]
    y = _SavesItsOutput.apply(a)
    total = y.sum()
    y.add_(1)
    _raises_stale(total.backward, 2, "_SavesItsOutput")


def test_pack_hooks_registered_later_see_the_result_at_its_version():
    a = mg.tensor([1.0, 2.0], requires_grad=True)
    e = a.exp()
    seen = []
    e.grad_fn._raw_saved_result.register_hooks(
        lambda t: (seen.append(t._version), t)[1], lambda t: t
    )
    e.add_(1)  # kept through hooks: no longer version-checked
    e.sum().backward()
    assert seen == [0]
    assert a.grad.tolist() == pytest.approx([3.7182817459106445, 8.389056205749512])


def test_threads_racing_to_make_the_counter_make_one():
    a = mg.tensor([1.0, 2.0], requires_grad=True)
    versions = set()
    for _ in range(20):
        e = a.sigmoid()
        barrier = threading.Barrier(4)
        got = [None] * 4

        def work(i, e=e, barrier=barrier, got=got):
            barrier.wait()  # all four ask for the counter at once, two from each side
            got[i] = e.detach() if i % 2 else e.grad_fn._saved_result

        threads = [threading.Thread(target=work, args=(i,)) for i in range(4)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        got[0].detach().add_(1)
        versions.add((*(tensor._version for tensor in got), e._version))
    assert versions == {(1, 1, 1, 1, 1)}


# --- minigrad's own layout ------------------------------------------------------------------

minigrad_only = pytest.mark.skipif(LIB != "minigrad", reason="minigrad's own layout")


@minigrad_only
@pytest.mark.parametrize(("op", "_"), OPS)
def test_no_counter_is_made_until_something_needs_it_then_one_for_both(op, _):
    from minigrad.autograd.graph import COUNTER_IN_NODE

    a = mg.tensor([1.0, 2.0], requires_grad=True)
    e = getattr(a, op)()
    assert e._counter is COUNTER_IN_NODE and e.grad_fn._output_counter is None
    e * a  # saving it as an input makes none either
    assert e._counter is COUNTER_IN_NODE and e.grad_fn._output_counter is None
    alias = e.grad_fn._saved_result  # the node's side makes it ...
    assert alias._version_counter() is e.grad_fn._output_counter
    assert e._version_counter() is e.grad_fn._output_counter  # ... and the result takes it
    f = getattr(a, op)()
    counter = f._version_counter()  # the result's side makes it: the node takes it
    assert counter is f.grad_fn._output_counter
    assert f.grad_fn._saved_result._version_counter() is counter


@minigrad_only
def test_threads_racing_from_both_sides_share_one_counter_object():
    from minigrad.autograd.tensor_base import saved_output_counter

    a = mg.tensor([1.0, 2.0], requires_grad=True)
    for _ in range(50):
        e = a.tanh()
        node = e.grad_fn
        barrier = threading.Barrier(6)
        got = [None] * 6

        def work(i, e=e, node=node, barrier=barrier, got=got):
            barrier.wait()
            got[i] = e._version_counter() if i % 2 else saved_output_counter(node)

        threads = [threading.Thread(target=work, args=(i,)) for i in range(6)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert all(counter is node._output_counter for counter in got)


@minigrad_only
def test_a_result_freed_by_backward_takes_the_counter_its_node_made():
    a = mg.tensor([1.0, 2.0], requires_grad=True)
    e = a.exp()
    (g,) = mg.autograd.grad(e.sum(), a, create_graph=True, retain_graph=False)
    assert e.grad_fn._saved is None  # freed; the unpacked result made the node's counter
    assert e._version_counter() is e.grad_fn._output_counter
