"""Dropout variants, instance/local response norm, the extra losses and the transformer decoder
side by side with PyTorch: modules built in both libraries with PyTorch's state copied in, then
outputs, gradients, running statistics, reprs, state-dict keys and errors compared.

Dropout's random masks differ between the libraries: here only what is deterministic (eval
mode, p = 0, p = 1, the warnings and errors); tests/test_nn_misc.py checks the masks.
"""

import warnings

import numpy as np
import pytest

import minigrad

torch = pytest.importorskip("torch")
torch.set_num_threads(1)


def outcome(call):
    """What a call gives: its value, or the exception's type and text (torch -> minigrad)."""
    try:
        return call()
    except Exception as exc:  # noqa: BLE001 - the exception is the outcome compared
        return type(exc).__name__, str(exc).replace("torch", "minigrad")


def same_text(value):
    return str(value).replace("torch", "minigrad")


def rand(*shape, seed=0):
    return np.random.default_rng(seed).standard_normal(shape).astype(np.float32)


def close(mine, theirs, what, rtol=1e-4, atol=1e-5):
    np.testing.assert_allclose(
        mine.detach().numpy(), theirs.detach().numpy(), rtol=rtol, atol=atol, err_msg=what
    )


def build(make):
    """The same module in both libraries, PyTorch's initial state copied into minigrad's."""
    torch.manual_seed(0)
    theirs = make(torch)
    mine = make(minigrad)
    assert list(mine.state_dict()) == list(theirs.state_dict())
    state = {k: minigrad.tensor(v.detach().numpy()) for k, v in theirs.state_dict().items()}
    mine.load_state_dict(state)
    return mine, theirs


def run_both(mine, theirs, shape, *, transposed=False, seed=0):
    """Forward and backward (a random output gradient) in both; the outputs and inputs."""
    results = []
    for lib, module in ((minigrad, mine), (torch, theirs)):
        x = lib.tensor(rand(*shape, seed=seed))
        if transposed:
            x = x.transpose(-1, -2).contiguous().transpose(-1, -2)
        x.requires_grad_(True)
        out = module(x)
        (out * lib.tensor(rand(*out.shape, seed=seed + 1))).sum().backward()
        results.append((out, x))
    return results


def compare_parameters(mine, theirs):
    for (name, a), (_, b) in zip(mine.named_parameters(), theirs.named_parameters(), strict=True):
        close(a.grad, b.grad, name)
    for (name, a), (_, b) in zip(mine.named_buffers(), theirs.named_buffers(), strict=True):
        close(a, b, name)


# ---- dropout ---------------------------------------------------------------------------------


DROPOUT_MODULES = ("Dropout1d", "Dropout2d", "Dropout3d", "AlphaDropout", "FeatureAlphaDropout")


def test_dropout_modules_match_pytorch_where_nothing_is_random():
    def story(lib):
        nn = lib.nn
        seen = [repr(getattr(nn, name)(0.25, inplace=True)) for name in DROPOUT_MODULES]
        seen += [outcome(lambda name=name: getattr(nn, name)(1.5)) for name in DROPOUT_MODULES]
        for name in DROPOUT_MODULES:
            x = lib.tensor(rand(2, 3, 2) if name == "Dropout1d" else rand(2, 3, 2, 2))
            x.requires_grad_()
            module = getattr(nn, name)(0.5)
            seen.append(module.eval()(x) is x)
            zeros = getattr(nn, name)(1.0)(x)  # p = 1: all zeros, through MulBackward0
            seen += [zeros.tolist(), zeros.grad_fn.name()]
        return [same_text(value) for value in seen]

    assert story(minigrad) == story(torch)


def test_feature_dropout_warnings_and_errors_match_pytorch():
    def story(lib):
        F = lib.nn.functional
        seen = []
        for function, shape in (
            ("dropout1d", (3,)),
            ("dropout1d", (2, 3, 4, 5)),
            ("dropout2d", (2, 3)),
            ("dropout2d", (3,)),
            ("dropout2d", (2, 3, 4)),
            ("dropout2d", (1, 2, 3, 4, 5)),
            ("dropout3d", (3, 4)),
            ("dropout3d", ()),
            ("feature_alpha_dropout", (3,)),
        ):
            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always")
                result = outcome(
                    lambda f=function, s=shape: tuple(getattr(F, f)(lib.ones(s), 0.5, True).shape)
                )
            seen.append(
                (function, shape, same_text(result), [same_text(w.message) for w in caught])
            )
        return seen

    assert story(minigrad) == story(torch)


