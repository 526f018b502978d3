"""Optimizers and learning-rate schedulers: steps, versions, param groups, state, messages.

The trajectories and messages are PyTorch 2.13's (MINIGRAD_TEST_REFERENCE=torch runs this file
against PyTorch).
"""

import pytest
from _backend import mg, text
from _cases import parametrize_in_one

nn, optim = mg.nn, mg.optim
lr_scheduler = optim.lr_scheduler


def quadratic_loss(w):
    return (w * w * mg.tensor([1.0, 2.0, 0.5]) + w).sum()


# Three steps on quadratic_loss from w = [1, -2, 3]: (optimizer, options, w after each step,
# version of w after three steps), recorded from PyTorch.
TRAJECTORIES = [
    ("SGD", {"lr": 0.1}, [[0.7, -1.3, 2.6], [0.46, -0.88, 2.24], [0.268, -0.628, 1.916]], 3),
    ("SGD", {"lr": 0.1, "momentum": 0.9, "dampening": 0.1, "weight_decay": 0.1},
     [[0.69, -1.28, 2.57], [0.19059, -0.24968, 1.83857], [-0.3849, 0.67974, 0.90826]], 3),
    ("SGD", {"lr": 0.1, "momentum": 0.9, "nesterov": True, "maximize": True},
     [[1.57, -3.33, 3.76], [2.5996, -6.2378, 4.9884], [4.33149, -12.29675, 6.80336]], 3),
    ("Adam", {"lr": 0.1},
     [[0.9, -1.9, 2.9], [0.80024, -1.8002, 2.80007], [0.7009, -1.70074, 2.70027]], 3),
    ("Adam", {"lr": 0.1, "betas": (0.8, 0.9), "weight_decay": 0.1, "amsgrad": True},
     [[0.9, -1.9, 2.9], [0.80027, -1.80021, 2.80008], [0.70101, -1.7008, 2.70031]], 3),
    ("AdamW", {"lr": 0.1},
     [[0.899, -1.898, 2.897], [0.79834, -1.7963, 2.79418], [0.69822, -1.69506, 2.69159]], 6),
    ("AdamW", {"lr": 0.1, "weight_decay": 0.5, "amsgrad": True, "maximize": True},
     [[1.05, -2.0, 2.95], [1.09757, -2.0, 2.90247], [1.14288, -2.0, 2.85725]], 6),
    ("RMSprop", {"lr": 0.01},
     [[0.9, -1.9, 2.9], [0.83159, -1.83122, 2.83001], [0.77685, -1.77599, 2.77317]], 3),
    ("RMSprop", {"lr": 0.01, "alpha": 0.9, "momentum": 0.5, "centered": True,
                 "weight_decay": 0.1},
     [[0.96667, -1.96667, 2.96667], [0.92479, -1.92474, 2.92461], [0.88193, -1.88176, 2.8813]],
     3),
    ("Adagrad", {"lr": 0.1},
     [[0.9, -1.9, 2.9], [0.83177, -1.8314, 2.83019], [0.77732, -1.77646, 2.77364]], 3),
    ("Adagrad", {"lr": 0.1, "lr_decay": 0.1, "weight_decay": 0.1,
                 "initial_accumulator_value": 0.5},
     [[0.9025, -1.90048, 2.90133], [0.8413, -1.83826, 2.8383], [0.79621, -1.79241, 2.79136]], 3),
]


@parametrize_in_one(
    "name, options, expected, version", TRAJECTORIES,
    ids=[f"{name}-{i}" for i, (name, *_) in enumerate(TRAJECTORIES)],
)
def test_optimizer_steps(name, options, expected, version):
    w = nn.Parameter(mg.tensor([1.0, -2.0, 3.0]))
    opt = getattr(optim, name)([w], **options)
    for step in expected:
        opt.zero_grad()
        quadratic_loss(w).backward()
        opt.step()
        assert w.tolist() == pytest.approx(step, abs=1e-4)
    assert w._version == version  # in-place updates: one bump per step (two for AdamW)
    assert w.grad_fn is None and w.requires_grad


