"""AdaptiveLogSoftmaxWithLoss: its gradients checked by finite differences (float64)."""

from _backend import mg


def test_adaptive_log_softmax_gradients():
    mg.manual_seed(0)
    asm = mg.nn.AdaptiveLogSoftmaxWithLoss(8, 6, [2, 4], div_value=2.0, head_bias=True).double()
    x = mg.randn(5, 8, dtype=mg.float64, requires_grad=True)
    target = mg.tensor([0, 3, 5, 1, 4])
    params = list(asm.parameters())

    def run(x, *values):
        state = dict(zip([name for name, _ in asm.named_parameters()], values, strict=True))
        out = mg.func.functional_call(asm, state, (x, target))
        return out.output, out.loss

    inputs = (x, *(p.detach().clone().requires_grad_() for p in params))
    assert mg.autograd.gradcheck(run, inputs)
