"""The layers, activations and losses as modules: values, gradients, state and messages.

Weights are set deterministically (``fill``), so every expected number below is what PyTorch
2.13 computes for the same module; MINIGRAD_TEST_REFERENCE=torch runs this file on PyTorch.
"""

import numpy as np
import pytest
from _backend import mg, text

nn = mg.nn


def fill(module, scale=0.1):
    """Set every parameter to ((0, 1, 2, ...) % 7 - 3) * scale, reshaped."""
    with mg.no_grad():
        for param in module.parameters():
            count = param.numel()
            values = (np.arange(count, dtype=np.float32).reshape(tuple(param.shape)) % 7 - 3)
            param.copy_(mg.tensor(values * scale))
    return module


def close(actual, expected, atol=1e-4):
    values = actual.detach().numpy() if hasattr(actual, "detach") else np.asarray(actual)
    np.testing.assert_allclose(values, np.asarray(expected, dtype=np.float64), atol=atol)


X = [[1.0, 2.0, 0.0], [3.0, -1.0, 1.0], [0.5, 0.5, 2.0], [2.0, 0.0, -1.0]]
HIDDEN = [[0.5, -0.5], [0.1, 0.2]]


# --- normalization ---------------------------------------------------------------------------


def test_batchnorm_running_statistics_and_eval_mode():
    x = mg.tensor(X)
    bn = nn.BatchNorm1d(3)
    bn(x)
    out = bn(x * 2)
    close(bn.running_mean, [0.4713, 0.1088, 0.1450])
    close(bn.running_var, [1.4123, 1.5756, 1.6267])
    assert bn.num_batches_tracked.item() == 2 and bn.num_batches_tracked.dtype == mg.int64
    close(out, [[-0.6509, 1.5011, -0.4472], [1.4321, -1.2702, 0.4472],
                [-1.1717, 0.1155, 1.3416], [0.3906, -0.3464, -1.3416]])
    bn.eval()
    close(bn(x), [[0.4449, 1.5067, -0.1137], [2.1279, -0.8833, 0.6704],
                  [0.0242, 0.3117, 1.4544], [1.2864, -0.0866, -0.8977]])
    assert bn.num_batches_tracked.item() == 2


def test_batchnorm_versions_follow_pytorch():
    bn = nn.BatchNorm1d(3)
    versions = [bn.running_mean._version, bn.running_var._version, bn.num_batches_tracked._version]
    assert versions == [1, 1, 1]  # reset_running_stats wrote them once
    bn(mg.tensor(X))
    # The kernel updates the running statistics without a version bump; the count is add_-ed.
    assert [bn.running_mean._version, bn.num_batches_tracked._version] == [1, 2]


def test_batchnorm_cumulative_average_and_no_stats():
    x = mg.tensor(X)
    bn = nn.BatchNorm1d(3, momentum=None)
    bn(x)
    bn(x * 2)
    close(bn.running_mean, [2.4375, 0.5625, 0.7500])
    close(bn.running_var, [3.0729, 3.9062, 4.1667])
    plain = nn.BatchNorm1d(3, affine=False, track_running_stats=False).eval()
    assert plain.running_mean is None and list(plain.state_dict()) == []
    close(plain(x)[0], [-0.6509, 1.5011, -0.4472])  # no running stats: batch stats even in eval


def test_batchnorm_input_rank_errors():
    with pytest.raises(ValueError) as excinfo:
        nn.BatchNorm1d(3)(mg.zeros(2, 3, 4, 5))
    assert str(excinfo.value) == "expected 2D or 3D input (got 4D input)"
    with pytest.raises(ValueError) as excinfo:
        nn.BatchNorm2d(3)(mg.zeros(2, 3))
    assert str(excinfo.value) == "expected 4D input (got 2D input)"


def test_layer_norm_parameters_start_at_one_and_zero():
    layer = nn.LayerNorm((2, 3))
    assert layer.weight.tolist() == [[1.0] * 3] * 2 and layer.bias.tolist() == [[0.0] * 3] * 2
    assert nn.LayerNorm(3, elementwise_affine=False).weight is None
    assert nn.LayerNorm(3, bias=False).bias is None


