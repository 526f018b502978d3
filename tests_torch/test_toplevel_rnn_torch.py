"""PyTorch's top-level recurrent forms (``torch.lstm``, ``gru``, ``rnn_tanh``, ``rnn_relu``, in
their sequence and packed-sequence overloads) and ``torch.embedding_bag``'s 4-tuple, against
PyTorch: results, the gradients of the input, the states and every weight, and the errors.

The weights are drawn here (numpy) and given to both libraries in ``nn.LSTM._flat_weights``'
order; ``params`` of a packed call comes from ``nn.utils.rnn.pack_padded_sequence`` with
unsorted lengths. Dropout masks cannot match PyTorch's generator: ``p = 1`` (everything dropped)
and ``train=False`` can, and a seeded minigrad call is checked to drop between layers only.
PyTorch's float32 LSTM runs oneDNN, whose checks of malformed calls differ from its native
path's (and may crash): the LSTM misuse cases run in float64, the native path minigrad follows.
"""

from __future__ import annotations

import itertools
import warnings

import numpy as np
import pytest
import torch
from _cases import parametrize_in_one

import minigrad

LIBS = (minigrad, torch)
GATES = {"lstm": 4, "gru": 3, "rnn_tanh": 1, "rnn_relu": 1}
INPUT, HIDDEN, PROJ = 3, 4, 2


def _weights(
    rng: np.random.Generator, kind: str, layers: int, directions: int, bias: bool, proj: int
) -> list[np.ndarray]:
    """Random weights in ``_flat_weights``' order: w_ih, w_hh[, b_ih, b_hh][, w_hr] each."""
    rows, out = GATES[kind] * HIDDEN, proj or HIDDEN
    flat = []
    for layer, _ in itertools.product(range(layers), range(directions)):
        columns = INPUT if layer == 0 else out * directions
        flat += [rng.uniform(-0.6, 0.6, (rows, columns)), rng.uniform(-0.6, 0.6, (rows, out))]
        if bias:
            flat += [rng.uniform(-0.6, 0.6, rows), rng.uniform(-0.6, 0.6, rows)]
        if proj:
            flat.append(rng.uniform(-0.6, 0.6, (proj, HIDDEN)))
    return flat


def _leaf(lib, array: np.ndarray, dtype: str):
    return lib.tensor(array, dtype=getattr(lib, dtype), requires_grad=True)


def _run(lib, kind, x, states, flat, dtype, options, batch_sizes=None):
    """The call in ``lib``, then backward of a sum of squares: (results, gradients)."""
    x, flat = _leaf(lib, x, dtype), [_leaf(lib, w, dtype) for w in flat]
    states = [_leaf(lib, s, dtype) for s in states]
    hx = tuple(states) if kind == "lstm" else states[0]
    function = getattr(lib, kind)
    if batch_sizes is None:
        results = function(x, hx, flat, *options)
    else:
        results = function(x, lib.tensor(batch_sizes), hx, flat, *options[:-1])
    assert type(results) is tuple and len(results) == (3 if kind == "lstm" else 2)
    sum((r * r).sum() for r in results).backward()
    return results, [t.grad for t in (x, *states, *flat)]


def _compare(kind, x, states, flat, dtype, options, batch_sizes=None):
    tolerance = 1e-10 if dtype == "float64" else 2e-5
    mine = _run(minigrad, kind, x, states, flat, dtype, options, batch_sizes)
    with warnings.catch_warnings():  # (PyTorch's, once: its float32 LSTM with projections
        warnings.simplefilter("ignore")  # does not run oneDNN)
        theirs = _run(torch, kind, x, states, flat, dtype, options, batch_sizes)
    for m, t in zip(itertools.chain(*mine), itertools.chain(*theirs)):
        assert m.dtype.itemsize == t.dtype.itemsize and tuple(m.shape) == tuple(t.shape)
        np.testing.assert_allclose(
            m.detach().numpy(), t.detach().numpy(), atol=tolerance, rtol=tolerance
        )


CASES = [  # (kind, layers, bidirectional, batch_first, bias, proj_size, dtype)
    ("lstm", 2, True, False, True, 0, "float64"),
    ("lstm", 1, False, True, True, 0, "float32"),
    ("lstm", 2, False, False, False, PROJ, "float64"),
    ("lstm", 1, True, True, True, PROJ, "float32"),
    ("gru", 2, True, True, True, 0, "float64"),
    ("gru", 1, False, False, False, 0, "float32"),
    ("rnn_tanh", 2, False, True, True, 0, "float64"),
    ("rnn_tanh", 1, True, False, True, 0, "float32"),
    ("rnn_relu", 2, True, False, False, 0, "float64"),
    ("rnn_relu", 1, False, True, True, 0, "float32"),
]