def test_a_step_between_forward_and_backward_raises():
    model = nn.Sequential(nn.Linear(3, 3), nn.Linear(3, 2))
    opt = optim.SGD(model.parameters(), lr=0.1)
    model(mg.ones(4, 3)).sum().backward()
    opt.step()
    loss = model(mg.ones(4, 3)).sum()  # the second layer saves its weight (as weight.t())
    opt.step()  # the classic mistake: a step (with last iteration's gradients) before backward
    with pytest.raises(RuntimeError) as excinfo:
        loss.backward()
    assert str(excinfo.value) == text(
        "one of the variables needed for gradient computation has been modified by an inplace "
        "operation: [minigrad.FloatTensor [3, 2]], which is output 0 of AsStrided, is at version "
        "3; expected version 2 instead. Hint: enable anomaly detection to find the "
        "operation that failed to compute its gradient, with "
        "minigrad.autograd.set_detect_anomaly(True, check_nan=False)."
    )


def test_parameters_without_gradient_are_skipped_and_keep_their_version():
    a, b = nn.Parameter(mg.ones(2)), nn.Parameter(mg.ones(2))
    opt = optim.Adam([a, b], lr=0.1)
    (a * 2).sum().backward()
    opt.step()
    assert a._version == 1 and b._version == 0 and b.tolist() == [1.0, 1.0]
    assert list(opt.state_dict()["state"]) == [0]


def test_closure_runs_with_grad_enabled_and_its_loss_is_returned():
    w = nn.Parameter(mg.tensor([2.0]))
    opt = optim.SGD([w], lr=0.25)

    def closure():
        opt.zero_grad()
        loss = (w * w).sum()
        loss.backward()
        return loss

    with mg.no_grad():
        loss = opt.step(closure)
    assert loss.item() == 4.0 and w.item() == 1.0


def test_param_groups_override_the_defaults():
    model = nn.Sequential(nn.Linear(2, 2), nn.Linear(2, 1))
    opt = optim.SGD(
        [{"params": model[0].parameters()}, {"params": model[1].parameters(), "lr": 1.0}],
        lr=0.1, momentum=0.9,
    )
    assert [g["lr"] for g in opt.param_groups] == [0.1, 1.0]
    assert [g["momentum"] for g in opt.param_groups] == [0.9, 0.9]
    opt.add_param_group({"params": nn.Parameter(mg.ones(1)), "momentum": 0.0})
    assert len(opt.param_groups) == 3 and opt.param_groups[2]["lr"] == 0.1
    assert repr(optim.SGD(model.parameters(), lr=0.5)) == (
        "SGD (\nParameter Group 0\n    dampening: 0\n    differentiable: False\n"
        "    foreach: None\n    fused: None\n    lr: 0.5\n    maximize: False\n    momentum: 0\n"
        "    nesterov: False\n    weight_decay: 0\n)"
    )


def test_named_parameters_are_accepted():
    model = nn.Linear(2, 1)
    opt = optim.Adam(model.named_parameters())
    assert opt.param_groups[0]["param_names"] == ["weight", "bias"]
    assert opt.param_groups[0]["params"][0] is model.weight


@parametrize_in_one(
    "make, error, message",
    [
        (lambda: optim.SGD(nn.Parameter(mg.ones(1)), lr=0.1), TypeError,
         "params argument given to the optimizer should be an iterable of Tensors or dicts, but "
         "got minigrad.FloatTensor"),
        (lambda: optim.SGD([], lr=0.1), ValueError, "optimizer got an empty parameter list"),
        (lambda: optim.SGD([nn.Parameter(mg.ones(1))], lr=-1.0), ValueError,
         "Invalid learning rate: -1.0"),
        (lambda: optim.SGD([nn.Parameter(mg.ones(1))], lr=0.1, nesterov=True), ValueError,
         "Nesterov momentum requires a momentum and zero dampening"),
        (lambda: optim.Adam([nn.Parameter(mg.ones(1))], betas=(1.0, 0.9)), ValueError,
         "Invalid beta parameter at index 0: 1.0"),
        (lambda: optim.Adamax([nn.Parameter(mg.ones(1))], betas=(0.9, -0.1)), ValueError,
         "Invalid beta parameter at index 1: -0.1"),
        (lambda: optim.NAdam([nn.Parameter(mg.ones(1))], momentum_decay=-1.0), ValueError,
         "Invalid momentum_decay value: -1.0"),
        (lambda: optim.RAdam([nn.Parameter(mg.ones(1))], eps=-1.0), ValueError,
         "Invalid epsilon value: -1.0"),
        (lambda: optim.Adadelta([nn.Parameter(mg.ones(1))], rho=1.5), ValueError,
         "Invalid rho value: 1.5"),
        (lambda: optim.Rprop([nn.Parameter(mg.ones(1))], etas=(0.5, 0.9)), ValueError,
         "Invalid eta values: 0.5, 0.9"),
        (lambda: optim.SGD([mg.ones(1, requires_grad=True) * 2], lr=0.1), ValueError,
         "can't optimize a non-leaf Tensor"),
        (lambda: optim.SGD([[1.0]], lr=0.1), TypeError,
         "optimizer can only optimize Tensors, but one of the params is list"),
        (lambda: optim.SGD([{"params": {nn.Parameter(mg.ones(1))}}], lr=0.1), TypeError,
         "optimizer parameters need to be organized in ordered collections, but the ordering of "
         "tensors in sets will change between runs. Please use a list instead."),
    ],
)
def test_constructor_errors(make, error, message):
    with pytest.raises(error) as excinfo:
        make()
    assert str(excinfo.value) == text(message)