# ---- instance norm, local response norm, BatchNorm3d ----------------------------------------


NORM_CASES = {
    # name: (make, input shape)
    "instance1d": (lambda t: t.nn.InstanceNorm1d(3), (2, 3, 5)),
    "instance1d-affine-unbatched": (lambda t: t.nn.InstanceNorm1d(3, affine=True), (3, 5)),
    "instance2d-tracked": (
        lambda t: t.nn.InstanceNorm2d(4, momentum=0.3, affine=True, track_running_stats=True),
        (2, 4, 3, 3),
    ),
    "instance3d-no-bias-tracked-cumulative": (
        lambda t: t.nn.InstanceNorm3d(
            2, affine=True, bias=False, momentum=None, track_running_stats=True
        ),
        (2, 2, 2, 3, 2),
    ),
    "batchnorm3d": (lambda t: t.nn.BatchNorm3d(3, momentum=0.2), (2, 3, 2, 2, 3)),
    "local-response-3d": (lambda t: t.nn.LocalResponseNorm(3), (2, 6, 4)),
    "local-response-4d": (lambda t: t.nn.LocalResponseNorm(2, 0.5, 0.6, 1.5), (2, 5, 3, 3)),
}


@pytest.mark.parametrize("case", sorted(NORM_CASES))
def test_norm_modules_match_pytorch(case):
    make, shape = NORM_CASES[case]
    mine, theirs = build(make)
    assert repr(mine) == repr(theirs)
    for step in range(2):  # training twice (running statistics move), then eval
        (out, x), (their_out, their_x) = run_both(
            mine, theirs, shape, transposed=step == 1, seed=step
        )
        close(out, their_out, "output")
        assert out.grad_fn.name() == their_out.grad_fn.name()
        close(x.grad, their_x.grad, "input grad")
        compare_parameters(mine, theirs)
    mine.eval()
    theirs.eval()
    (out, _), (their_out, _) = run_both(mine, theirs, shape, seed=5)
    close(out, their_out, "eval output")


def test_norm_module_errors_and_warnings_match_pytorch():
    def story(lib):
        nn = lib.nn
        seen = []
        for call in (
            lambda: nn.InstanceNorm1d(3)(lib.ones(3)),
            lambda: nn.InstanceNorm2d(3)(lib.ones(2, 3, 4, 5, 6)),
            lambda: nn.InstanceNorm3d(3, affine=True)(lib.ones(2, 4, 2, 2, 2)),
            lambda: nn.InstanceNorm1d(3)(lib.ones(2, 4, 5)),
            lambda: nn.InstanceNorm2d(3)(lib.ones(4, 5, 5)),
            lambda: nn.InstanceNorm1d(3)(lib.ones(2, 3, 1)),
            lambda: nn.InstanceNorm1d(3, track_running_stats=True).eval()(lib.ones(2, 3, 1)),
            lambda: nn.BatchNorm3d(3)(lib.ones(2, 3, 4, 5)),
            lambda: nn.LocalResponseNorm(2)(lib.ones(2, 3)),
            lambda: nn.LocalResponseNorm(2)(lib.ones(0, 3, 2)).shape,
        ):
            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always")
                result = outcome(call)
            seen.append((same_text(result), [same_text(w.message) for w in caught]))
        seen.append(list(nn.InstanceNorm2d(3, affine=True).state_dict()))
        seen.append(list(nn.InstanceNorm2d(3).state_dict()))
        return seen

    assert story(minigrad) == story(torch)


# ---- losses ----------------------------------------------------------------------------------


