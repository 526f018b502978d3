"""The recurrent cells, sequence models and modules on integer and mixed dtypes, against PyTorch.

PyTorch's cells make the two projections in their own order (``h @ W_hh.T + b_hh`` first for
the RNN and LSTM cells, ``x @ W_ih.T + b_ih`` first for the GRU cell), add the input's into the
hidden one in place and apply ``sigmoid_`` to the LSTM's and GRU's gates in place: which of a
misfit dtype's errors comes first, whether integer inputs compute (``rnn_relu_cell`` keeps
int64, ``rnn_tanh_cell`` gives float32) or fail (``result type Float can't be cast to the
desired output type Long``), and the result's dtype (a float64 input projection added into a
float32 hidden one stays float32) all follow. A float32 LSTM without projections runs oneDNN,
which takes float32 states and weights only, and its biases summed. Every combination of
int64/float32 and of float32/float64 over the input, the states and the weights (with and
without biases) is compared: the exception's type and text, or the results' dtypes and values;
after a failure every argument keeps its values and version.
"""

from __future__ import annotations

import itertools
from typing import Any

import numpy as np
import pytest
from _cases import parametrize_in_one

import minigrad

torch = pytest.importorskip("torch")

LIBS = (minigrad, torch)
CELLS = {"rnn_tanh_cell": 1, "rnn_relu_cell": 1, "gru_cell": 3, "lstm_cell": 4}
MODELS = {"rnn_tanh": 1, "rnn_relu": 1, "gru": 3, "lstm": 4}
DTYPES = {"i": "int64", "f": "float32", "d": "float64", "j": "int32"}
# The argument order of the combinations: input, hidden, cell state, w_ih, w_hh, b_ih, b_hh.
NAMES = ("x", "h", "c", "w_ih", "w_hh", "b_ih", "b_hh")


def _arrays(gates: int, sequence: bool) -> list[np.ndarray]:
    """Small integers (exact in every dtype) of the arguments' shapes."""
    rng = np.random.default_rng(gates)
    state = (1, 2, 3) if sequence else (2, 3)
    shapes = [
        (3, 2, 4) if sequence else (2, 4),
        state,
        state,
        (3 * gates, 4),
        (3 * gates, 3),
        (3 * gates,),
        (3 * gates,),
    ]
    return [rng.integers(-2, 3, shape) for shape in shapes]


def _combinations(letters: str, lstm: bool) -> list[str]:
    """Every assignment of ``letters`` to the arguments, with biases (7) and without (5).

    Without a cell state (not an LSTM) its letter follows the input's, to count each call once.
    """
    found = []
    for count in (7, 5):
        for combo in itertools.product(letters, repeat=count):
            if lstm or combo[2] == combo[0]:
                found.append("".join(combo))
    return found


def _outcome(call: Any, arguments: list[Any]) -> tuple[Any, ...]:
    """("error", type, text) with the arguments' state checked unchanged, or ("ok", results)."""
    before = [(a._version, a.detach().clone()) for a in arguments]
    try:
        results = call()
    except Exception as error:  # noqa: BLE001 - the error is what is compared
        for argument, (version, value) in zip(arguments, before):
            assert argument._version == version
            assert argument.equal(value)
        return ("error", type(error).__name__, str(error).replace("torch.", "minigrad."))
    return (
        "ok",
        [
            (str(r.dtype).split(".")[-1], r.detach().numpy().astype(np.float64))
            for r in _flat(results)
        ],
    )


def _flat(results: Any) -> list[Any]:
    """The tensors of a result, of a tuple of them, or of nested tuples ((output, (h, c)))."""
    if isinstance(results, tuple):
        return [t for r in results for t in _flat(r)]
    return [results]


def _compare(mine: tuple[Any, ...], theirs: tuple[Any, ...], label: str) -> str | None:
    """A description of the difference, or None."""
    if mine[0] != theirs[0] or mine[0] == "error":
        return None if mine == theirs else f"{label}: minigrad {mine}, PyTorch {theirs}"
    for (m_dtype, m_value), (t_dtype, t_value) in zip(mine[1], theirs[1]):
        if m_dtype != t_dtype or not np.allclose(m_value, t_value, rtol=1e-4, atol=1e-5):
            return f"{label}: minigrad {m_dtype} {m_value}, PyTorch {t_dtype} {t_value}"
    return None


def _cell_call(lib: Any, name: str, tensors: list[Any]) -> Any:
    x, h, c, *weights = tensors
    hx = (h, c) if name == "lstm_cell" else h
    return lambda: getattr(lib, name)(x, hx, *weights)


@parametrize_in_one(
    "letters", ["if", "fd", "ij"], ids=["int64_float32", "float32_float64", "int32_int64"]
)
@parametrize_in_one("name", list(CELLS))
def test_cells_on_mixed_dtypes(name: str, letters: str) -> None:
    arrays = _arrays(CELLS[name], sequence=False)
    differences = []
    for combo in _combinations(letters, name == "lstm_cell"):
        outcomes = []
        for lib in LIBS:
            tensors = [lib.from_numpy(a.astype(DTYPES[k])) for a, k in zip(arrays, combo)]
            used = tensors if name == "lstm_cell" else tensors[:2] + tensors[3:]
            outcomes.append(_outcome(_cell_call(lib, name, tensors), used))
        differences.append(_compare(*outcomes, combo))
    assert [d for d in differences if d] == []


