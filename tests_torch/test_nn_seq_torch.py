"""Sequence models and parameter containers side by side with PyTorch.

``ParameterList``/``ParameterDict`` (reprs, names, conversions, errors); ``RNN``, ``LSTM`` and
``GRU`` with PyTorch's weights copied in (outputs, final states, gradients, shape errors).
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


def test_parameter_containers_match_pytorch():
    def story(lib):
        nn = lib.nn
        seen = []
        plist = nn.ParameterList([lib.zeros(2, 3), nn.Parameter(lib.ones(1)), "x"])
        plist.append(lib.zeros(1, dtype=lib.float64))
        plist += [nn.Parameter(lib.ones(2), requires_grad=False)]
        seen += [repr(plist), repr(plist[1:3]), repr(nn.ParameterList()), len(plist), plist[-3]]
        seen.append([(n, type(p).__name__, p.requires_grad) for n, p in plist.named_parameters()])
        pdict = nn.ParameterDict({"b": lib.zeros(2), "a": lib.ones(2, dtype=lib.float64)})
        pdict.update([("z", lib.zeros(1)), ("c", 3)])
        seen += [repr(pdict), list(pdict), pdict.popitem(), list(pdict.state_dict())]
        seen += [repr(pdict | nn.ParameterDict({"y": lib.zeros(1)})), "q" in pdict]

        class Model(nn.Module):
            def __init__(self):
                super().__init__()
                self.scales = nn.ParameterList([lib.ones(2)])
                self.heads = nn.ParameterDict({"mean": lib.zeros(2)})

        model = Model()
        seen += [repr(model), list(model.state_dict())]
        for bad in (lambda: plist[9], lambda: pdict[0], lambda: plist.extend(lib.zeros(2)),
                    lambda: plist(1), lambda: pdict(1), lambda: pdict.update(3),
                    lambda: pdict.update([(1, 2, 3)]), lambda: pdict.update([3]),
                    lambda: nn.ParameterList([lib.zeros(2, dtype=lib.int64)])):
            seen.append(outcome(bad))
        return [same_text(value) for value in seen]

    assert story(minigrad) == story(torch)


# --- RNN, LSTM, GRU ------------------------------------------------------------------------------


def rand(*shape, seed=0):
    return np.random.default_rng(seed).standard_normal(shape).astype(np.float32)


def build(make):
    """The same module in both libraries, PyTorch's initial state copied into minigrad's."""
    torch.manual_seed(0)
    theirs = make(torch)
    mine = make(minigrad)
    assert [n for n, _ in mine.named_parameters()] == [n for n, _ in theirs.named_parameters()]
    state = {k: minigrad.tensor(v.detach().numpy()) for k, v in theirs.state_dict().items()}
    mine.load_state_dict(state)
    return mine, theirs


def flat(result):
    """``(output, h_n)`` or ``(output, (h_n, c_n))`` as a flat list of tensors."""
    output, hidden = result
    return [output, *hidden] if isinstance(hidden, tuple) else [output, hidden]


def close(mine, theirs, what):
    np.testing.assert_allclose(mine.detach().numpy(), theirs.detach().numpy(), rtol=1e-4,
                               atol=1e-5, err_msg=what)


SEQUENCE_CASES = {
    # name: (make, input shape, initial state shapes or None)
    "rnn-tanh-2-layers-bidirectional": (
        lambda t: t.nn.RNN(4, 5, num_layers=2, bidirectional=True), (6, 3, 4), [(4, 3, 5)]),
    "rnn-relu-batch-first-no-bias": (
        lambda t: t.nn.RNN(4, 5, nonlinearity="relu", bias=False, batch_first=True),
        (3, 6, 4), None),
    "lstm-2-layers": (lambda t: t.nn.LSTM(4, 5, 2), (6, 3, 4), [(2, 3, 5), (2, 3, 5)]),
    "lstm-bidirectional-proj-batch-first": (
        lambda t: t.nn.LSTM(4, 5, bidirectional=True, proj_size=3, batch_first=True),
        (3, 6, 4), [(2, 3, 3), (2, 3, 5)]),
    "lstm-unbatched": (lambda t: t.nn.LSTM(4, 5, bias=False), (6, 4), [(1, 5), (1, 5)]),
    "gru-2-layers-bidirectional": (
        lambda t: t.nn.GRU(4, 5, num_layers=2, bidirectional=True), (6, 3, 4), None),
    "gru-unbatched-batch-first": (
        lambda t: t.nn.GRU(4, 5, batch_first=True), (6, 4), [(1, 5)]),
}


@pytest.mark.filterwarnings("ignore:LSTM with projections is not supported with oneDNN")
@pytest.mark.parametrize("case", sorted(SEQUENCE_CASES))
def test_sequence_model_matches_pytorch(case):
    make, shape, state_shapes = SEQUENCE_CASES[case]
    mine, theirs = build(make)
    arrays = [rand(*shape)] + [rand(*s, seed=i + 1) for i, s in enumerate(state_shapes or [])]
    inputs = [[lib.tensor(a, requires_grad=True) for a in arrays] for lib in (minigrad, torch)]
    results = []
    for module, (x, *states) in zip((mine, theirs), inputs):
        hidden = None if not states else states[0] if len(states) == 1 else tuple(states)
        results.append(flat(module(x) if hidden is None else module(x, hidden)))
    names = ["output", "h_n", "c_n"]
    for name, a, b in zip(names, *results):
        close(a, b, name)
        assert a.shape == b.shape and a.grad_fn.name() == b.grad_fn.name() or (
            "lstm" in case and "proj" not in case and name == "output"  # PyTorch: oneDNN's node
        ), (name, a.grad_fn, b.grad_fn)
        assert a._version == b._version, name
    weights = [rand(*r.shape, seed=7 + i) for i, r in enumerate(results[1])]
    for lib, outs in zip((minigrad, torch), results):
        sum((o * lib.tensor(w)).sum() for o, w in zip(outs, weights)).backward()
    for a, b in zip(*inputs):
        close(a.grad, b.grad, "input grad")
    for (name, a), (_, b) in zip(mine.named_parameters(), theirs.named_parameters()):
        close(a.grad, b.grad, name)


def test_sequence_models_reprs_parameters_and_errors_match_pytorch():
    def story(lib):
        nn = lib.nn
        seen = []
        lstm = nn.LSTM(4, 6, 2, dropout=0.5, bidirectional=True, batch_first=True, bias=False,
                       proj_size=3)
        seen += [repr(lstm), [(n, tuple(p.shape)) for n, p in lstm.named_parameters()]]
        seen += [[[tuple(p.shape) for p in ws] for ws in lstm.all_weights]]
        seen += [repr(nn.RNN(2, 3, nonlinearity="relu")), repr(nn.GRU(2, 3, 1, False, True))]
        lstm.flatten_parameters()
        gru = nn.GRU(4, 5, num_layers=2)
        x = lib.zeros(6, 3, 4)
        for bad in (
            lambda: nn.RNN(2, 3, nonlinearity="gelu"), lambda: nn.GRU(2, 3, proj_size=1),
            lambda: nn.LSTM(2, 3, dropout=1.5), lambda: nn.LSTM(2, 3, proj_size=3),
            lambda: nn.LSTM(2, 3, proj_size=-1), lambda: nn.LSTM(2, 0),
            lambda: nn.LSTM(2, 3, num_layers=0), lambda: nn.LSTM(2.0, 3),
            lambda: nn.LSTM(2, 3, bias=1), lambda: nn.RNN(0, 3),
            lambda: gru(lib.zeros(6)), lambda: nn.RNN(4, 5)(lib.zeros(2, 3, 4, 1)),
            lambda: gru(lib.zeros(6, 3, 2)), lambda: gru(x.double()),
            lambda: gru(x, lib.zeros(2, 3)), lambda: gru(x[:, 0], lib.zeros(2, 3, 5)),
            lambda: gru(x, lib.zeros(2, 3, 4)), lambda: gru(x, lib.zeros(1, 3, 5)),
            lambda: lstm(x.transpose(0, 1)[..., :2]),
            lambda: nn.LSTM(4, 5)(x, (lib.zeros(1, 3, 5), lib.zeros(3, 5))),
            lambda: nn.LSTM(4, 5)(x[:, 0], (lib.zeros(1, 5), lib.zeros(1, 1, 5))),
            lambda: nn.LSTM(4, 5, proj_size=2)(x, (lib.zeros(1, 3, 5), lib.zeros(1, 3, 5))),
            lambda: nn.LSTM(4, 5, proj_size=2)(x, (lib.zeros(1, 3, 2), lib.zeros(1, 3, 2))),
        ):
            seen.append(outcome(bad))
        return [same_text(value) for value in seen]

    with pytest.warns(UserWarning, match="non-zero dropout expects num_layers greater than 1"):
        torch.nn.GRU(2, 3, dropout=0.2)
    with pytest.warns(UserWarning, match="non-zero dropout expects num_layers greater than 1"):
        minigrad.nn.GRU(2, 3, dropout=0.2)
    mine, theirs = story(minigrad), story(torch)
    for a, b in zip(mine, theirs):
        assert a == b


def test_sequence_dropout_acts_between_layers_in_training_only():
    minigrad.manual_seed(0)
    gru = minigrad.nn.GRU(3, 40, num_layers=2, dropout=0.5)
    x = minigrad.randn(4, 2, 3)
    single = minigrad.nn.GRU(3, 40, num_layers=1)
    single.load_state_dict({k: v for k, v in gru.state_dict().items() if k.endswith("l0")})
    eval_out = gru.eval()(x)[0]
    assert minigrad.equal(eval_out, gru(x)[0])  # eval: no dropout, deterministic
    first_layer = single(x)[0]
    train_out = gru.train()(x)[0]
    assert not minigrad.allclose(train_out, eval_out)  # dropout applied to layer 0's output
    # ... and not to the last layer's output: its first layer's states are unchanged
    assert minigrad.equal(gru.train()(x)[1][0], first_layer[-1])


def test_pad_sequence_matches_pytorch():
    arrays = [rand(3, 2), rand(1, 2, seed=1), rand(4, 2, seed=2)[::2]]  # the last one strided
    for kwargs in ({}, {"batch_first": True, "padding_side": "left", "padding_value": -1.5}):
        results = []
        for lib in (minigrad, torch):
            seqs = [lib.tensor(a, requires_grad=True) for a in arrays]
            padded = lib.nn.utils.rnn.pad_sequence(seqs, **kwargs)
            (padded * lib.tensor(rand(*padded.shape, seed=5))).sum().backward()
            results.append((padded, [s.grad for s in seqs]))
        (mine, mine_grads), (theirs, their_grads) = results
        close(mine, theirs, "padded")
        assert mine.grad_fn.name() == theirs.grad_fn.name()
        for a, b in zip(mine_grads, their_grads):
            close(a, b, "grad")

    def story(lib):
        pad = lib.nn.utils.rnn.pad_sequence
        seen = [pad((lib.tensor([1, 2]), lib.tensor([3]))),
                pad([lib.zeros(2), lib.ones(1).double()])]
        for bad in (lambda: pad([]), lambda: pad([lib.zeros(2, 2), lib.zeros(1, 3)]),
                    lambda: pad([lib.zeros(2)], padding_side="up"), lambda: pad(3),
                    lambda: pad([lib.tensor(1.0)])):
            seen.append(outcome(bad))
        return [same_text(value) for value in seen]

    assert story(minigrad) == story(torch)


# --- attention -----------------------------------------------------------------------------------

ATTENTION_CASES = {
    # name: (make, call arguments (arrays, "x" for the query itself), forward keywords)
    "self-attention-weights": (lambda t: t.nn.MultiheadAttention(8, 2), ((4, 3, 8), "x", "x"),
                               {"attn_mask": "causal-bool"}),
    "self-attention-batch-first-no-weights": (
        lambda t: t.nn.MultiheadAttention(8, 4, batch_first=True), ((3, 4, 8), "x", "x"),
        {"need_weights": False, "key_padding_mask": "padding"}),
    "kdim-vdim-bias-kv-zero-attn": (
        lambda t: t.nn.MultiheadAttention(8, 2, kdim=3, vdim=5, add_bias_kv=True,
                                          add_zero_attn=True),
        ((4, 3, 8), (5, 3, 3), (5, 3, 5)),
        {"key_padding_mask": "padding", "average_attn_weights": False}),
    "unbatched-shared-key-value-no-bias": (
        lambda t: t.nn.MultiheadAttention(6, 3, bias=False), ((4, 6), (5, 6), "k"),
        {"attn_mask": "float"}),
}


@pytest.mark.parametrize("case", sorted(ATTENTION_CASES))
def test_multihead_attention_matches_pytorch(case):
    make, shapes, options = ATTENTION_CASES[case]
    mine, theirs = build(make)
    arrays = [rand(*s, seed=i) if isinstance(s, tuple) else s for i, s in enumerate(shapes)]
    batched = len(shapes[0]) == 3
    length = shapes[0][0 if not batched or not theirs.batch_first else 1]
    source = shapes[1][1 if theirs.batch_first else 0] if shapes[1] != "x" else length
    masks = {
        "causal-bool": np.triu(np.ones((length, source), dtype=bool), 1),
        "float": rand(length, source, seed=9),
        "padding": np.arange(source)[None, :] >= np.array([[source], [source - 1], [1]][:3]),
    }
    results, leaves = [], []
    for lib, module in ((minigrad, mine), (torch, theirs)):
        tensors = []
        for a in arrays:
            same = {"x": 0, "k": 1}.get(a) if isinstance(a, str) else None
            tensors.append(lib.tensor(a, requires_grad=True) if same is None else tensors[same])
        kwargs = {k: lib.tensor(masks[v]) if isinstance(v, str) else v for k, v in options.items()}
        output, weights = module(*tensors, **kwargs)
        loss = (output * lib.tensor(rand(*output.shape, seed=5))).sum()
        if weights is not None:
            loss = loss + (weights * lib.tensor(rand(*weights.shape, seed=6))).sum()
        loss.backward()
        results.append((output, weights))
        leaves.append([t for t in tensors if isinstance(t, type(tensors[0]))])
    (out, weights), (their_out, their_weights) = results
    close(out, their_out, "output")
    assert out.grad_fn.name() == their_out.grad_fn.name()
    assert (weights is None) == (their_weights is None)
    if weights is not None:
        close(weights, their_weights, "weights")
        assert weights.grad_fn.name() == their_weights.grad_fn.name()
    for a, b in zip(*leaves):
        close(a.grad, b.grad, "input grad")
    for (name, a), (_, b) in zip(mine.named_parameters(), theirs.named_parameters()):
        close(a.grad, b.grad, name)


ENCODER_CASES = {
    "post-norm-relu-causal": (
        lambda t: t.nn.TransformerEncoder(
            t.nn.TransformerEncoderLayer(8, 2, 16, dropout=0.0), 2, enable_nested_tensor=False),
        (5, 3, 8), {"mask": "causal"}),
    "pre-norm-gelu-batch-first-padding": (
        lambda t: t.nn.TransformerEncoder(
            t.nn.TransformerEncoderLayer(8, 4, 12, dropout=0.0, activation="gelu",
                                         batch_first=True, norm_first=True),
            2, norm=t.nn.LayerNorm(8), enable_nested_tensor=False),
        (3, 5, 8), {"src_key_padding_mask": "padding"}),
}


@pytest.mark.parametrize("case", sorted(ENCODER_CASES))
def test_transformer_encoder_matches_pytorch(case):
    make, shape, options = ENCODER_CASES[case]
    mine, theirs = build(make)
    masks = {"causal": lambda lib: lib.nn.Transformer.generate_square_subsequent_mask(5)
             if lib is torch else minigrad.full((5, 5), float("-inf")).triu(1),
             "padding": lambda lib: lib.tensor(np.arange(5)[None, :] >= np.array([[5], [3], [1]]))}
    results, inputs = [], []
    for lib, module in ((minigrad, mine), (torch, theirs)):
        x = lib.tensor(rand(*shape), requires_grad=True)
        out = module(x, **{k: masks[v](lib) for k, v in options.items()})
        (out * lib.tensor(rand(*out.shape, seed=3))).sum().backward()
        results.append(out)
        inputs.append(x)
    close(results[0], results[1], "output")
    assert results[0].grad_fn.name() == results[1].grad_fn.name()
    close(inputs[0].grad, inputs[1].grad, "input grad")
    for (name, a), (_, b) in zip(mine.named_parameters(), theirs.named_parameters()):
        close(a.grad, b.grad, name)


def test_attention_and_encoder_reprs_and_errors_match_pytorch():
    def story(lib):
        nn = lib.nn
        seen = [repr(nn.MultiheadAttention(8, 2, kdim=3, bias=False, add_bias_kv=True))]
        seen.append([(n, tuple(p.shape)) for n, p in
                     nn.MultiheadAttention(8, 2, kdim=3, vdim=4).named_parameters()])
        seen.append(repr(nn.TransformerEncoder(
            nn.TransformerEncoderLayer(8, 2, 16, batch_first=True), 2)))
        attention = nn.MultiheadAttention(4, 2)
        x = lib.zeros(3, 2, 4)
        for bad in (
            lambda: nn.MultiheadAttention(0, 2), lambda: nn.MultiheadAttention(5, 2),
            lambda: nn.TransformerEncoderLayer(4, 2, activation="tanh"),
            lambda: attention(x, x, lib.zeros(3, 4)), lambda: attention(x[0], x[0], x[0, :2]),
            lambda: attention(lib.zeros(3, 2, 5), x, x), lambda: attention(x.sum(-1), x, x),
            lambda: attention(x, x, x, attn_mask=lib.zeros(3, 2)),
            lambda: attention(x, x, x, attn_mask=lib.zeros(2, 3, 3)),
            lambda: attention(x, x, x, key_padding_mask=lib.zeros(2, 2, dtype=lib.bool)),
            lambda: attention(x, x, x, attn_mask=lib.zeros(3, 3, dtype=lib.int64)),
            lambda: attention(x, x, x, is_causal=True),
        ):
            seen.append(outcome(bad))
        with pytest.warns(UserWarning) as record:
            nn.TransformerEncoder(nn.TransformerEncoderLayer(4, 2, 8), 1)
            attention(x, x, x, attn_mask=lib.zeros(3, 3, dtype=lib.bool),
                      key_padding_mask=lib.zeros(2, 3))
        seen += [str(w.message) for w in record]
        return [same_text(value) for value in seen]

    mine, theirs = story(minigrad), story(torch)
    for a, b in zip(mine, theirs):
        assert a == b
    assert len(mine) == len(theirs)


# --- packed sequences ----------------------------------------------------------------------------

PACKED_CASES = {
    "gru-2-layers-bidirectional-hx": (lambda t: t.nn.GRU(4, 3, 2, bidirectional=True), (4, 3, 3)),
    "lstm-proj-bidirectional": (lambda t: t.nn.LSTM(4, 3, bidirectional=True, proj_size=2),
                                None),
    "rnn-relu": (lambda t: t.nn.RNN(4, 3, nonlinearity="relu"), (1, 3, 3)),
}


@pytest.mark.filterwarnings("ignore:LSTM with projections is not supported with oneDNN")
@pytest.mark.parametrize("case", sorted(PACKED_CASES))
def test_packed_sequences_run_as_in_pytorch(case):
    make, hidden_shape = PACKED_CASES[case]
    mine, theirs = build(make)
    results, leaves = [], []
    for lib, module in ((minigrad, mine), (torch, theirs)):
        rnn_utils = lib.nn.utils.rnn
        x = lib.tensor(rand(3, 5, 4), requires_grad=True)
        packed = rnn_utils.pack_padded_sequence(x, [3, 5, 2], batch_first=True,
                                                enforce_sorted=False)
        hx = None if hidden_shape is None else lib.tensor(rand(*hidden_shape, seed=1),
                                                          requires_grad=True)
        output, hidden = module(packed, hx)
        assert type(output).__name__ == "PackedSequence"
        padded, lengths = rnn_utils.pad_packed_sequence(output, batch_first=True)
        finals = list(hidden) if isinstance(hidden, tuple) else [hidden]
        loss = (padded * lib.tensor(rand(*padded.shape, seed=2))).sum()
        for i, final in enumerate(finals):
            loss = loss + (final * lib.tensor(rand(*final.shape, seed=3 + i))).sum()
        loss.backward()
        results.append([output.data, padded, *finals])
        leaves.append([x] + ([] if hx is None else [hx]))
        assert lengths.tolist() == [3, 5, 2]
    for a, b in zip(*results):
        close(a, b, "output")
        assert a.grad_fn.name() == b.grad_fn.name()
    for a, b in zip(*leaves):
        close(a.grad, b.grad, "input grad")
    for (name, a), (_, b) in zip(mine.named_parameters(), theirs.named_parameters()):
        close(a.grad, b.grad, name)


def test_packing_matches_pytorch():
    def story(lib):
        rnn_utils = lib.nn.utils.rnn
        x = lib.tensor(rand(4, 3, 2))
        seen = [repr(rnn_utils.pack_padded_sequence(x, [4, 3, 1])),
                repr(rnn_utils.pack_sequence([lib.ones(3), lib.zeros(1), lib.ones(2)],
                                             enforce_sorted=False)),
                rnn_utils.pad_packed_sequence(
                    rnn_utils.pack_padded_sequence(x, lib.tensor([2, 4, 1]), enforce_sorted=False),
                    padding_value=-1.0, total_length=6)]
        packed = rnn_utils.pack_padded_sequence(x, [4, 3, 1])
        for bad in (lambda: rnn_utils.pack_padded_sequence(x, [4, 1, 3]),
                    lambda: rnn_utils.pack_padded_sequence(x, [4, 3, 0]),
                    lambda: rnn_utils.pack_padded_sequence(x, [4, 3]),
                    lambda: rnn_utils.pad_packed_sequence(packed, total_length=2),
                    lambda: lib.nn.GRU(3, 2)(packed),
                    lambda: lib.nn.GRU(2, 2)(packed, lib.zeros(1, 2, 2))):
            seen.append(outcome(bad))
        return [same_text(value) for value in seen]

    mine, theirs = story(minigrad), story(torch)
    for a, b in zip(mine, theirs):
        assert a == b


def test_margin_and_likelihood_loss_modules_match_pytorch():
    a, b, c = rand(3, 4), rand(3, 4, seed=1), rand(3, 4, seed=2)
    signs = np.sign(rand(3, seed=3))
    cases = [
        (lambda t: t.nn.MarginRankingLoss(margin=0.2, reduction="sum"),
         (a[0], b[0], np.sign(c[0]))),
        (lambda t: t.nn.HingeEmbeddingLoss(margin=0.5), (a, np.sign(b))),
        (lambda t: t.nn.CosineEmbeddingLoss(margin=0.1, size_average=False), (a, b, signs)),
        (lambda t: t.nn.TripletMarginLoss(margin=1.5, p=1.0, swap=True), (a, b, c)),
        (lambda t: t.nn.PoissonNLLLoss(log_input=False, full=True), (np.abs(a), np.abs(b) * 3)),
    ]
    for make, arrays in cases:
        results = []
        for lib in (minigrad, torch):
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")  # (the legacy size_average's deprecation)
                module = make(lib)
            results.append((repr(module), module(*(lib.tensor(x) for x in arrays))))
        assert results[0][0] == results[1][0]
        close(results[0][1], results[1][1], results[0][0])