def _loss_cases(lib):
    """(module, inputs) pairs: inputs as numpy arrays (float ones require grad)."""
    nn = lib.nn
    rng = np.random.default_rng(4)
    x = rng.normal(size=(3, 4)).astype(np.float32)
    signs = rng.choice([-1.0, 1.0], size=(3, 4)).astype(np.float32)
    probabilities = rng.uniform(size=(3, 4)).astype(np.float32)
    classes = np.array([0, 3, 1])
    labels = np.array([[3, 0, -1, 1], [1, 2, 3, -1], [-1, 0, 0, 0]])
    weight = lib.tensor(rng.uniform(0.5, 1.5, size=4).astype(np.float32))
    var = rng.uniform(0.5, 1.5, size=(3, 1)).astype(np.float32)
    return [
        (nn.SoftMarginLoss(reduction="sum"), (x, signs)),
        (nn.MultiMarginLoss(p=2, margin=0.5, weight=weight), (x, classes)),
        (nn.MultiMarginLoss(reduction="none"), (x, classes)),
        (nn.MultiLabelMarginLoss(), (x, labels)),
        (nn.MultiLabelSoftMarginLoss(weight=weight, reduction="none"), (x, probabilities)),
        (nn.GaussianNLLLoss(full=True, eps=0.1), (x, signs, var)),
        (nn.TripletMarginWithDistanceLoss(margin=2.0, swap=True), (x, signs, probabilities)),
        (
            nn.TripletMarginWithDistanceLoss(
                distance_function=lambda a, b: 1.0 - nn.functional.cosine_similarity(a, b)
            ),
            (x, signs, probabilities),
        ),
    ]


def test_loss_modules_match_pytorch():
    results = {}
    for lib in (minigrad, torch):
        seen = []
        for module, arrays in _loss_cases(lib):
            inputs = [lib.tensor(a, requires_grad=a.dtype.kind == "f") for a in arrays]
            if type(module).__name__ in (
                "SoftMarginLoss",
                "MultiMarginLoss",
                "MultiLabelMarginLoss",
            ):
                inputs[1].requires_grad_(False)  # (no gradient for their targets)
            out = module(*inputs)
            out.sum().backward()
            seen.append(
                (
                    same_text(repr(module)),
                    list(module.state_dict()),
                    out.grad_fn.name(),
                    out.detach().numpy(),
                    [t.grad.numpy() for t in inputs if t.grad is not None],
                )
            )
        results[lib.__name__] = seen
    for mine, theirs in zip(results["minigrad"], results["torch"], strict=True):
        assert mine[:3] == theirs[:3]
        np.testing.assert_allclose(mine[3], theirs[3], rtol=1e-5, atol=1e-6)
        for a, b in zip(mine[4], theirs[4], strict=True):
            np.testing.assert_allclose(a, b, rtol=1e-4, atol=1e-6)


def test_loss_module_errors_and_legacy_reductions_match_pytorch():
    def story(lib):
        nn = lib.nn
        x = lib.tensor(rand(3, 4))
        seen = []
        for call in (
            lambda: nn.MultiMarginLoss(p=3),
            lambda: nn.MultiMarginLoss(weight=lib.ones(2, 2)),
            lambda: nn.TripletMarginWithDistanceLoss(margin=-1.0),
            lambda: nn.MultiMarginLoss(size_average=False)(x, lib.tensor([0, 1, 2])).item(),
            lambda: nn.SoftMarginLoss(reduce=False)(x, x.sign()).shape,
            lambda: nn.MultiLabelSoftMarginLoss(size_average=False)(x, x.sigmoid()).item(),
            lambda: nn.functional.multilabel_soft_margin_loss(x, x, reduce=False).shape,
            lambda: nn.functional.soft_margin_loss(x, x, size_average=True).item(),
            lambda: (
                nn.functional.multi_margin_loss(
                    x, lib.tensor([0, 1, 2]), weight=lib.ones(4), reduce=False
                ).shape
            ),
            lambda: nn.functional.multi_margin_loss(
                x, lib.tensor([0, 1, 2]), weight=lib.ones(4, requires_grad=True)
            ),
            lambda: nn.functional.soft_margin_loss(x, lib.ones(3, 4, requires_grad=True)),
            lambda: nn.GaussianNLLLoss()(x, x, lib.ones(3, 4).log_()),
        ):
            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always")
                result = outcome(call)
            if isinstance(result, float):
                result = round(result, 4)
            seen.append((same_text(result), [same_text(w.message) for w in caught]))
        return seen

    assert story(minigrad) == story(torch)