@parametrize_in_one("case", CASES, ids=lambda c: "-".join(map(str, c)))
def test_sequence_form_matches_pytorch(case):
    kind, layers, bidirectional, batch_first, bias, proj, dtype = case
    rng = np.random.default_rng(CASES.index(case))
    directions = 2 if bidirectional else 1
    length, batch = int(rng.integers(1, 5)), int(rng.integers(1, 4))
    x = rng.standard_normal((batch, length, INPUT) if batch_first else (length, batch, INPUT))
    states = [rng.standard_normal((layers * directions, batch, proj or HIDDEN))]
    if kind == "lstm":
        states.append(rng.standard_normal((layers * directions, batch, HIDDEN)))
    flat = _weights(rng, kind, layers, directions, bias, proj)
    options = (bias, layers, 0.0, False, bidirectional, batch_first)
    _compare(kind, x, states, flat, dtype, options)


@pytest.mark.parametrize("case", CASES[::2], ids=lambda c: "-".join(map(str, c)))
def test_packed_form_matches_pytorch(case):
    """The data and batch sizes ``pack_padded_sequence`` makes of unsorted lengths."""
    kind, layers, bidirectional, _, bias, proj, dtype = case
    rng = np.random.default_rng(CASES.index(case))
    directions = 2 if bidirectional else 1
    lengths = [2, 4, 1, 3]
    padded = torch.tensor(rng.standard_normal((4, len(lengths), INPUT)))
    packed = torch.nn.utils.rnn.pack_padded_sequence(padded, lengths, enforce_sorted=False)
    states = [rng.standard_normal((layers * directions, len(lengths), proj or HIDDEN))]
    if kind == "lstm":
        states.append(rng.standard_normal((layers * directions, len(lengths), HIDDEN)))
    flat = _weights(rng, kind, layers, directions, bias, proj)
    options = (bias, layers, 0.0, False, bidirectional, False)
    _compare(kind, packed.data.numpy(), states, flat, dtype, options, packed.batch_sizes.tolist())


@pytest.mark.parametrize("kind", ["lstm", "gru"])
def test_modules_call_the_top_level_forms(kind, monkeypatch):
    """``nn.LSTM``/``nn.GRU`` run through ``minigrad.lstm``/``gru``, as PyTorch's modules."""
    calls = []
    module = getattr(minigrad.nn, kind.upper())(INPUT, HIDDEN, batch_first=True)
    original = minigrad.nn.modules.rnn._FUNCTIONS[kind.upper()]
    monkeypatch.setitem(
        minigrad.nn.modules.rnn._FUNCTIONS,
        kind.upper(),
        lambda *args: calls.append(args) or original(*args),
    )
    module(minigrad.zeros(2, 3, INPUT))
    (args,) = calls
    assert args[2] == module._flat_weights and args[3:] == (True, 1, 0.0, True, False, True)


@pytest.mark.parametrize("kind", ["lstm", "gru", "rnn_relu"])
def test_dropout_between_layers(kind):
    """p = 1 drops every output of the first layer in both libraries; p = 0 drops nothing."""
    rng = np.random.default_rng(7)
    x = rng.standard_normal((3, 2, INPUT))
    states = [rng.standard_normal((2, 2, HIDDEN)) for _ in range(2 if kind == "lstm" else 1)]
    flat = _weights(rng, kind, 2, 1, True, 0)
    _compare(kind, x, states, flat, "float64", (True, 2, 1.0, True, False, False))
    for lib in LIBS:
        args = [
            lib.tensor(x),
            lib.tensor(states[0]) if kind != "lstm" else tuple(map(lib.tensor, states)),
            [lib.tensor(w) for w in flat],
            True,
            2,
        ]
        trained = getattr(lib, kind)(*args, 0.0, True, False, False)
        evaluated = getattr(lib, kind)(*args, 0.7, False, False, False)
        for a, b in zip(trained, evaluated):
            np.testing.assert_array_equal(a.numpy(), b.numpy())


