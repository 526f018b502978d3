"""A custom Function that returns its inputs as they are and marks some non-differentiable.

PyTorch hands out such an output as a view of the input without history (an input that does
not require grad) or as a detached alias (one that does): ``requires_grad`` False, no
``grad_fn``, the input's version counter; the unmarked ones are views recorded on the node.
Each program runs in both libraries and logs what it sees.
"""

import pytest
from _cases import parametrize_in_one

import minigrad

torch = pytest.importorskip("torch")


def _function(lib, marked):
    class Identity(lib.autograd.Function):
        @staticmethod
        def forward(ctx, *args):
            ctx.mark_non_differentiable(*[args[i] for i in marked])
            return args

        @staticmethod
        def backward(ctx, *grads):
            return grads

    return Identity


def _describe(output, source):
    return (output.requires_grad, None if output.grad_fn is None else output.grad_fn.name(),
            output._base is source, output.is_leaf, output is source)


def _program(lib, marked, needs):
    x = lib.ones(2, requires_grad=needs[0])
    y = lib.full((2,), 2.0, requires_grad=needs[1]) * 1 if needs[1] else lib.full((2,), 2.0)
    a, b = _function(lib, marked).apply(x, y)
    log = [_describe(a, x), _describe(b, y)]
    for output, source in ((a, x), (b, y)):
        if not output.requires_grad:
            with lib.no_grad():
                output.add_(1)
            log.append((output._version, source._version, source.tolist()))
    if a.requires_grad or b.requires_grad:
        total = sum(t.sum() for t in (a, b) if t.requires_grad)
        total.backward()
        log.append(None if x.grad is None else x.grad.tolist())
    return str(log)


CASES = [((), (True, False)), ((1,), (True, False)), ((0,), (True, True)), ((0, 1), (True, True)),
         ((1,), (True, True)), ((0,), (False, True))]


@parametrize_in_one(("marked", "needs"), CASES)
def test_outputs_as_pytorchs(marked, needs):
    assert _program(minigrad, marked, needs) == _program(torch, marked, needs)
