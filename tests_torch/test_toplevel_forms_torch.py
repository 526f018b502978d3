"""PyTorch's top-level forms of nn functions (``torch.dropout(input, p, train)``, ...) against
PyTorch, for what the op table (tests/opinfo/toplevel_forms.py) cannot express: random masks,
identity of the returned tensor, the ``train=None`` quirk of native_dropout, tuples.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest
import torch

import minigrad

LIBS = (minigrad, torch)


def _same(mine, theirs, atol=1e-5):
    np.testing.assert_allclose(mine.detach().numpy(), theirs.detach().numpy(), atol=atol, rtol=1e-4)


# --- dropout ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "name", ["dropout", "alpha_dropout", "feature_dropout", "feature_alpha_dropout"]
)
@pytest.mark.parametrize("p, train", [(0.5, False), (0.0, True)])
def test_dropout_that_drops_nothing_returns_its_input(name, p, train):
    for lib in LIBS:
        x = lib.ones(2, 3, requires_grad=True)
        assert getattr(lib, name)(x, p, train) is x
        y = x.clone()
        assert getattr(lib, name + "_")(y, p, train) is y


@pytest.mark.parametrize("name", ["dropout", "feature_dropout"])
def test_dropout_in_place_keeps_or_zeros_and_scales(name):
    for lib in LIBS:
        lib.manual_seed(0)
        x = lib.ones(40, 50, 3, requires_grad=True)
        y = x.clone()
        out = getattr(lib, name + "_")(y, 0.25, True)
        assert out is y and y._version == 1 and y.grad_fn.name() == "MulBackward0"
        np.testing.assert_allclose(np.unique(y.detach().numpy()), [0.0, 1 / 0.75], rtol=1e-6)
        if name == "feature_dropout":  # whole channels (dim 1) at once
            values = y.detach().numpy()
            assert (values == values[..., :1]).all()


def test_native_dropout_returns_the_output_and_a_boolean_mask():
    results = {}
    for lib in LIBS:
        lib.manual_seed(0)
        x = lib.ones(200, 10, requires_grad=True)
        out, mask = lib.native_dropout(x, 0.3, True)
        assert mask.dtype == lib.bool and not mask.requires_grad
        assert out.grad_fn.name() == "NativeDropoutBackward0"
        np.testing.assert_allclose(out.detach().numpy(), mask.numpy() / 0.7, rtol=1e-6)
        assert out.grad_fn._saved_p == 0.3
        assert out.grad_fn._saved_result1.equal(mask)
        out.sum().backward()
        np.testing.assert_allclose(x.grad.numpy(), mask.numpy() / 0.7, rtol=1e-6)
        results[lib] = mask.float().mean().item()
    assert abs(results[minigrad] - 0.7) < 0.05 and abs(results[torch] - 0.7) < 0.05


@pytest.mark.parametrize("train", [False, None])
def test_native_dropout_backward_scales_only_when_train_is_true(train):
    """With ``train=None`` PyTorch's forward drops and scales, its backward does not scale."""
    for lib in LIBS:
        x = lib.ones(4, 5, requires_grad=True)
        out, mask = lib.native_dropout(x, 0.5, train)
        out.sum().backward()
        np.testing.assert_array_equal(x.grad.numpy(), mask.numpy().astype(np.float32))
        if train is False:
            assert out is not x and bool(mask.all())
            _same(out, x)


def test_native_dropout_of_an_empty_tensor_gives_an_empty_float_mask():
    for lib in LIBS:
        out, mask = lib.native_dropout(lib.ones(0, requires_grad=True), 0.5, True)
        assert mask.dtype == lib.float32 and not mask.requires_grad
        assert out.grad_fn.name() == "NativeDropoutBackward0"


def test_native_dropout_mask_written_later_breaks_backward():
    for lib in LIBS:
        x = lib.ones(3, requires_grad=True)
        out, mask = lib.native_dropout(x, 0.5, True)
        mask.logical_not_()
        with pytest.raises(RuntimeError, match="modified by an inplace operation"):
            out.sum().backward()


# --- activations ------------------------------------------------------------------------------


def test_rrelu_in_training_draws_slopes_in_its_range():
    for lib in LIBS:
        x = -lib.ones(1000, requires_grad=True)
        y = lib.rrelu(x, 0.1, 0.3, True)
        assert y.grad_fn.name() == "RreluWithNoiseBackward0"
        slopes = -y.detach().numpy()
        assert slopes.min() >= 0.1 and slopes.max() <= 0.3 and slopes.std() > 0.03