# --- recurrent cells ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "cell_name, expected_out, expected_input_grad, expected_weight_hh_grad_sum",
    [
        ("RNNCell", [[-0.8741, -0.2449], [-0.8996, -0.3004]],
         [[-0.0708, 0.0468, 0.1644], [-0.0572, 0.0528, 0.1629]], 0.330149),
        ("GRUCell", [[0.6403, -0.3350], [0.1032, -0.0251]],
         [[-0.0347, 0.0636, -0.0871], [-0.0591, 0.0383, -0.0728]], 0.123016),
        ("LSTMCell", [[1.2238, -0.0309], [0.0739, -0.6423]],
         [[0.0086, -0.1666, -0.1334], [0.0371, 0.0962, -0.1625]], 0.177331),
    ],
)
def test_recurrent_cells(cell_name, expected_out, expected_input_grad,
                         expected_weight_hh_grad_sum):
    cell = fill(getattr(nn, cell_name)(3, 2))
    inputs = mg.tensor(X[:2], requires_grad=True)
    if cell_name == "LSTMCell":
        h, c = cell(inputs, (mg.tensor(HIDDEN), mg.tensor([[1.0, 0.0], [0.0, -1.0]])))
        out = h * 2 + c
    else:
        out = cell(inputs, mg.tensor(HIDDEN))
    out.sum().backward()
    close(out, expected_out)
    close(inputs.grad, expected_input_grad)
    assert cell.weight_hh.grad.sum().item() == pytest.approx(expected_weight_hh_grad_sum, abs=1e-5)


def test_recurrent_cells_unbatched_default_state_and_errors():
    cell = fill(nn.RNNCell(3, 2, nonlinearity="relu"))
    close(cell(mg.tensor(X[0])), [0.0, 0.0])
    h, c = nn.LSTMCell(3, 2)(mg.ones(3))
    assert h.shape == (2,) and c.shape == (2,)
    gru = nn.GRUCell(3, 2)
    for args, message in [
        ((mg.zeros(2, 5),), "input has inconsistent input_size: got 5 expected 3"),
        ((mg.zeros(2, 3), mg.zeros(3, 2)),
         "Input batch size 2 doesn't match hidden0 batch size 3"),
        ((mg.zeros(2, 3), mg.zeros(2, 5)),
         "hidden0 has inconsistent hidden_size: got 5, expected 2"),
    ]:
        with pytest.raises(RuntimeError) as excinfo:
            gru(*args)
        assert str(excinfo.value) == message
    with pytest.raises(ValueError) as excinfo:
        gru(mg.zeros(1, 2, 3))
    assert str(excinfo.value) == "GRUCell: Expected input to be 1D or 2D, got 3D instead"


# --- convolution ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "mode, row, input_grad",
    [
        ("reflect", [-1.1, -0.8, -1.3, -1.8, -2.1, -1.6],
         [[-4.3, -8.0, -8.6, -5.2], [-6.6, -14.4, -18.0, -9.9], [-12.1, -26.0, -30.2, -14.2],
          [3.4, 6.8, 5.6, 3.7]]),
        ("replicate", [-0.7, -0.8, -1.3, -1.8, -2.2, -2.2],
         [[-10.5, -6.0, -6.9, -11.7], [-14.8, -6.3, -6.8, -12.0], [-20.2, -9.3, -9.8, -18.6],
          [11.5, 0.0, -0.1, -16.5]]),
        ("circular", [-1.9, -0.8, -1.3, -1.8, -1.9, -0.8],
         [[-20.8, -12.8, -5.0, -12.1], [-10.0, -6.8, -10.4, -12.7], [-16.0, -10.4, -13.4, -18.1],
          [-0.4, 2.8, 5.2, 2.9]]),
    ],
)
def test_conv2d_padding_modes(mode, row, input_grad):
    image = mg.arange(16.0).reshape(1, 1, 4, 4).requires_grad_()
    conv = fill(nn.Conv2d(1, 1, 3, padding=(1, 2), padding_mode=mode))
    out = conv(image)
    (out * mg.arange(out.numel()).reshape(out.shape)).sum().backward()
    assert out.shape == (1, 1, 4, 6)
    close(out[0, 0, 1], row)
    close(image.grad[0, 0], input_grad, atol=1e-3)


def test_conv1d_same_padding_with_dilation_and_reflection():
    conv = fill(nn.Conv1d(2, 2, 3, padding="same", padding_mode="reflect", dilation=2))
    close(conv(mg.arange(10.0).reshape(1, 2, 5)),
          [[[0.8, 1.1, 1.4, 0.9, 0.4], [0.0, -0.6, -1.2, -1.2, -1.2]]])