def _model_call(lib: Any, name: str, tensors: list[Any], packed: bool) -> Any:
    x, h, c, *weights = tensors
    hx = (h, c) if name == "lstm" else h
    has_biases = len(weights) == 4
    if packed:  # (three steps of 2, 2 and 1 rows)
        return lambda: getattr(lib, name)(
            x.reshape(-1, 4)[:5],
            lib.tensor([2, 2, 1]),
            hx,
            weights,
            has_biases,
            1,
            0.0,
            False,
            False,
        )
    return lambda: getattr(lib, name)(x, hx, weights, has_biases, 1, 0.0, False, False, False)


@pytest.mark.parametrize("packed", [False, True], ids=["sequence", "packed"])
@pytest.mark.parametrize("letters", ["if", "fd"], ids=["int64_float32", "float32_float64"])
@pytest.mark.parametrize("name", list(MODELS))
def test_sequence_models_on_mixed_dtypes(name: str, letters: str, packed: bool) -> None:
    arrays = _arrays(MODELS[name], sequence=True)
    differences = []
    for combo in _combinations(letters, name == "lstm"):
        outcomes = []
        for lib in LIBS:
            tensors = [lib.from_numpy(a.astype(DTYPES[k])) for a, k in zip(arrays, combo)]
            used = tensors if name == "lstm" else tensors[:2] + tensors[3:]
            outcomes.append(_outcome(_model_call(lib, name, tensors, packed), used))
        differences.append(_compare(*outcomes, combo))
    assert [d for d in differences if d] == []


def test_integer_gates_name_the_default_dtype() -> None:
    """``sigmoid_`` of integer gates: the result type is the default float dtype."""
    texts = []
    for lib in LIBS:
        previous = lib.get_default_dtype()
        lib.set_default_dtype(lib.float64)
        try:
            ints = [lib.ones(shape, dtype=lib.int64) for shape in ((2, 4), (2, 3), (9, 4), (9, 3))]
            with pytest.raises(RuntimeError) as caught:
                lib.gru_cell(*ints)
            texts.append(str(caught.value))
        finally:
            lib.set_default_dtype(previous)
    expected = "result type Double can't be cast to the desired output type Long"
    assert texts[0] == texts[1] == expected


_MODULES = {
    "RNNCell": lambda nn: nn.RNNCell(4, 3),
    "RNNCell_relu": lambda nn: nn.RNNCell(4, 3, nonlinearity="relu"),
    "LSTMCell": lambda nn: nn.LSTMCell(4, 3),
    "GRUCell": lambda nn: nn.GRUCell(4, 3),
    "RNN": lambda nn: nn.RNN(4, 3),
    "RNN_relu": lambda nn: nn.RNN(4, 3, nonlinearity="relu"),
    "LSTM": lambda nn: nn.LSTM(4, 3),
    "LSTM_proj": lambda nn: nn.LSTM(4, 3, proj_size=2),
    "GRU": lambda nn: nn.GRU(4, 3),
}


def _module_call(
    lib: Any, kind: str, parameters: str | None, x_dtype: str, h_dtype: str | None
) -> tuple[Any, list[Any]]:
    """The module (its parameters replaced by integer or float64 ones) called on x and hx."""
    module = _MODULES[kind](lib.nn)
    rng = np.random.default_rng(7)
    for name, p in list(module.named_parameters()):
        values = rng.integers(-2, 3, tuple(p.shape))
        if parameters is None:
            value = lib.nn.Parameter(lib.from_numpy(values.astype("float32")))
        elif parameters == "int64":  # (an integer parameter cannot require grad)
            value = lib.nn.Parameter(lib.from_numpy(values), requires_grad=False)
        else:
            value = lib.nn.Parameter(lib.from_numpy(values.astype(parameters)))
        setattr(module, name, value)
    cell = "Cell" in kind
    x = lib.from_numpy(
        (np.arange(24).reshape(3, 2, 4)[0 if cell else slice(None)] - 5).astype(x_dtype)
    )
    arguments = [x]
    if h_dtype is not None:
        size = 2 if kind == "LSTM_proj" else 3
        h = lib.ones((2, 3) if cell else (1, 2, size), dtype=getattr(lib, h_dtype))
        c = lib.ones((2, 3) if cell else (1, 2, 3), dtype=getattr(lib, h_dtype))
        arguments.append((h, c) if "LSTM" in kind else h)
    return (lambda: module(*arguments)), _flat(tuple(arguments))


@pytest.mark.filterwarnings("ignore:LSTM with projections is not supported with oneDNN")
@pytest.mark.parametrize("kind", list(_MODULES))
def test_modules_on_mixed_dtypes(kind: str) -> None:
    differences = []
    for parameters, x_dtype, h_dtype in itertools.product(
        (None, "int64", "float64"),
        ("int64", "float32", "float64"),
        (None, "int64", "float32", "float64"),
    ):
        outcomes = [
            _outcome(*_module_call(lib, kind, parameters, x_dtype, h_dtype)) for lib in LIBS
        ]
        differences.append(_compare(*outcomes, f"{parameters}/{x_dtype}/{h_dtype}"))
    assert [d for d in differences if d] == []
