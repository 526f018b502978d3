"""Muon and SparseAdam side by side with PyTorch: Muon's trajectories over 50 steps from the
same start (losses, parameters, versions, state dicts, repr), and both constructors' checks
and step errors (SparseAdam refuses dense gradients, the only kind minigrad has).
"""

import numpy as np
import pytest
from _cases import parametrize_in_one

import minigrad

torch = pytest.importorskip("torch")
torch.set_num_threads(1)


def outcome(call):
    """What a call gives: its value, or the exception's type and text (torch -> minigrad)."""
    try:
        return call()
    except Exception as exc:  # noqa: BLE001 - the exception is the outcome compared
        return type(exc).__name__, str(exc).replace("torch", "minigrad")


def start(lib, dtype, seed=0):
    """Two weight matrices, one tall (16, 5) and one wide (3, 16), and the data."""
    rng = np.random.default_rng(seed)
    x = lib.tensor(rng.standard_normal((32, 5)), dtype=getattr(lib, dtype))
    y = lib.tensor(rng.integers(0, 3, 32))
    nn = lib.nn
    model = nn.Sequential(nn.Linear(5, 16, bias=False), nn.Tanh(), nn.Linear(16, 3, bias=False))
    model.to(getattr(lib, dtype))
    with lib.no_grad():
        for param in model.parameters():
            param.copy_(lib.tensor(rng.standard_normal(tuple(param.shape))))
    return model, x, y


def train(lib, options, dtype, steps=50):
    model, x, y = start(lib, dtype)
    opt = lib.optim.Muon(model.parameters(), **options)
    losses = []
    for _ in range(steps):
        opt.zero_grad()
        loss = lib.nn.functional.cross_entropy(model(x), y)
        loss.backward()
        opt.step()
        losses.append(loss.item())
    return losses, model, opt


OPTIONS = [
    {"lr": 0.02},
    {"lr": 0.05, "nesterov": False, "weight_decay": 0.0, "adjust_lr_fn": "match_rms_adamw"},
    {"lr": 0.01, "momentum": 0.9, "ns_steps": 3, "adjust_lr_fn": "original"},
]


# PyTorch's Newton-Schulz runs in bfloat16: minigrad rounds the same intermediates, and its
# iterates are PyTorch's bit for bit, except that now and then a float32 product summed in
# another order lands on the other side of a bfloat16 rounding (one entry off by 2 ** -8),
# which the iteration then spreads. So each step is compared from PyTorch's own state
# (most steps agree to 1e-6, none beyond 1e-3), and the 50-step runs only to 1 %.
@pytest.mark.parametrize("options", OPTIONS)
def test_muon_each_step_from_pytorchs_state_matches(options):
    model, x, y = start(torch, "float32")
    opt = torch.optim.Muon(model.parameters(), **options)
    params = [
        minigrad.nn.Parameter(minigrad.tensor(p.detach().numpy())) for p in model.parameters()
    ]
    mine_opt = minigrad.optim.Muon(params, **options)
    differences = []
    for _ in range(50):
        opt.zero_grad()
        torch.nn.functional.cross_entropy(model(x), y).backward()
        with minigrad.no_grad():
            for mine, theirs in zip(params, model.parameters(), strict=True):
                mine.copy_(minigrad.tensor(theirs.detach().numpy()))
                mine.grad = minigrad.tensor(theirs.grad.numpy())
                if theirs in opt.state:
                    buffer = opt.state[theirs]["momentum_buffer"].numpy()
                    mine_opt.state[mine]["momentum_buffer"] = minigrad.tensor(buffer)
        opt.step()
        mine_opt.step()
        differences.append(
            max(
                np.abs(mine.detach().numpy() - theirs.detach().numpy()).max()
                for mine, theirs in zip(params, model.parameters(), strict=True)
            )
        )
    differences = np.array(differences)
    assert differences.max() < 1e-3
    assert (differences < 1e-6).mean() >= 0.9


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("options", OPTIONS)
def test_muon_50_steps_match_pytorch(options, dtype):
    mine_losses, mine_model, mine_opt = train(minigrad, options, dtype)
    their_losses, their_model, their_opt = train(torch, options, dtype)
    assert their_losses[-1] < 0.7 * their_losses[0]  # it trains
    np.testing.assert_allclose(mine_losses, their_losses, rtol=1e-2)
    for mine, theirs in zip(mine_model.parameters(), their_model.parameters(), strict=True):
        np.testing.assert_allclose(mine.detach().numpy(), theirs.detach().numpy(), atol=0.05)
        assert mine.dtype == getattr(minigrad, dtype)
        assert mine._version == theirs._version
    mine_state, their_state = mine_opt.state_dict(), their_opt.state_dict()
    assert mine_state["param_groups"] == their_state["param_groups"]
    for index, state in their_state["state"].items():
        assert list(mine_state["state"][index]) == list(state)
        np.testing.assert_allclose(
            mine_state["state"][index]["momentum_buffer"].numpy(),
            state["momentum_buffer"].numpy(),
            atol=0.05,
        )
    assert repr(mine_opt) == repr(their_opt)


MUON_MISUSE = [
    lambda lib, w: lib.optim.Muon([lib.nn.Parameter(lib.ones(3))]),
    lambda lib, w: lib.optim.Muon([w], lr=-1.0),
    lambda lib, w: lib.optim.Muon([w], momentum=-0.5),
    lambda lib, w: lib.optim.Muon([w], weight_decay=-0.1),
    lambda lib, w: lib.optim.Muon([w], adjust_lr_fn="rms"),
    lambda lib, w: lib.optim.Muon([w], lr=lib.tensor([1.0, 2.0])),
    lambda lib, w: lib.optim.Muon([w], ns_steps=100).step(),
    lambda lib, w: lib.optim.Muon([w], ns_coefficients=(1.0, 2.0)).step(),
    lambda lib, w: lib.optim.SparseAdam([w], lr=0.0),
    lambda lib, w: lib.optim.SparseAdam([w], eps=-1.0),
    lambda lib, w: lib.optim.SparseAdam([w], betas=(1.0, 0.9)),
    lambda lib, w: lib.optim.SparseAdam([w], betas=(0.9, -0.1)),
    lambda lib, w: lib.optim.SparseAdam([w]).step(),
    lambda lib, w: repr(lib.optim.SparseAdam([w], lr=0.1, maximize=True)),
]


@parametrize_in_one("call", MUON_MISUSE)
def test_constructor_checks_and_step_errors_as_pytorch(call):
    results = []
    for lib in (minigrad, torch):
        w = lib.nn.Parameter(lib.ones(3, 2))
        w.grad = lib.ones(3, 2)
        results.append((outcome(lambda: call(lib, w)), w.detach().tolist()))  # noqa: B023
    assert results[0] == results[1]


def test_sparse_adam_steps_without_gradients_as_pytorch():
    for lib in (minigrad, torch):
        w = lib.nn.Parameter(lib.ones(2))
        opt = lib.optim.SparseAdam([w])
        assert opt.step(lambda: 3.0) == 3.0  # nothing to update: no error, no state
        assert len(opt.state) == 0