def test_overlapping_groups_and_duplicates():
    p = nn.Parameter(mg.ones(1))
    opt = optim.SGD([p], lr=0.1)
    with pytest.raises(ValueError) as excinfo:
        opt.add_param_group({"params": [p]})
    assert str(excinfo.value) == "some parameters appear in more than one parameter group"
    with pytest.warns(UserWarning, match="optimizer contains a parameter group with duplicate"):
        optim.SGD([p, p], lr=0.1)


def test_zero_grad():
    w = nn.Parameter(mg.ones(2))
    opt = optim.SGD([w], lr=0.1)
    (w * 3).sum().backward()
    grad = w.grad
    opt.zero_grad(set_to_none=False)
    assert w.grad is grad and grad.tolist() == [0.0, 0.0]
    opt.zero_grad()
    assert w.grad is None


def test_state_dict_layout_and_round_trip():
    model = nn.Linear(2, 1)
    opt = optim.Adam(model.parameters(), lr=0.01)
    model(mg.ones(3, 2)).sum().backward()
    opt.step()
    state = opt.state_dict()
    assert list(state) == ["state", "param_groups"]
    assert list(state["state"]) == [0, 1]
    assert list(state["state"][0]) == ["step", "exp_avg", "exp_avg_sq"]
    assert state["state"][0]["step"].item() == 1.0
    assert state["state"][0]["step"].dtype == mg.float32
    assert state["param_groups"][0]["params"] == [0, 1]
    assert state["param_groups"][0]["betas"] == (0.9, 0.999)

    other_model = nn.Linear(2, 1)
    other = optim.Adam(other_model.parameters(), lr=0.5)
    other.load_state_dict(state)
    assert other.param_groups[0]["lr"] == 0.01
    assert other.param_groups[0]["params"][0] is other_model.weight
    assert other.state[other_model.weight]["exp_avg"].tolist() == (
        opt.state[model.weight]["exp_avg"].tolist()
    )


def test_load_state_dict_checks_the_group_structure():
    opt = optim.SGD([nn.Parameter(mg.ones(1))], lr=0.1)
    two = optim.SGD([nn.Parameter(mg.ones(1)), nn.Parameter(mg.ones(1))], lr=0.1)
    with pytest.raises(ValueError) as excinfo:
        opt.load_state_dict(two.state_dict())
    assert str(excinfo.value) == (
        "loaded state dict contains a parameter group that doesn't match the size of "
        "optimizer's group"
    )
    state = two.state_dict()
    state["param_groups"].append(dict(state["param_groups"][0]))
    with pytest.raises(ValueError) as excinfo:
        two.load_state_dict(state)
    assert str(excinfo.value) == "loaded state dict has a different number of parameter groups"


def test_step_hooks():
    w = nn.Parameter(mg.ones(1))
    opt = optim.SGD([w], lr=0.1)
    calls = []
    handle = opt.register_step_pre_hook(lambda o, args, kwargs: calls.append("pre"))
    opt.register_step_post_hook(lambda o, args, kwargs: calls.append("post"))
    opt.step()
    handle.remove()
    opt.step()
    assert calls == ["pre", "post", "post"]


# --- learning-rate schedulers -------------------------------------------------------------------


def schedule(make, steps=8, opt_name="SGD", **opt_options):
    w = nn.Parameter(mg.ones(1))
    opt = getattr(optim, opt_name)([w], lr=0.1, **opt_options)
    scheduler = make(opt)
    lrs = []
    for _ in range(steps):
        opt.step()
        scheduler.step()
        lrs.append(round(scheduler.get_last_lr()[0], 6))
    return lrs, opt


