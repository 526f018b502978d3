"""minigrad.nn.functional: values, gradients, recorded nodes, saved tensors and errors.

Every expected value and text here is what PyTorch 2.13 printed for the same program
(``MINIGRAD_TEST_REFERENCE=torch`` runs this file on PyTorch itself). The generic checks of each
op (gradcheck, the mutation matrix, bad inputs) come from the op table,
tests/opinfo/nn_functional.py; this file holds what a table row cannot express.
"""

import warnings

import numpy as np
import pytest
from _backend import mg, text

F = mg.nn.functional

HINT = (
    "Hint: enable anomaly detection to find the operation that failed to compute its gradient, "
    "with minigrad.autograd.set_detect_anomaly(True, check_nan=False)."
)


def stale(what: str, version: int = 1, expected: int = 0) -> str:
    return text(
        "one of the variables needed for gradient computation has been modified by an inplace "
        f"operation: {what} is at version {version}; expected version {expected} instead. {HINT}"
    )


def close(tensor, expected, rtol=1e-5, atol=1e-6):
    np.testing.assert_allclose(
        np.asarray(tensor.detach().numpy()).ravel(), np.ravel(expected), rtol=rtol, atol=atol
    )


def chain(tensor, depth=10):
    """grad_fn names along the first edge that is not a leaf accumulator."""
    names, node = [], tensor.grad_fn
    while node is not None and depth:
        names.append(node.name())
        nexts = [f for f, _ in node.next_functions
                 if f is not None and "Accumulate" not in f.name()]
        node = nexts[0] if nexts else None
        depth -= 1
    return names


def raises_stale(loss, what, version=1):
    with pytest.raises(RuntimeError) as excinfo:
        loss.backward()
    assert str(excinfo.value) == stale(what, version)


# ---- linear ----------------------------------------------------------------------------------


def linear_operands():
    x = mg.tensor([[0.5, -1.0, 2.0], [1.5, 0.0, -0.5]], requires_grad=True)
    w = mg.tensor([[1.0, 2.0, 0.0], [0.0, -1.0, 1.0]], requires_grad=True)
    b = mg.tensor([0.5, -0.5], requires_grad=True)
    return x, w, b


def test_linear_values_and_gradients():
    x, w, b = linear_operands()
    y = F.linear(x, w, b)
    close(y, [-1.0, 2.5, 2.0, -1.0])
    y.sum().backward()
    close(x.grad, [1.0] * 6)
    close(w.grad, [2.0, -1.0, 1.5, 2.0, -1.0, 1.5])
    close(b.grad, [2.0, 2.0])


@pytest.mark.parametrize(
    ("shape", "bias", "expected"),
    [
        ((4, 3), True, ["AddmmBackward0", "TBackward0"]),
        ((4, 3), False, ["MmBackward0", "TBackward0"]),
        ((2, 4, 3), True, ["ViewBackward0", "AddmmBackward0", "TBackward0"]),
        ((2, 4, 3), False, ["UnsafeViewBackward0", "MmBackward0", "TBackward0"]),
        ((3,), True, ["ViewBackward0", "AddmmBackward0", "TBackward0"]),
        ((3,), False, ["SqueezeBackward4", "MmBackward0", "TBackward0"]),
    ],
)
def test_linear_records_pytorchs_nodes(shape, bias, expected):
    w = mg.ones(5, 3, requires_grad=True)
    y = F.linear(mg.ones(*shape), w, mg.ones(5) if bias else None)
    assert chain(y) == expected


def test_linear_on_a_batch_flattens_the_input_with_views():
    x = mg.ones(2, 4, 3, requires_grad=True)
    y = F.linear(x, mg.ones(5, 3), mg.ones(5))
    assert chain(y) == ["ViewBackward0", "AddmmBackward0", "ViewBackward0"]
    assert y.shape == (2, 4, 5)


def test_linear_with_a_2d_bias_on_a_batch_adds_it_in_place():
    y = F.linear(mg.ones(2, 4, 3), mg.ones(5, 3, requires_grad=True), mg.ones(4, 5))
    assert chain(y) == ["AddBackward0", "UnsafeViewBackward0", "MmBackward0", "TBackward0"]


def test_writing_the_input_after_linear_breaks_backward():
    x, w, b = linear_operands()
    y = F.linear(x, w, b)
    with mg.no_grad():
        x.mul_(2)
    raises_stale(y.sum(), "[minigrad.FloatTensor [2, 3]]")


def test_writing_the_weight_after_linear_breaks_backward():
    # Addmm saved W.t(), a view sharing W's version counter: after the write its history is
    # regenerated (AsStrided), and that is the producer the message names.
    x, w, b = linear_operands()
    y = F.linear(x, w, b)
    with mg.no_grad():
        w.mul_(2)
    raises_stale(y.sum(), "[minigrad.FloatTensor [3, 2]], which is output 0 of AsStrided,")


def test_writing_the_bias_after_linear_is_legal():
    x, w, b = linear_operands()
    y = F.linear(x, w, b)
    with mg.no_grad():
        b.mul_(2)
    y.sum().backward()
    close(w.grad, [2.0, -1.0, 1.5, 2.0, -1.0, 1.5])


def test_linear_errors():
    with pytest.raises(RuntimeError) as excinfo:
        F.linear(mg.ones(4, 2), mg.ones(5, 3))
    assert str(excinfo.value) == "mat1 and mat2 shapes cannot be multiplied (4x2 and 3x5)"
    with pytest.raises(RuntimeError) as excinfo:
        F.linear(mg.ones(()), mg.ones(5, 3))
    assert str(excinfo.value) == (
        "both arguments to linear need to be at least 1D, but they are 0D and 2D"
    )
    with pytest.raises(RuntimeError) as excinfo:
        F.linear(mg.ones(4, 3), mg.ones(5, 3), mg.ones(4))
    assert str(excinfo.value) == (
        "The expanded size of the tensor (5) must match the existing size (4) at non-singleton "
        "dimension 1.  Target sizes: [4, 5].  Tensor sizes: [4]"
    )


