"""``Module.register_full_backward_hook`` and ``register_full_backward_pre_hook`` as PyTorch's.

One program per library logs what the hooks saw (shapes and values of ``grad_input`` and
``grad_output``, None for non-tensor arguments), in which order, what their returned values
changed, the nodes the module's tensors show (``BackwardHookFunctionBackward``), the warnings
and the errors. (Left out: the gradient a hook sees for a tensor input that does not require
grad, None in minigrad and zeros in PyTorch, whose Python node hands hooks what backward
returned for every input.)
"""

import warnings

import pytest
from _cases import outcome

import minigrad

torch = pytest.importorskip("torch")


def _seen(grad):
    return None if grad is None else (tuple(grad.shape), grad.detach().reshape(-1).tolist())


def _program(lib):
    layer = lib.nn.Linear(2, 2)
    with lib.no_grad():
        layer.weight.copy_(lib.tensor([[1.0, 2.0], [3.0, 4.0]]))
        layer.bias.copy_(lib.tensor([0.5, -0.5]))
    log, events = [], []
    layer.register_full_backward_hook(lambda m, gi, go: events.append(
        ("hook", [_seen(g) for g in gi], [_seen(g) for g in go])))
    layer.register_full_backward_pre_hook(lambda m, go: events.append(
        ("pre hook", [_seen(g) for g in go])))
    x = lib.tensor([[1.0, -1.0], [2.0, 0.5]], requires_grad=True)
    y = layer(x)
    log.append((y.grad_fn.name(), y.grad_fn.next_functions[0][0].name()))
    (y * lib.tensor([[1.0, 2.0], [3.0, 4.0]])).sum().backward()
    log += [list(events), _seen(x.grad), _seen(layer.weight.grad)]
    events.clear()
    # a pre hook that scales grad_output, a hook (run first) that replaces grad_input
    handles = [layer.register_full_backward_pre_hook(lambda m, go: (go[0] * 10,)),
               layer.register_full_backward_hook(lambda m, gi, go: (gi[0] + 1,), prepend=True)]
    x.grad = None
    layer.zero_grad()
    layer(x).sum().backward()
    log += [list(events), _seen(x.grad), _seen(layer.weight.grad)]
    events.clear()
    for handle in handles:
        handle.remove()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        layer(lib.ones(1, 2)).sum().backward()  # no input requires grad: called at the output
    log += [list(events), [str(w.message) for w in caught]]
    events.clear()
    with lib.no_grad():
        log.append(layer(x).grad_fn)
    wrong = layer.register_full_backward_hook(lambda m, gi, go: (gi[0], gi[0]))
    log.append(outcome(lambda: layer(x).sum().backward()))
    wrong.remove()
    wrong = layer.register_full_backward_pre_hook(lambda m, go: (go[0], go[0]))
    log.append(outcome(lambda: layer(x).sum().backward()))
    wrong.remove()
    events.clear()

    class Two(lib.nn.Module):
        def forward(self, a, k, b):
            return a * b, k, a + b

    two = Two()
    two.register_full_backward_hook(lambda m, gi, go: events.append(
        ("two", [_seen(g) for g in gi], [_seen(g) for g in go])))
    a = lib.tensor([1.0, 2.0], requires_grad=True)
    b = lib.tensor([3.0, 4.0], requires_grad=True)
    first, k, second = two(a, 7, b)
    log.append((first.grad_fn.name(), k, second.grad_fn.name()))
    (first.sum() + 2 * second.sum()).backward()
    log += [list(events), _seen(a.grad), _seen(b.grad)]
    events.clear()
    first, k, second = two(a, 7, b)
    first.sum().backward()  # one output's gradient only: None for the other
    log.append(list(events))

    class Mapping(lib.nn.Module):
        def forward(self, a):
            return {"x": a * 2}

    mapping = Mapping()
    mapping.register_full_backward_hook(lambda *args: None)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        log.append(type(mapping(a)).__name__)
    log.append([str(w.message) for w in caught])
    return str(log).replace("torch", "minigrad")  # (the link in a warning is PyTorch's page)


def test_backward_hooks_see_and_change_what_pytorchs_do():
    assert _program(minigrad) == _program(torch)