@pytest.mark.parametrize(
    "make, error, message",
    [
        (lambda: nn.Conv2d(3, 4, 3, groups=2), ValueError,
         "in_channels must be divisible by groups"),
        (lambda: nn.Conv2d(2, 3, 3, groups=2), ValueError,
         "out_channels must be divisible by groups"),
        (lambda: nn.Conv2d(1, 1, 3, padding="same", stride=2), ValueError,
         "padding='same' is not supported for strided convolutions"),
        (lambda: nn.Dropout(1.5), ValueError,
         "dropout probability has to be between 0 and 1, but got 1.5"),
        (lambda: nn.Embedding(3, 2, padding_idx=3), AssertionError,
         "Padding_idx must be within num_embeddings"),
        (lambda: nn.Hardtanh(1.0, -1.0), AssertionError,
         "max_val (-1.0) must be greater than min_val (1.0)"),
        (lambda: nn.Unflatten(1, 4), TypeError,
         "unflattened_size must be a tuple of ints, but found type int"),
    ],
)
def test_constructor_errors(make, error, message):
    with pytest.raises(error) as excinfo:
        make()
    assert str(excinfo.value) == message


def test_invalid_padding_string():
    with pytest.raises(ValueError) as excinfo:
        nn.Conv2d(1, 1, 3, padding="full")
    assert str(excinfo.value) in (  # PyTorch prints a set: either order
        "Invalid padding string 'full', should be one of {'valid', 'same'}",
        "Invalid padding string 'full', should be one of {'same', 'valid'}",
    )


def test_reflect_padding_larger_than_the_input_raises():
    conv = nn.Conv1d(1, 1, 3, padding=3, padding_mode="reflect")
    with pytest.raises(RuntimeError) as excinfo:
        conv(mg.zeros(1, 1, 3))
    assert str(excinfo.value) == (
        "Argument #4: Padding size should be less than the corresponding input dimension, but "
        "got: padding (3, 3) at dimension 2 of input [1, 1, 3]"
    )


# --- other layers ---------------------------------------------------------------------------------


def test_bilinear_and_its_shape_errors():
    layer = fill(nn.Bilinear(2, 3, 2))
    x = mg.tensor(X)
    close(layer(x[:, :2], x[:, :3]), [[-0.6, -0.7], [-2.8, 3.0], [-0.3, -0.325], [-1.3, 1.4]])
    with pytest.raises(RuntimeError) as excinfo:
        layer(x[:3, :2], x[:, :3])
    assert str(excinfo.value) == (
        "bilinear(): input batch dimensions do not match at dim 0: got 3 and 4"
    )
    with pytest.raises(RuntimeError) as excinfo:
        layer(x[:, :3], x[:, :3])
    assert str(excinfo.value) == (
        "bilinear(): input1 size does not match weight size: got 3 but expected 2"
    )


def test_embedding_padding_row_gets_no_gradient():
    emb = fill(nn.Embedding(5, 2, padding_idx=1))
    (emb(mg.tensor([[1, 2], [1, 4]])) * 3).sum().backward()
    close(emb.weight.grad, [[0, 0], [0, 0], [3, 3], [0, 0], [3, 3]])
    fresh = nn.Embedding(5, 2, padding_idx=-1)
    assert fresh.padding_idx == 4 and fresh.weight[4].tolist() == [0.0, 0.0]
    assert fresh.weight._version == 2  # normal_ then fill_ of the padding row


def test_embedding_from_pretrained_shares_and_freezes():
    table = mg.tensor([[1.0, 2.0], [3.0, 4.0]])
    emb = nn.Embedding.from_pretrained(table)
    assert not emb.weight.requires_grad
    table[0, 0] = 9.0
    assert emb(mg.tensor([0])).tolist() == [[9.0, 2.0]]
    assert nn.Embedding.from_pretrained(table, freeze=False).weight.requires_grad


def test_dropout_is_the_identity_in_eval_mode_and_scales_in_training():
    drop = nn.Dropout(0.5)
    out = drop(mg.ones(1000))
    kept = out[out != 0]
    assert set(kept.tolist()) == {2.0} and 350 < kept.numel() < 650
    assert drop.eval()(mg.ones(3)).tolist() == [1.0, 1.0, 1.0]


def test_flatten_and_unflatten_are_views():
    x = mg.zeros(2, 3, 4)
    flat = nn.Flatten()(x)
    assert flat.shape == (2, 12) and flat._is_view()
    assert nn.Unflatten(1, (3, 4))(flat).shape == (2, 3, 4)
    assert nn.Flatten(0)(x).shape == (24,)