@pytest.mark.parametrize(
    "call",
    [
        lambda lib, x: lib.celu(x, alpha=0.5),
        lambda lib, x: lib.celu_(x.clone(), 0.5),
        lambda lib, x: lib.selu_(x.clone()),
        lambda lib, x: lib.threshold(x, 0.1, value=-2.0),
        lambda lib, x: lib.threshold_(x.clone(), 0.1, -2.0),
        lambda lib, x: lib.rrelu(x, lower=0.2, upper=0.4),
        lambda lib, x: lib.rrelu_(x.clone(), 0.2, 0.4, False),
    ],
    ids=["celu", "celu_", "selu_", "threshold", "threshold_", "rrelu", "rrelu_"],
)
def test_activations_by_keyword_and_position_match(call):
    rng = np.random.default_rng(0)
    data = rng.uniform(-2, 2, size=(3, 4))
    results = []
    for lib in LIBS:
        x = lib.tensor(data, requires_grad=True)
        y = call(lib, x.mT)
        y.pow(2).sum().backward()
        results.append((y, x.grad, y.grad_fn.name()))
    (mine, mine_grad, mine_node), (theirs, their_grad, their_node) = results
    _same(mine, theirs)
    _same(mine_grad, their_grad)
    assert mine_node == their_node


# --- normalization ----------------------------------------------------------------------------


def test_native_norms_return_their_statistics_detached_but_group_norms():
    rng = np.random.default_rng(1)
    data = rng.standard_normal((4, 6, 3))
    found = []
    for lib in LIBS:
        x = lib.tensor(data, requires_grad=True)
        rm, rv = lib.zeros(6, dtype=lib.float64), lib.ones(6, dtype=lib.float64)
        results = [
            lib.native_layer_norm(x, [6, 3], None, None, 1e-5),
            lib.native_batch_norm(x, None, None, rm, rv, True, 0.2, 1e-5),
            lib.native_batch_norm(x, None, None, rm, rv, False, 0.2, 1e-5),
            lib.native_group_norm(x, None, None, 4, 6, 3, 2, 1e-5),
        ]
        found.append((results, rm, rv))
    for (mine, my_rm, my_rv), (theirs, their_rm, their_rv) in [found]:
        _same(my_rm, their_rm)
        _same(my_rv, their_rv)
        for my_tuple, their_tuple in zip(mine, theirs):
            for my_value, their_value in zip(my_tuple, their_tuple):
                assert tuple(my_value.shape) == tuple(their_value.shape)
                assert (my_value.grad_fn is None) == (their_value.grad_fn is None)
                if my_value.grad_fn is not None:
                    assert my_value.grad_fn.name() == their_value.grad_fn.name()
                _same(my_value, their_value)


def test_native_group_norm_differentiates_its_statistics_only_both_at_once():
    """PyTorch's backward reads the gradients of mean and rstd only if both are defined."""
    found = []
    for lib in LIBS:
        x = lib.ones(2, 4, 3, dtype=lib.float64).cumsum(2).requires_grad_()
        _, mean, rstd = lib.native_group_norm(x * x, None, None, 2, 4, 3, 2, 1e-5)
        alone = lib.autograd.grad(mean.sum(), x, allow_unused=True, retain_graph=True)
        assert alone == (None,)
        (both,) = lib.autograd.grad((mean * 2 + rstd**2).sum(), x)
        found.append(both)
    _same(*found)


def test_native_group_norm_wants_a_contiguous_input():
    for lib in LIBS:
        with pytest.raises(RuntimeError, match="is_contiguous"):
            lib.native_group_norm(lib.ones(3, 2).t(), None, None, 2, 3, 1, 1, 1e-5)