@pytest.mark.parametrize(
    "make, expected",
    [
        (lambda o: lr_scheduler.StepLR(o, 3, 0.5),
         [0.1, 0.1, 0.05, 0.05, 0.05, 0.025, 0.025, 0.025]),
        (lambda o: lr_scheduler.MultiStepLR(o, [2, 5, 5], 0.1),
         [0.1, 0.01, 0.01, 0.01, 0.0001, 0.0001, 0.0001, 0.0001]),
        (lambda o: lr_scheduler.ExponentialLR(o, 0.5),
         [0.05, 0.025, 0.0125, 0.00625, 0.003125, 0.001563, 0.000781, 0.000391]),
        (lambda o: lr_scheduler.CosineAnnealingLR(o, 4, eta_min=0.02),
         [0.088284, 0.06, 0.031716, 0.02, 0.031716, 0.06, 0.088284, 0.1]),
        (lambda o: lr_scheduler.LambdaLR(o, lambda epoch: 1 / (epoch + 1)),
         [0.05, 0.033333, 0.025, 0.02, 0.016667, 0.014286, 0.0125, 0.011111]),
        (lambda o: lr_scheduler.OneCycleLR(o, max_lr=1.0, total_steps=9),
         [0.651358, 0.994415, 0.898567, 0.705645, 0.462637, 0.22873, 0.060893, 4e-06]),
    ],
)
def test_schedules(make, expected):
    assert schedule(make)[0] == expected


def test_one_cycle_cycles_the_momentum_and_adams_beta1():
    _, opt = schedule(lambda o: lr_scheduler.OneCycleLR(o, max_lr=1.0, total_steps=9), steps=1,
                      momentum=0.9)
    assert opt.param_groups[0]["momentum"] == pytest.approx(0.886317)
    assert opt.param_groups[0]["max_momentum"] == 0.95
    _, adam = schedule(lambda o: lr_scheduler.OneCycleLR(o, max_lr=1.0, total_steps=9),
                       steps=1, opt_name="Adam")
    assert adam.param_groups[0]["betas"] == (pytest.approx(0.886317), 0.999)
    with pytest.raises(ValueError) as excinfo:
        schedule(lambda o: lr_scheduler.OneCycleLR(o, max_lr=1.0, total_steps=3), steps=4)
    assert str(excinfo.value) == "Tried to step 4 times. The specified number of total steps is 3"


def test_reduce_on_plateau():
    w = nn.Parameter(mg.ones(1))
    opt = optim.SGD([w], lr=1.0)
    scheduler = lr_scheduler.ReduceLROnPlateau(opt, factor=0.5, patience=1, cooldown=1,
                                               min_lr=0.2)
    lrs = []
    for metric in [1.0, 0.9, 0.9, 0.9, 0.9, 0.9, 0.9, 0.9, 0.9, 0.5]:
        scheduler.step(metric)
        lrs.append(scheduler.get_last_lr()[0])
    assert lrs == [1.0, 1.0, 1.0, 0.5, 0.5, 0.5, 0.25, 0.25, 0.25, 0.25]
    assert scheduler.best == 0.5 and scheduler.num_bad_epochs == 0


def test_scheduler_state_dict_round_trip():
    _, opt = schedule(lambda o: lr_scheduler.StepLR(o, 2), steps=0)
    first = lr_scheduler.StepLR(opt, 2, gamma=0.5)
    for _ in range(3):
        opt.step()
        first.step()
    second = lr_scheduler.StepLR(opt, 7)
    second.load_state_dict(first.state_dict())
    assert second.step_size == 2 and second.last_epoch == 3
    assert "optimizer" not in first.state_dict()


def test_stepping_the_scheduler_before_the_optimizer_warns():
    w = nn.Parameter(mg.ones(1))
    opt = optim.SGD([w], lr=0.1)
    scheduler = lr_scheduler.StepLR(opt, 1)
    with pytest.warns(UserWarning) as record:
        scheduler.step()
    assert str(record[0].message).startswith(
        "Detected call of `lr_scheduler.step()` before `optimizer.step()`."
    )
    with pytest.warns(UserWarning, match="To get the last learning rate computed by the scheduler"):
        scheduler.get_lr()
