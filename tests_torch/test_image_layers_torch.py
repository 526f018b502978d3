"""The image-shaped layers against PyTorch 2.13: padding modes, resampling, im2col.

The op table (tests/opinfo/image.py) checks values, gradients, saved tensors and bad inputs of
each function on a few samples. Here: the modules (repr, output, gradient), the nodes a call
records, and sweeps of options where PyTorch's index rules have corners (negative pads, odd
sizes, fractional scale factors).
"""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
import pytest
from _cases import parametrize_in_one

import minigrad

torch = pytest.importorskip("torch")


def outcome(call: Any, lib: Any) -> Any:
    """``call(lib)``, or the exception it raised (type and text, ``torch`` -> ``minigrad``)."""
    try:
        return call(lib)
    except Exception as error:  # noqa: BLE001 - compared with PyTorch's
        return type(error).__name__, str(error).replace("torch", "minigrad")


def run_both(call: Any, arrays: list[np.ndarray], seed: int = 0) -> list[Any]:
    """``call(lib, *tensors)`` in both libraries, then backward with one random gradient.

    Returns, per library, the result's values, node name and version and the inputs'
    gradients, or the error raised.
    """
    rng = np.random.default_rng(seed)
    grad = None
    results = []
    for lib in (torch, minigrad):
        tensors = [lib.tensor(a, requires_grad=a.dtype.kind == "f") for a in arrays]
        result = outcome(lambda lib: call(lib, *tensors), lib)  # noqa: B023 - called at once
        if isinstance(result, tuple):
            results.append(result)
            continue
        if grad is None:
            grad = rng.standard_normal(tuple(result.shape))
        if result.requires_grad and result.numel():
            result.backward(lib.tensor(grad, dtype=result.dtype))
        results.append(
            (
                result.detach().numpy(),
                result.grad_fn.name() if result.grad_fn is not None else None,
                result._version,
                [None if t.grad is None else t.grad.numpy() for t in tensors],
            )
        )
    return results


def assert_same(results: list[Any], atol: float = 1e-6) -> None:
    """The two libraries' ``run_both`` results agree (errors: type and text)."""
    expected, actual = results
    if isinstance(expected, tuple) and isinstance(expected[0], str):
        assert actual == expected
        return
    assert not (isinstance(actual, tuple) and isinstance(actual[0], str)), actual
    assert actual[0].shape == expected[0].shape
    np.testing.assert_allclose(actual[0], expected[0], atol=atol, rtol=1e-5)
    assert actual[1:3] == expected[1:3]
    for mine, theirs in zip(actual[3], expected[3]):
        assert (mine is None) == (theirs is None)
        if theirs is not None:
            np.testing.assert_allclose(mine, theirs, atol=atol, rtol=1e-5)


# --- padding ---------------------------------------------------------------------------------

PAD_CASES = [
    ((2, 4), (1, 2)),
    ((2, 3, 4), (3, 0)),
    ((2, 3, 4), (1, 1, 2, 0)),
    ((2, 3, 4, 5), (1, 2, 0, -1)),
    ((1, 2, 3, 4, 5), (1, 1, 2, 0, 1, 2)),
    ((2, 4), (-1, 2)),
    ((2, 4), (-2, -1)),
    ((1, 4), (-2, -2)),
    ((1, 4), (-5, 0)),
    ((2, 4), (4, 0)),
    ((2, 4), (5, 0)),
    ((0, 3, 4), (1, 1)),
    ((3, 0, 4), (1, 1)),
    ((2, 3, 4), (1, 1, 3, 0)),
    ((2, 3, 4, 5), (-6, 1, 1, 1, 1, 0)),
    ((2, 3, 4), (-2, -2, -1, 0)),
    ((2, 3, 4, 5), (1, 1, 1, 1, -3, -1)),
]