def test_dropout_masks_are_seeded_and_act_between_layers_only():
    rng = np.random.default_rng(3)
    x = minigrad.tensor(rng.standard_normal((4, 3, INPUT)))
    h = minigrad.tensor(rng.standard_normal((3, 3, HIDDEN)))
    flat = [minigrad.tensor(w) for w in _weights(rng, "gru", 3, 1, True, 0)]

    def run(seed, p, train):
        minigrad.manual_seed(seed)
        return minigrad.gru(x, h, flat, True, 3, p, train, False, False)

    first, again, other = run(0, 0.5, True), run(0, 0.5, True), run(1, 0.5, True)
    evaluated = run(0, 0.5, False)
    np.testing.assert_array_equal(first[0].numpy(), again[0].numpy())
    assert not np.allclose(first[0].numpy(), other[0].numpy())
    # The first layer's final state comes before any dropout; the later ones after it.
    np.testing.assert_array_equal(first[1][0].numpy(), evaluated[1][0].numpy())
    assert not np.allclose(first[1][1:].numpy(), evaluated[1][1:].numpy())


# --- misuse: PyTorch's errors ---------------------------------------------------------------


def _misuse_calls(lib):
    """Malformed calls of each form (float64: PyTorch's native path for every kind)."""
    rng = np.random.default_rng(0)

    def t(*shape):
        return lib.tensor(rng.standard_normal(shape))

    x, h, c = t(5, 2, 3), t(4, 2, 4), t(4, 2, 4)
    p = [
        w
        for layer in range(2)
        for _ in range(2)
        for w in (t(16, 3 if layer == 0 else 8), t(16, 4), t(16), t(16))
    ]
    q = [t(12, w.shape[1]) if w.dim() == 2 else t(12) for w in p]
    return {
        "too_many_layers": lambda: lib.lstm(x, (h, c), p, True, 3, 0.0, False, True, False),
        "parameter_count": lambda: lib.lstm(x, (h, c), p[:-1], True, 2, 0.0, False, True, False),
        "odd_states": lambda: lib.gru(x, h[:3], q, True, 2, 0.0, False, True, False),
        "fewer_states": lambda: lib.gru(x, h[:2], q, True, 2, 0.0, False, True, False),
        "fewer_weights": lambda: lib.gru(x, h, q, False, 2, 0.0, False, True, False),
        "no_weights": lambda: lib.lstm(x, (h, c), [], True, 2, 0.0, False, True, False),
        "empty_sequence": lambda: lib.rnn_tanh(x[:0], h, q[:8], True, 2, 0.0, False, False, False),
        "dropout_range": lambda: lib.gru(x, h, q, True, 2, 1.5, True, True, False),
        "batch_first_mismatch": lambda: lib.rnn_relu(x, h, q, True, 2, 0.0, False, True, True),
        "one_state": lambda: lib.lstm(x, (h,), p, True, 2, 0.0, False, True, False),
        "state_rank": lambda: lib.lstm(x, (h[0], c), p, True, 2, 0.0, False, True, False),
        "unbatched": lambda: lib.gru(x[0], h, q, True, 2, 0.0, False, True, False),
        "input_size": lambda: lib.gru(x[..., :2], h, q, True, 2, 0.0, False, True, False),
        "float_batch_sizes": lambda: lib.gru(
            x.flatten(0, 1), lib.tensor([2.0] * 5), h, q, True, 2, 0.0, False, True
        ),
        "wrong_type": lambda: lib.gru(x, h, tuple(q), True, 2, 0.0, False, True, "a"),
        "lstm_one_tensor": lambda: lib.lstm(x, h, p, True, 2, 0.0, False, True, False),
        "too_many_arguments": lambda: lib.lstm(x, (h, c), p, True, 2, 0.0, False, True, False, 5),
    }


@parametrize_in_one("name", list(_misuse_calls(minigrad)))
def test_misuse_gets_pytorchs_error(name):
    raised = []
    for lib in LIBS:
        with pytest.raises(Exception) as info:
            _misuse_calls(lib)[name]()
        raised.append(info.value)
    mine, theirs = raised
    assert type(mine).__name__ == type(theirs).__name__
    assert str(mine) == str(theirs).replace("torch.", "minigrad.")


# --- embedding_bag's four results -------------------------------------------------------------

BAG_CASES = [  # (mode, dtype, include_last_offset, padding_idx, per_sample_weights)
    (mode, dtype, last, padding, weighted)
    for mode in (0, 1, 2)
    for dtype in ("float32", "float64")
    for last, padding in ((False, None), (True, 4), (False, -1))
    for weighted in ((False, True) if mode == 0 else (False,))
]