@pytest.mark.parametrize("loss", ["multi_margin_loss", "multilabel_margin_loss"])
def test_margin_loss_gradients_cannot_be_differentiated_again(loss):
    outcomes = []
    for lib in (minigrad, torch):
        x = lib.tensor(rand(3, 4), requires_grad=True)
        target = (
            lib.tensor([0, 3, 1])
            if loss == "multi_margin_loss"
            else lib.tensor([[3, 0, -1, 1], [1, 2, 3, -1], [-1, 0, 0, 0]])
        )
        (g,) = lib.autograd.grad(getattr(lib.nn.functional, loss)(x, target), x, create_graph=True)
        outcomes.append(
            (g.requires_grad, g.grad_fn.name(), outcome(lambda g=g: g.sum().backward()))
        )
    assert outcomes[0] == outcomes[1]


def test_soft_margin_loss_second_derivative_node_matches_pytorch():
    results = []
    for lib in (minigrad, torch):
        x = lib.tensor(rand(3, 4).astype(np.float64), requires_grad=True)
        out = lib.nn.functional.soft_margin_loss(x, lib.tensor(np.sign(rand(3, 4, seed=1))))
        (g,) = lib.autograd.grad(out, x, create_graph=True)
        (gg,) = lib.autograd.grad((g * g).sum(), x)
        results.append((g.grad_fn.name(), g.detach().numpy(), gg.numpy()))
    assert results[0][0] == results[1][0]
    np.testing.assert_allclose(results[0][1], results[1][1], rtol=1e-10)
    np.testing.assert_allclose(results[0][2], results[1][2], rtol=1e-10)


# ---- transformer decoder and nn.Transformer --------------------------------------------------


def _causal(lib, size):
    return lib.nn.Transformer.generate_square_subsequent_mask(size)


def _padding(lib, lengths, size):
    """A float key padding mask (-inf past each length), of the causal mask's type."""
    padded = np.arange(size)[None, :] >= np.array(lengths)[:, None]
    return lib.tensor(np.where(padded, -np.inf, 0.0).astype(np.float32))


DECODER_CASES = {
    # name: (make, tgt shape, memory shape, batch_first, mask options)
    "layer-post-norm-causal": (
        lambda t: t.nn.TransformerDecoderLayer(8, 2, 16, dropout=0.0),
        (5, 3, 8),
        (4, 3, 8),
        False,
        {"tgt_mask": "causal"},
    ),
    "decoder-pre-norm-gelu-padding": (
        lambda t: t.nn.TransformerDecoder(
            t.nn.TransformerDecoderLayer(
                8, 4, 12, dropout=0.0, activation="gelu", batch_first=True, norm_first=True
            ),
            2,
            norm=t.nn.LayerNorm(8),
        ),
        (3, 5, 8),
        (3, 4, 8),
        True,
        {
            "tgt_mask": "causal",
            "tgt_key_padding_mask": "tgt_padding",
            "memory_key_padding_mask": "memory_padding",
        },
    ),
    "decoder-unbatched-memory-mask": (
        lambda t: t.nn.TransformerDecoder(t.nn.TransformerDecoderLayer(8, 2, 16, dropout=0.0), 2),
        (5, 8),
        (4, 8),
        False,
        {"memory_mask": "memory_mask"},
    ),
}


def _mask(lib, kind, batch):
    if kind == "causal":
        return _causal(lib, 5)
    if kind == "tgt_padding":
        return _padding(lib, [5, 3, 1][:batch], 5)
    if kind == "memory_padding":
        return _padding(lib, [4, 2, 3][:batch], 4)
    return lib.tensor(np.random.default_rng(7).normal(size=(5, 4)).astype(np.float32))