# ---- pointwise losses ------------------------------------------------------------------------

X = [[0.5, -1.0, 2.0], [1.5, 0.0, -0.5]]
T = [[1.0, 0.0, 1.0], [1.0, 1.0, -1.0]]


@pytest.mark.parametrize(
    ("name", "mean", "grad_mean", "total", "grad_sum"),
    [
        ("mse_loss", 0.625, [-1, -2, 2, 1, -2, 1], 3.75, [-1, -2, 2, 1, -2, 1]),
        ("l1_loss", 0.75, [-1, -1, 1, 1, -1, 1], 4.5, [-1, -1, 1, 1, -1, 1]),
        ("smooth_l1_loss", 0.3125, [-0.5, -1, 1, 0.5, -1, 0.5], 1.875, [-0.5, -1, 1, 0.5, -1, 0.5]),
        ("huber_loss", 0.3125, [-0.5, -1, 1, 0.5, -1, 0.5], 1.875, [-0.5, -1, 1, 0.5, -1, 0.5]),
    ],
)
def test_pointwise_losses(name, mean, grad_mean, total, grad_sum):
    loss = getattr(F, name)
    x = mg.tensor(X, requires_grad=True)
    y = loss(x, mg.tensor(T))
    close(y, mean)
    y.backward()
    close(x.grad, np.array(grad_mean) / 6)
    x.grad = None
    y = loss(x, mg.tensor(T), reduction="sum")
    close(y, total)
    y.backward()
    close(x.grad, grad_sum)
    assert loss(x, mg.tensor(T), reduction="none").shape == (2, 3)


@pytest.mark.parametrize(
    ("call", "expected"),
    [
        (lambda x, t: F.mse_loss(x, t), ["MseLossBackward0"]),
        (lambda x, t: F.smooth_l1_loss(x, t), ["SmoothL1LossBackward0"]),
        (lambda x, t: F.huber_loss(x, t), ["HuberLossBackward0"]),
        (lambda x, t: F.l1_loss(x, t), ["MeanBackward0", "AbsBackward0", "SubBackward0"]),
        (lambda x, t: F.l1_loss(x, t, reduction="sum"),
         ["SumBackward0", "AbsBackward0", "SubBackward0"]),
        (lambda x, t: F.smooth_l1_loss(x, t, beta=0.0),
         ["MeanBackward0", "AbsBackward0", "SubBackward0"]),
        (lambda x, t: F.mse_loss(x, t, weight=mg.ones(2, 3)),
         ["DivBackward0", "SumBackward0", "MulBackward0", "PowBackward0", "SubBackward0"]),
    ],
)
def test_pointwise_loss_nodes(call, expected):
    assert chain(call(mg.tensor(X, requires_grad=True), mg.tensor(T))) == expected


@pytest.mark.parametrize("name", ["mse_loss", "smooth_l1_loss", "huber_loss"])
def test_loss_kernels_save_input_and_target(name):
    x = mg.tensor(X, requires_grad=True)
    target = mg.tensor(T)
    y = getattr(F, name)(x, target)
    with mg.no_grad():
        target.add_(1)
    raises_stale(y, "[minigrad.FloatTensor [2, 3]]")


def test_l1_loss_saves_neither_input_nor_target():
    x = mg.tensor(X, requires_grad=True)
    target = mg.tensor(T)
    y = F.l1_loss(x, target)
    with mg.no_grad():
        x.add_(1)
        target.add_(1)
    y.backward()
    close(x.grad, np.array([-1, -1, 1, 1, -1, 1]) / 6)


def test_broadcast_target_warns_and_expands():
    x = mg.tensor([1.0, 2.0, 3.0], requires_grad=True)
    with pytest.warns(UserWarning) as record:
        y = F.mse_loss(x, mg.zeros(2, 3))
    assert str(record[0].message) == text(
        "Using a target size (minigrad.Size([2, 3])) that is different to the input size "
        "(minigrad.Size([3])). This will likely lead to incorrect results due to broadcasting. "
        "Please ensure they have the same size."
    )
    assert record[0].filename == __file__
    assert chain(y) == ["MseLossBackward0", "ExpandBackward0"]
    y.backward()
    close(x.grad, [2 / 3, 4 / 3, 2.0])


def test_mean_of_an_empty_loss_is_nan():
    y = F.mse_loss(mg.zeros(0, 3, requires_grad=True), mg.zeros(0, 3))
    assert np.isnan(y.item())
    assert F.mse_loss(mg.zeros(0, 3), mg.zeros(0, 3), reduction="sum").item() == 0.0


def test_huber_loss_backward_refuses_a_target_of_another_dtype():
    # PyTorch's quirk: the forward casts, the backward raises.
    x = mg.tensor([1.0, 2.0], requires_grad=True)
    y = F.huber_loss(x, mg.tensor([0.0, 0.0], dtype=mg.float64))
    assert y.dtype == mg.float32
    with pytest.raises(RuntimeError) as excinfo:
        y.backward()
    assert str(excinfo.value) == "Found dtype Double but expected Float"


def test_loss_errors():
    x = mg.ones(2, 3)
    with pytest.raises(ValueError) as excinfo:
        F.mse_loss(x, x, reduction="average")
    assert str(excinfo.value) == "average is not a valid value for reduction"
    with pytest.raises(RuntimeError) as excinfo:
        F.smooth_l1_loss(x, x, beta=-1.0)
    assert str(excinfo.value) == "smooth_l1_loss does not support negative values for beta."
    with pytest.raises(RuntimeError) as excinfo:
        F.huber_loss(x, x, delta=0.0)
    assert str(excinfo.value) == "huber_loss does not support non-positive values for delta."
    with pytest.raises(ValueError) as excinfo:
        F.mse_loss(x, x, weight=mg.ones(3))
    assert str(excinfo.value) == "Weights and input must have the same size."