@parametrize_in_one("case", BAG_CASES, ids=lambda c: "-".join(map(str, c)))
def test_embedding_bag_returns_pytorchs_four_results(case):
    """output, offset2bag, bag_size, max_indices and the gradients, as PyTorch's CPU kernel.

    (With ``include_last_offset`` PyTorch's float32 'sum'/'mean' path without padding sums up
    to the last offset but sizes the last bag up to the input's end, an inconsistency minigrad
    does not copy: there the last offset is the input's end, as it normally is.)
    """
    mode, dtype, last, padding, weighted = case
    rng = np.random.default_rng(BAG_CASES.index(case))
    weight, sample_weights = rng.standard_normal((6, 3)), rng.random(8)
    indices = [1, 2, 4, 5, 4, 3, 2, 0]
    offsets = [0, 2, 2, 5] + ([8] if last and dtype == "float32" else [])
    results = {}
    for lib in LIBS:
        w = _leaf(lib, weight, dtype)
        p = _leaf(lib, sample_weights, dtype) if weighted else None
        out = lib.embedding_bag(
            w, lib.tensor(indices), lib.tensor(offsets), False, mode, False, p, last, padding
        )
        assert type(out) is tuple and len(out) == 4
        assert [t.requires_grad for t in out] == [True, False, False, False]
        out[0].pow(2).sum().backward()
        results[lib] = [*out, w.grad] + ([p.grad] if weighted else [])
    for mine, theirs in zip(results[minigrad], results[torch]):
        assert str(mine.dtype).split(".")[1] == str(theirs.dtype).split(".")[1]
        np.testing.assert_allclose(
            mine.detach().numpy(), theirs.detach().numpy(), rtol=1e-5, atol=1e-6
        )


def test_embedding_bag_outputs_are_saved_for_backward():
    """Writing offset2bag after a 'mean' forward makes backward raise, as in PyTorch."""
    for lib in LIBS:
        w = lib.ones(4, 2, requires_grad=True)
        out, offset2bag, _, _ = lib.embedding_bag(
            w, lib.tensor([0, 1, 3]), lib.tensor([0, 1]), False, 1, False, None, False, None
        )
        offset2bag.add_(0)
        with pytest.raises(RuntimeError, match="modified by an inplace operation"):
            out.sum().backward()


def _bag_misuse(lib):
    w, i, o = lib.ones(5, 2), lib.tensor([0, 1, 4]), lib.tensor([0, 1])
    return {
        "mode": lambda: lib.embedding_bag(w, i, o, False, 3),
        "padding_range": lambda: lib.embedding_bag(w, i, o, False, 0, False, None, False, 9),
        "offsets_rank": lambda: lib.embedding_bag(w, i, o[None], False, 0),
        "weight_rank": lambda: lib.embedding_bag(w[0], i, o, False, 0),
        "float_indices": lambda: lib.embedding_bag(w, i.double(), o, False, 0),
        "weighted_mean": lambda: lib.embedding_bag(w, i, o, False, 1, False, lib.ones(3)),
        "weights_count": lambda: lib.embedding_bag(w, i, o, False, 0, False, lib.ones(2)),
        "index_range": lambda: lib.embedding_bag(w, i + 3, o, False, 2),
        "first_offset": lambda: lib.embedding_bag(w, i, o + 1, False, 0),
        "offsets_type": lambda: lib.embedding_bag(w, i, [0, 1]),
        "private_padding_none": lambda: lib._embedding_bag(
            w, i, o, False, 0, False, None, False, None
        ),
    }


@parametrize_in_one("name", list(_bag_misuse(minigrad)))
def test_embedding_bag_misuse_gets_pytorchs_error(name):
    raised = []
    for lib in LIBS:
        with pytest.raises(Exception) as info:
            _bag_misuse(lib)[name]()
        raised.append(info.value)
    mine, theirs = raised
    assert type(mine).__name__ == type(theirs).__name__
    assert str(mine) == str(theirs).replace("torch.", "minigrad.")


def test_private_embedding_bag_takes_padding_idx_as_it_is():
    for padding in (-1, -2, 4, 9):
        sizes = [
            lib._embedding_bag(
                lib.ones(6, 2),
                lib.tensor([1, 4, 5]),
                lib.tensor([0]),
                False,
                1,
                False,
                None,
                False,
                padding,
            )[2].tolist()
            for lib in LIBS
        ]
        assert sizes[0] == sizes[1]
