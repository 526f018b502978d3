"""PyTorch's legacy layers side by side: ``CrossMapLRN2d`` (Lua Torch's loops, whose gradient
is not the derivative of the forward, so only PyTorch itself can check it), and the deprecated
``NLLLoss2d`` and ``Container`` with their FutureWarnings.
"""

import warnings

import numpy as np
import pytest

import minigrad

torch = pytest.importorskip("torch")


def outcome(call):
    """What a call gives: its value, or the exception's type and text (torch -> minigrad)."""
    try:
        return call()
    except Exception as exc:  # noqa: BLE001 - the exception is the outcome compared
        return type(exc).__name__, str(exc).replace("torch", "minigrad")


@pytest.mark.parametrize(
    ("size", "shape", "options"),
    [
        (3, (2, 5, 2, 3), {}),
        (2, (1, 4, 3, 3), {"alpha": 0.3, "beta": 0.6, "k": 1.5}),
        (5, (2, 3, 2, 2), {"alpha": 0.5}),
        (4, (1, 7, 2, 2), {"alpha": 0.2, "beta": 1.0}),
    ],
)
def test_cross_map_lrn2d_values_and_gradients_as_pytorch(size, shape, options):
    rng = np.random.default_rng(size)
    x = rng.standard_normal(shape)
    grad = rng.standard_normal(shape)
    seen = []
    for lib in (torch, minigrad):
        for dtype in (lib.float32, lib.float64):
            source = lib.tensor(x, dtype=dtype)
            source = source.transpose(2, 3).contiguous().transpose(2, 3)  # non-contiguous
            leaf = source.clone().requires_grad_()
            layer = lib.nn.CrossMapLRN2d(size, **options)
            y = layer(leaf)
            y.backward(lib.tensor(grad, dtype=dtype))
            seen.append((y.detach().numpy(), leaf.grad.numpy(), y.grad_fn.name(), repr(layer)))
    for theirs, mine in zip(seen[:2], seen[2:]):
        np.testing.assert_allclose(mine[0], theirs[0], rtol=1e-5, atol=1e-6)
        np.testing.assert_allclose(mine[1], theirs[1], rtol=1e-5, atol=1e-6)
        assert mine[2:] == theirs[2:]


def test_cross_map_lrn2d_errors_and_saved_input_as_pytorch():
    def run(lib):
        layer = lib.nn.CrossMapLRN2d(1)
        x = lib.ones(1, 3, 2, 2, requires_grad=True)
        narrow = outcome(lambda: layer(x).sum().backward())  # size 1: PyTorch's narrow fails
        changed = x.detach().clone().requires_grad_()
        y = lib.nn.CrossMapLRN2d(3)(changed * 1)
        with lib.no_grad():
            y.mul_(2)  # the saved output modified in place
        stale = outcome(lambda: y.sum().backward())
        return (
            outcome(lambda: layer(lib.ones(3, 2, 2))),
            narrow,
            stale[0],
            list(layer.state_dict()),
        )

    assert run(minigrad) == run(torch)


def test_nllloss2d_warns_and_is_nllloss():
    seen = []
    rng = np.random.default_rng(0)
    scores = rng.standard_normal((2, 3, 2, 2)).astype(np.float32)
    target = rng.integers(0, 3, (2, 2, 2))
    for lib in (torch, minigrad):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            loss = lib.nn.NLLLoss2d(ignore_index=1, reduction="sum")
        value = loss(lib.tensor(scores).log_softmax(1), lib.tensor(target)).item()
        seen.append(
            (
                [(w.category, str(w.message)) for w in caught],
                repr(loss),
                isinstance(loss, lib.nn.NLLLoss),
                round(value, 4),
            )
        )
    assert seen[0] == seen[1]


def test_container_warns_and_registers_its_keyword_children():
    seen = []
    for lib in (torch, minigrad):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            box = lib.nn.Container(first=lib.nn.Linear(2, 1), second=lib.nn.ReLU())
            bad = outcome(lambda: lib.nn.Container(bad=3))  # noqa: B023 - called at once
        seen.append(
            (
                [(w.category, str(w.message).replace("torch", "minigrad")) for w in caught],
                repr(box),
                list(box.state_dict()),
                bad,
            )
        )
    assert seen[0] == seen[1]