def test_legacy_reduction_flags_warn():
    x = mg.tensor(X, requires_grad=True)
    with pytest.warns(UserWarning) as record:
        y = F.mse_loss(x, mg.tensor(T), size_average=False)
    assert str(record[0].message) == (
        "size_average and reduce args will be deprecated, please use reduction='sum' instead."
    )
    close(y, 3.75)


# ---- binary cross entropy --------------------------------------------------------------------


def test_binary_cross_entropy_clamps_its_logs():
    p = mg.tensor([0.25, 0.5, 1.0, 0.0], requires_grad=True)
    y = F.binary_cross_entropy(p, mg.tensor([1.0, 0.5, 1.0, 1.0]), reduction="none")
    close(y, [1.386294, 0.693147, 0.0, 100.0])
    y.sum().backward()
    # (x - t) / max(x (1 - x), 1e-12)
    close(p.grad, [-4.0, 0.0, 0.0, -999999995904.0])
    assert chain(y) == ["BinaryCrossEntropyBackward0"]


def test_binary_cross_entropy_with_logits_is_stable():
    z = mg.tensor([-30.0, 0.0, 2.0, 50.0], requires_grad=True)
    y = F.binary_cross_entropy_with_logits(
        z, mg.tensor([1.0, 0.5, 1.0, 1.0]), reduction="none", pos_weight=mg.tensor(2.0)
    )
    close(y, [60.0, 1.039721, 0.253856, 0.0])
    y.sum().backward()
    close(z.grad, [-2.0, -0.25, -0.238406, 0.0])


def test_binary_cross_entropy_errors():
    p = mg.full((2, 3), 0.5)
    with pytest.raises(RuntimeError) as excinfo:
        F.binary_cross_entropy(p * 3, p)
    assert str(excinfo.value) == "all elements of input should be between 0 and 1"
    with pytest.raises(ValueError) as excinfo:
        F.binary_cross_entropy(p, mg.full((3,), 0.5))
    assert str(excinfo.value) == text(
        "Using a target size (minigrad.Size([3])) that is different to the input size "
        "(minigrad.Size([2, 3])) is deprecated. Please ensure they have the same size."
    )
    with pytest.raises(RuntimeError) as excinfo:
        F.binary_cross_entropy(p, p, weight=mg.ones(3, requires_grad=True))
    assert str(excinfo.value) == (
        "The function 'binary_cross_entropy' is not differentiable with respect to argument "
        "'weight'. This input cannot have requires_grad True."
    )
    with pytest.raises(ValueError) as excinfo:
        F.binary_cross_entropy_with_logits(p, mg.full((3,), 0.5))
    assert str(excinfo.value) == text(
        "Target size (minigrad.Size([3])) must be the same as input size (minigrad.Size([2, 3]))"
    )


# ---- cross entropy and nll_loss --------------------------------------------------------------

LOGITS = [[2.0, 0.0, -1.0], [0.5, 0.5, 0.5], [1.0, 3.0, 0.0], [0.0, -2.0, 1.0]]


def logits():
    return mg.tensor(LOGITS, requires_grad=True)


@pytest.mark.parametrize(
    ("options", "value", "grad"),
    [
        ({}, 0.446829, [-0.039051, 0.028549, 0.010503, 0.083333, 0.083333, -0.166667,
                        0.028549, -0.039051, 0.010503, 0.064874, 0.00878, -0.073654]),
        ({"weight": [1.0, 2.0, 0.5]}, 0.308338,
         [-0.039051, 0.028549, 0.010503, 0.041667, 0.041667, -0.083333,
          0.057098, -0.078103, 0.021005, 0.032437, 0.00439, -0.036827]),
        ({"ignore_index": 2}, 0.169846,
         [-0.078103, 0.057098, 0.021005, 0.0, 0.0, 0.0, 0.057098, -0.078103, 0.021005,
          0.0, 0.0, 0.0]),
        ({"label_smoothing": 0.1}, 0.563496,
         [-0.022385, 0.020215, 0.002169, 0.075, 0.075, -0.15, 0.020215, -0.022385, 0.002169,
          0.056541, 0.000446, -0.056987]),
        ({"weight": [1.0, 2.0, 0.5], "label_smoothing": 0.2, "ignore_index": 1}, 0.962835,
         [0.002627, -0.007666, 0.005039, 0.072222, 0.038889, -0.111111, 0.0, 0.0, 0.0,
          0.048841, -0.055546, 0.006705]),
    ],
)
def test_cross_entropy_with_class_indices(options, value, grad):
    if "weight" in options:
        options = {**options, "weight": mg.tensor(options["weight"])}
    x = logits()
    y = F.cross_entropy(x, mg.tensor([0, 2, 1, 2]), **options)
    close(y, value)
    y.backward()
    close(x.grad, grad)


def test_cross_entropy_with_class_probabilities():
    x = logits()
    target = mg.tensor([[0.5, 0.5, 0.0], [0.2, 0.3, 0.5], [1.0, 0.0, 0.0], [0.0, 0.0, 1.0]])
    y = F.cross_entropy(x, target)
    close(y, 1.196829)
    assert chain(y) == [
        "DivBackward1", "NegBackward0", "SumBackward0", "MulBackward0", "LogSoftmaxBackward0"
    ]
    y.backward()
    close(x.grad, [0.085949, -0.096451, 0.010503, 0.033333, 0.008333, -0.041667,
                   -0.221451, 0.210949, 0.010503, 0.064874, 0.00878, -0.073654])


def test_cross_entropy_is_log_softmax_then_nll_loss():
    y = F.cross_entropy(logits(), mg.tensor([0, 2, 1, 2]))
    assert chain(y) == ["NllLossBackward0", "LogSoftmaxBackward0"]
    smoothed = F.cross_entropy(logits(), mg.tensor([0, 2, 1, 2]), label_smoothing=0.1)
    assert smoothed.grad_fn.name() == "AddBackward0"
    assert [f.name() for f, _ in smoothed.grad_fn.next_functions] == ["MulBackward1"] * 2
    assert chain(smoothed) == [
        "AddBackward0", "MulBackward1", "NllLossBackward0", "LogSoftmaxBackward0"
    ]


