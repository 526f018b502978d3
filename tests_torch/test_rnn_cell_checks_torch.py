"""The top-level recurrent cells' shape checks, compared live with PyTorch 2.13's fused kernels.

``rnn_tanh_cell``, ``rnn_relu_cell``, ``gru_cell`` and ``lstm_cell`` check the weights' rows,
the input's size and the hidden states' sizes before they compute, each kernel in its own order:
every call below has one or two bad shapes, so the first check that fails is the one compared
(exception type and message).
"""

from __future__ import annotations

from typing import Any

import pytest
from _cases import parametrize_in_one

import minigrad

torch = pytest.importorskip("torch")

CELLS = {"rnn_tanh_cell": 1, "rnn_relu_cell": 1, "gru_cell": 3, "lstm_cell": 4}
# What replaces the good shapes (input (2, 4), hidden (2, 3), weights (chunks * 3, 4) and
# (chunks * 3, 3)): "wi-" / "wh-" are weights one row short; None a 1-d tensor of 7.
BAD = {
    "input": {"x": (2, 5)},
    "hidden_batch": {"h": (1, 3)},
    "hidden_size": {"h": (2, 2)},
    "input+w_ih": {"x": (2, 5), "wi": "short"},
    "input+w_hh": {"x": (2, 5), "wh": "short"},
    "hidden_batch+w_ih": {"h": (1, 3), "wi": "short"},
    "hidden_size+w_ih": {"h": (2, 2), "wi": "short"},
    "hidden_batch+w_hh": {"h": (1, 3), "wh": "short"},
    "input+hidden_batch": {"x": (2, 5), "h": (1, 3)},
    "w_ih+w_hh": {"wi": "short", "wh": "short"},
    "input_1d+w_ih": {"x": (7,), "wi": "short"},
    "hidden_1d+w_ih": {"h": (7,), "wi": "short"},
    "hidden_1d_batch+w_ih": {"h": (2,), "wi": "short"},
    "w_ih_1d": {"wi": (7,)},
    "w_ih_1d_rows": {"wi": "rows"},
    "w_hh_1d": {"wh": (7,)},
    "input_0d": {"x": ()},
    "cell_state_batch": {"c": (1, 3)},
    "cell_state_size": {"c": (2, 2)},
}


def _call(lib: Any, name: str, bad: dict[str, Any]) -> BaseException:
    chunks = CELLS[name]
    shapes = {"x": (2, 4), "h": (2, 3), "c": (2, 3), "wi": (chunks * 3, 4), "wh": (chunks * 3, 3)}
    for key, shape in bad.items():
        if shape == "short":
            shape = (shapes[key][0] - 1, shapes[key][1])
        elif shape == "rows":
            shape = (shapes[key][0],)
        shapes[key] = shape
    x, h, c, w_ih, w_hh = (lib.ones(shapes[key]) for key in ("x", "h", "c", "wi", "wh"))
    hx = (h, c) if name == "lstm_cell" else h
    with pytest.raises(Exception) as caught:
        getattr(lib, name)(x, hx, w_ih, w_hh)
    return caught.value


@parametrize_in_one("name", list(CELLS))
@parametrize_in_one("case", list(BAD))
def test_first_failing_check_as_pytorch(name: str, case: str) -> None:
    if case.startswith("cell_state") and name != "lstm_cell":
        pytest.skip("only lstm_cell has a cell state")
    theirs = _call(torch, name, BAD[case])
    mine = _call(minigrad, name, BAD[case])
    assert type(mine) is type(theirs)
    assert str(mine) == str(theirs)


@pytest.mark.parametrize("hx", [1, 3], ids=["one_state", "three_states"])
def test_lstm_cell_wants_two_hidden_states(hx: int) -> None:
    errors = []
    for lib in (torch, minigrad):
        with pytest.raises(RuntimeError) as caught:
            lib.lstm_cell(lib.ones(2, 4), (lib.ones(2, 3),) * hx, lib.ones(11, 4), lib.ones(12, 3))
        errors.append(str(caught.value))
    assert errors[1] == errors[0] == "lstm_cell expects two hidden states"


@pytest.mark.parametrize("bad", [None, "a"])
def test_lstm_cell_hidden_states_are_tensors(bad: Any) -> None:
    errors = []
    for lib in (torch, minigrad):
        with pytest.raises(TypeError) as caught:
            lib.lstm_cell(lib.ones(2, 4), (lib.ones(2, 3), bad), lib.ones(12, 4), lib.ones(12, 3))
        errors.append(str(caught.value))
    assert errors[1] == errors[0]
