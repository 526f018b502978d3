"""End to end: the same small training loop in minigrad and PyTorch ends in the same place."""

import importlib

import numpy as np
import pytest

import minigrad

torch = pytest.importorskip("torch")


def train(lib, steps: int = 50) -> tuple[float, list[np.ndarray]]:
    """A two-layer classifier trained with plain SGD, written once for both libraries."""
    functional = importlib.import_module(lib.__name__ + ".nn.functional")
    rng = np.random.default_rng(0)
    inputs = lib.tensor(rng.standard_normal((16, 4)).astype(np.float32))
    targets = lib.tensor(rng.integers(0, 3, 16))
    w1 = lib.tensor(rng.standard_normal((8, 4)).astype(np.float32) * 0.5, requires_grad=True)
    b1 = lib.zeros(8, requires_grad=True)
    w2 = lib.tensor(rng.standard_normal((3, 8)).astype(np.float32) * 0.5, requires_grad=True)
    b2 = lib.zeros(3, requires_grad=True)
    params = (w1, b1, w2, b2)
    for _ in range(steps):
        hidden = functional.linear(inputs, w1, b1).relu()
        loss = functional.cross_entropy(functional.linear(hidden, w2, b2), targets)
        for p in params:
            p.grad = None
        loss.backward()
        with lib.no_grad():
            for p in params:
                p -= 0.5 * p.grad
    return loss.item(), [p.detach().numpy().copy() for p in params]


def test_training_loop_matches_pytorch():
    mine_loss, mine_params = train(minigrad)
    their_loss, their_params = train(torch)
    assert mine_loss == pytest.approx(their_loss, rel=1e-5)
    for mine, theirs in zip(mine_params, their_params):
        np.testing.assert_allclose(mine, theirs, rtol=1e-4, atol=1e-5)


def test_an_optimizer_step_between_forward_and_backward_raises_like_pytorch():
    messages = []
    for lib in (minigrad, torch):
        functional = importlib.import_module(lib.__name__ + ".nn.functional")
        w = lib.ones(2, 3, requires_grad=True)
        x = lib.ones(4, 3, requires_grad=True)
        loss = functional.linear(x, w).sum()
        with lib.no_grad():
            w -= 0.1  # the step PyTorch users make by mistake before backward
        with pytest.raises(RuntimeError) as excinfo:
            loss.backward()
        messages.append(str(excinfo.value).replace("torch.", "minigrad."))
    assert messages[0] == messages[1]
