# ruff: noqa: B023 - the lambdas are called at once, inside the loop that binds them
"""Lazy modules, nn.Buffer, skip_init, the norm helpers of gradient clipping, BatchNorm fusion
and the nn.init additions, side by side with PyTorch: reprs and classes before and after the
first call, state_dict keys, loading PyTorch's materialized state, outputs and errors.
"""

import warnings

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


def rand(*shape, seed=0):
    return np.random.default_rng(seed).standard_normal(shape).astype(np.float32)


def close(mine, theirs, what, atol=1e-5):
    np.testing.assert_allclose(
        mine.detach().numpy(), theirs.detach().numpy(), rtol=1e-4, atol=atol, err_msg=what
    )


def mine_state(module):
    return {k: minigrad.tensor(v.detach().numpy()) for k, v in module.state_dict().items()}


LAZY_CASES = [
    ("LazyLinear", (3,), {}, (2, 5)),
    ("LazyLinear", (3,), {"bias": False}, (4,)),
    ("LazyConv1d", (4, 3), {"padding": 1}, (2, 2, 6)),
    ("LazyConv2d", (4, 3), {"stride": 2, "groups": 2}, (1, 2, 7, 7)),
    ("LazyConv2d", (2, 3), {}, (3, 5, 5)),  # unbatched
    ("LazyConvTranspose1d", (4, 3), {"stride": 2}, (2, 2, 5)),
    ("LazyConvTranspose2d", (2, 2), {"output_padding": 1, "stride": 2}, (1, 3, 4, 4)),
    ("LazyBatchNorm1d", (), {}, (4, 3)),
    ("LazyBatchNorm2d", (), {"affine": False}, (2, 3, 4, 4)),
    ("LazyInstanceNorm1d", (), {}, (2, 3, 5)),
    ("LazyInstanceNorm2d", (), {"track_running_stats": False}, (2, 3, 4, 4)),
    ("LazyConv3d", (2, 2), {"padding": 1}, (1, 3, 2, 3, 3)),
    ("LazyConvTranspose3d", (2, 2), {"stride": 2}, (1, 2, 2, 2, 3)),
    ("LazyBatchNorm3d", (), {}, (2, 3, 2, 2, 2)),
    ("LazyInstanceNorm3d", (), {}, (2, 3, 2, 2, 3)),
]


@parametrize_in_one(("name", "args", "kwargs", "shape"), LAZY_CASES)
def test_lazy_modules_materialize_as_pytorch(name, args, kwargs, shape):
    torch.manual_seed(0)
    theirs = getattr(torch.nn, name)(*args, **kwargs)
    mine = getattr(minigrad.nn, name)(*args, **kwargs)
    assert repr(mine) == repr(theirs)
    assert list(mine.state_dict()) == list(theirs.state_dict())
    assert [repr(v) for v in mine.state_dict().values()] == [
        repr(v) for v in theirs.state_dict().values()
    ]
    x = rand(*shape)
    theirs(torch.tensor(x))
    mine(minigrad.tensor(x))
    assert type(mine).__name__ == type(theirs).__name__
    assert repr(mine) == repr(theirs)
    assert [(k, tuple(v.shape)) for k, v in mine.state_dict().items()] == [
        (k, tuple(v.shape)) for k, v in theirs.state_dict().items()
    ]
    # PyTorch's initial values loaded: then the layers agree on a fresh input
    mine.load_state_dict(mine_state(theirs))
    x = rand(*shape, seed=1)
    close(mine(minigrad.tensor(x)), theirs(torch.tensor(x)), name)


@pytest.mark.parametrize(("name", "args", "kwargs", "shape"), LAZY_CASES[:4])
def test_a_lazy_module_loads_a_state_dict_before_its_first_call(name, args, kwargs, shape):
    torch.manual_seed(0)
    source = getattr(torch.nn, name)(*args, **kwargs)
    source(torch.tensor(rand(*shape)))
    theirs = getattr(torch.nn, name)(*args, **kwargs)
    mine = getattr(minigrad.nn, name)(*args, **kwargs)
    theirs.load_state_dict(source.state_dict())
    mine.load_state_dict(mine_state(source))
    assert repr(mine) == repr(theirs)
    x = rand(*shape, seed=2)
    close(mine(minigrad.tensor(x)), theirs(torch.tensor(x)), name)
    assert repr(mine) == repr(theirs)


def test_uninitialized_parameters_and_lazy_errors_match_pytorch():
    seen = []
    for lib in (minigrad, torch):
        p = lib.nn.UninitializedParameter()
        b = lib.nn.UninitializedBuffer()
        results = [
            repr(p),
            repr(b),
            p.requires_grad,
            b.requires_grad,
            str(p.dtype).split(".")[1],
            outcome(lambda: p.shape),
            outcome(lambda: (p * 2, None))[0],  # the type (the texts name the op differently)
            outcome(lambda: lib.nn.LazyConv2d(4, 3)(lib.ones(2, 5))),
            outcome(lambda: lib.nn.LazyConv2d(4, 3, groups=2)(lib.ones(1, 3, 5, 5))),
        ]
        p.materialize((2, 3))
        results += [type(p).__name__, tuple(p.shape), p.requires_grad]
        b.materialize(4)
        results += [type(b).__name__, tuple(b.shape), b.requires_grad]
        seen.append(results)
    assert seen[0] == seen[1]
    with pytest.raises(ValueError, match="Attempted to use an uninitialized parameter in"):
        minigrad.nn.UninitializedParameter() * 2