def test_writing_the_logits_after_cross_entropy_is_legal_the_target_not():
    x = logits()
    target = mg.tensor([0, 2, 1, 2])
    y = F.cross_entropy(x, target)
    with mg.no_grad():
        x.add_(1)  # log_softmax saved its result, not its input
    y.backward()
    y = F.cross_entropy(x, target)
    with mg.no_grad():
        target.zero_()
    raises_stale(y, "[minigrad.LongTensor [4]]")


def test_nll_loss_weights_and_ignored_targets():
    x = mg.tensor(LOGITS, requires_grad=True)
    weight = mg.tensor([1.0, 2.0, 0.5])
    y = F.nll_loss(x, mg.tensor([0, 2, 1, 2]), weight=weight, reduction="none")
    close(y, [-2.0, -0.25, -6.0, -0.5])
    # 'mean' divides by the total weight of the counted targets: 1 + 0.5 + 2 + 0.5
    close(F.nll_loss(x, mg.tensor([0, 2, 1, 2]), weight=weight), -8.75 / 4.0)
    all_ignored = F.nll_loss(x, mg.tensor([-100] * 4))
    assert np.isnan(all_ignored.item())
    all_ignored.backward()
    close(x.grad, [0.0] * 12)


def test_nll_loss_on_images_folds_to_2d():
    x = mg.zeros(2, 3, 5, requires_grad=True)
    assert chain(F.nll_loss(x, mg.zeros(2, 5, dtype=mg.int64))) == [
        "NllLoss2DBackward0", "ViewBackward0"
    ]
    y = F.nll_loss(x, mg.zeros(2, 5, dtype=mg.int64), reduction="none")
    assert chain(y) == ["ViewBackward0", "NllLoss2DBackward0", "ViewBackward0"]
    assert y.shape == (2, 5)


def test_nll_loss_errors():
    x = mg.zeros(4, 3)
    with pytest.raises(IndexError) as excinfo:
        F.nll_loss(x, mg.tensor([0, 3, 1, 2]))
    assert str(excinfo.value) == "Target 3 is out of bounds."
    with pytest.raises(RuntimeError) as excinfo:
        F.nll_loss(x, mg.tensor([0.0, 1.0, 1.0, 2.0]))
    assert str(excinfo.value) == "expected target dtype to be Long or Byte, but got Float"
    with pytest.raises(ValueError) as excinfo:
        F.nll_loss(x, mg.tensor([0, 1]))
    assert str(excinfo.value) == "Expected input batch_size (4) to match target batch_size (2)."
    with pytest.raises(RuntimeError) as excinfo:
        F.cross_entropy(x, mg.full((4, 3), 0.2), ignore_index=1)
    assert str(excinfo.value) == "ignore_index is not supported for floating point target"


# ---- kl_div, cosine_similarity ---------------------------------------------------------------


def test_kl_div():
    x = mg.tensor([[-1.0, -0.5, -2.0], [-0.2, -3.0, -1.0]], requires_grad=True)
    target = mg.tensor([[0.2, 0.5, 0.3], [0.0, 0.4, 0.6]])
    y = F.kl_div(x, target, reduction="batchmean")
    close(y, 0.573668)
    assert chain(y) == ["DivBackward0", "SumBackward0", "SubBackward0", "MulBackward0"]
    y.backward()
    close(x.grad, [-0.1, -0.25, -0.15, 0.0, -0.2, -0.3])


def test_kl_div_mean_warns():
    x = mg.zeros(2, 3)
    with pytest.warns(UserWarning) as record:
        F.kl_div(x, mg.full((2, 3), 0.5))
    assert str(record[0].message) == (
        "reduction: 'mean' divides the total loss by both the batch size and the support size."
        "'batchmean' divides only by the batch size, and aligns with the KL div math definition."
        "'mean' will be changed to behave the same as 'batchmean' in the next major release."
    )


def test_cosine_similarity():
    a = mg.tensor([[1.0, 0.0, 0.0], [1.0, 2.0, 2.0]], requires_grad=True)
    b = mg.tensor([[1.0, 1.0, 0.0], [0.0, 0.0, 0.0]], requires_grad=True)
    y = F.cosine_similarity(a, b)
    close(y, [0.707107, 0.0])
    assert chain(y) == [
        "SumBackward1", "MulBackward0", "DivBackward0", "CloneBackward0",
        "LinalgVectorNormBackward0",
    ]
    y.sum().backward()
    close(a.grad, [0.0, 0.707107, 0.0, 0.0, 0.0, 0.0])
    # The zero vector's norm is clamped to eps without recording: huge, finite gradients.
    close(b.grad, [0.353553, -0.353553, 0.0, 33333334.0, 66666668.0, 66666668.0])


# ---- dropout ---------------------------------------------------------------------------------


def test_dropout_returns_the_input_itself_when_it_does_nothing():
    x = mg.ones(3, requires_grad=True)
    assert F.dropout(x, 0.0) is x
    assert F.dropout(x, 0.5, training=False) is x
    assert F.dropout(x, 0.5, training=False, inplace=True) is x


def test_dropout_zeroes_and_rescales():
    mg.manual_seed(0)
    x = mg.full((10000,), 3.0, requires_grad=True)
    y = F.dropout(x, 0.3)
    assert y.grad_fn.name() == "MulBackward0"
    values = y.detach().numpy()
    kept = values != 0
    np.testing.assert_allclose(values[kept], 3.0 / 0.7, rtol=1e-6)
    assert 0.27 < 1 - kept.mean() < 0.33
    y.sum().backward()
    # The gradient is the saved mask: 1 / (1 - p) where kept, 0 elsewhere.
    np.testing.assert_allclose(x.grad.numpy(), values / 3.0, rtol=1e-6)


