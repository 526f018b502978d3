"""save/load round trips: what comes back equals what went in (here and in PyTorch).

The file format is minigrad's own (tests/test_serialization_safety.py checks it); these tests
use only the public behaviour, so they run against PyTorch's torch.save/torch.load as well.
"""

import math
from collections import OrderedDict

import pytest
from _backend import mg

nn, optim = mg.nn, mg.optim


def round_trip(obj, tmp_path):
    path = tmp_path / "checkpoint.pt"
    mg.save(obj, path)
    return mg.load(path)


def make_model():
    return nn.Sequential(nn.Conv2d(1, 2, 3), nn.BatchNorm2d(2), nn.Flatten(), nn.Linear(8, 3))


def test_tensors_keep_values_dtype_shape_and_requires_grad(tmp_path):
    values = {
        "f32": mg.tensor([[1.5, -2.0]], requires_grad=True),
        "f64": mg.tensor([1e-300, 2.0], dtype=mg.float64),
        "i64": mg.arange(6).reshape(2, 3),
        "bool": mg.tensor([True, False]),
        "scalar": mg.tensor(3.0),
        "view": mg.arange(12.0).reshape(3, 4).t()[1:],
    }
    back = round_trip(values, tmp_path)
    for key, tensor in values.items():
        assert back[key].dtype == tensor.dtype
        assert back[key].shape == tensor.shape
        assert back[key].tolist() == tensor.tolist()
        assert back[key].requires_grad == tensor.requires_grad
        assert back[key].is_leaf


def test_nested_containers_and_python_values(tmp_path):
    obj = {"list": [1, 2.5, "three", None, True], "tuple": (1, (2, 3)), 7: "int key",
           "inf": math.inf, "nested": OrderedDict(a={"b": mg.ones(1)})}
    back = round_trip(obj, tmp_path)
    assert back["list"] == [1, 2.5, "three", None, True]
    assert back["tuple"] == (1, (2, 3)) and back[7] == "int key" and back["inf"] == math.inf
    assert isinstance(back["nested"], OrderedDict)
    assert back["nested"]["a"]["b"].tolist() == [1.0]
    assert math.isnan(round_trip(float("nan"), tmp_path))


def test_parameters_come_back_as_parameters(tmp_path):
    back = round_trip({"p": nn.Parameter(mg.ones(2))}, tmp_path)
    assert isinstance(back["p"], nn.Parameter) and back["p"].requires_grad


def test_model_state_dict_round_trip(tmp_path):
    model = make_model()
    model(mg.randn(4, 1, 4, 4)).sum().backward()  # moves the BatchNorm statistics
    state = round_trip(model.state_dict(), tmp_path)
    assert list(state) == list(model.state_dict())
    other = make_model()
    assert repr(other.load_state_dict(state)) == "<All keys matched successfully>"
    for (name, mine), (_, theirs) in zip(model.state_dict().items(),
                                         other.state_dict().items()):
        assert mine.tolist() == theirs.tolist(), name
    assert other[1].num_batches_tracked.item() == 1
    x = mg.randn(2, 1, 4, 4)
    model.eval()
    other.eval()
    assert model(x).tolist() == other(x).tolist()


def test_optimizer_and_scheduler_round_trip_continue_identically(tmp_path):
    def train(model, opt, steps):
        for _ in range(steps):
            opt.zero_grad()
            model(mg.ones(2, 1, 4, 4)).pow(2).mean().backward()
            opt.step()

    model = make_model()
    opt = optim.Adam(model.parameters(), lr=0.01, amsgrad=True)
    scheduler = optim.lr_scheduler.MultiStepLR(opt, [1, 3])
    train(model, opt, 2)
    scheduler.step()
    checkpoint = round_trip(
        {"model": model.state_dict(), "opt": opt.state_dict(), "sched": scheduler.state_dict()},
        tmp_path,
    )
    resumed = make_model()
    resumed.load_state_dict(checkpoint["model"])
    resumed_opt = optim.Adam(resumed.parameters(), lr=0.5, amsgrad=True)
    resumed_scheduler = optim.lr_scheduler.MultiStepLR(resumed_opt, [10])
    resumed_opt.load_state_dict(checkpoint["opt"])
    resumed_scheduler.load_state_dict(checkpoint["sched"])
    assert resumed_scheduler.milestones == scheduler.milestones
    assert resumed_opt.param_groups[0]["lr"] == opt.param_groups[0]["lr"]
    train(model, opt, 2)
    train(resumed, resumed_opt, 2)
    for mine, theirs in zip(model.parameters(), resumed.parameters()):
        assert mine.detach().numpy().ravel().tolist() == pytest.approx(
            theirs.detach().numpy().ravel().tolist()
        )


def test_a_file_object_works_too(tmp_path):
    path = tmp_path / "buffer.bin"
    with open(path, "wb") as file:
        mg.save([mg.ones(2)], file)
    with open(path, "rb") as file:
        assert mg.load(file)[0].tolist() == [1.0, 1.0]


def test_a_missing_file_raises_file_not_found(tmp_path):
    with pytest.raises(FileNotFoundError):
        mg.load(tmp_path / "nothing.pt")