@pytest.mark.parametrize("case", sorted(DECODER_CASES))
def test_transformer_decoder_matches_pytorch(case):
    make, tgt_shape, memory_shape, batch_first, options = DECODER_CASES[case]
    mine, theirs = build(make)
    assert same_text(repr(mine)) == same_text(repr(theirs))
    batch = tgt_shape[0 if batch_first else 1] if len(tgt_shape) == 3 else 1
    results = []
    for lib, module in ((minigrad, mine), (torch, theirs)):
        tgt = lib.tensor(rand(*tgt_shape), requires_grad=True)
        memory = lib.tensor(rand(*memory_shape, seed=1), requires_grad=True)
        out = module(tgt, memory, **{k: _mask(lib, v, batch) for k, v in options.items()})
        (out * lib.tensor(rand(*out.shape, seed=3))).sum().backward()
        results.append((out, tgt, memory))
    (out, tgt, memory), (their_out, their_tgt, their_memory) = results
    close(out, their_out, "output")
    assert out.grad_fn.name() == their_out.grad_fn.name()
    close(tgt.grad, their_tgt.grad, "tgt grad")
    close(memory.grad, their_memory.grad, "memory grad")
    compare_parameters(mine, theirs)


@pytest.mark.parametrize("batch_first", [False, True])
def test_transformer_matches_pytorch(batch_first):
    def make(lib):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # (PyTorch's nested-tensor notice, batch_first=False)
            return lib.nn.Transformer(8, 2, 2, 1, 16, dropout=0.1, batch_first=batch_first)

    mine, theirs = build(make)
    mine.eval()
    theirs.eval()  # (eval mode: dropout off)
    src_shape, tgt_shape = ((3, 4, 8), (3, 5, 8)) if batch_first else ((4, 3, 8), (5, 3, 8))
    results = []
    for lib, module in ((minigrad, mine), (torch, theirs)):
        src = lib.tensor(rand(*src_shape), requires_grad=True)
        tgt = lib.tensor(rand(*tgt_shape, seed=1), requires_grad=True)
        out = module(
            src, tgt, tgt_mask=_causal(lib, 5), src_key_padding_mask=_padding(lib, [4, 2, 3], 4)
        )
        (out * lib.tensor(rand(*out.shape, seed=3))).sum().backward()
        results.append((out, src, tgt))
    (out, src, tgt), (their_out, their_src, their_tgt) = results
    close(out, their_out, "output")
    close(src.grad, their_src.grad, "src grad")
    close(tgt.grad, their_tgt.grad, "tgt grad")
    compare_parameters(mine, theirs)


def test_transformer_init_repr_masks_and_errors_match_pytorch():
    def story(lib):
        nn = lib.nn
        seen = []
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            model = nn.Transformer(8, 2, 1, 1, 16)
        seen.append([same_text(w.message) for w in caught])
        seen += [same_text(repr(model)), list(model.state_dict())]
        # xavier_uniform_ on the matrices: bounded by sqrt(6 / (fan_in + fan_out))
        weight = model.decoder.layers[0].linear1.weight
        seen.append(float(weight.detach().abs().max()) <= (6 / (8 + 16)) ** 0.5)
        seen.append(float(model.encoder.norm.weight.detach().sum()))  # (vectors keep their init)
        seen.append(same_text(nn.Transformer.generate_square_subsequent_mask(3)))
        seen.append(same_text(nn.Transformer.generate_square_subsequent_mask(2, dtype=lib.float64)))
        x = lib.zeros(4, 3, 8)
        for call in (
            lambda: model(x, lib.zeros(4, 2, 8)),
            lambda: model(x, lib.zeros(4, 3, 6)),
            lambda: model(lib.zeros(4, 3, 6), lib.zeros(4, 3, 6)),
            lambda: nn.TransformerDecoderLayer(8, 2, activation="tanh"),
            lambda: nn.TransformerDecoderLayer(8, 3),
            lambda: model.decoder(x, x, tgt_is_causal=True),
        ):
            seen.append(same_text(outcome(call)))
        return seen

    assert story(minigrad) == story(torch)


# ---- lp pooling, pdist, gumbel softmax -------------------------------------------------------