@parametrize_in_one("mode", ["reflect", "replicate", "circular"])
@parametrize_in_one(("shape", "pad"), PAD_CASES)
def test_pad_modes_as_pytorch(mode: str, shape: tuple[int, ...], pad: tuple[int, ...]) -> None:
    """Values, gradients, node, version (circular: three copies) and errors."""
    array = np.random.default_rng(len(shape)).standard_normal(shape)
    assert_same(run_both(lambda lib, x: lib.nn.functional.pad(x, pad, mode=mode), [array]))


@pytest.mark.parametrize("mode", ["reflect", "replicate", "circular", "constant"])
def test_pad_of_integers_and_bools_as_pytorch(mode: str) -> None:
    for dtype in ("int32", "bool"):

        def call(lib: Any, dtype: str = dtype) -> Any:
            return lib.nn.functional.pad(
                lib.ones(2, 3, dtype=getattr(lib, dtype)), (1, 2), mode=mode
            )

        expected, actual = outcome(call, torch), outcome(call, minigrad)
        if isinstance(expected, tuple):
            assert actual == expected
        else:
            assert str(actual.dtype) == str(expected.dtype).replace("torch", "minigrad")
            np.testing.assert_array_equal(actual.numpy(), expected.numpy())


def test_pad_mode_errors_as_pytorch() -> None:
    calls = [
        lambda lib: lib.nn.functional.pad(lib.ones(2, 4), (1,), mode="wrap"),
        lambda lib: lib.nn.functional.pad(lib.ones(2, 4), (1, 1), mode="reflect", value=2.0),
        lambda lib: lib.nn.functional.pad(lib.ones(2, 4, 3, 3), (1, 1), mode="replicate"),
    ]
    for call in calls:
        assert outcome(call, minigrad) == outcome(call, torch)


def test_pad_double_backward_nodes_as_pytorch() -> None:
    for mode in ("reflect", "replicate"):
        names = []
        for lib in (torch, minigrad):
            x = lib.ones(2, 4, dtype=lib.float64, requires_grad=True)
            y = lib.nn.functional.pad(x, (1, 2), mode=mode)
            (g,) = lib.autograd.grad(y, x, lib.ones_like(y, requires_grad=True), create_graph=True)
            names.append((y.grad_fn.name(), g.grad_fn.name(), g.grad_fn._saved_padding))
        assert names[0] == names[1]


PADDING_MODULES = [
    (lambda nn: nn.ReflectionPad1d(2), (2, 3, 5)),
    (lambda nn: nn.ReflectionPad2d((1, 0, 2, 1)), (3, 4, 5)),
    (lambda nn: nn.ReflectionPad3d(1), (1, 2, 3, 3, 4)),
    (lambda nn: nn.ReplicationPad1d((3, 1)), (3, 4)),
    (lambda nn: nn.ReplicationPad2d(2), (1, 2, 3, 4)),
    (lambda nn: nn.ReplicationPad3d((1, 2, 0, 1, 2, 0)), (2, 2, 3, 4)),
    (lambda nn: nn.CircularPad1d(2), (2, 3, 4)),
    (lambda nn: nn.CircularPad2d((1, 2, 0, 1)), (2, 3, 4)),
    (lambda nn: nn.CircularPad3d(1), (1, 2, 2, 3, 4)),
    (lambda nn: nn.ConstantPad3d((1, 0, 2, 1, 0, 1), 2.5), (2, 2, 3, 4)),
    (lambda nn: nn.ZeroPad3d(1), (2, 2, 3, 4)),
]


@parametrize_in_one(("make", "shape"), PADDING_MODULES)
def test_padding_modules_as_pytorch(make: Any, shape: tuple[int, ...]) -> None:
    assert repr(make(minigrad.nn)) == repr(make(torch.nn))
    assert make(minigrad.nn).padding == make(torch.nn).padding
    array = np.random.default_rng(1).standard_normal(shape)
    assert_same(run_both(lambda lib, x: make(lib.nn)(x), [array]))