@pytest.mark.parametrize("training", [True, False])
def test_batch_and_instance_norm_move_running_statistics_as_pytorch(training):
    rng = np.random.default_rng(2)
    data = rng.standard_normal((3, 4, 5))
    stats = []
    for lib in LIBS:
        x = lib.tensor(data, requires_grad=True)
        w, b = lib.ones(4, requires_grad=True, dtype=lib.float64), lib.zeros(4, dtype=lib.float64)
        rm, rv = lib.zeros(4, dtype=lib.float64), lib.ones(4, dtype=lib.float64)
        y = lib.batch_norm(x, w, b, rm, rv, training, 0.3, 1e-5, True)
        rm2, rv2 = rm.clone(), rv.clone()
        z = lib.instance_norm(x, w, b, rm2, rv2, training, 0.3, 1e-5, True)
        (y * z).sum().backward()
        stats.append((y, z, rm, rv, rm2, rv2, x.grad, w.grad, z.grad_fn.name()))
    for mine, theirs in zip(*stats):
        if isinstance(mine, str):
            assert mine == theirs
        else:
            _same(mine, theirs)


def test_the_top_level_norms_skip_nn_functionals_python_checks():
    """torch.batch_norm takes one value per channel in training; F.batch_norm refuses it."""
    for lib in LIBS:
        x = lib.ones(1, 3)
        assert lib.batch_norm(x, None, None, None, None, True, 0.1, 1e-5, True).shape == (1, 3)
        assert lib.instance_norm(x, None, None, None, None, True, 0.1, 0.0, True).shape == (1, 3)
        assert lib.group_norm(x, 3).shape == (1, 3)
        with pytest.raises(ValueError, match="Expected more than 1 value per channel"):
            lib.nn.functional.batch_norm(x, None, None, training=True)


# --- losses and layers ------------------------------------------------------------------------


@pytest.mark.parametrize(
    "call",
    [
        lambda lib, x, t: lib.kl_div(x, t),
        lambda lib, x, t: lib.hinge_embedding_loss(x, t.sign()),
        lambda lib, x, t: lib.margin_ranking_loss(x, t, t.sign()),
        lambda lib, x, t: lib.binary_cross_entropy_with_logits(x, t.sigmoid()),
        lambda lib, x, t: lib.kl_div(x, t, 7),
    ],
    ids=["kl_div", "hinge", "margin_ranking", "bce_with_logits", "kl_div_7"],
)
def test_top_level_losses_do_not_reduce_unless_asked(call):
    """PyTorch's parser reads the schemas' default ``at::Reduction::Mean`` as 0 (none)."""
    shapes = [tuple(call(lib, lib.ones(2, 3) * 0.5, -lib.ones(2, 3)).shape) for lib in LIBS]
    assert shapes == [(2, 3), (2, 3)]


def test_embedding_takes_the_table_first_and_any_negative_padding_as_none():
    rng = np.random.default_rng(3)
    table, indices = rng.standard_normal((5, 3)), np.array([[0, 4], [4, 4]])
    grads = []
    for lib in LIBS:
        weight = lib.tensor(table, requires_grad=True)
        y = lib.embedding(weight, lib.tensor(indices), -2)
        y.sum().backward()
        assert y.grad_fn.name() == "EmbeddingBackward0"
        grads.append(weight.grad)
    _same(*grads)


@pytest.mark.parametrize("transposed", [False, True])
def test_convolution_is_the_functional_convolution(transposed):
    rng = np.random.default_rng(4)
    x, w = rng.standard_normal((2, 4, 5, 5)), rng.standard_normal((4, 2, 3, 3))
    results = []
    for lib in LIBS:
        xt, wt = lib.tensor(x, requires_grad=True), lib.tensor(w, requires_grad=True)
        output_padding = [1, 0] if transposed else [0, 0]
        y = lib.convolution(xt, wt, None, [2, 1], [1, 1], [1, 2], transposed, output_padding, 2)
        y.pow(2).sum().backward()
        results.append((y, xt.grad, wt.grad, y.grad_fn.name()))
    for mine, theirs in zip(*results):
        assert mine == theirs if isinstance(mine, str) else _same(mine, theirs) is None


# --- norms and misc ---------------------------------------------------------------------------


def _warned(call):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = call()
    return result, [str(w.message).replace("torch.", "minigrad.") for w in caught]


@pytest.mark.parametrize(
    "args, kwargs",
    [((1, 4), {}), ((0, 1, 0.25), {}), ((1, 3), {"dtype": "int64"}), ((2.5, 0), {"step": -1})],
)
def test_range_includes_its_end_and_warns_each_call(args, kwargs):
    results = []
    for lib in LIBS:
        options = {k: getattr(lib, v) if k == "dtype" else v for k, v in kwargs.items()}
        for _ in range(2):  # (every call warns)
            tensor, messages = _warned(lambda lib=lib, options=options: lib.range(*args, **options))
            results.append((tensor.tolist(), str(tensor.dtype).split(".")[-1], messages))
    assert results[:2] == results[2:]