LP_POOL_CASES = {
    "lp1d": (lambda t: t.nn.LPPool1d(2, 3, stride=2), (2, 3, 7)),
    "lp1d-ceil-unbatched": (lambda t: t.nn.LPPool1d(1.5, 2, ceil_mode=True), (3, 5)),
    "lp2d": (lambda t: t.nn.LPPool2d(3, (2, 3), stride=(1, 2)), (2, 2, 5, 6)),
    "lp2d-inf": (lambda t: t.nn.LPPool2d(float("inf"), 2), (1, 2, 4, 4)),
}


@pytest.mark.parametrize("case", sorted(LP_POOL_CASES))
def test_lp_pool_modules_match_pytorch(case):
    make, shape = LP_POOL_CASES[case]
    mine, theirs = make(minigrad), make(torch)
    assert repr(mine) == repr(theirs)
    results = []
    for lib, module in ((minigrad, mine), (torch, theirs)):
        x = lib.tensor(np.abs(rand(*shape)) + 0.1, requires_grad=True)
        out = module(x)
        (out * lib.tensor(rand(*out.shape, seed=1))).sum().backward()
        results.append((out, x))
    (out, x), (their_out, their_x) = results
    close(out, their_out, "output")
    assert out.grad_fn.name() == their_out.grad_fn.name()
    close(x.grad, their_x.grad, "input grad")


def test_pdist_gradient_cannot_be_differentiated_again():
    outcomes = []
    for lib in (minigrad, torch):
        x = lib.tensor(rand(4, 3), requires_grad=True)
        (g,) = lib.autograd.grad(lib.nn.functional.pdist(x, 1.5).sum(), x, create_graph=True)
        outcomes.append(
            (g.requires_grad, g.grad_fn.name(), outcome(lambda g=g: g.sum().backward()))
        )
    assert outcomes[0] == outcomes[1]


def test_gumbel_softmax_records_pytorch_nodes():
    def story(lib):
        logits = lib.tensor(rand(3, 4), requires_grad=True)
        soft = lib.nn.functional.gumbel_softmax(logits, tau=0.5, dim=0)
        hard = lib.nn.functional.gumbel_softmax(logits, hard=True)
        hard.sum().backward()
        return [
            soft.grad_fn.name(),
            soft.grad_fn.next_functions[0][0].name(),
            hard.grad_fn.name(),
            [f.name() if f else None for f, _ in hard.grad_fn.next_functions],
            hard.sum(-1).tolist(),
            soft.detach().sum(0).round(decimals=5).tolist(),
        ]

    assert story(minigrad) == story(torch)


# ---- embedding bag ---------------------------------------------------------------------------


EMBEDDING_BAG_CASES = {
    # name: (make, input, offsets, per-sample weights?)
    "mean-offsets": (
        lambda t: t.nn.EmbeddingBag(7, 3),
        [1, 2, 4, 5, 4, 3, 2, 0],
        [0, 2, 2, 6],
        False,
    ),
    "sum-weights-last-offset": (
        lambda t: t.nn.EmbeddingBag(7, 3, mode="sum", include_last_offset=True),
        [1, 2, 4, 5, 4, 3],
        [0, 2, 6],
        True,
    ),
    "max-2d-padding": (
        lambda t: t.nn.EmbeddingBag(7, 4, mode="max", padding_idx=3),
        [[1, 3, 6], [3, 3, 3], [0, 5, 5]],
        None,
        False,
    ),
    "max-norm": (
        lambda t: t.nn.EmbeddingBag(7, 3, max_norm=1.0, norm_type=1.5),
        [[1, 2], [6, 1]],
        None,
        False,
    ),
    # PyTorch's kernel divides the k-th distinct index by the count of sorted(indices)[k]:
    # here 1 by 0's count, 2 by 0's, 4 by 1's, 5 by 2's (not their own frequencies)
    "scale-by-freq-mean": (
        lambda t: t.nn.EmbeddingBag(7, 3, scale_grad_by_freq=True),
        [0, 2, 2, 4, 0, 1, 2, 5, 0],
        [0, 3, 5],
        False,
    ),
    "scale-by-freq-sum-weights-padding": (
        lambda t: t.nn.EmbeddingBag(7, 3, mode="sum", scale_grad_by_freq=True, padding_idx=2),
        [3, 2, 2, 6, 3, 1, 2],
        [0, 4],
        True,
    ),
}


