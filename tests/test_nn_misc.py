"""Dropout variants and gumbel_softmax (random: tested by structure and statistics), and
finite-difference checks of composite modules (TransformerDecoderLayer, InstanceNorm2d).

Random streams differ between minigrad and PyTorch, so dropout is tested by its structure and
statistics (which elements are zeroed together, the scaling, the gradient being the mask),
which hold in both libraries: ``MINIGRAD_TEST_REFERENCE=torch`` runs this file on PyTorch.
The generic checks (gradcheck, bad inputs against PyTorch) come from tests/opinfo/nn_misc.py.
"""

import warnings

import numpy as np
import pytest
from _backend import mg

F = mg.nn.functional
nn = mg.nn


# ---- dropout ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("function", "shape", "channel_dims"),
    [
        ("dropout1d", (40, 50, 3), 2),
        ("dropout2d", (40, 50, 2, 2), 2),
        ("dropout3d", (40, 50, 2, 1, 2), 2),
        ("dropout1d", (2000, 3), 1),
        ("dropout3d", (2000, 2, 1, 2), 1),
    ],
)
def test_feature_dropout_zeroes_whole_channels_and_scales_the_rest(function, shape, channel_dims):
    mg.manual_seed(0)
    x = mg.full(shape, 2.0, requires_grad=True)
    y = getattr(F, function)(x, 0.25)
    values = y.detach().numpy()
    channels = values.reshape(int(np.prod(shape[:channel_dims])), -1)  # one row per channel
    dropped = (channels == 0).all(axis=1)
    kept = (channels == np.float32(2.0 / 0.75)).all(axis=1)
    assert (dropped | kept).all()  # each channel is dropped or kept as a whole
    assert 0.22 < dropped.mean() < 0.28
    y.sum().backward()
    # the gradient is the mask: 1 / (1 - p) where kept, 0 where dropped
    np.testing.assert_allclose(x.grad.numpy(), values / 2.0, rtol=1e-6)


def test_feature_dropout_nodes():
    x = mg.ones(2, 3, 4, requires_grad=True)
    assert F.dropout1d(x, 0.5).grad_fn.name() == "MulBackward0"
    unbatched = F.dropout1d(x[0], 0.5)
    assert unbatched.grad_fn.name() == "SqueezeBackward1"
    assert unbatched.grad_fn.next_functions[0][0].name() == "MulBackward0"
    assert F.dropout1d(x, 0.5, training=False) is x


def test_dropout_variants_return_the_input_itself_when_they_do_nothing():
    x = mg.ones(2, 3, 2, 2, requires_grad=True)
    for function in (F.dropout2d, F.alpha_dropout, F.feature_alpha_dropout):
        assert function(x, 0.0, True) is x
        assert function(x, 0.5, False) is x
        empty = x[:0]
        assert function(empty, 0.5, True) is empty
    assert F.alpha_dropout(x, 0.5) is x  # (training=False by default)
    assert nn.AlphaDropout(0.5).eval()(x) is x
    assert nn.Dropout2d(0.5).eval()(x) is x
    unbatched = nn.Dropout3d(0.5).eval()(x)  # (C, D, H, W): unsqueezed, then squeezed back
    assert unbatched.grad_fn.name() == "SqueezeBackward1"
    assert unbatched._base is x


def test_feature_dropout_in_place():
    x = mg.ones(4, 6, 3, requires_grad=True)
    y = x * 1
    out = F.dropout1d(y, 0.5, inplace=True)
    assert out is y
    assert y._version == 1
    assert y.grad_fn.name() == "MulBackward0"
    y.sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), y.detach().numpy())


def test_alpha_dropout_keeps_mean_and_variance():
    mg.manual_seed(0)
    x = mg.randn(200000, requires_grad=True)
    y = F.alpha_dropout(x, 0.3, training=True)
    assert y.grad_fn.name() == "AddBackward0"
    assert y.grad_fn.next_functions[0][0].name() == "MulBackward0"
    assert abs(float(y.detach().mean())) < 0.02
    assert abs(float(y.detach().std()) - 1.0) < 0.02
    y.sum().backward()
    gradient = x.grad.numpy()
    a = 1 / np.sqrt((1.7580993408473766**2 * 0.3 + 1) * 0.7)
    kept = gradient != 0
    np.testing.assert_allclose(gradient[kept], a, rtol=1e-6)  # the mask is a where kept
    assert 0.28 < 1 - kept.mean() < 0.32
    # a dropped element becomes a * (-alpha * scale) + b, whatever its value was
    dropped = y.detach().numpy()[~kept]
    np.testing.assert_allclose(dropped, dropped[0], rtol=1e-6)
    np.testing.assert_allclose(dropped[0], -a * 1.7580993408473766 * 0.7, rtol=1e-5)


def test_feature_alpha_dropout_drops_whole_channels():
    mg.manual_seed(1)
    x = mg.randn(30, 40, 5)
    y = F.feature_alpha_dropout(x, 0.5, training=True).numpy()
    a = 1 / np.sqrt((1.7580993408473766**2 * 0.5 + 1) * 0.5)
    saturated = np.isclose(y, -a * 1.7580993408473766 * 0.5, rtol=1e-5)
    per_channel = saturated.all(axis=2)
    assert (per_channel == saturated.any(axis=2)).all()
    assert 0.4 < per_channel.mean() < 0.6


