"""ASGD, Adafactor, LBFGS and optim.swa_utils side by side with PyTorch: trajectories from the
same start (losses, parameters, versions, state dicts), averaged models, SWALR's rates and
update_bn's statistics."""

import numpy as np
import pytest

import minigrad

torch = pytest.importorskip("torch")
torch.set_num_threads(1)


def make_model(lib):
    return lib.nn.Sequential(lib.nn.Linear(5, 16), lib.nn.Tanh(), lib.nn.Linear(16, 3))


def start(lib, seed=0, dtype="float32"):
    """The model at a fixed start, and the data."""
    rng = np.random.default_rng(seed)
    x = lib.tensor(rng.standard_normal((32, 5)).astype(dtype))
    y = lib.tensor(rng.integers(0, 3, 32))
    model = make_model(lib).to(getattr(lib, dtype))
    with lib.no_grad():
        for param in model.parameters():
            param.copy_(lib.tensor(rng.standard_normal(tuple(param.shape)).astype(dtype) * 0.3))
    return model, x, y


def train(lib, name, options, steps, dtype="float32"):
    model, x, y = start(lib, dtype=dtype)
    opt = getattr(lib.optim, name)(model.parameters(), **options)
    losses = []
    for _ in range(steps):
        opt.zero_grad()
        loss = lib.nn.functional.cross_entropy(model(x), y)
        loss.backward()
        opt.step()
        losses.append(loss.item())
    return losses, model, opt


def compare_states(mine_opt, their_opt):
    mine_state, their_state = mine_opt.state_dict(), their_opt.state_dict()
    assert mine_state["param_groups"] == their_state["param_groups"]
    assert list(mine_state["state"]) == list(their_state["state"])
    for index, state in their_state["state"].items():
        assert list(mine_state["state"][index]) == list(state)
        for key, value in state.items():
            mine_value = mine_state["state"][index][key]
            if isinstance(value, torch.Tensor):
                assert str(mine_value.dtype).split(".")[1] == str(value.dtype).split(".")[1]
                np.testing.assert_allclose(
                    mine_value.numpy(), value.numpy(), rtol=1e-3, atol=1e-5, err_msg=key
                )
            elif not isinstance(value, list):
                assert mine_value == pytest.approx(value, rel=1e-3), key


CASES = [
    ("ASGD", {"lr": 0.05}),
    ("ASGD", {"lr": 0.05, "lambd": 1e-2, "alpha": 0.5, "t0": 20, "weight_decay": 1e-2}),
    ("ASGD", {"lr": 0.05, "t0": 5, "maximize": True}),
    ("Adafactor", {}),
    (
        "Adafactor",
        {"lr": 0.05, "beta2_decay": -0.5, "eps": (1e-6, 1e-2), "d": 2.0, "weight_decay": 1e-2},
    ),
    ("Adafactor", {"maximize": True}),
]


# Trajectories amplify rounding: Adafactor with d=2.0 turns PyTorch's float32 kernels' own
# differences between CPUs (AVX2 against AVX-512) into 7.5e-4 of the loss after 90 steps, so
# the long runs are float64 (the two agree to ~4e-13 there: the formulas are the same) and the
# float32 runs (float32 state, PyTorch's casts) are kept to 20 steps (<= 2e-7 apart).
TRAJECTORIES = {"float64": (100, 1e-9, 1e-12), "float32": (20, 1e-4, 1e-5)}


@pytest.mark.parametrize("dtype", list(TRAJECTORIES))
@pytest.mark.parametrize(
    ("name", "options"), CASES, ids=[f"{n}-{i}" for i, (n, _) in enumerate(CASES)]
)
def test_trajectories_match_pytorch(name, options, dtype):
    steps, rtol, atol = TRAJECTORIES[dtype]
    mine_losses, mine_model, mine_opt = train(minigrad, name, options, steps, dtype)
    their_losses, their_model, their_opt = train(torch, name, options, steps, dtype)
    np.testing.assert_allclose(mine_losses, their_losses, rtol=rtol, atol=atol)
    for mine, theirs in zip(mine_model.parameters(), their_model.parameters(), strict=True):
        np.testing.assert_allclose(
            mine.detach().numpy(), theirs.detach().numpy(), rtol=10 * rtol, atol=10 * atol
        )
        assert mine._version == theirs._version
    compare_states(mine_opt, their_opt)
    assert repr(mine_opt) == repr(their_opt)


