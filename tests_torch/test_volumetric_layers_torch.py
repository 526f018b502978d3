"""The 3-d (volumetric) layers, fractional pooling and CTCLoss against PyTorch 2.13, live.

The op table (tests/opinfo/nn_functional.py) checks the functions' values, gradients and bad
inputs on small samples. Here: the modules (repr, state_dict keys, a torch module's state_dict
loaded and the outputs and gradients compared), non-contiguous inputs, and error texts of the
modules' own checks.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from _cases import parametrize_in_one

import minigrad

torch = pytest.importorskip("torch")

RNG = np.random.default_rng(2026)


def outcome(call: Any, lib: Any) -> Any:
    """``call(lib)``, or the exception it raised (type and text, ``torch`` -> ``minigrad``)."""
    try:
        return call(lib)
    except Exception as error:  # noqa: BLE001 - compared with PyTorch's
        return type(error).__name__, str(error).replace("torch", "minigrad")


def both(array: np.ndarray, permute: tuple[int, ...] | None = None) -> tuple[Any, Any]:
    """The same float64 leaf in both libraries; permuted (a non-contiguous view) if asked."""
    pair = []
    for lib in (torch, minigrad):
        leaf = lib.tensor(array, requires_grad=True)
        pair.append((leaf, leaf if permute is None else leaf.permute(*permute)))
    return pair[0], pair[1]


def compare_module(
    make: Any, shape: tuple[int, ...], permute: tuple[int, ...] | None = None, **call: Any
) -> None:
    """A torch module's state_dict loaded into minigrad's: same repr, keys, output, gradients."""
    theirs, mine = make(torch.nn).double(), make(minigrad.nn).double()
    assert repr(mine) == repr(theirs)
    assert list(mine.state_dict()) == list(theirs.state_dict())
    mine.load_state_dict(
        {k: minigrad.tensor(v.detach().numpy()) for k, v in theirs.state_dict().items()}
    )
    (t_leaf, t_in), (m_leaf, m_in) = both(RNG.standard_normal(shape), permute)
    t_out, m_out = theirs(t_in, **call), mine(m_in, **call)
    t_out = t_out[0] if isinstance(t_out, tuple) else t_out
    m_out = m_out[0] if isinstance(m_out, tuple) else m_out
    np.testing.assert_allclose(m_out.detach().numpy(), t_out.detach().numpy(), atol=1e-10)
    seed = RNG.standard_normal(tuple(t_out.shape))
    t_out.backward(torch.tensor(seed))
    m_out.backward(minigrad.tensor(seed))
    np.testing.assert_allclose(m_leaf.grad.numpy(), t_leaf.grad.numpy(), atol=1e-10)
    for (name, t_param), m_param in zip(theirs.named_parameters(), mine.parameters()):
        np.testing.assert_allclose(
            m_param.grad.numpy(), t_param.grad.numpy(), atol=1e-10, err_msg=name
        )


CONV_MODULES = {
    "conv_plain": (lambda nn: nn.Conv3d(2, 4, 3, padding=1), (2, 2, 4, 5, 3), None),
    "conv_reflect_groups": (
        lambda nn: nn.Conv3d(
            2,
            4,
            (2, 3, 2),
            stride=(1, 2, 1),
            padding=(1, 1, 0),
            groups=2,
            bias=False,
            padding_mode="reflect",
        ),
        (1, 2, 4, 5, 3),
        None,
    ),
    "conv_replicate_permuted": (
        lambda nn: nn.Conv3d(2, 3, 3, padding=2, dilation=(1, 2, 1), padding_mode="replicate"),
        (2, 5, 4, 3, 2),
        (0, 4, 1, 2, 3),
    ),
    "conv_circular_same_unbatched": (
        lambda nn: nn.Conv3d(2, 2, 3, padding="same", padding_mode="circular"),
        (2, 4, 3, 4),
        None,
    ),
    "transpose": (
        lambda nn: nn.ConvTranspose3d(4, 2, 3, stride=2, padding=1, output_padding=1),
        (1, 4, 3, 2, 3),
        None,
    ),
    "transpose_groups_permuted": (
        lambda nn: nn.ConvTranspose3d(4, 2, (2, 1, 2), groups=2, dilation=(2, 1, 1)),
        (2, 3, 2, 3, 4),
        (0, 4, 2, 3, 1),
    ),
}


POOL_MODULES = {
    "adaptive_avg_permuted": (
        lambda nn: nn.AdaptiveAvgPool3d((2, None, 3)),
        (2, 3, 5, 4, 7),
        (0, 1, 4, 3, 2),
    ),
    "adaptive_max_indices_unbatched": (
        lambda nn: nn.AdaptiveMaxPool3d((3, 2, 4), True),
        (2, 5, 4, 7),
        None,
    ),
    "lp_pool_permuted": (
        lambda nn: nn.LPPool3d(2, (2, 1, 2), stride=1),
        (1, 3, 4, 3, 4),
        (0, 1, 3, 2, 4),
    ),
    "max_pool": (lambda nn: nn.MaxPool3d(2), (2, 3, 4, 5, 4), None),
    "max_pool_everything_permuted": (
        lambda nn: nn.MaxPool3d((2, 3, 2), 1, (1, 1, 0), (2, 1, 1), True, True),
        (2, 3, 5, 4, 4),
        (0, 2, 1, 3, 4),
    ),
    "avg_pool_ceil_unbatched": (
        lambda nn: nn.AvgPool3d(3, 2, 1, True, False),
        (3, 5, 4, 5),
        None,
    ),
    "avg_pool_divisor_permuted": (
        lambda nn: nn.AvgPool3d((2, 1, 2), divisor_override=3),
        (2, 4, 3, 5, 2),
        (0, 4, 3, 1, 2),
    ),
}


@pytest.mark.parametrize("case", sorted(POOL_MODULES))
def test_pool_modules_as_pytorch(case: str) -> None:
    make, shape, permute = POOL_MODULES[case]
    compare_module(make, shape, permute)


def test_max_unpool3d_module_as_pytorch() -> None:
    array = RNG.standard_normal((2, 3, 4, 5, 4))
    results = []
    for lib in (torch, minigrad):
        x = lib.tensor(array, requires_grad=True)
        values, indices = lib.nn.MaxPool3d(2, stride=2, return_indices=True)(x)
        unpool = lib.nn.MaxUnpool3d(2, stride=2)
        out = unpool(values, indices, output_size=[5, 5, 4])
        out.backward(lib.tensor(np.linspace(-1.0, 1.0, out.numel()).reshape(tuple(out.shape))))
        results.append((repr(unpool), out.grad_fn.name(), out.detach().numpy(), x.grad.numpy()))
    (t_repr, t_name, t_out, t_grad), (m_repr, m_name, m_out, m_grad) = results
    assert (m_repr, m_name) == (t_repr, t_name)
    np.testing.assert_allclose(m_out, t_out, atol=1e-12)
    np.testing.assert_allclose(m_grad, t_grad, atol=1e-12)


FRACTIONAL = {
    "2d_ratio": (
        lambda nn, samples: nn.FractionalMaxPool2d(
            (2, 3), output_ratio=(0.5, 0.6), return_indices=True, _random_samples=samples
        ),
        (2, 3, 9, 8),
        (2, 3, 2),
        (0, 1, 3, 2),
    ),
    "3d_size": (
        lambda nn, samples: nn.FractionalMaxPool3d(
            2, output_size=(3, 2, 4), _random_samples=samples
        ),
        (2, 2, 6, 5, 7),
        (2, 2, 3),
        None,
    ),
    "3d_unbatched": (
        lambda nn, samples: nn.FractionalMaxPool3d(
            (1, 2, 2), output_ratio=0.5, _random_samples=samples
        ),
        (3, 4, 6, 5),
        (1, 3, 3),
        None,
    ),
}


@pytest.mark.parametrize("case", sorted(FRACTIONAL))
def test_fractional_max_pool_modules_as_pytorch(case: str) -> None:
    """The same ``_random_samples`` (a buffer: in the state_dict) give PyTorch's windows."""
    make, shape, samples_shape, permute = FRACTIONAL[case]
    samples = RNG.random(samples_shape)
    theirs = make(torch.nn, torch.tensor(samples))
    mine = make(minigrad.nn, minigrad.tensor(samples))
    assert repr(mine) == repr(theirs)
    assert list(mine.state_dict()) == list(theirs.state_dict()) == ["_random_samples"]
    (t_leaf, t_in), (m_leaf, m_in) = both(RNG.standard_normal(shape), permute)
    t_out, m_out = theirs(t_in), mine(m_in)
    if isinstance(t_out, tuple):
        np.testing.assert_array_equal(m_out[1].numpy(), t_out[1].numpy())
        t_out, m_out = t_out[0], m_out[0]
    np.testing.assert_array_equal(m_out.detach().numpy(), t_out.detach().numpy())
    assert m_out.grad_fn.name() == t_out.grad_fn.name()
    seed = RNG.standard_normal(tuple(t_out.shape))
    t_out.backward(torch.tensor(seed))
    m_out.backward(minigrad.tensor(seed))
    np.testing.assert_allclose(m_leaf.grad.numpy(), t_leaf.grad.numpy(), atol=1e-12)