def test_dropout_is_repeatable_with_a_seed():
    x = mg.ones(50)
    mg.manual_seed(7)
    first = F.dropout(x, 0.5)
    mg.manual_seed(7)
    second = F.dropout(x, 0.5)
    assert bool((first == second).all())


def test_dropout_saves_only_its_mask():
    x = mg.ones(5, requires_grad=True)
    y = F.dropout(x, 0.5)
    with mg.no_grad():
        y.add_(1)
    y.sum().backward()
    assert x.grad is not None


def test_dropout_p1_multiplies_by_a_zero():
    x = mg.tensor([1.0, -2.0], requires_grad=True)
    y = F.dropout(x, 1.0)
    assert y.tolist() == [0.0, -0.0]
    assert y.grad_fn.name() == "MulBackward0"


def test_dropout_in_place():
    x = mg.ones(6, requires_grad=True)
    y = x * 1
    out = F.dropout(y, 0.5, inplace=True)
    assert out is y
    assert y._version == 1
    assert y.grad_fn.name() == "MulBackward0"
    with pytest.raises(ValueError) as excinfo:
        F.dropout(x, 1.5)
    assert str(excinfo.value) == "dropout probability has to be between 0 and 1, but got 1.5"


# ---- normalization ---------------------------------------------------------------------------


def test_layer_norm():
    x = mg.tensor([[1.0, 2.0, 4.0], [0.0, 0.0, 3.0]], requires_grad=True)
    w = mg.tensor([1.0, 0.5, 2.0], requires_grad=True)
    b = mg.tensor([0.0, 1.0, -1.0], requires_grad=True)
    y = F.layer_norm(x, (3,), w, b)
    close(y, [-1.069041, 0.86637, 1.672604, -0.707105, 0.646448, 1.82842], atol=1e-5)
    assert y.grad_fn.name() == "NativeLayerNormBackward0"
    (y * mg.tensor([[1.0, 2.0, 3.0], [0.5, -1.0, 0.0]])).sum().backward()
    close(x.grad, [0.572688, -0.859055, 0.286365, 0.353552, -0.353552, 0.0], atol=1e-5)
    close(w.grad, [-1.422594, 0.172584, 4.008905], atol=1e-5)
    close(b.grad, [1.5, 1.0, 3.0])


def test_layer_norm_saves_its_bias_too():
    b = mg.zeros(3, requires_grad=True)
    y = F.layer_norm(mg.tensor([[1.0, 2.0, 4.0]], requires_grad=True), (3,), mg.ones(3), b)
    with mg.no_grad():
        b.add_(1)
    raises_stale(y.sum(), "[minigrad.FloatTensor [3]]")


def test_layer_norm_errors():
    with pytest.raises(RuntimeError) as excinfo:
        F.layer_norm(mg.ones(4, 3, 5), (4,))
    assert str(excinfo.value) == (
        "Given normalized_shape=[4], expected input with shape [*, 4], but got input of "
        "size[4, 3, 5]"
    )
    with pytest.raises(TypeError) as excinfo:
        F.layer_norm(mg.ones(4, 5), 5)
    assert str(excinfo.value) == (
        "layer_norm(): argument 'normalized_shape' (position 2) must be tuple of ints, not int"
    )


def batch_norm_operands():
    x = mg.tensor([[1.0, 2.0], [3.0, -2.0], [5.0, 0.0]], requires_grad=True)
    running_mean, running_var = mg.tensor([0.5, 0.0]), mg.tensor([1.0, 2.0])
    w = mg.tensor([2.0, 1.0], requires_grad=True)
    b = mg.tensor([0.0, 1.0], requires_grad=True)
    return x, running_mean, running_var, w, b


def test_batch_norm_training_updates_the_running_statistics_without_a_version_bump():
    x, running_mean, running_var, w, b = batch_norm_operands()
    y = F.batch_norm(x, running_mean, running_var, w, b, training=True, momentum=0.5)
    close(y, [-2.449485, 2.224742, 0.0, -0.224743, 2.449485, 1.0])
    # momentum * batch statistic (unbiased variance) + (1 - momentum) * running
    close(running_mean, [1.75, 0.0])
    close(running_var, [2.5, 3.0])
    assert running_mean._version == 0 and running_var._version == 0
    assert y.grad_fn.name() == "NativeBatchNormBackward0"
    (y * mg.tensor([[1.0, 0.0], [2.0, 1.0], [0.0, -1.0]])).sum().backward()
    close(x.grad, [-0.612369, 0.306184, 1.224743, 0.306187, -0.612374, -0.612371], atol=1e-5)
    close(w.grad, [-1.224743, -1.224743])
    close(b.grad, [3.0, 0.0])


def test_batch_norm_updates_the_running_statistics_under_no_grad_too():
    x, running_mean, running_var, _, _ = batch_norm_operands()
    with mg.no_grad():
        F.batch_norm(x, running_mean, running_var, training=True, momentum=0.5)
    close(running_mean, [1.75, 0.0])


def test_batch_norm_evaluation_uses_the_running_statistics():
    x, running_mean, running_var, w, b = batch_norm_operands()
    y = F.batch_norm(x, running_mean, running_var, w, b)
    close(y, [0.999995, 2.41421, 4.999975, -0.41421, 8.999955, 1.0], atol=1e-5)
    y.sum().backward()
    close(x.grad, [1.99999, 0.707105, 1.99999, 0.707105, 1.99999, 0.707105], atol=1e-5)
    close(w.grad, [7.5, 0.0], atol=1e-5)
    close(b.grad, [3.0, 3.0])
    close(running_mean, [0.5, 0.0])