@pytest.mark.parametrize("dims", [1, 2, 3])
def test_circular_padding_modules_check_dims_as_pytorch(dims: int) -> None:
    for shape in ((5,), (1, 1, 1, 1, 1, 1)):
        call = lambda lib: getattr(lib.nn, f"CircularPad{dims}d")(1)(lib.ones(*shape))  # noqa: E731, B023
        assert outcome(call, minigrad) == outcome(call, torch)


# --- interpolate -----------------------------------------------------------------------------

INTERPOLATE_MODES = [
    ("nearest", 1),
    ("nearest", 3),
    ("nearest-exact", 2),
    ("linear", 1),
    ("bilinear", 2),
    ("bicubic", 2),
    ("trilinear", 3),
    ("area", 2),
]
# Odd sizes, fractional factors (the kernel maps by 1 / factor, not by n / m), factors that
# keep the size (PyTorch's nearest and bicubic backward then pass the gradient through).
INTERPOLATE_OPTIONS = [
    {"size": 1},
    {"size": 7},
    {"scale_factor": 1.7},
    {"scale_factor": 0.6},
    {"scale_factor": 2.5},
    {"scale_factor": 1.1},
    {"scale_factor": 1.3, "recompute_scale_factor": True},
]


@parametrize_in_one(("mode", "dims"), INTERPOLATE_MODES)
@parametrize_in_one("options", INTERPOLATE_OPTIONS, ids=str)
@parametrize_in_one("dtype", ["float32", "float64"])
def test_interpolate_as_pytorch(mode: str, dims: int, options: dict, dtype: str) -> None:
    """Values, gradients, node and errors; float32 indices rounded where PyTorch rounds."""
    shape = (2, 2, *((5, 4, 3)[:dims] if dims < 3 else (3, 2, 4)))
    array = np.random.default_rng(dims).standard_normal(shape).astype(dtype)
    corners = [None] if mode in ("nearest", "nearest-exact", "area") else [False, True]
    for align_corners in corners:

        def call(lib: Any, x: Any, align_corners: Any = align_corners) -> Any:
            return lib.nn.functional.interpolate(
                x, mode=mode, align_corners=align_corners, **options
            )

        assert_same(run_both(call, [array]), atol=1e-5 if dtype == "float32" else 1e-12)


def test_interpolate_saved_options_and_double_backward_as_pytorch() -> None:
    for mode, shape, options in (
        ("bilinear", (1, 1, 3, 4), {"scale_factor": (1.5, 2.0), "align_corners": True}),
        ("nearest", (1, 1, 3), {"size": 5}),
        ("nearest-exact", (1, 1, 2, 3, 2), {"scale_factor": 2}),
        ("bicubic", (1, 1, 3, 4), {"size": (4, 2)}),
    ):
        seen = []
        for lib in (torch, minigrad):
            x = lib.ones(*shape, dtype=lib.float64, requires_grad=True)
            y = lib.nn.functional.interpolate(x, mode=mode, **options)
            (g,) = lib.autograd.grad(y, x, lib.ones_like(y, requires_grad=True), create_graph=True)
            saved = {
                name: getattr(node, name)
                for node in (y.grad_fn, g.grad_fn)
                for name in dir(node)
                if name.startswith("_saved_")
            }
            seen.append((y.grad_fn.name(), g.grad_fn.name(), saved))
        assert seen[0] == seen[1]