def test_alpha_dropout_in_place_bumps_the_version_twice():
    x = mg.ones(3, 4, requires_grad=True)
    y = x * 1
    assert F.alpha_dropout(y, 0.5, True, inplace=True) is y
    assert y._version == 2
    assert y.grad_fn.name() == "AddBackward0"
    z = x * 1
    assert F.feature_alpha_dropout(z, 1.0, True, inplace=True) is z
    assert z._version == 1
    assert z.tolist() == [[0.0] * 4] * 3


def test_dropout2d_warns_for_a_3d_input():
    x = mg.ones(2, 3, 4)
    with pytest.warns(
        UserWarning,
        match="dropout2d: Received a 3D input to dropout2d and "
        "assuming that channel-wise 1D dropout behavior is desired",
    ):
        F.dropout2d(x, 0.5)
    with pytest.warns(
        UserWarning, match="dropout2d: Received a 2-D input to dropout2d, which is deprecated"
    ):
        F.dropout2d(x[0], 0.5)
    with pytest.warns(
        UserWarning,
        match=r"dropout3d: Received a 3-D input to dropout3d, which "
        r"is deprecated and will result in an error in a future release\. To "
        "retain the behavior and silence this warning, please use dropout "
        "instead. Note that dropout3d exists to provide channel-wise dropout on "
        "inputs with 3 spatial dimensions",
    ):
        y = F.dropout3d(x, 0.5)
    assert y.shape == (2, 3, 4)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        F.dropout2d(mg.ones(1, 2, 3, 4), 0.5)


def test_dropout_modules():
    assert repr(nn.Dropout1d()) == "Dropout1d(p=0.5, inplace=False)"
    assert repr(nn.Dropout2d(0.2, True)) == "Dropout2d(p=0.2, inplace=True)"
    assert repr(nn.FeatureAlphaDropout(0.1)) == "FeatureAlphaDropout(p=0.1, inplace=False)"
    with pytest.raises(
        ValueError, match="dropout probability has to be between 0 and 1, but got -0.5"
    ):
        nn.AlphaDropout(-0.5)
    mg.manual_seed(0)
    y = nn.Dropout2d(0.5)(mg.ones(8, 16, 2, 2)).numpy()
    assert set(np.unique(y)) <= {0.0, 2.0}


# ---- modules against finite differences ------------------------------------------------------


def test_transformer_decoder_layer_gradcheck():
    mg.manual_seed(0)
    layer = nn.TransformerDecoderLayer(4, 2, 6, dropout=0.0, dtype=mg.float64)
    tgt = mg.randn(3, 2, 4, dtype=mg.float64, requires_grad=True)
    memory = mg.randn(2, 2, 4, dtype=mg.float64, requires_grad=True)
    mask = nn.Transformer.generate_square_subsequent_mask(3, dtype=mg.float64)
    assert mg.autograd.gradcheck(lambda t, m: layer(t, m, tgt_mask=mask), (tgt, memory))


def test_instance_norm_module_gradcheck():
    mg.manual_seed(0)
    norm = nn.InstanceNorm2d(2, affine=True, track_running_stats=True, dtype=mg.float64)
    with mg.no_grad():
        norm.weight.uniform_(0.5, 1.5)
        norm.bias.uniform_(-1.0, 1.0)
    x = mg.randn(2, 2, 2, 3, dtype=mg.float64, requires_grad=True)
    assert mg.autograd.gradcheck(norm, (x,))


# ---- gumbel softmax --------------------------------------------------------------------------


def test_gumbel_softmax_samples_follow_the_softmax_of_the_logits():
    mg.manual_seed(0)
    logits = mg.tensor([[0.0, 1.0, 2.0]]).expand(20000, 3)
    soft = F.gumbel_softmax(logits, tau=0.5)
    assert soft.grad_fn is None and soft.shape == (20000, 3)
    np.testing.assert_allclose(soft.sum(-1).numpy(), 1.0, rtol=1e-5)
    hard = F.gumbel_softmax(logits, hard=True, dim=1).numpy()
    assert set(np.unique(hard)) == {0.0, 1.0} and (hard.sum(1) == 1).all()
    # the arg max of logits + Gumbel noise is a draw from softmax(logits)
    expected = np.exp([0.0, 1.0, 2.0]) / np.exp([0.0, 1.0, 2.0]).sum()
    np.testing.assert_allclose(hard.mean(0), expected, atol=0.015)


def test_gumbel_softmax_hard_passes_the_soft_gradient_through():
    mg.manual_seed(1)
    logits = mg.randn(4, 5, requires_grad=True)
    hard = F.gumbel_softmax(logits, tau=2.0, hard=True)
    assert hard.grad_fn.name() == "AddBackward0"
    weights = mg.randn(4, 5)
    (hard * weights).sum().backward()
    # the straight-through gradient is the soft sample's: softmax's Jacobian applied to weights
    # over tau, which sums to zero along the softmax's dim
    np.testing.assert_allclose(logits.grad.sum(-1).numpy(), 0.0, atol=1e-6)
    assert float(logits.grad.abs().sum()) > 0
    with pytest.warns(UserWarning, match="`eps` parameter is deprecated and has no effect."):
        F.gumbel_softmax(logits, eps=1e-3)