# (L-BFGS amplifies float32 rounding: the parameters agree to 3e-8 after one iteration and
# 1.5e-5 after twenty here, so the runs are kept to 20 iterations.)
@pytest.mark.parametrize(
    "options",
    [
        {"max_iter": 10},
        {"history_size": 3, "max_iter": 5, "lr": 0.5},
        {"line_search_fn": "strong_wolfe", "max_iter": 10},
        {"line_search_fn": "strong_wolfe", "history_size": 4, "max_iter": 8, "max_eval": 12},
    ],
)
def test_lbfgs_matches_pytorch(options):
    results = []
    for lib in (minigrad, torch):
        model, x, y = start(lib)
        opt = lib.optim.LBFGS(model.parameters(), **options)
        calls = []

        target = lib.nn.functional.one_hot(y, 3).float()  # a regression: a stable minimum

        def closure(lib=lib, model=model, x=x, target=target, opt=opt, calls=calls):
            opt.zero_grad()
            loss = lib.nn.functional.mse_loss(model(x), target)
            loss.backward()
            calls.append(loss.item())
            return loss

        losses = [opt.step(closure).item() for _ in range(2)]
        state = opt.state[next(iter(model.parameters()))]
        results.append(
            (
                losses,
                calls,
                [p.detach().numpy() for p in model.parameters()],
                state["func_evals"],
                state["n_iter"],
                repr(opt),
            )
        )
    mine, theirs = results
    np.testing.assert_allclose(mine[0], theirs[0], rtol=1e-3, atol=1e-4)
    assert len(mine[1]) == len(theirs[1])  # the same number of closure evaluations
    np.testing.assert_allclose(mine[1], theirs[1], rtol=1e-3, atol=1e-4)
    for a, b in zip(mine[2], theirs[2], strict=True):
        np.testing.assert_allclose(a, b, rtol=1e-3, atol=1e-4)
    assert mine[3:] == theirs[3:]


def test_optimizer_errors_match_pytorch():
    def outcome(call):
        try:
            call()
        except Exception as exc:  # noqa: BLE001 - the exception is the outcome compared
            return type(exc).__name__, str(exc)
        return None

    seen = []
    for lib in (minigrad, torch):
        params = [lib.nn.Parameter(lib.zeros(2))]
        seen.append(
            [
                outcome(lambda lib=lib, p=params: lib.optim.ASGD(p, lr=-1)),
                outcome(lambda lib=lib, p=params: lib.optim.ASGD(p, weight_decay=-1)),
                outcome(lambda lib=lib, p=params: lib.optim.Adafactor(p, lr=-1)),
                outcome(lambda lib=lib, p=params: lib.optim.Adafactor(p, beta2_decay=0.5)),
                outcome(lambda lib=lib, p=params: lib.optim.Adafactor(p, eps=(-1, 1e-3))),
                outcome(lambda lib=lib, p=params: lib.optim.Adafactor(p, d=0.5)),
                outcome(lambda lib=lib, p=params: lib.optim.LBFGS(p, lr=-1)),
                outcome(
                    lambda lib=lib, p=params: lib.optim.LBFGS(
                        [{"params": p}, {"params": [lib.nn.Parameter(lib.zeros(1))]}]
                    )
                ),
            ]
        )
    assert seen[0] == seen[1]


# ------------------------------------------------------------------------------------------
# swa_utils
# ------------------------------------------------------------------------------------------


def bn_model(lib):
    return lib.nn.Sequential(lib.nn.Linear(5, 4), lib.nn.BatchNorm1d(4), lib.nn.Linear(4, 3))