def test_fractional_max_pool_draws_from_minigrads_generator() -> None:
    x = minigrad.randn(2, 3, 9, 9)
    minigrad.manual_seed(7)
    first = minigrad.nn.functional.fractional_max_pool2d(x, 2, output_size=4, return_indices=True)[
        1
    ]
    minigrad.manual_seed(7)
    again = minigrad.nn.functional.fractional_max_pool2d(x, 2, output_size=4, return_indices=True)[
        1
    ]
    minigrad.manual_seed(7)
    samples = minigrad.rand(2, 3, 2)
    given = minigrad.nn.functional.fractional_max_pool2d(
        x, 2, output_size=4, return_indices=True, _random_samples=samples
    )[1]
    assert first.equal(again) and first.equal(given)


def test_max_pool3d_indices_and_create_graph_nodes_as_pytorch() -> None:
    array = RNG.standard_normal((1, 2, 4, 3, 4))
    array[0, 0, :2, :2, :2] = 1.0  # a tie: the first maximum wins
    array[0, 1, 1, 1, 1] = np.nan  # a nan wins
    results = []
    for lib in (torch, minigrad):
        x = lib.tensor(array, requires_grad=True)
        values, indices = lib.nn.functional.max_pool3d(x, 2, 1, return_indices=True)
        (grad,) = lib.autograd.grad(values.nansum(), x, create_graph=True)
        mean = lib.nn.functional.avg_pool3d(x, 2)
        (mean_grad,) = lib.autograd.grad(mean.sum(), x, create_graph=True)
        results.append(
            (
                values.detach().numpy(),
                indices.numpy(),
                grad.grad_fn.name(),
                mean_grad.grad_fn.name(),
            )
        )
    (t_values, t_indices, *t_names), (m_values, m_indices, *m_names) = results
    np.testing.assert_array_equal(m_values, t_values)
    np.testing.assert_array_equal(m_indices, t_indices)
    assert m_names == t_names