def test_buffers_and_skip_init_match_pytorch():
    seen = []
    for lib in (minigrad, torch):
        module = lib.nn.Module()
        module.kept = lib.nn.Buffer(lib.ones(2))
        module.dropped = lib.nn.Buffer(lib.zeros(3), persistent=False)
        layer = lib.nn.utils.skip_init(lib.nn.Linear, 4, 2, bias=False)
        seen.append(
            [
                list(module.state_dict()),
                [name for name, _ in module.named_buffers()],
                type(module.kept).__name__,
                repr(layer),
                tuple(layer.weight.shape),
                outcome(lambda: lib.nn.utils.skip_init(lib.nn.ReLU)),
            ]
        )
    assert seen[0] == seen[1]


def test_total_norm_and_clipping_with_it_match_pytorch():
    results = []
    messages = []
    for lib in (minigrad, torch):
        params = [lib.nn.Parameter(lib.tensor(rand(3, seed=s))) for s in range(3)]
        for i, p in enumerate(params):
            p.grad = lib.tensor(rand(3, seed=10 + i))
        total = lib.nn.utils.get_total_norm([p.grad for p in params], norm_type=3)
        lib.nn.utils.clip_grads_with_norm_(params, 0.5, total)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            again = lib.nn.utils.clip_grad_norm(params, 0.1)
        messages.append([(w.category, str(w.message).replace("torch", "minigrad")) for w in caught])
        results.append((total, again, [p.grad for p in params]))
    assert messages[0] == messages[1]
    close(results[0][0], results[1][0], "total norm")
    close(results[0][1], results[1][1], "norm of clip_grad_norm")
    for a, b in zip(results[0][2], results[1][2], strict=True):
        close(a, b, "clipped gradient")


@pytest.mark.parametrize(
    ("make", "shape", "transpose"),
    [
        (lambda lib: (lib.nn.Conv2d(2, 3, 3), lib.nn.BatchNorm2d(3)), (1, 2, 5, 5), False),
        (
            lambda lib: (lib.nn.Conv1d(2, 3, 2, bias=False), lib.nn.BatchNorm1d(3, affine=False)),
            (2, 2, 4),
            False,
        ),
        (lambda lib: (lib.nn.ConvTranspose2d(2, 3, 2), lib.nn.BatchNorm2d(3)), (1, 2, 3, 3), True),
        (lambda lib: (lib.nn.Linear(3, 4), lib.nn.BatchNorm1d(4)), (5, 3), None),
    ],
)
def test_batch_norm_fusion_matches_pytorch(make, shape, transpose):
    torch.manual_seed(0)
    theirs = make(torch)
    mine = make(minigrad)
    with torch.no_grad():  # statistics worth folding
        theirs[1].running_mean.normal_()
        theirs[1].running_var.uniform_(0.5, 2.0)
    for m, t in zip(mine, theirs, strict=True):
        m.load_state_dict(mine_state(t))
        m.eval()
        t.eval()
    fused = []
    for lib, (layer, bn) in ((minigrad, mine), (torch, theirs)):
        if transpose is None:
            fused.append(lib.nn.utils.fuse_linear_bn_eval(layer, bn))
        else:
            fused.append(lib.nn.utils.fuse_conv_bn_eval(layer, bn, transpose=transpose))
    x = rand(*shape, seed=3)
    close(fused[0](minigrad.tensor(x)), fused[1](torch.tensor(x)), "fused output")
    close(fused[0].weight, fused[1].weight, "fused weight")
    assert fused[0].weight.requires_grad == fused[1].weight.requires_grad
    seen = [
        outcome(
            lambda: lib.nn.utils.fuse_linear_bn_eval(lib.nn.Linear(2, 2), lib.nn.BatchNorm1d(2))
        )
        for lib in (minigrad, torch)
    ]
    assert seen[0] == seen[1]


def test_dirac_sparse_and_the_deprecated_init_names_match_pytorch():
    seen = []
    for lib in (minigrad, torch):
        init = lib.nn.init
        results = [
            init.dirac_(lib.empty(4, 2, 3)).numpy().tolist(),
            init.dirac_(lib.empty(6, 2, 3, 3), groups=3).numpy().tolist(),
            init.dirac_(lib.empty(2, 3, 1, 2, 3)).numpy().tolist(),
            outcome(lambda: init.dirac_(lib.empty(2, 2))),
            outcome(lambda: init.dirac_(lib.empty(3, 2, 2), groups=2)),
            (init.sparse_(lib.empty(5, 4), 0.3) == 0).sum(0).tolist(),
            outcome(lambda: init.sparse_(lib.empty(5), 0.3)),
        ]
        for name in (
            "uniform",
            "normal",
            "constant",
            "eye",
            "dirac",
            "xavier_uniform",
            "xavier_normal",
            "kaiming_uniform",
            "kaiming_normal",
            "orthogonal",
            "sparse",
        ):
            args = {"constant": (0.5,), "sparse": (0.5,)}.get(name, ())
            shape = (2, 2, 3) if name == "dirac" else (3, 3)
            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always")
                getattr(init, name)(lib.empty(*shape), *args)
            results.append([(w.category, str(w.message)) for w in caught])
        seen.append(results)
    assert seen[0] == seen[1]


def test_a_lazy_module_converted_before_its_first_call_matches_pytorch():
    seen = []
    for lib in (minigrad, torch):
        layer = lib.nn.LazyLinear(3).double()
        norm = lib.nn.LazyBatchNorm1d().to(lib.float64)
        before = [str(layer.weight.dtype).split(".")[1], layer.weight.is_floating_point()]
        layer(lib.ones(2, 4, dtype=lib.float64))
        norm(lib.ones(3, 2, dtype=lib.float64))
        seen.append(
            before
            + [
                str(t.dtype).split(".")[1]
                for t in (
                    layer.weight,
                    layer.bias,
                    norm.weight,
                    norm.running_var,
                    norm.num_batches_tracked,
                )
            ]
        )
    assert seen[0] == seen[1]