@pytest.mark.parametrize("training", [True, False])
def test_batch_norm_saves_the_running_statistics(training):
    x, running_mean, running_var, w, b = batch_norm_operands()
    y = F.batch_norm(x, running_mean, running_var, w, b, training=training)
    with mg.no_grad():
        running_var.add_(1)
    raises_stale(y.sum(), "[minigrad.FloatTensor [2]]")


def test_batch_norm_errors():
    with pytest.raises(ValueError) as excinfo:
        F.batch_norm(mg.ones(1, 3), mg.zeros(3), mg.ones(3), training=True)
    assert str(excinfo.value) == text(
        "Expected more than 1 value per channel when training, got input size "
        "minigrad.Size([1, 3])"
    )
    with pytest.raises(RuntimeError) as excinfo:
        F.batch_norm(mg.ones(4, 3), mg.zeros(2), mg.ones(3), training=True)
    assert str(excinfo.value) == "running_mean should contain 3 elements not 2"
    with pytest.raises(RuntimeError) as excinfo:
        F.batch_norm(mg.ones(4, 3), None, None)
    assert str(excinfo.value) == "running_mean must be defined in evaluation mode"


# ---- embedding -------------------------------------------------------------------------------


def embedding_weight():
    return mg.tensor([[0.0, 1.0], [2.0, 3.0], [4.0, 5.0]], requires_grad=True)


def test_embedding_gradient_adds_rows_and_skips_padding():
    w = embedding_weight()
    y = F.embedding(mg.tensor([[0, 2], [2, 2]]), w, padding_idx=0)
    close(y, [0.0, 1.0, 4.0, 5.0, 4.0, 5.0, 4.0, 5.0])
    assert y.grad_fn.name() == "EmbeddingBackward0"
    y.sum().backward()
    close(w.grad, [0.0, 0.0, 0.0, 0.0, 3.0, 3.0])
    w.grad = None
    F.embedding(mg.tensor([[0, 2], [2, 2]]), w, scale_grad_by_freq=True).sum().backward()
    close(w.grad, [1.0, 1.0, 0.0, 0.0, 1.0, 1.0])


def test_embedding_saves_the_indices_not_the_weight():
    w = embedding_weight()
    indices = mg.tensor([0, 2])
    y = F.embedding(indices, w)
    with mg.no_grad():
        w.add_(1)
    y.sum().backward()
    y = F.embedding(indices, w)
    with mg.no_grad():
        indices.add_(0)
    raises_stale(y.sum(), "[minigrad.LongTensor [2]]")


def test_embedding_max_norm_renormalizes_rows_in_place():
    w = mg.tensor([[3.0, 4.0], [0.3, 0.4], [1.0, 0.0]])
    F.embedding(mg.tensor([0, 1, 0]), w, max_norm=1.0)
    close(w, [0.6, 0.8, 0.3, 0.4, 1.0, 0.0])
    assert w._version == 1


def test_embedding_errors():
    with pytest.raises(IndexError) as excinfo:
        F.embedding(mg.tensor([3]), embedding_weight())
    assert str(excinfo.value) == "index out of range in self"
    with pytest.raises(RuntimeError) as excinfo:
        F.embedding(mg.tensor([1.0]), embedding_weight())
    assert str(excinfo.value) == text(
        "Expected tensor for argument #1 'indices' to have one of the following scalar types: "
        "Long, Int; but got minigrad.FloatTensor instead (while checking arguments for embedding)"
    )


# ---- convolution -----------------------------------------------------------------------------


def conv_operands():
    x = mg.arange(16.0).reshape(1, 1, 4, 4).requires_grad_()
    w = mg.tensor([[[[1.0, 0.0], [0.0, -1.0]]], [[[0.5, 0.5], [0.5, 0.5]]]], requires_grad=True)
    b = mg.tensor([0.0, 1.0], requires_grad=True)
    return x, w, b


def test_conv2d():
    x, w, b = conv_operands()
    y = F.conv2d(x, w, b, stride=2, padding=1)
    assert y.shape == (1, 2, 3, 3)
    close(y, [0.0, -2.0, 0.0, -8.0, -5.0, 7.0, 0.0, 13.0, 15.0,
              1.0, 2.5, 2.5, 7.0, 16.0, 10.0, 7.0, 14.5, 8.5])
    assert y.grad_fn.name() == "ConvolutionBackward0"
    y.sum().backward()
    close(x.grad, [-0.5, 0.5, -0.5, 0.5, 0.5, 1.5, 0.5, 1.5,
                   -0.5, 0.5, -0.5, 0.5, 0.5, 1.5, 0.5, 1.5])
    close(w.grad, [40.0, 36.0, 24.0, 20.0, 40.0, 36.0, 24.0, 20.0])
    close(b.grad, [9.0, 9.0])


def test_conv2d_second_derivative():
    x, w, _ = conv_operands()
    (gw,) = mg.autograd.grad(
        F.conv2d(x, w, stride=2, padding=1).pow(2).sum(), w, create_graph=True
    )
    close(gw, [836.0, 240.0, 60.0, -236.0, 852.0, 750.0, 480.0, 402.0])
    assert gw.grad_fn.name() == "ConvolutionBackwardBackward0"
    gw.sum().backward()
    close(x.grad, [0.0, 2.0, -4.0, 6.0, 8.0, 110.0, 50.0, 86.0,
                   -16.0, 50.0, -10.0, 50.0, 24.0, 134.0, 80.0, 90.0])


def test_conv_saves_input_and_weight_not_bias():
    x, w, b = conv_operands()
    y = F.conv2d(x, w, b)
    with mg.no_grad():
        b.add_(1)
    y.sum().backward()
    y = F.conv2d(x, w, b)
    with mg.no_grad():
        w.add_(1)
    raises_stale(y.sum(), "[minigrad.FloatTensor [2, 1, 2, 2]]")


def test_unbatched_convolution_is_unsqueezed_and_squeezed():
    y = F.conv1d(mg.ones(4, 7, requires_grad=True), mg.ones(3, 4, 3))
    assert y.shape == (3, 5)
    assert chain(y) == ["SqueezeBackward1", "ConvolutionBackward0", "UnsqueezeBackward0"]