@pytest.mark.parametrize("case", sorted(CONV_MODULES))
def test_conv_modules_as_pytorch(case: str) -> None:
    make, shape, permute = CONV_MODULES[case]
    compare_module(make, shape, permute)


def test_conv_transpose_output_size_as_pytorch() -> None:
    compare_module(
        lambda nn: nn.ConvTranspose3d(4, 2, 3, stride=2, padding=1),
        (1, 4, 3, 2, 3),
        output_size=[6, 4, 6],
    )


ERRORS = {
    "output_size_range": lambda lib: lib.nn.ConvTranspose3d(4, 2, 3, stride=2, padding=1)(
        lib.zeros(1, 4, 3, 2, 3), output_size=[9, 9, 9]
    ),
    "output_size_length": lambda lib: lib.nn.ConvTranspose3d(4, 2, 3, stride=2)(
        lib.zeros(1, 4, 3, 2, 3), output_size=[9, 9]
    ),
    "transpose_padding_mode": lambda lib: lib.nn.ConvTranspose3d(4, 2, 3, padding_mode="reflect"),
    "reflect_too_wide_depth": lambda lib: lib.nn.Conv3d(
        2, 2, 3, padding=(2, 1, 1), padding_mode="reflect"
    )(lib.zeros(1, 2, 2, 3, 3)),
    "reflect_too_wide_height_2d": lambda lib: lib.nn.Conv2d(
        2, 2, 3, padding=(2, 1), padding_mode="reflect"
    )(lib.zeros(1, 2, 2, 3)),
    "bool_conv3d": lambda lib: lib.nn.functional.conv3d(
        lib.zeros(1, 2, 3, 3, 3).bool(), lib.zeros(2, 2, 2, 2, 2).bool()
    ),
    "bool_conv2d": lambda lib: lib.nn.functional.conv2d(
        lib.zeros(1, 2, 3, 3).bool(), lib.zeros(2, 2, 2, 2).bool()
    ),
    "bool_conv_transpose3d": lambda lib: lib.nn.functional.conv_transpose3d(
        lib.zeros(1, 2, 3, 3, 3).bool(), lib.zeros(2, 2, 2, 2, 2).bool()
    ),
    "transpose_too_small_float32": lambda lib: lib.nn.functional.conv_transpose3d(
        lib.zeros(1, 2, 3, 3, 3), lib.zeros(2, 2, 2, 2, 2), padding=5
    ),
    "conv3d_rank": lambda lib: lib.nn.Conv3d(2, 2, 2)(lib.zeros(2, 3, 3)),
    "max_pool3d_not_a_tensor": lambda lib: lib.nn.functional.max_pool3d(
        "x", 2, return_indices=True
    ),
    "max_unpool3d_zero_stride": lambda lib: lib.nn.functional.max_unpool3d(
        lib.ones(1, 1, 1, 2, 2), lib.zeros(1, 1, 1, 2, 2, dtype=lib.int64), 2, stride=0
    ),
    "max_unpool3d_empty_channels": lambda lib: lib.nn.functional.max_unpool3d(
        lib.ones(1, 0, 1, 2, 2), lib.zeros(1, 0, 1, 2, 2, dtype=lib.int64), 2
    ),
    "max_unpool3d_integer": lambda lib: lib.nn.functional.max_unpool3d(
        lib.ones(1, 1, 1, 2, 2, dtype=lib.int64), lib.zeros(1, 1, 1, 2, 2, dtype=lib.int64), 2
    ),
    "fractional_no_size": lambda lib: lib.nn.FractionalMaxPool3d(2),
    "fractional_both_sizes": lambda lib: lib.nn.FractionalMaxPool2d(2, 3, 0.5),
    "fractional_ratio_range": lambda lib: lib.nn.FractionalMaxPool3d(
        2, output_ratio=(0.5, 1.5, 0.5)
    ),
    "fractional_3d_window_at_every_position": lambda lib: lib.nn.functional.fractional_max_pool3d(
        lib.zeros(1, 2, 3, 4, 3), 2, output_size=(2, 3, 2)
    ),
    "fractional_samples_dtype": lambda lib: lib.nn.functional.fractional_max_pool2d(
        lib.zeros(1, 2, 5, 5), 2, output_size=3, _random_samples=lib.zeros(1, 2, 2).double()
    ),
    "fractional_integer": lambda lib: lib.nn.functional.fractional_max_pool2d(
        lib.zeros(1, 2, 5, 5, dtype=lib.int64), 2, output_size=3
    ),
    "max_pool3d_zero_dilation": lambda lib: lib.nn.functional.max_pool3d(
        lib.zeros(1, 2, 4, 4, 4), 2, dilation=0
    ),
    "max_pool3d_pad_over_half_kernel": lambda lib: lib.nn.functional.max_pool3d(
        lib.zeros(1, 2, 9, 9, 9), 3, dilation=2, padding=2
    ),
}