INTERPOLATE_ERRORS = [
    lambda lib: lib.nn.functional.interpolate(lib.ones(1, 1, 4, 4), size=3, mode="foo"),
    lambda lib: lib.nn.functional.interpolate(lib.ones(1, 1, 4, 4), size=3, mode="linear"),
    lambda lib: lib.nn.functional.interpolate(lib.ones(1, 1, 4, 4), size=3, mode="lanczos"),
    lambda lib: lib.nn.functional.interpolate(lib.ones(1, 1, 4), size=3, mode="bicubic"),
    lambda lib: lib.nn.functional.interpolate(lib.ones(1, 1, 4), size=0, mode="linear"),
    lambda lib: lib.nn.functional.interpolate(lib.ones(1, 1, 0, 2, 2), size=2),
    lambda lib: lib.nn.functional.interpolate(lib.ones(1, 1, 4), scale_factor=-2.0),
    lambda lib: lib.nn.functional.interpolate(lib.ones(1, 1, 4, dtype=lib.int64), size=2),
    lambda lib: lib.nn.functional.interpolate(lib.ones(1, 1, 4, 4, dtype=lib.bool), size=2),
    lambda lib: lib.nn.functional.interpolate(
        lib.ones(1, 1, 4, 4, dtype=lib.int32), size=2, mode="bicubic"
    ),
    lambda lib: lib.nn.functional.interpolate(lib.ones(1, 1, 4, 4, dtype=lib.uint8), size=3),
]


@parametrize_in_one("call", INTERPOLATE_ERRORS)
def test_interpolate_errors_and_dtypes_as_pytorch(call: Any) -> None:
    expected, actual = outcome(call, torch), outcome(call, minigrad)
    if isinstance(expected, tuple):
        assert actual == expected
    else:
        assert str(actual.dtype) == str(expected.dtype).replace("torch", "minigrad")
        np.testing.assert_array_equal(actual.numpy(), expected.numpy())


@pytest.mark.parametrize("name", ["upsample", "upsample_nearest", "upsample_bilinear"])
def test_deprecated_upsample_functions_warn_as_pytorch(name: str) -> None:
    array = np.random.default_rng(0).standard_normal((1, 2, 3, 3))
    results = []
    for lib in (torch, minigrad):
        with pytest.warns(UserWarning) as caught:
            y = getattr(lib.nn.functional, name)(lib.tensor(array), scale_factor=2)
        results.append(([str(w.message) for w in caught], caught[0].filename, y.numpy()))
    assert results[0][0] == results[1][0]
    assert results[1][1] == __file__  # (pointed at the caller, as PyTorch's stacklevel=2)
    np.testing.assert_allclose(results[1][2], results[0][2], atol=1e-6)


UPSAMPLE_MODULES = [
    (lambda nn: nn.Upsample(scale_factor=2), (2, 3, 4)),
    (lambda nn: nn.Upsample(size=(3, 5), mode="bilinear", align_corners=True), (1, 2, 4, 4)),
    (lambda nn: nn.Upsample(scale_factor=(1.5, 0.5), mode="bicubic"), (1, 2, 4, 4)),
    (lambda nn: nn.Upsample(size=4, mode="trilinear"), (1, 1, 2, 3, 2)),
    (
        lambda nn: nn.Upsample(scale_factor=1.5, mode="nearest-exact", recompute_scale_factor=True),
        (1, 2, 5),
    ),
    (lambda nn: nn.UpsamplingNearest2d(scale_factor=3), (1, 2, 2, 3)),
    (lambda nn: nn.UpsamplingBilinear2d(size=(5, 2)), (1, 2, 3, 3)),
]


@pytest.mark.parametrize(("make", "shape"), UPSAMPLE_MODULES)
def test_upsample_modules_as_pytorch(make: Any, shape: tuple[int, ...]) -> None:
    assert repr(make(minigrad.nn)) == repr(make(torch.nn))
    assert make(minigrad.nn).scale_factor == make(torch.nn).scale_factor
    assert make(minigrad.nn).state_dict().keys() == make(torch.nn).state_dict().keys()
    array = np.random.default_rng(2).standard_normal(shape)
    assert_same(run_both(lambda lib, x: make(lib.nn)(x), [array]))


# --- unfold / fold -------------------------------------------------------------------------