def test_pooling_modules():
    image = mg.arange(16.0).reshape(1, 1, 4, 4)
    close(nn.MaxPool2d(2)(image), [[[[5.0, 7.0], [13.0, 15.0]]]])
    close(nn.AvgPool2d(2, stride=1)(image)[0, 0, 0], [2.5, 3.5, 4.5])
    values, indices = nn.MaxPool2d(2, return_indices=True)(image)
    assert indices.tolist() == [[[[5, 7], [13, 15]]]]


# --- activations ------------------------------------------------------------------------------

PRED = [[0.5, -1.0, 2.0], [0.0, 1.0, -0.5]]


@pytest.mark.parametrize(
    "module, expected",
    [
        (lambda: nn.GELU("tanh"), [[0.3457, -0.1588, 1.9546], [0.0, 0.8412, -0.1543]]),
        (lambda: nn.LeakyReLU(0.2), [[0.5, -0.2, 2.0], [0.0, 1.0, -0.1]]),
        (lambda: nn.ELU(0.5), [[0.5, -0.3161, 2.0], [0.0, 1.0, -0.1967]]),
        (lambda: nn.Hardtanh(-0.5, 0.5), [[0.5, -0.5, 0.5], [0.0, 0.5, -0.5]]),
        (lambda: nn.Softplus(2, 1), [[0.6566, 0.0635, 2.0], [0.3466, 1.0, 0.1566]]),
        (lambda: nn.LogSoftmax(dim=0), [[-0.4741, -2.1269, -0.0789], [-0.9741, -0.1269, -2.5789]]),
        (lambda: nn.SiLU(), [[0.3112, -0.2689, 1.7616], [0.0, 0.7311, -0.1888]]),
        (lambda: nn.Hardswish(), [[0.2917, -0.3333, 1.6667], [0.0, 0.6667, -0.2083]]),
        (lambda: nn.LogSigmoid(), [[-0.4741, -1.3133, -0.1269], [-0.6931, -0.3133, -0.9741]]),
    ],
)
def test_activation_modules(module, expected):
    close(module()(mg.tensor(PRED)), expected)


def test_relu6_clamps_at_six():
    assert nn.ReLU6()(mg.tensor([[2.0, -4.0, 8.0]])).tolist() == [[2.0, 0.0, 6.0]]


def test_inplace_relu_after_sigmoid_breaks_backward_but_after_linear_does_not():
    x = mg.ones(2, 3, requires_grad=True)
    fine = nn.Sequential(nn.Linear(3, 2), nn.ReLU(inplace=True))
    fine(x).sum().backward()
    broken = nn.Sequential(nn.Sigmoid(), nn.ReLU(inplace=True))
    out = broken(x)
    with pytest.raises(RuntimeError) as excinfo:
        out.sum().backward()
    assert str(excinfo.value) == text(
        "one of the variables needed for gradient computation has been modified by an inplace "
        "operation: [minigrad.FloatTensor [2, 3]], which is output 0 of Sigmoid, is at version 1; "
        "expected version 0 instead. Hint: enable anomaly detection to find the operation that "
        "failed to compute its gradient, with minigrad.autograd.set_detect_anomaly(True, "
        "check_nan=False)."
    )


def test_softmax_without_dim_warns_like_pytorch():
    with pytest.warns(UserWarning, match="Implicit dimension choice for softmax"):
        out = nn.Softmax()(mg.tensor(PRED))
    close(out.sum(1), [1.0, 1.0])


# --- losses -----------------------------------------------------------------------------------


def test_loss_modules():
    pred, target = mg.tensor(PRED), mg.tensor([2, 0])
    binary = mg.tensor([[1.0, 0.0, 1.0], [0.0, 0.0, 1.0]])
    close(nn.CrossEntropyLoss()(pred, target), 0.8528)
    weighted = nn.CrossEntropyLoss(weight=mg.tensor([1.0, 2.0, 0.5]), label_smoothing=0.1)
    close(weighted(pred, target), 1.2115)
    close(nn.CrossEntropyLoss(reduction="none", ignore_index=0)(pred, target), [0.2413, 0.0])
    close(nn.NLLLoss(reduction="sum")(pred.log_softmax(1), target), 1.7057)
    close(nn.BCEWithLogitsLoss(pos_weight=mg.tensor([1.0, 2.0, 3.0]))(pred, binary), 1.0161)
    close(nn.BCELoss(weight=mg.tensor([1.0, 0.5, 2.0]))(pred.sigmoid(), binary), 0.6971)
    close(nn.MSELoss()(pred, binary), 0.9167)
    close(nn.L1Loss(reduction="sum")(pred, binary), 5.0)
    close(nn.SmoothL1Loss(beta=0.5)(pred, binary), 0.625)
    close(nn.HuberLoss(delta=0.5)(pred, binary), 0.3125)
    close(nn.KLDivLoss(reduction="batchmean")(pred.log_softmax(1), binary.softmax(1)), 0.4443)