@pytest.mark.parametrize("kind", ["swa", "ema_multi", "ema", "buffers"])
def test_averaged_models_match_pytorch(kind):
    results = []
    for lib in (minigrad, torch):
        rng = np.random.default_rng(0)
        model = bn_model(lib)
        with lib.no_grad():
            for p in model.parameters():
                p.copy_(lib.tensor(rng.standard_normal(tuple(p.shape)).astype(np.float32)))
        swa_utils = lib.optim.swa_utils
        options = {
            "swa": {},
            "ema_multi": {"multi_avg_fn": swa_utils.get_ema_multi_avg_fn(0.9)},
            "ema": {"avg_fn": swa_utils.get_ema_avg_fn(0.8)},
            "buffers": {"use_buffers": True},
        }[kind]
        averaged = swa_utils.AveragedModel(model, **options)
        opt = lib.optim.SGD(model.parameters(), lr=0.1)
        x = lib.tensor(rng.standard_normal((8, 5)).astype(np.float32))
        for _ in range(5):
            opt.zero_grad()
            model(x).pow(2).mean().backward()
            opt.step()
            averaged.update_parameters(model)
        out = averaged(x)
        results.append(
            (
                out,
                list(averaged.state_dict()),
                [t.detach() for t in averaged.state_dict().values()],
                repr(averaged),
            )
        )
    mine, theirs = results
    np.testing.assert_allclose(
        mine[0].detach().numpy(), theirs[0].detach().numpy(), rtol=1e-4, atol=1e-5
    )
    assert mine[1] == theirs[1] and mine[3] == theirs[3]
    for a, b in zip(mine[2], theirs[2], strict=True):
        np.testing.assert_allclose(a.numpy(), b.numpy(), rtol=1e-4, atol=1e-5)


def test_update_bn_matches_pytorch():
    results = []
    for lib in (minigrad, torch):
        rng = np.random.default_rng(1)
        model = bn_model(lib)
        with lib.no_grad():
            for p in model.parameters():
                p.copy_(lib.tensor(rng.standard_normal(tuple(p.shape)).astype(np.float32)))
        model.eval()
        loader = [(lib.tensor(rng.standard_normal((6, 5)).astype(np.float32)), 0) for _ in range(3)]
        lib.optim.swa_utils.update_bn(loader, model)
        results.append(
            (
                model[1].running_mean,
                model[1].running_var,
                model[1].num_batches_tracked,
                model[1].momentum,
                model.training,
            )
        )
    mine, theirs = results
    for a, b in zip(mine[:3], theirs[:3], strict=True):
        np.testing.assert_allclose(a.numpy(), b.numpy(), rtol=1e-4, atol=1e-5)
    assert mine[3:] == theirs[3:]


@pytest.mark.parametrize(
    "options",
    [
        {"swa_lr": 0.05},
        {"swa_lr": [0.01, 0.2], "anneal_epochs": 3, "anneal_strategy": "linear"},
        {"swa_lr": 0.3, "anneal_epochs": 0},
    ],
)
def test_swalr_matches_pytorch(options):
    histories = []
    for lib in (minigrad, torch):
        opt = lib.optim.SGD(
            [
                {"params": [lib.nn.Parameter(lib.zeros(1))]},
                {"params": [lib.nn.Parameter(lib.zeros(1))], "lr": 0.5},
            ],
            lr=1.0,
        )
        schedule = lib.optim.swa_utils.SWALR(opt, **options)
        rates = []
        for _ in range(15):
            opt.step()
            schedule.step()
            rates.append(schedule.get_last_lr())
        state = schedule.state_dict()
        histories.append((rates, sorted(state)))
    np.testing.assert_allclose(histories[0][0], histories[1][0], rtol=1e-12)
    assert histories[0][1] == histories[1][1]


def test_swa_errors_match_pytorch():
    def outcome(call):
        try:
            call()
        except Exception as exc:  # noqa: BLE001 - the exception is the outcome compared
            return type(exc).__name__, str(exc)
        return None

    seen = []
    for lib in (minigrad, torch):
        swa = lib.optim.swa_utils
        opt = lib.optim.SGD([lib.nn.Parameter(lib.zeros(1))], lr=1.0)
        seen.append(
            [
                outcome(lambda swa=swa: swa.get_ema_multi_avg_fn(1.5)),
                outcome(lambda swa=swa: swa.get_ema_avg_fn(-0.1)),
                outcome(lambda swa=swa, opt=opt: swa.SWALR(opt, 0.1, anneal_strategy="exp")),
                outcome(lambda swa=swa, opt=opt: swa.SWALR(opt, 0.1, anneal_epochs=-1)),
                outcome(lambda swa=swa, opt=opt: swa.SWALR(opt, [0.1, 0.2])),
                outcome(
                    lambda swa=swa, lib=lib: swa.AveragedModel(
                        lib.nn.Linear(1, 1),
                        avg_fn=swa.get_swa_avg_fn(),
                        multi_avg_fn=swa.get_swa_multi_avg_fn(),
                    )
                ),
            ]
        )
    assert seen[0] == seen[1]