UNFOLD_CASES = [
    ((2, 3, 5, 6), {"kernel_size": 2}),
    ((3, 5, 6), {"kernel_size": (2, 3), "dilation": (1, 2), "padding": 1, "stride": 2}),
    ((1, 2, 4, 4), {"kernel_size": 3, "stride": (2, 1), "padding": (0, 2)}),
    ((0, 2, 5, 6), {"kernel_size": 2}),
    ((6,), {"kernel_size": 2}),
    ((2, 6), {"kernel_size": 2}),
    ((1, 1, 2, 5, 6), {"kernel_size": 2}),
    ((1, 2, 5, 6), {"kernel_size": 2, "dilation": 0, "padding": -1}),
    ((1, 2, 5, 6), {"kernel_size": 2, "stride": (1, 1, 1)}),
]


@pytest.mark.parametrize(("shape", "options"), UNFOLD_CASES, ids=str)
def test_unfold_and_fold_as_pytorch(shape: tuple[int, ...], options: dict) -> None:
    """unfold, then fold of its result (with the same options): values, gradients, errors."""
    array = np.random.default_rng(3).standard_normal(shape)
    assert_same(run_both(lambda lib, x: lib.nn.functional.unfold(x, **options), [array]))
    columns = outcome(lambda lib: lib.nn.functional.unfold(lib.tensor(array), **options), torch)
    if not isinstance(columns, tuple) and columns.numel():
        assert_same(
            run_both(
                lambda lib, c: lib.nn.functional.fold(c, shape[-2:], **options),
                [columns.numpy()],
            )
        )


def test_unfold_and_fold_double_backward_nodes_as_pytorch() -> None:
    seen = []
    for lib in (torch, minigrad):
        x = lib.ones(1, 2, 4, 5, dtype=lib.float64, requires_grad=True)
        y = lib.nn.functional.unfold(x, 2, padding=1)
        (g,) = lib.autograd.grad(y, x, lib.ones_like(y, requires_grad=True), create_graph=True)
        z = lib.nn.functional.fold(y, (4, 5), 2, padding=1)
        seen.append(
            (
                y.grad_fn.name(),
                g.grad_fn.name(),
                z.grad_fn.name(),
                z.grad_fn.next_functions[0][0].name(),
            )
        )
    assert seen[0] == seen[1]


FOLD_MODULES = [
    (lambda nn: nn.Unfold(2), (2, 3, 4, 4)),
    (lambda nn: nn.Unfold((2, 3), dilation=2, padding=1, stride=(1, 2)), (3, 5, 6)),
    (lambda nn: nn.Fold((4, 5), 2), (2, 12, 12)),
    (lambda nn: nn.Fold(3, (2, 2), 1, 0, 2), (8, 1)),
]


@pytest.mark.parametrize(("make", "shape"), FOLD_MODULES)
def test_fold_modules_as_pytorch(make: Any, shape: tuple[int, ...]) -> None:
    assert repr(make(minigrad.nn)) == repr(make(torch.nn))
    assert make(minigrad.nn).state_dict().keys() == make(torch.nn).state_dict().keys()
    array = np.random.default_rng(4).standard_normal(shape)
    assert_same(run_both(lambda lib, x: make(lib.nn)(x), [array]))


# --- channel shuffle, Softmax2d --------------------------------------------------------------


SHUFFLE_MODULES = [
    (lambda nn: nn.ChannelShuffle(3), (2, 6, 3, 2)),
    (lambda nn: nn.ChannelShuffle(2), (4, 2)),
    (lambda nn: nn.Softmax2d(), (2, 3, 4, 5)),
    (lambda nn: nn.Softmax2d(), (3, 4, 5)),
    (lambda nn: nn.Softmax2d(), (3, 4)),
]


@pytest.mark.parametrize(("make", "shape"), SHUFFLE_MODULES)
def test_channel_shuffle_and_softmax2d_modules_as_pytorch(make: Any, shape: tuple) -> None:
    assert repr(make(minigrad.nn)) == repr(make(torch.nn))
    array = np.random.default_rng(5).standard_normal(shape)
    assert_same(run_both(lambda lib, x: make(lib.nn)(x), [array]))