def test_same_padding_with_an_even_kernel_pads_the_far_end():
    x = mg.ones(1, 1, 4, 4, requires_grad=True)
    with warnings.catch_warnings():
        # PyTorch warns once per process that this makes a padded copy.
        warnings.simplefilter("ignore")
        y = F.conv2d(x, mg.ones(1, 1, 2, 2), padding="same")
    assert y.shape == (1, 1, 4, 4)
    assert chain(y) == ["ConvolutionBackward0", "ConstantPadNdBackward0"]
    close(y, [4, 4, 4, 2, 4, 4, 4, 2, 4, 4, 4, 2, 2, 2, 2, 1])


def test_conv_errors():
    with pytest.raises(RuntimeError) as excinfo:
        F.conv2d(mg.ones(2, 4, 6, 6), mg.ones(6, 2, 3, 3))
    assert str(excinfo.value) == (
        "Given groups=1, weight of size [6, 2, 3, 3], expected input[2, 4, 6, 6] to have 2 "
        "channels, but got 4 channels instead"
    )
    with pytest.raises(RuntimeError) as excinfo:
        F.conv2d(mg.ones(2, 4, 6), mg.ones(6, 4, 3, 3))
    assert str(excinfo.value) == text(
        "Given groups=1, weight of size [6, 4, 3, 3], expected input[1, 2, 4, 6] to have 4 "
        "channels, but got 2 channels instead"
    )
    with pytest.raises(RuntimeError) as excinfo:
        F.conv1d(mg.ones(2, 4, 6, 6), mg.ones(6, 4, 3))
    assert str(excinfo.value) == (
        "Expected 2D (unbatched) or 3D (batched) input to conv1d, but got input of size: "
        "[2, 4, 6, 6]"
    )


# ---- pooling ---------------------------------------------------------------------------------

POOL_INPUT = [[[[1.0, 3.0, 2.0, 1.0], [4.0, 0.0, 4.0, -1.0], [0.0, 1.0, 5.0, 5.0]]]]


def test_max_pool2d_routes_the_gradient_to_each_maximum():
    x = mg.tensor(POOL_INPUT, requires_grad=True)
    y, indices = F.max_pool2d(x, 2, stride=1, return_indices=True)
    close(y, [4.0, 4.0, 4.0, 4.0, 5.0, 5.0])
    assert indices.tolist() == [[[[4, 6, 6], [4, 10, 10]]]]
    assert indices.dtype == mg.int64 and not indices.requires_grad
    assert y.grad_fn.name() == "MaxPool2DWithIndicesBackward0"
    y.sum().backward()
    close(x.grad, [0.0, 0.0, 0.0, 0.0, 2.0, 0.0, 2.0, 0.0, 0.0, 0.0, 2.0, 0.0])


def test_max_pool2d_ties_nan_and_padding():
    x = mg.tensor([[[[1.0, float("nan"), 2.0, float("nan")]]]])
    assert F.max_pool2d(x, (1, 4), return_indices=True)[1].item() == 3  # the last nan
    assert F.max_pool2d(mg.ones(1, 1, 2, 2), 2, return_indices=True)[1].item() == 0  # first max
    x = mg.full((1, 1, 1, 4), float("-inf"))
    _, indices = F.max_pool2d(x, (1, 2), padding=(0, 1), return_indices=True)
    assert indices.tolist() == [[[[0, 1, 3]]]]  # padding never wins


def test_max_pool2d_saves_the_input_not_the_output():
    x = mg.tensor(POOL_INPUT, requires_grad=True)
    y = F.max_pool2d(x * 1, 2)
    with mg.no_grad():
        y.add_(1)
    y.sum().backward()
    h = x * 1
    y = F.max_pool2d(h, 2)
    with mg.no_grad():
        h.add_(1)
    raises_stale(y.sum(), "[minigrad.FloatTensor [1, 1, 3, 4]], which is output 0 of Mul,")


def test_writing_the_indices_breaks_max_pool_backward():
    # The indices are saved (output 1), but have no grad_fn: the message names no producer.
    x = mg.tensor(POOL_INPUT, requires_grad=True)
    y, indices = F.max_pool2d(x, 2, return_indices=True)
    with mg.no_grad():
        indices.add_(0)
    raises_stale(y.sum(), "[minigrad.LongTensor [1, 1, 1, 2]]")


def test_avg_pool2d_divisors():
    x = mg.tensor(POOL_INPUT, requires_grad=True)
    y = F.avg_pool2d(x, 2, stride=2, padding=1, ceil_mode=True, count_include_pad=False)
    close(y, [1.0, 2.5, 1.0, 2.0, 2.5, 2.0])
    assert y.grad_fn.name() == "AvgPool2DBackward0"
    y.sum().backward()
    close(x.grad, [1.0, 0.5, 0.5, 1.0, 0.5, 0.25, 0.25, 0.5, 0.5, 0.25, 0.25, 0.5])
    y = F.avg_pool2d(x, 2, stride=2, padding=1, ceil_mode=True)
    close(y, [0.25, 1.25, 0.25, 1.0, 2.5, 1.0])


def test_pool_errors():
    x = mg.ones(2, 4, 6, 6)
    with pytest.raises(RuntimeError) as excinfo:
        F.max_pool2d(x, 7)
    assert str(excinfo.value) == (
        "Given input size: (4x6x6). Calculated output size: (4x0x0). Output size is too small"
    )
    with pytest.raises(RuntimeError) as excinfo:
        F.avg_pool2d(x, 3, padding=2)
    assert str(excinfo.value) == (
        "pad should be at most half of effective kernel size, but got pad=2, kernel_size=3 and "
        "dilation=1"
    )
    with pytest.raises(RuntimeError) as excinfo:
        F.max_pool2d(mg.ones(6, 6), 2)
    assert str(excinfo.value) == "non-empty 3D or 4D (batch mode) tensor expected for input"