@pytest.mark.parametrize("args", [(0, 1, 0), (0, 1, -1)])
def test_range_refuses_a_step_as_pytorch(args):
    texts = []
    for lib in LIBS:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            with pytest.raises(RuntimeError) as error:
                lib.range(*args)
        texts.append(str(error.value))
    assert texts[0] == texts[1]


@pytest.mark.parametrize("name", ["matrix_rank", "native_norm"])
def test_removed_or_cpu_less_functions_raise_as_pytorch(name):
    kinds = []
    for lib in LIBS:
        with pytest.raises((RuntimeError, NotImplementedError)) as error:
            getattr(lib, name)(lib.eye(2))
        kinds.append((type(error.value), str(error.value).split(".")[0]))
    assert kinds[0] == kinds[1]


@pytest.mark.parametrize("name", ["frobenius_norm", "nuclear_norm"])
def test_deprecated_norms_warn_as_pytorch(name):
    args = ([1],) if name == "frobenius_norm" else ()
    messages = []
    for lib in LIBS:  # (both warn once per process: set_warn_always makes them warn here)
        lib.set_warn_always(True)
        try:
            _, caught = _warned(lambda lib=lib: getattr(lib, name)(lib.eye(2), *args))
        finally:
            lib.set_warn_always(False)
        messages.append(caught[0].split(" (Triggered internally")[0])
    assert messages[0] == messages[1]


def test_detach_function_shares_data_and_version():
    for lib in LIBS:
        x = lib.ones(3, requires_grad=True)
        y = lib.detach(x)
        assert not y.requires_grad and y.grad_fn is None
        y.add_(1)
        assert x._version == 1 and x.tolist() == [2.0, 2.0, 2.0]


# --- the *_copy functions ---------------------------------------------------------------------


def test_copies_share_no_memory_with_their_input():
    for lib in LIBS:
        x = lib.arange(12.0).view(3, 4)
        for y in (lib.permute_copy(x, (1, 0)), lib.view_copy(x, (12,)), lib.alias_copy(x)):
            y.add_(1)
            assert y.is_contiguous() and x._version == 0 and x[0, 0].item() == 0.0
        (a, b) = lib.split_copy(x, 2, 0)
        assert tuple(b.shape) == (1, 4) and b._base is None


def test_detach_copy_has_the_values_without_sharing():
    for lib in LIBS:
        x = lib.ones(2, requires_grad=True)
        y = lib.detach_copy(x)
        assert y.tolist() == [1.0, 1.0]
        y.detach().add_(1)
        assert x.tolist() == [1.0, 1.0]


# --- factories --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "call",
    [
        lambda lib: lib.empty_strided((2, 3), (1, 2)),
        lambda lib: lib.empty_strided((2, 0, 3), (3, 3, 1), dtype=lib.float64),
        lambda lib: lib.empty_permuted((2, 3, 4), (2, 0, 1)),
        lambda lib: lib.empty_permuted((2, 3), (0, 1), requires_grad=True),
        lambda lib: lib.randint_like(lib.zeros(3, 4), 5),
        lambda lib: lib.randint_like(lib.zeros(2, dtype=lib.int32), -3, 3),
    ],
)
def test_factories_lay_out_as_pytorch(call):
    mine, theirs = call(minigrad), call(torch)
    assert (tuple(mine.shape), mine.stride(), mine.requires_grad) == (
        tuple(theirs.shape),
        theirs.stride(),
        theirs.requires_grad,
    )
    assert str(mine.dtype).split(".")[-1] == str(theirs.dtype).split(".")[-1]


@pytest.mark.parametrize(
    "call",
    [
        lambda lib: lib.empty_strided((2, 3), (1,)),
        lambda lib: lib.empty_permuted((2, 3), (0, 0)),
        lambda lib: lib.randint_like(lib.zeros(2), 5, 3),
    ],
)
def test_factories_refuse_as_pytorch(call):
    texts = []
    for lib in LIBS:
        with pytest.raises(RuntimeError) as error:
            call(lib)
        texts.append(str(error.value))
    assert texts[0] == texts[1]