def test_loss_weights_are_buffers_and_legacy_arguments_warn():
    loss = nn.CrossEntropyLoss(weight=mg.ones(3))
    assert list(loss.state_dict()) == ["weight"]
    assert list(nn.BCEWithLogitsLoss(pos_weight=mg.ones(2))._buffers) == ["weight", "pos_weight"]
    with pytest.warns(UserWarning) as record:
        legacy = nn.MSELoss(size_average=False)
    assert legacy.reduction == "sum"
    assert str(record[0].message) == (
        "size_average and reduce args will be deprecated, please use reduction='sum' instead."
    )


# --- initialisation ------------------------------------------------------------------------------


def test_default_initialisation_bounds_follow_pytorch():
    mg.manual_seed(0)
    checks = [
        (nn.Linear(400, 300).weight, 1 / 20), (nn.Linear(400, 300).bias, 1 / 20),
        (nn.Conv2d(6, 64, 5).weight, 1 / np.sqrt(150)), (nn.Conv1d(4, 64, 3).bias, 1 / np.sqrt(12)),
        (nn.Bilinear(25, 10, 40).weight, 1 / 5), (nn.LSTMCell(10, 100).weight_ih, 1 / 10),
        (nn.GRUCell(10, 64).bias_hh, 1 / 8),
    ]
    for weight, bound in checks:
        values = weight.detach().numpy()
        assert np.abs(values).max() <= bound
        assert np.abs(values).max() > 0.95 * bound  # uniform over the whole range
        assert abs(values.std() - bound / np.sqrt(3)) < 0.1 * bound / np.sqrt(3)
    emb = nn.Embedding(1000, 50).weight.detach().numpy()
    assert abs(emb.std() - 1) < 0.02 and abs(emb.mean()) < 0.02
    assert nn.Linear(3, 2).weight._version == 1


def test_init_functions():
    init = nn.init
    assert init.calculate_gain("relu") == pytest.approx(2**0.5)
    assert init.calculate_gain("leaky_relu", 0.2) == pytest.approx((2 / 1.04) ** 0.5)
    assert init.calculate_gain("conv2d") == 1 and init.calculate_gain("selu") == 0.75
    with pytest.raises(ValueError) as excinfo:
        init.calculate_gain("swish")
    assert str(excinfo.value) == "Unsupported nonlinearity swish"
    with pytest.raises(ValueError) as excinfo:
        init.xavier_uniform_(mg.empty(5))
    assert str(excinfo.value) == (
        "Fan in and fan out can not be computed for tensor with fewer than 2 dimensions"
    )
    with pytest.raises(ValueError) as excinfo:
        init.kaiming_normal_(mg.empty(2, 2), mode="fan_middle")
    assert str(excinfo.value) == (
        "Mode fan_middle not supported, please use one of ['fan_in', 'fan_out']"
    )
    mg.manual_seed(0)
    w = init.xavier_uniform_(mg.empty(300, 200), gain=2.0)
    bound = 2.0 * (6 / 500) ** 0.5
    assert w.abs().max().item() <= bound and w.abs().max().item() > 0.99 * bound
    w = init.kaiming_normal_(mg.empty(500, 200), mode="fan_out", nonlinearity="relu")
    assert w.std().item() == pytest.approx((2 / 500) ** 0.5, rel=0.03)
    w = init.trunc_normal_(mg.empty(10000), std=2.0, a=-1.0, b=3.0)
    assert w.min().item() >= -1.0 and w.max().item() <= 3.0 and w._version >= 2
    w = init.orthogonal_(mg.empty(3, 5), gain=2.0)
    close(w @ w.t(), np.eye(3) * 4, atol=1e-4)
    assert init.eye_(mg.empty(2, 3)).tolist() == [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0]]
    assert init.constant_(mg.empty(2), 0.5).tolist() == [0.5, 0.5]
    param = nn.Parameter(mg.empty(2))
    assert init.ones_(param) is param and param.grad_fn is None and param._version == 1
    with pytest.warns(UserWarning, match="Initializing zero-element tensors is a no-op"):
        init.kaiming_uniform_(mg.empty(0, 3))