@pytest.mark.parametrize("case", sorted(EMBEDDING_BAG_CASES))
def test_embedding_bag_matches_pytorch(case):
    make, indices, offsets, weighted = EMBEDDING_BAG_CASES[case]
    mine, theirs = build(make)
    assert repr(mine) == repr(theirs)
    results = []
    for lib, module in ((minigrad, mine), (torch, theirs)):
        extra = {} if offsets is None else {"offsets": lib.tensor(offsets)}
        if weighted:
            extra["per_sample_weights"] = lib.tensor(np.abs(rand(len(indices))), requires_grad=True)
        out = module(lib.tensor(indices), **extra)
        (out * lib.tensor(rand(*out.shape, seed=1))).sum().backward()
        results.append((out, extra.get("per_sample_weights")))
    (out, weights), (their_out, their_weights) = results
    close(out, their_out, "output")
    assert out.grad_fn.name() == their_out.grad_fn.name()
    compare_parameters(mine, theirs)
    close(mine.weight, theirs.weight, "weight (renormalized in place)")
    if weighted:
        close(weights.grad, their_weights.grad, "per-sample weights grad")


def test_embedding_bag_module_api_matches_pytorch():
    def story(lib):
        nn = lib.nn
        seen = [
            repr(
                nn.EmbeddingBag(
                    5,
                    2,
                    max_norm=2.0,
                    norm_type=1.0,
                    scale_grad_by_freq=True,
                    mode="max",
                    padding_idx=-1,
                )
            )
        ]
        pretrained = nn.EmbeddingBag.from_pretrained(
            lib.tensor([[1.0, 2.0], [3.0, 5.0]]), mode="sum"
        )
        seen += [
            repr(pretrained),
            pretrained.weight.requires_grad,
            pretrained(lib.tensor([[0, 1, 1]])).tolist(),
            list(pretrained.state_dict()),
        ]
        weight = lib.tensor(rand(4, 2), requires_grad=True)
        out = nn.functional.embedding_bag(lib.tensor([0, 1, 3]), weight, lib.tensor([0, 1]))
        (g,) = lib.autograd.grad(out.sum(), weight, create_graph=True)
        seen += [g.requires_grad, g.grad_fn]  # (PyTorch's gradient has no history)
        for call in (
            lambda: nn.EmbeddingBag(5, 2, padding_idx=5),
            lambda: nn.EmbeddingBag(5, 2, _weight=lib.ones(4, 2)),
            lambda: nn.EmbeddingBag.from_pretrained(lib.ones(3)),
            lambda: nn.EmbeddingBag(5, 2, mode="max", scale_grad_by_freq=True)(lib.tensor([[0]])),
            lambda: nn.functional.embedding_bag(lib.tensor([[0]]), lib.ones(2, 2), lib.tensor([0])),
        ):
            seen.append(same_text(outcome(call)))
        return seen

    assert story(minigrad) == story(torch)


@pytest.mark.parametrize(
    ("function", "shape"), [("dropout1d", (3, 4)), ("dropout3d", (2, 3, 4, 5))]
)
@pytest.mark.parametrize(("p", "training"), [(1.0, True), (0.5, False)])
def test_batchless_channel_dropout_in_place_as_in_pytorch(function, shape, p, training):
    """PyTorch's ``unsqueeze_(0)``, dropout in place, ``squeeze_(0)``: versions and nodes."""
    seen = []
    for lib in (minigrad, torch):
        leaf = lib.ones(*shape, requires_grad=True)
        x = leaf * 2
        getattr(lib.nn.functional, function)(x, p, training, inplace=True)
        x.sum().backward()
        seen.append((x.grad_fn.name(), x._version, tuple(x.shape), x.tolist(), leaf.grad.tolist()))
    assert seen[0] == seen[1]
