"""AdaptiveLogSoftmaxWithLoss side by side with PyTorch: PyTorch's weights loaded, then outputs,
losses, gradients, full log-probabilities, predictions, reprs and errors compared."""

import numpy as np
import pytest

import minigrad

torch = pytest.importorskip("torch")
torch.set_num_threads(1)


def outcome(call):
    try:
        return call()
    except Exception as exc:  # noqa: BLE001 - the exception is the outcome compared
        return type(exc).__name__, str(exc).replace("torch", "minigrad")


def build(**kwargs):
    torch.manual_seed(0)
    theirs = torch.nn.AdaptiveLogSoftmaxWithLoss(**kwargs)
    mine = minigrad.nn.AdaptiveLogSoftmaxWithLoss(**kwargs)
    assert repr(mine) == repr(theirs)
    assert list(mine.state_dict()) == list(theirs.state_dict())
    mine.load_state_dict({k: minigrad.tensor(v.numpy()) for k, v in theirs.state_dict().items()})
    return mine, theirs


def close(a, b, what):
    np.testing.assert_allclose(
        a.detach().numpy(), b.detach().numpy(), rtol=1e-4, atol=1e-5, err_msg=what
    )


@pytest.mark.parametrize(
    ("kwargs", "targets"),
    [
        ({"in_features": 16, "n_classes": 10, "cutoffs": [4, 8]}, [0, 5, 9, 3, 8, 1]),
        (
            {
                "in_features": 16,
                "n_classes": 12,
                "cutoffs": [3],
                "div_value": 2.0,
                "head_bias": True,
            },
            [11, 2, 3, 7, 0, 10],
        ),
        (
            {"in_features": 16, "n_classes": 10, "cutoffs": [2, 5, 7], "div_value": 2.0},
            [9, 9, 8, 6, 6, 5],
        ),
    ],
)
def test_outputs_losses_and_gradients_match_pytorch(kwargs, targets):
    mine, theirs = build(**kwargs)
    x = np.random.default_rng(0).standard_normal((6, 16)).astype(np.float32)
    results = []
    for lib, module in ((minigrad, mine), (torch, theirs)):
        inputs = lib.tensor(x, requires_grad=True)
        out = module(inputs, lib.tensor(targets))
        (out.output.sum() + out.loss).backward()
        results.append(
            (
                out,
                inputs.grad,
                [p.grad for p in module.parameters()],
                module.log_prob(lib.tensor(x)),
                module.predict(lib.tensor(x)),
                module(lib.tensor(x[0]), lib.tensor(targets[0])),
            )
        )
    (m_out, m_grad, m_pgrads, m_logp, m_pred, m_single), theirs_ = results[0], results[1]
    t_out, t_grad, t_pgrads, t_logp, t_pred, t_single = theirs_
    close(m_out.output, t_out.output, "output")
    close(m_out.loss, t_out.loss, "loss")
    assert m_out.output.grad_fn.name() == t_out.output.grad_fn.name()
    close(m_grad, t_grad, "input gradient")
    for a, b in zip(m_pgrads, t_pgrads, strict=True):
        if b is None:  # a cluster no target falls in
            assert a is None
        else:
            close(a, b, "parameter gradient")
    close(m_logp, t_logp, "log_prob")
    assert m_pred.tolist() == t_pred.tolist()
    close(m_single.output, t_single.output, "unbatched output")
    assert tuple(m_single.output.shape) == tuple(t_single.output.shape)


def test_errors_match_pytorch():
    seen = []
    for lib in (minigrad, torch):
        asm = lib.nn.AdaptiveLogSoftmaxWithLoss(16, 10, [4, 8])
        seen.append(
            [
                outcome(lambda lib=lib: lib.nn.AdaptiveLogSoftmaxWithLoss(16, 10, [])),
                outcome(lambda lib=lib: lib.nn.AdaptiveLogSoftmaxWithLoss(16, 10, [8, 4])),
                outcome(lambda lib=lib: lib.nn.AdaptiveLogSoftmaxWithLoss(16, 10, [4, 10])),
                outcome(lambda lib=lib, asm=asm: asm(lib.ones(3, 16), lib.tensor([0, 1]))),
                outcome(lambda lib=lib, asm=asm: asm(lib.ones(2, 2, 16), lib.tensor([0, 1]))),
                outcome(lambda lib=lib, asm=asm: asm(lib.ones(2, 16), lib.tensor(1))),
                outcome(lambda lib=lib, asm=asm: asm(lib.ones(2, 16), lib.ones(2, 1).long())),
                outcome(lambda lib=lib, asm=asm: asm(lib.ones(2, 16), lib.tensor([0, 12]))),
            ]
        )
    assert seen[0] == seen[1]