def test_native_channel_shuffle_has_no_derivative_as_pytorch() -> None:
    def call(lib: Any) -> Any:
        x = lib.ones(1, 4, 2, requires_grad=True)
        y = lib.native_channel_shuffle(x, 2)
        assert y.grad_fn.name() == "torch::autograd::NotImplemented"
        y.sum().backward()

    assert outcome(call, minigrad) == outcome(call, torch)


# --- max unpooling -----------------------------------------------------------------------------


@pytest.mark.parametrize("dims", [1, 2])
def test_max_unpool_modules_after_max_pool_as_pytorch(dims: int) -> None:
    """A pooling's values and indices unpooled by the module: values, gradient, nodes, repr."""
    shape = (2, 3, 7) if dims == 1 else (2, 3, 5, 7)
    array = np.random.default_rng(6).standard_normal(shape)
    results = []
    for lib in (torch, minigrad):
        pool = getattr(lib.nn, f"MaxPool{dims}d")(3, 2, 1, return_indices=True)
        unpool = getattr(lib.nn, f"MaxUnpool{dims}d")(3, 2, 1)
        x = lib.tensor(array, requires_grad=True)
        y = unpool(*pool(x), output_size=shape[2:])
        y.backward(lib.ones_like(y))
        nodes = [y.grad_fn.name(), *(n[0].name() for n in y.grad_fn.next_functions)]
        results.append((repr(unpool), y.detach().numpy(), x.grad.numpy(), nodes))
    assert results[1][0] == results[0][0]
    np.testing.assert_allclose(results[1][1], results[0][1])
    np.testing.assert_allclose(results[1][2], results[0][2])
    assert results[1][3] == results[0][3]


def test_max_unpool_double_backward_node_as_pytorch() -> None:
    names = []
    for lib in (torch, minigrad):
        x = lib.ones(1, 1, 2, 2, dtype=lib.float64, requires_grad=True)
        y = lib.nn.functional.max_unpool2d(x, lib.tensor([[[[0, 3], [9, 14]]]]), 2)
        (g,) = lib.autograd.grad(y, x, lib.ones_like(y, requires_grad=True), create_graph=True)
        names.append((y.grad_fn.name(), g.grad_fn.name()))
    assert names[0] == names[1]


# --- affine_grid -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("size", "align_corners"), [((1, 1, 3, 4), None), ((1, 1, 1, 4), True), ((1, 1, 3, 4), True)]
)
def test_affine_grid_warnings_as_pytorch(size: tuple, align_corners: Any) -> None:
    theta = np.random.default_rng(7).standard_normal((1, 2, 3))
    results = []
    for lib in (torch, minigrad):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            grid = lib.nn.functional.affine_grid(lib.tensor(theta), size, align_corners)
        results.append(
            ([str(w.message) for w in caught], [w.filename for w in caught], grid.numpy())
        )
    assert results[1][0] == results[0][0]
    assert all(name == __file__ for name in results[1][1])
    np.testing.assert_allclose(results[1][2], results[0][2], atol=1e-12)


def test_affine_grid_of_integer_theta_as_pytorch() -> None:
    def call(lib: Any) -> Any:
        return lib.nn.functional.affine_grid(
            lib.ones(1, 2, 3, dtype=lib.int64), (1, 1, 2, 2), align_corners=False
        )

    assert outcome(call, minigrad) == outcome(call, torch)


# --- grid_sample -----------------------------------------------------------------------------


