"""The recurrent cells and sequence models on integer and mixed dtypes: PyTorch 2.13's outcomes.

PyTorch's LSTM and GRU cells add the input's projection into the hidden one in place and apply
``sigmoid_`` to the gates in place, so integer gates fail; the RNN cells compute (``relu`` keeps
int64, ``tanh`` gives float32). A float32 LSTM without projections runs oneDNN, which takes
float32 states and weights only, and its two biases summed. Expected values are PyTorch's
(MINIGRAD_TEST_REFERENCE=torch runs this file on torch); the tests_torch twin compares every
combination live.
"""

from __future__ import annotations

import pytest
from _backend import mg


def _ints(*shapes: tuple[int, ...], dtype=None):
    return [mg.ones(shape, dtype=dtype or mg.int64) for shape in shapes]


@pytest.mark.parametrize(
    ("dtype", "name"), [(mg.int64, "Long"), (mg.int32, "Int"), (mg.uint8, "Byte")]
)
def test_integer_gru_and_lstm_cells_refuse_the_in_place_sigmoid(dtype, name) -> None:
    x, h, w_ih, w_hh = _ints((2, 4), (2, 3), (9, 4), (9, 3), dtype=dtype)
    with pytest.raises(RuntimeError) as caught:
        mg.gru_cell(x, h, w_ih, w_hh)
    assert str(caught.value) == f"result type Float can't be cast to the desired output type {name}"
    x, h, w_ih, w_hh = _ints((2, 4), (2, 3), (12, 4), (12, 3), dtype=dtype)
    with pytest.raises(RuntimeError) as caught:
        mg.lstm_cell(x, (h, h), w_ih, w_hh)
    assert str(caught.value) == f"result type Float can't be cast to the desired output type {name}"
    assert h._version == 0 and h.equal(mg.ones(2, 3, dtype=dtype))


def test_integer_rnn_cells_compute() -> None:
    x, h, w_ih, w_hh = _ints((2, 4), (2, 3), (3, 4), (3, 3))
    assert mg.rnn_relu_cell(x, h, w_ih, w_hh).dtype == mg.int64
    assert mg.rnn_relu_cell(x, h, w_ih, w_hh).tolist() == [[7, 7, 7], [7, 7, 7]]
    assert mg.rnn_tanh_cell(x, h, w_ih, w_hh).dtype == mg.float32


def test_a_float_projection_cannot_be_added_into_an_integer_one() -> None:
    """GRU: integer hidden side, float input side; the in-place add's message names both."""
    x, w_ih = mg.ones(2, 4, dtype=mg.float64), mg.ones(9, 4, dtype=mg.float64)
    h, w_hh = _ints((2, 3), (9, 3))
    with pytest.raises(RuntimeError) as caught:
        mg.gru_cell(x, h, w_ih, w_hh)
    assert str(caught.value) == "result type Double can't be cast to the desired output type Long"


def test_the_hidden_projection_is_computed_first_by_the_lstm_cell() -> None:
    """An input-side and a hidden-side misfit: the hidden one's error (its linear runs first)."""
    x, h, c = mg.ones(2, 4, dtype=mg.int64), mg.ones(2, 3), mg.ones(2, 3)
    w_ih, w_hh = mg.ones(12, 4), mg.ones(12, 3, dtype=mg.float64)
    with pytest.raises(RuntimeError) as caught:
        mg.lstm_cell(x, (h, c), w_ih, w_hh)
    assert str(caught.value) == (
        "expected m1 and m2 to have the same dtype, but got: float != double"
    )


def test_a_float64_input_projection_added_into_a_float32_one_stays_float32() -> None:
    x, w_ih = mg.ones(2, 4, dtype=mg.float64), mg.ones(12, 4, dtype=mg.float64)
    h, c, w_hh = mg.ones(2, 3), mg.ones(2, 3), mg.ones(12, 3)
    h_next, c_next = mg.lstm_cell(x, (h, c), w_ih, w_hh)
    assert (h_next.dtype, c_next.dtype) == (mg.float32, mg.float32)


def _lstm(bias_ih, bias_hh, weight_dtype=None):
    x, states = mg.ones(3, 2, 4), (mg.zeros(1, 2, 3), mg.zeros(1, 2, 3))
    weights = [mg.ones(12, 4, dtype=weight_dtype) * 0.1, mg.ones(12, 3) * 0.1, bias_ih, bias_hh]
    return mg.lstm(x, states, weights, True, 1, 0.0, False, False, False)


def test_the_onednn_lstm_takes_biases_whose_sum_is_float32() -> None:
    output, h_n, c_n = _lstm(mg.zeros(12, dtype=mg.int64), mg.zeros(12))
    assert output.dtype == mg.float32
    expected = _lstm(mg.zeros(12), mg.zeros(12))[0]
    assert mg.allclose(output, expected)


@pytest.mark.parametrize("case", ["int64_biases", "float64_bias", "float64_weight"])
def test_the_onednn_lstm_refuses_other_dtypes(case) -> None:
    with pytest.raises(RuntimeError, match="^get_mkldnn_dtype: unsupported data type$"):
        if case == "int64_biases":
            _lstm(mg.zeros(12, dtype=mg.int64), mg.zeros(12, dtype=mg.int64))
        elif case == "float64_bias":
            _lstm(mg.zeros(12, dtype=mg.float64), mg.zeros(12))
        else:
            _lstm(mg.zeros(12), mg.zeros(12), weight_dtype=mg.float64)


def test_an_integer_gru_sequence_fails_at_its_first_step() -> None:
    x, h = mg.ones(3, 2, 4, dtype=mg.int64), mg.ones(1, 2, 3, dtype=mg.int64)
    weights = _ints((9, 4), (9, 3))
    with pytest.raises(RuntimeError) as caught:
        mg.gru(x, h, weights, False, 1, 0.0, False, False, False)
    assert str(caught.value) == "result type Float can't be cast to the desired output type Long"