# ---- softmax and activations -----------------------------------------------------------------


def test_softmax_without_dim_warns_and_picks_one():
    x = mg.tensor([[0.0, 1.0], [2.0, 3.0]])
    with pytest.warns(UserWarning) as record:
        y = F.softmax(x)
    assert str(record[0].message) == (
        "Implicit dimension choice for softmax has been deprecated. Change the call to include "
        "dim=X as an argument."
    )
    close(y, [0.268941, 0.731059, 0.268941, 0.731059])


def test_relu_in_place():
    x = mg.tensor([-1.0, 2.0], requires_grad=True)
    h = x * 1
    assert F.relu(h, inplace=True) is h
    assert h.grad_fn.name() == "ReluBackward0"
    assert h.tolist() == [0.0, 2.0]


def test_softmax_outputs_are_contiguous_even_for_transposed_inputs():
    # numpy would keep the input's layout; PyTorch's softmax kernels always write a fresh,
    # contiguous result, so cross_entropy over a transposed 3-D input records no extra copy.
    x = mg.arange(30.0).reshape(2, 5, 3).transpose(1, 2)
    assert F.softmax(x, 1).is_contiguous()
    assert F.log_softmax(x, 1).is_contiguous()
    logits = mg.arange(30.0, requires_grad=True).reshape(2, 5, 3).transpose(1, 2)
    target = mg.zeros(2, 3, dtype=mg.int64)
    node, chain = F.cross_entropy(logits.transpose(1, 2), target).grad_fn, []
    while node is not None:
        chain.append(node.name())
        node = node.next_functions[0][0] if node.next_functions else None
    assert chain == [  # as PyTorch 2.13 records it: no CloneBackward0
        "NllLoss2DBackward0", "ViewBackward0", "LogSoftmaxBackward0", "TransposeBackward0",
        "TransposeBackward0", "ViewBackward0", "torch::autograd::AccumulateGrad",
    ]


# --- rrelu in training mode: random slopes (the op table compares eval mode with PyTorch) -------


@pytest.mark.parametrize("inplace", [False, True])
def test_rrelu_training_draws_a_uniform_slope_per_element_and_its_gradient_is_that_slope(inplace):
    mg.manual_seed(0)
    negative = -mg.rand(20000, dtype=mg.float64) - 0.01
    x = mg.cat([negative, mg.tensor([0.0, 0.5, 2.0], dtype=mg.float64)]).requires_grad_()
    y = F.rrelu(x.clone() if inplace else x, 0.1, 0.3, training=True, inplace=inplace)
    assert y.grad_fn.name() == ("RreluWithNoiseBackward1" if inplace else "RreluWithNoiseBackward0")
    slopes = (y[:20000] / x[:20000]).detach().numpy()
    # U(0.1, 0.3): within the bounds, mean 0.2, standard deviation 0.2 / sqrt(12) = 0.0577
    assert slopes.min() >= 0.1 and slopes.max() <= 0.3
    assert abs(slopes.mean() - 0.2) < 0.002 and abs(slopes.std() - 0.0577) < 0.002
    assert len(np.unique(slopes)) > 19000  # one draw per element
    assert y[20000].item() == 0.0 and y[20001:].tolist() == [0.5, 2.0]  # x > 0 is kept
    noise = y.grad_fn._saved_noise.numpy()
    np.testing.assert_allclose(noise[:20000], slopes, rtol=1e-12)
    assert noise[-2:].tolist() == [1.0, 1.0]
    y.sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), noise)  # the gradient is the sampled slope


def test_rrelu_training_with_an_empty_range_takes_leaky_relus_gradient():
    x = mg.tensor([-2.0, 3.0], dtype=mg.float64, requires_grad=True)
    y = F.rrelu(x, 0.2, 0.2, training=True)
    y.sum().backward()
    assert y.tolist() == pytest.approx([-0.4, 3.0]) and x.grad.tolist() == pytest.approx([0.2, 1.0])


# --- normalize's out= and rms_norm in float16 (values printed by PyTorch 2.13) --------------------


def test_normalize_with_out_writes_the_clamped_quotient_into_out():
    a = mg.tensor([[3.0, 4.0], [0.0, 1e-13]])
    out = mg.empty(2, 2)
    assert F.normalize(a, out=out) is out
    np.testing.assert_allclose(out.numpy(), [[0.6, 0.8], [0.0, 0.1]], rtol=1e-6)
    assert out._version == 1


def test_rms_norm_computes_float16_in_float32_with_its_epsilon():
    x = mg.tensor([[1e-3, 2e-3, -3e-3], [1.0, -2.0, 0.5]], dtype=mg.float16, requires_grad=True)
    y = F.rms_norm(x, (3,))
    assert y.dtype == mg.float16 and y.grad_fn.name() == "ToCopyBackward0"
    np.testing.assert_allclose(y.detach().numpy(), [[0.4573, 0.9146, -1.3711],
                                                    [0.7559, -1.5117, 0.3779]], rtol=1e-3)
    y.sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), [[457.0, 457.0, 457.0],
                                                [0.8281, 0.6118, 0.7920]], rtol=1e-3)


def test_group_norm_with_a_bias_but_no_weight_fails_in_backward_as_in_pytorch():
    # PyTorch 2.13's CPU kernel reads the absent weight in backward; forward works.
    x = mg.tensor([[1.0, 2.0, 4.0, 8.0]], requires_grad=True)
    bias = mg.tensor([0.5, 0.5, 0.5, 0.5], requires_grad=True)
    y = F.group_norm(x, 2, None, bias)
    np.testing.assert_allclose(y.detach().numpy(), [[-0.49999, 1.49999, -0.49999, 1.49999]],
                               rtol=1e-4)
    with pytest.raises(RuntimeError, match="^tensor does not have a device$"):
        y.sum().backward()