@parametrize_in_one("mode", ["bilinear", "nearest", "bicubic", "trilinear", "nearest_3d"])
@parametrize_in_one("padding_mode", ["zeros", "border", "reflection"])
@parametrize_in_one("align_corners", [False, True])
def test_grid_sample_as_pytorch(mode: str, padding_mode: str, align_corners: bool) -> None:
    """Values and both gradients, the grid reaching past the image (1.6 times [-1, 1]).

    "trilinear" and "nearest_3d" are PyTorch's "bilinear" and "nearest" on 5-d inputs.
    """
    rng = np.random.default_rng(8)
    image = rng.standard_normal((2, 3, 4, 5)).astype(np.float32)
    grid = (1.6 * rng.uniform(-1, 1, (2, 3, 6, 2))).astype(np.float32)
    if mode in ("trilinear", "nearest_3d"):
        image = rng.standard_normal((2, 2, 3, 4, 5)).astype(np.float32)
        grid = (1.6 * rng.uniform(-1, 1, (2, 2, 3, 4, 3))).astype(np.float32)
        mode = "bilinear" if mode == "trilinear" else "nearest"
    assert_same(
        run_both(
            lambda lib, x, g: lib.nn.functional.grid_sample(
                x, g, mode=mode, padding_mode=padding_mode, align_corners=align_corners
            ),
            [image, grid],
        ),
        atol=1e-5,
    )


GRID_SAMPLE_ERRORS = [
    lambda lib: lib.nn.functional.grid_sample(
        lib.ones(1, 1, 3, 3), lib.zeros(1, 2, 2, 2, dtype=lib.float64), align_corners=False
    ),
    lambda lib: lib.nn.functional.grid_sample(
        lib.ones(1, 1, 3, 3, dtype=lib.int64),
        lib.zeros(1, 2, 2, 2, dtype=lib.int64),
        align_corners=False,
    ),
    lambda lib: lib.nn.functional.grid_sample(
        lib.ones(1, 1, 3, 3), lib.zeros(1, 2, 2), align_corners=False
    ),
    lambda lib: lib.nn.functional.grid_sample(
        lib.ones(1, 1, 3, 3), lib.zeros(1, 2, 2, 2), padding_mode="wrap", align_corners=False
    ),
    lambda lib: (
        lib.nn.functional.grid_sample(
            lib.ones(1, 0, 3, 3), lib.zeros(1, 2, 2, 2), align_corners=False
        ).shape
    ),
    lambda lib: lib.nn.functional.grid_sample(
        lib.ones(1, 1, 2, 3, 3), lib.zeros(1, 2, 2, 2, 3), mode="bicubic", align_corners=False
    ),
    lambda lib: lib.nn.functional.grid_sample(
        lib.ones(1, 1, 2, 3, 3), lib.zeros(1, 2, 2, 3), align_corners=False
    ),
    lambda lib: lib.nn.functional.grid_sample(
        lib.ones(1, 1, 2, 3, 3, dtype=lib.int64),
        lib.zeros(1, 2, 2, 2, 3, dtype=lib.int64),
        align_corners=False,
    ),
    lambda lib: lib.nn.functional.grid_sample(
        lib.ones(1, 1, 2, 3, 3), lib.zeros(1, 2, 2, 2, 3, dtype=lib.float64), align_corners=False
    ),
    lambda lib: lib.nn.functional.grid_sample(
        lib.ones(1, 1, 3), lib.zeros(1, 2, 1), align_corners=False
    ),
]


@parametrize_in_one("call", GRID_SAMPLE_ERRORS)
def test_grid_sample_errors_as_pytorch(call: Any) -> None:
    assert outcome(call, minigrad) == outcome(call, torch)


@pytest.mark.parametrize("dims", [4, 5])
def test_grid_sample_warning_and_backward_node_as_pytorch(dims: int) -> None:
    seen = []
    for lib in (torch, minigrad):
        x = lib.ones(1, 1, *[3] * (dims - 2), dtype=lib.float64, requires_grad=True)
        grid = lib.zeros(1, *[2] * (dims - 2), dims - 2, dtype=lib.float64, requires_grad=True)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            y = lib.nn.functional.grid_sample(x, grid)
        gx, _ = lib.autograd.grad(y, (x, grid), lib.ones_like(y), create_graph=True)
        seen.append(([str(w.message) for w in caught], y.grad_fn.name(), gx.grad_fn.name()))
    assert seen[0] == seen[1]