@parametrize_in_one("case", sorted(ERRORS))
def test_errors_as_pytorch(case: str) -> None:
    assert outcome(ERRORS[case], minigrad) == outcome(ERRORS[case], torch)
    assert isinstance(outcome(ERRORS[case], torch), tuple)  # (an error, not a value)


@pytest.mark.parametrize(
    "options", [{}, {"blank": 2, "reduction": "sum"}, {"reduction": "none", "zero_infinity": True}]
)
def test_ctc_loss_module_as_pytorch(options: dict) -> None:
    """Losses and gradients (through log_softmax) of padded targets, lengths as tensors."""
    scores = RNG.standard_normal((7, 3, 5))
    targets = np.array([[1, 3, 3, 4], [4, 1, 0, 0], [3, 3, 3, 1]])
    input_lengths, target_lengths = np.array([7, 5, 3]), np.array([4, 2, 4])  # (the last: inf)
    results = []
    for lib in (torch, minigrad):
        x = lib.tensor(scores, requires_grad=True)
        loss_fn = lib.nn.CTCLoss(**options)
        loss = loss_fn(
            x.permute(1, 0, 2).contiguous().permute(1, 0, 2).log_softmax(2),
            lib.tensor(targets),
            lib.tensor(input_lengths),
            lib.tensor(target_lengths),
        )
        loss.sum().backward()
        results.append((repr(loss_fn), loss.detach().numpy(), x.grad.numpy()))
    (t_repr, t_loss, t_grad), (m_repr, m_loss, m_grad) = results
    assert m_repr == t_repr
    np.testing.assert_allclose(m_loss, t_loss, rtol=1e-10)
    np.testing.assert_allclose(m_grad, t_grad, atol=1e-10)  # (nan where the loss is inf)
