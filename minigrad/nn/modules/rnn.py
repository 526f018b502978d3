"""Recurrent layers: the cells (one time step) and the sequence models (whole sequences).

``RNNCell``, ``LSTMCell`` and ``GRUCell`` run one step; ``RNN``, ``LSTM`` and ``GRU`` run
stacked, optionally bidirectional layers of those steps over a sequence.

Each cell holds ``weight_ih`` (chunks * hidden, input), ``weight_hh`` (chunks * hidden,
hidden) and the biases ``bias_ih``, ``bias_hh``, all initialised from
U(-1/sqrt(hidden_size), 1/sqrt(hidden_size)) as in PyTorch; a sequence model holds the same
per layer and direction (``weight_ih_l0``, ``weight_hh_l1_reverse``, ...).

One step formula per kind of cell (``rnn_step``, ``lstm_step``, ``gru_step``) serves both: it
takes the projections ``x @ W_ih.T + b_ih`` and ``h @ W_hh.T + b_hh`` already made, because
PyTorch's CPU sequence models project the whole sequence at once and then run the steps, and
its cells make the two projections in their own order (which decides the error a misfit
dtype gets). The steps are composed from public ops (``F.linear``, ``chunk``, ``sigmoid``,
``tanh``), so autograd records them op by op, as PyTorch's math path does.
"""

from __future__ import annotations

import math
import numbers
import warnings
from collections.abc import Callable, Sequence
from typing import Any

from minigrad import _arguments, errors
from minigrad._arguments import check_tensor_sequence
from minigrad._dtype import default_float, display_name, float32, int64, promote_types
from minigrad.creation import empty, zeros
from minigrad.nn import functional as F
from minigrad.nn import init
from minigrad.nn.modules.module import Module
from minigrad.nn.modules.utils import check_device
from minigrad.nn.parameter import Parameter
from minigrad.nn.utils.rnn import PackedSequence
from minigrad.ops.dropout import dropout_aten
from minigrad.ops.shape import cat, stack
from minigrad.tensor import Tensor

__all__ = ["GRU", "LSTM", "RNN", "GRUCell", "LSTMCell", "RNNBase", "RNNCell", "RNNCellBase"]


# --- the step formulas: one per kind of cell ---------------------------------------------------


def rnn_step(from_input: Tensor, from_hidden: Tensor, nonlinearity: str) -> Tensor:
    """``h' = tanh(from_hidden + from_input)`` (or relu): the projections of h and x.

    The input's projection is added into the hidden one in place, as PyTorch's cell does: the
    sum keeps the hidden projection's dtype (a float64 input's projection is added into a
    float32 one), and a floating projection cannot be added into an integer one.
    """
    pre_activation = from_hidden.add_(from_input)
    if nonlinearity == "tanh":
        return pre_activation.tanh()
    if nonlinearity == "relu":
        return pre_activation.relu()
    raise RuntimeError(f"Unknown nonlinearity: {nonlinearity}")


def _check_gates(from_hidden: Tensor, from_input: Tensor) -> None:
    """Raise PyTorch's error for gates an LSTM or GRU cell cannot compute in place.

    PyTorch's cells add the input's projection into the hidden one in place and then apply
    ``sigmoid_`` to the gates in place: integer projections (integer inputs and weights) fail
    at one or the other (``result type Float can't be cast to the desired output type Long``).
    Checked before the step records anything.
    """
    if from_hidden.is_floating_point():
        return
    result = from_input.dtype.numpy if from_input.is_floating_point() else default_float()
    raise RuntimeError(
        errors.inplace_dtype_mismatch(display_name(result), display_name(from_hidden.dtype.numpy))
    )


def lstm_step(
    from_input: Tensor, from_hidden: Tensor, cell: Tensor, w_hr: Tensor | None = None
) -> tuple[Tensor, Tensor]:
    """The new ``(h', c')`` of an LSTM from the projections of x and h and the cell state.

    ``i, f, g, o = chunks of (from_hidden + from_input)`` (added in place, as ``rnn_step``);
    ``c' = sigmoid(f) * c + sigmoid(i) * tanh(g)``; ``h' = sigmoid(o) * tanh(c')``, projected
    by ``@ W_hr.T`` when the LSTM has ``proj_size``.
    """
    _check_gates(from_hidden, from_input)
    i, f, g, o = from_hidden.add_(from_input).chunk(4, 1)
    c_next = f.sigmoid() * cell + i.sigmoid() * g.tanh()
    h_next = o.sigmoid() * c_next.tanh()
    if w_hr is not None:
        h_next = h_next.matmul(w_hr.t())
    return h_next, c_next


def gru_step(from_input: Tensor, from_hidden: Tensor, hidden: Tensor) -> Tensor:
    """The new hidden state of a GRU from the projections of x and h and the hidden state.

    ``r = sigmoid(x_r + h_r)``, ``z = sigmoid(x_z + h_z)``, ``n = tanh(x_n + r * h_n)``,
    ``h' = n + z * (h - n)``, where ``x_*`` and ``h_*`` are the chunks of the input and hidden
    projections.
    """
    _check_gates(from_hidden, from_input)
    x_r, x_z, x_n = from_input.chunk(3, 1)
    # (indexed, not unpacked, as PyTorch's cell: a misshapen hidden state fails in the sums)
    hidden_gates = from_hidden.chunk(3, 1)
    reset = (hidden_gates[0] + x_r).sigmoid()
    update = (hidden_gates[1] + x_z).sigmoid()
    new = (x_n + hidden_gates[2] * reset).tanh()
    return (hidden - new) * update + new


# --- the cells as PyTorch's top-level functions (minigrad.rnn_tanh_cell, ...): one step with
# the weights given, by the step formulas above (the same nodes as the cell modules record)


# The shape checks of PyTorch's fused cell kernels (RNN.cpp), made before the step is
# composed; each cell makes them in its kernel's order. The hidden size is ``w_hh``'s second
# dim. A tensor with too few dims fails at its ``size(d)``, as there.


def _check_weights(chunks: int, w_ih: Tensor, w_hh: Tensor) -> None:
    """Each weight has ``chunks`` times the hidden size rows."""
    hidden_size = w_hh.size(1)
    for name, weight in (("weight_ih", w_ih), ("weight_hh", w_hh)):
        if weight.size(0) != chunks * hidden_size:
            raise RuntimeError(
                f"{name} first dim must be {chunks} * hidden_size = {chunks * hidden_size}, "
                f"but got {weight.size(0)}"
            )


def _check_input(input: Tensor, w_ih: Tensor) -> None:
    """``input`` is (batch, ``w_ih``'s second dim)."""
    input_size = w_ih.size(1)
    if input.size(1) != input_size:
        raise RuntimeError(
            f"input has inconsistent input_size: got {input.size(1)} expected {input_size}"
        )


def _check_hidden(input: Tensor, states: tuple[Tensor, ...], w_hh: Tensor) -> None:
    """Each hidden state is (``input``'s batch, the hidden size)."""
    hidden_size = w_hh.size(1)
    for label, state in enumerate(states):
        if input.size(0) != state.size(0):
            raise RuntimeError(
                f"Input batch size {input.size(0)} doesn't match hidden{label} batch size "
                f"{state.size(0)}"
            )
        if state.size(1) != hidden_size:
            raise RuntimeError(
                f"hidden{label} has inconsistent hidden_size: got {state.size(1)}, expected "
                f"{hidden_size}"
            )


def rnn_tanh_cell(
    input: Tensor, hx: Tensor, w_ih: Tensor, w_hh: Tensor, b_ih: Tensor | None = None,
    b_hh: Tensor | None = None,
) -> Tensor:
    """One tanh RNN step: ``tanh(input @ w_ih.T + b_ih + hx @ w_hh.T + b_hh)``.

    Example:
        >>> import minigrad
        >>> x, h = minigrad.ones(1, 2), minigrad.zeros(1, 1)
        >>> minigrad.rnn_tanh_cell(x, h, minigrad.zeros(1, 2), minigrad.zeros(1, 1))
        tensor([[0.]])
    """
    _check_weights(1, w_ih, w_hh)
    _check_input(input, w_ih)
    _check_hidden(input, (hx,), w_hh)
    from_hidden = F.linear(hx, w_hh, b_hh)  # (first, as PyTorch's cell)
    return rnn_step(F.linear(input, w_ih, b_ih), from_hidden, "tanh")


def rnn_relu_cell(
    input: Tensor, hx: Tensor, w_ih: Tensor, w_hh: Tensor, b_ih: Tensor | None = None,
    b_hh: Tensor | None = None,
) -> Tensor:
    """One relu RNN step: ``relu(input @ w_ih.T + b_ih + hx @ w_hh.T + b_hh)``.

    Example:
        >>> import minigrad
        >>> x, h = minigrad.ones(1, 2), minigrad.ones(1, 1)
        >>> minigrad.rnn_relu_cell(x, h, minigrad.ones(1, 2), -minigrad.ones(1, 1))
        tensor([[1.]])
    """
    _check_weights(1, w_ih, w_hh)
    _check_input(input, w_ih)
    _check_hidden(input, (hx,), w_hh)
    from_hidden = F.linear(hx, w_hh, b_hh)  # (first, as PyTorch's cell)
    return rnn_step(F.linear(input, w_ih, b_ih), from_hidden, "relu")


# The RNN cell of each nonlinearity, as ``nn.RNNCell`` calls them.
_CELLS: dict[str, Callable[..., Tensor]] = {"tanh": rnn_tanh_cell, "relu": rnn_relu_cell}


def lstm_cell(
    input: Tensor, hx: Any, w_ih: Tensor, w_hh: Tensor, b_ih: Tensor | None = None,
    b_hh: Tensor | None = None,
) -> tuple[Tensor, Tensor]:
    """One LSTM step: ``(h', c')`` from ``hx = (h, c)`` (weights of 4 * hidden rows).

    Example:
        >>> import minigrad
        >>> x, h = minigrad.ones(1, 2), minigrad.zeros(1, 1)
        >>> minigrad.lstm_cell(x, (h, h), minigrad.zeros(4, 2), minigrad.zeros(4, 1))[1]
        tensor([[0.]])
    """
    check_tensor_sequence(hx, 1)  # (the parser's, for its TensorList)
    if len(hx) != 2:
        raise RuntimeError("lstm_cell expects two hidden states")
    h, c = hx
    _check_input(input, w_ih)
    _check_weights(4, w_ih, w_hh)
    _check_hidden(input, (h, c), w_hh)
    from_hidden = F.linear(h, w_hh, b_hh)  # (first, as PyTorch's cell)
    return lstm_step(F.linear(input, w_ih, b_ih), from_hidden, c)


def gru_cell(
    input: Tensor, hx: Tensor, w_ih: Tensor, w_hh: Tensor, b_ih: Tensor | None = None,
    b_hh: Tensor | None = None,
) -> Tensor:
    """One GRU step: the new hidden state (weights of 3 * hidden rows).

    Example:
        >>> import minigrad
        >>> x, h = minigrad.ones(1, 2), minigrad.ones(1, 1)
        >>> minigrad.gru_cell(x, h, minigrad.zeros(3, 2), minigrad.zeros(3, 1))
        tensor([[0.5000]])
    """
    _check_input(input, w_ih)
    _check_hidden(input, (hx,), w_hh)
    _check_weights(3, w_ih, w_hh)
    from_input = F.linear(input, w_ih, b_ih)  # (first, as PyTorch's cell)
    return gru_step(from_input, F.linear(hx, w_hh, b_hh), hx)


# --- the sequence models as PyTorch's top-level functions (minigrad.lstm, gru, rnn_tanh,
# rnn_relu): stacked layers of the step formulas over a whole sequence, given the flat weights;
# the modules below call them, as PyTorch's call torch._VF's


# One group of weights of a layer and direction: (w_ih, w_hh, b_ih, b_hh, w_hr), None where
# there is no bias or projection.
_Weights = tuple[Tensor, Tensor, "Tensor | None", "Tensor | None", "Tensor | None"]
# One step of a kind of cell: (x's projection, the states, the weights) -> the new states,
# the output first.
_Step = Callable[[Tensor, tuple[Tensor, ...], _Weights], tuple[Tensor, ...]]


def _gather_params(
    params: Sequence[Tensor], has_biases: bool, has_projections: bool = False
) -> list[_Weights]:
    """The flat weight list cut into one group per layer and direction (ATen's gather_params).

    Each group is ``w_ih, w_hh`` then ``b_ih, b_hh`` if ``has_biases``, then ``w_hr`` if
    ``has_projections``, in ``nn.LSTM._flat_weights``' order.
    """
    stride = (4 if has_biases else 2) + (1 if has_projections else 0)
    if len(params) % stride != 0:
        raise RuntimeError("got an incorrect number of RNN parameters")
    groups: list[_Weights] = []
    for start in range(0, len(params), stride):
        w_ih, w_hh, *rest = params[start:start + stride]
        b_ih, b_hh = (rest[0], rest[1]) if has_biases else (None, None)
        groups.append((w_ih, w_hh, b_ih, b_hh, rest[-1] if has_projections else None))
    return groups


# (the sequence models project each step's hidden state after the whole input's, as PyTorch)


def _tanh_step(from_input: Tensor, state: tuple[Tensor, ...], w: _Weights) -> tuple[Tensor]:
    return (rnn_step(from_input, F.linear(state[0], w[1], w[3]), "tanh"),)


def _relu_step(from_input: Tensor, state: tuple[Tensor, ...], w: _Weights) -> tuple[Tensor]:
    return (rnn_step(from_input, F.linear(state[0], w[1], w[3]), "relu"),)


def _lstm_step(from_input: Tensor, state: tuple[Tensor, ...], w: _Weights) -> tuple[Tensor, ...]:
    return lstm_step(from_input, F.linear(state[0], w[1], w[3]), state[1], w[4])


def _gru_step(from_input: Tensor, state: tuple[Tensor, ...], w: _Weights) -> tuple[Tensor]:
    return (gru_step(from_input, F.linear(state[0], w[1], w[3]), state[0]),)


def _one_direction(
    step: _Step, inputs: Sequence[Tensor], initial: tuple[Tensor, ...], weights: _Weights,
    reverse: bool,
) -> tuple[list[Tensor], tuple[Tensor, ...]]:
    """One layer and direction over the steps' input projections: (outputs, final states).

    The steps may have fewer rows as time goes on (a packed sequence: its shorter sequences
    end): forward in time, the rows of ended sequences keep their last state; backward in
    time, the rows of sequences yet to start join with their initial state, as in PyTorch's
    packed path.
    """
    state, outputs, ended = initial, [], []
    if reverse and inputs and inputs[-1].size(0) < initial[0].size(0):
        state = tuple(s[:inputs[-1].size(0)] for s in initial)
    for from_input in reversed(inputs) if reverse else inputs:
        rows = from_input.size(0)
        if rows > state[0].size(0):  # (backward in time) sequences starting here
            state = tuple(cat([s, s0[s.size(0):rows]]) for s, s0 in zip(state, initial))
        elif rows < state[0].size(0):  # (forward in time) sequences that ended
            ended.append(tuple(s[rows:] for s in state))
            state = tuple(s[:rows] for s in state)
        state = step(from_input, state, weights)
        outputs.append(state[0])
    if ended:  # the ended rows go back below the running ones, in the batch's order
        state = tuple(cat([s, *(rows[k] for rows in reversed(ended))])
                      for k, s in enumerate(state))
    return (outputs[::-1] if reverse else outputs), state


def _stacked_layers(
    step: _Step, input: Tensor, batch_sizes: list[int] | None,
    hiddens: list[tuple[Tensor, ...]], groups: list[_Weights], num_layers: int, dropout: float,
    train: bool, bidirectional: bool,
) -> tuple[Tensor, tuple[Tensor, ...]]:
    """Every layer over the whole sequence: ``(output, final states stacked per kind)``.

    As PyTorch's CPU path (ATen's apply_layer_stack): each layer projects its whole input at
    once, runs the steps forward (and backward in time for the reverse direction), stacks the
    outputs, concatenates the directions and applies dropout before the next layer when
    ``train``. A packed sequence (``input`` its data, ``batch_sizes`` the rows of each step)
    runs the same way, its outputs concatenated instead of stacked.
    """
    directions = 2 if bidirectional else 1
    if bidirectional and (len(hiddens) % 2 or len(groups) % 2):
        raise RuntimeError("Odd number of params or hiddens given to a bidirectional RNN")
    if num_layers != len(hiddens) // directions:
        raise RuntimeError("Expected more hidden states in stacked_rnn")
    if num_layers != len(groups) // directions:
        raise RuntimeError("Expected more weights in stacked_rnn")
    packed = batch_sizes is not None
    layer_input, finals = input, []
    for layer in range(num_layers):
        outputs = []
        for direction in range(directions):
            index = layer * directions + direction
            weights = groups[index]
            projected = F.linear(layer_input, weights[0], weights[2])
            inputs = projected.split(batch_sizes) if packed else projected.unbind(0)
            out, state = _one_direction(step, inputs, hiddens[index], weights, bool(direction))
            if not packed and not out:
                raise RuntimeError("Expected sequence length to be larger than 0 in RNN")
            outputs.append(cat(out) if packed else stack(out))
            finals.append(state)
        # (the directions joined along the features: by a positive dim, a packed one's by -1,
        # as PyTorch records them)
        layer_input = outputs[0] if directions == 1 else cat(
            outputs, -1 if packed else outputs[0].dim() - 1
        )
        if dropout != 0 and train and layer < num_layers - 1:
            layer_input = dropout_aten(layer_input, dropout, True)
    return layer_input, tuple(stack(list(kind)) for kind in zip(*finals))


def _batch_sizes(batch_sizes: Tensor) -> list[int]:
    """A packed sequence's rows per step (ATen reads them as int64)."""
    if batch_sizes.dtype != int64:
        raise RuntimeError(
            f"expected scalar type Long but found {display_name(batch_sizes.dtype.numpy)}"
        )
    return [int(n) for n in batch_sizes.tolist()]


def _one_state_model(name: str, step: _Step, args: tuple[Any, ...], kwargs: dict[str, Any]
                     ) -> tuple[Tensor, Tensor]:
    """``rnn_tanh``, ``rnn_relu`` and ``gru`` (one state): either of PyTorch's forms."""
    _, a = _arguments.bind_overload(name, args, kwargs)
    _arguments.check_int64_arguments(a["num_layers"])
    packed = "batch_sizes" in a
    input, hx = (a["data"] if packed else a["input"]), a["hx"]
    batch_first = not packed and a["batch_first"]
    if batch_first:
        input = input.transpose(0, 1)
    groups = _gather_params(a["params"], a["has_biases"])
    output, (h_n,) = _stacked_layers(
        step, input, _batch_sizes(a["batch_sizes"]) if packed else None,
        [(h,) for h in hx.unbind(0)], groups, a["num_layers"], a["dropout"], a["train"],
        a["bidirectional"],
    )
    if batch_first:  # (in place, as PyTorch: TransposeBackward1)
        output.transpose_(0, 1)
    return output, h_n


def rnn_tanh(*args: Any, **kwargs: Any) -> tuple[Tensor, Tensor]:
    """A stack of tanh RNN layers over a sequence, with the weights given: ``(output, h_n)``.

    PyTorch's two forms (``nn.RNN`` calls them):

    - ``rnn_tanh(input, hx, params, has_biases, num_layers, dropout, train, bidirectional,
      batch_first)``: ``input`` ``(L, N, input_size)`` (``(N, L, ...)`` if ``batch_first``);
    - ``rnn_tanh(data, batch_sizes, hx, params, has_biases, num_layers, dropout, train,
      bidirectional)``: a packed sequence's ``data`` and ``batch_sizes`` (int64); ``output``
      is then packed data too.

    ``hx`` is ``(num_layers * num_directions, N, hidden_size)``; ``params`` the weights in
    ``nn.RNN._flat_weights``' order (``w_ih, w_hh[, b_ih, b_hh]`` per layer and direction).
    Each step is ``h' = tanh(x @ w_ih.T + b_ih + h @ w_hh.T + b_hh)``; with ``train``,
    ``dropout`` acts on every layer's output but the last.

    Example:
        >>> import minigrad
        >>> params = [minigrad.zeros(1, 2), minigrad.zeros(1, 1)]
        >>> output, h_n = minigrad.rnn_tanh(
        ...     minigrad.ones(3, 1, 2), minigrad.zeros(1, 1, 1), params, False, 1, 0.0, False,
        ...     False, False)
        >>> output.shape, h_n.shape
        (minigrad.Size([3, 1, 1]), minigrad.Size([1, 1, 1]))
    """
    return _one_state_model("rnn_tanh", _tanh_step, args, kwargs)


def rnn_relu(*args: Any, **kwargs: Any) -> tuple[Tensor, Tensor]:
    """``rnn_tanh`` with ``relu`` for ``tanh``: each step is ``h' = relu(...)``.

    Example:
        >>> import minigrad
        >>> params = [minigrad.ones(1, 2), minigrad.zeros(1, 1)]
        >>> minigrad.rnn_relu(minigrad.ones(2, 1, 2), minigrad.zeros(1, 1, 1), params, False,
        ...                   1, 0.0, False, False, False)[0]
        tensor([[[2.]],
        <BLANKLINE>
                [[2.]]])
    """
    return _one_state_model("rnn_relu", _relu_step, args, kwargs)


def gru(*args: Any, **kwargs: Any) -> tuple[Tensor, Tensor]:
    """A stack of GRU layers over a sequence, with the weights given: ``(output, h_n)``.

    PyTorch's two forms and arguments as ``rnn_tanh``'s (``nn.GRU`` calls them), with weights
    of ``3 * hidden_size`` rows; each step is ``gru_cell``'s.

    Example:
        >>> import minigrad
        >>> params = [minigrad.zeros(3, 2), minigrad.zeros(3, 1)]
        >>> minigrad.gru(minigrad.ones(2, 1, 2), minigrad.ones(1, 1, 1), params, False, 1, 0.0,
        ...              False, False, False)[1]
        tensor([[[0.2500]]])
    """
    return _one_state_model("gru", _gru_step, args, kwargs)


def lstm(*args: Any, **kwargs: Any) -> tuple[Tensor, Tensor, Tensor]:
    """A stack of LSTM layers over a sequence, with the weights given: ``(output, h_n, c_n)``.

    PyTorch's two forms (``nn.LSTM`` calls them):

    - ``lstm(input, hx, params, has_biases, num_layers, dropout, train, bidirectional,
      batch_first)``;
    - ``lstm(data, batch_sizes, hx, params, has_biases, num_layers, dropout, train,
      bidirectional)``: a packed sequence's ``data`` and ``batch_sizes``.

    ``hx`` is ``(h_0, c_0)``; ``params`` the weights in ``nn.LSTM._flat_weights``' order
    (``w_ih, w_hh[, b_ih, b_hh][, w_hr]`` per layer and direction): as in PyTorch, a
    ``w_hr`` (projection) is expected when ``h_0`` and ``c_0`` differ in their last size.
    Each step is ``lstm_cell``'s, projected by ``@ w_hr.T``; the rest as ``rnn_tanh``.

    Example:
        >>> import minigrad
        >>> params = [minigrad.zeros(4, 2), minigrad.zeros(4, 1)]
        >>> state = minigrad.ones(1, 1, 1)
        >>> minigrad.lstm(minigrad.ones(1, 1, 2), (state, state), params, False, 1, 0.0,
        ...               False, False, False)[2]
        tensor([[[0.5000]]])
    """
    _, a = _arguments.bind_overload("lstm", args, kwargs)
    _arguments.check_int64_arguments(a["num_layers"])
    packed = "batch_sizes" in a
    input, hx = (a["data"] if packed else a["input"]), a["hx"]
    if len(hx) != 2:
        raise RuntimeError("lstm expects two hidden states")
    # (states of different sizes: PyTorch's sign of projections)
    has_projections = hx[0].size(2) != hx[1].size(2)
    params = a["params"]
    if not packed and not has_projections and input.dtype == float32 and input.numel():
        params = _onednn_params(hx, params, a["has_biases"])
    batch_first = not packed and a["batch_first"]
    if batch_first:
        input = input.transpose(0, 1)
    groups = _gather_params(params, a["has_biases"], has_projections)
    output, (h_n, c_n) = _stacked_layers(
        _lstm_step, input, _batch_sizes(a["batch_sizes"]) if packed else None,
        list(zip(hx[0].unbind(0), hx[1].unbind(0))), groups, a["num_layers"], a["dropout"],
        a["train"], a["bidirectional"],
    )
    if batch_first:
        output = output.transpose(0, 1)
    return output, h_n, c_n


def _onednn_params(
    hx: Sequence[Tensor], params: Sequence[Tensor], has_biases: bool
) -> Sequence[Tensor]:
    """The weights as PyTorch's oneDNN LSTM takes them, after its dtype checks.

    PyTorch runs a float32 LSTM without projections (not packed) on oneDNN, which takes only
    float32 states and weights (``get_mkldnn_dtype: unsupported data type`` for any other)
    and one bias per layer, ``b_ih + b_hh``: biases of other dtypes pass if their sum is
    float32 (an int64 bias with a float32 one). minigrad computes such biases as float32.
    """
    stride = 4 if has_biases else 2
    biases = []
    for start in range(0, len(params), stride):
        group = params[start:start + stride]
        if has_biases and len(group) == 4:
            biases += group[2:]
            if promote_types(group[2].dtype.numpy, group[3].dtype.numpy) != float32.numpy:
                raise RuntimeError("get_mkldnn_dtype: unsupported data type")
        if any(weight.dtype != float32 for weight in (*hx, *group[:2])):
            raise RuntimeError("get_mkldnn_dtype: unsupported data type")
    if all(bias.dtype == float32 for bias in biases):
        return params
    return [
        weight.float() if (index % stride) >= 2 else weight
        for index, weight in enumerate(params)
    ]


# The top-level function of each mode, as PyTorch's modules call them.
_FUNCTIONS: dict[str, Callable[..., tuple[Tensor, ...]]] = {
    "RNN_TANH": rnn_tanh, "RNN_RELU": rnn_relu, "LSTM": lstm, "GRU": gru,
}


def _reset_uniformly(module: Module) -> None:
    """PyTorch's initialisation of every recurrent layer: U(-1/sqrt(hidden), 1/sqrt(hidden))."""
    stdv = 1.0 / math.sqrt(module.hidden_size) if module.hidden_size > 0 else 0
    for weight in module.parameters():
        init.uniform_(weight, -stdv, stdv)


# --- the cells: one step -----------------------------------------------------------------------


class RNNCellBase(Module):
    """Parameters, initialisation, checks and repr shared by the three cells."""

    _cell_name = ""

    def __init__(
        self, input_size: int, hidden_size: int, bias: bool, num_chunks: int, device: Any = None,
        dtype: Any = None,
    ) -> None:
        super().__init__()
        check_device(device)
        self.input_size = input_size
        self.hidden_size = hidden_size
        self.bias = bias
        self.weight_ih = Parameter(empty((num_chunks * hidden_size, input_size), dtype=dtype))
        self.weight_hh = Parameter(empty((num_chunks * hidden_size, hidden_size), dtype=dtype))
        for name in ("bias_ih", "bias_hh"):
            self.register_parameter(
                name, Parameter(empty(num_chunks * hidden_size, dtype=dtype)) if bias else None
            )
        self.reset_parameters()

    def reset_parameters(self) -> None:
        """Draw every parameter from U(-1/sqrt(hidden_size), 1/sqrt(hidden_size))."""
        _reset_uniformly(self)

    def extra_repr(self) -> str:
        """``input_size, hidden_size`` and the non-default settings."""
        text = f"{self.input_size}, {self.hidden_size}"
        if self.bias is not True:
            text += f", bias={self.bias}"
        if getattr(self, "nonlinearity", "tanh") != "tanh":
            text += f", nonlinearity={self.nonlinearity}"
        return text

    def _check_rank(self, value: Tensor, what: str) -> None:
        if value.dim() not in (1, 2):
            raise ValueError(
                f"{self._cell_name}: Expected {what} to be 1D or 2D, got {value.dim()}D instead"
            )

    def _batched(
        self, input: Tensor, states: tuple[Tensor, ...] | None, count: int
    ) -> tuple[Tensor, tuple[Tensor, ...], bool]:
        """2-D input and states (zeros if none), and whether the input was batched.

        Only the ranks are checked here; the sizes and dtypes are the cell functions' checks.
        """
        self._check_rank(input, "input")
        for idx, value in enumerate(states or ()):
            self._check_rank(value, "hidden" if count == 1 else f"hx[{idx}]")
        batched = input.dim() == 2
        if not batched:
            input = input.unsqueeze(0)
            states = None if states is None else tuple(s.unsqueeze(0) for s in states)
        if states is None:
            states = (zeros(input.size(0), self.hidden_size, dtype=input.dtype),) * count
        return input, states, batched


class RNNCell(RNNCellBase):
    """``h' = tanh(x @ W_ih.T + b_ih + h @ W_hh.T + b_hh)`` (or relu).

    Example:
        >>> import minigrad
        >>> from minigrad import nn
        >>> cell = nn.RNNCell(3, 4)
        >>> cell(minigrad.zeros(2, 3)).shape
        minigrad.Size([2, 4])
    """

    _cell_name = "RNNCell"

    def __init__(
        self, input_size: int, hidden_size: int, bias: bool = True, nonlinearity: str = "tanh",
        device: Any = None, dtype: Any = None,
    ) -> None:
        super().__init__(input_size, hidden_size, bias, 1, device, dtype)
        self.nonlinearity = nonlinearity

    def forward(self, input: Tensor, hx: Tensor | None = None) -> Tensor:
        """One step: the new hidden state."""
        input, (hx,), batched = self._batched(input, None if hx is None else (hx,), 1)
        if self.nonlinearity not in _CELLS:
            raise RuntimeError(f"Unknown nonlinearity: {self.nonlinearity}")
        out = _CELLS[self.nonlinearity](
            input, hx, self.weight_ih, self.weight_hh, self.bias_ih, self.bias_hh
        )
        return out if batched else out.squeeze(0)


class LSTMCell(RNNCellBase):
    """Long short-term memory step: returns ``(h', c')``.

    ``i, f, g, o = chunks of (x @ W_ih.T + b_ih + h @ W_hh.T + b_hh)``;
    ``c' = sigmoid(f) * c + sigmoid(i) * tanh(g)``; ``h' = sigmoid(o) * tanh(c')``.

    Example:
        >>> import minigrad
        >>> from minigrad import nn
        >>> h, c = nn.LSTMCell(3, 4)(minigrad.zeros(2, 3))
        >>> h.shape, c.shape
        (minigrad.Size([2, 4]), minigrad.Size([2, 4]))
    """

    _cell_name = "LSTMCell"

    def __init__(
        self, input_size: int, hidden_size: int, bias: bool = True, device: Any = None,
        dtype: Any = None,
    ) -> None:
        super().__init__(input_size, hidden_size, bias, 4, device, dtype)

    def forward(
        self, input: Tensor, hx: tuple[Tensor, Tensor] | None = None
    ) -> tuple[Tensor, Tensor]:
        """One step: the new ``(hidden, cell)`` states."""
        input, (h, c), batched = self._batched(input, None if hx is None else tuple(hx), 2)
        h_next, c_next = lstm_cell(
            input, (h, c), self.weight_ih, self.weight_hh, self.bias_ih, self.bias_hh
        )
        return (h_next, c_next) if batched else (h_next.squeeze(0), c_next.squeeze(0))


class GRUCell(RNNCellBase):
    """Gated recurrent unit step: returns ``h'``.

    ``r = sigmoid(x_r + h_r)``, ``z = sigmoid(x_z + h_z)``, ``n = tanh(x_n + r * h_n)``,
    ``h' = n + z * (h - n)``, where ``x_*`` and ``h_*`` are the chunks of the input and hidden
    projections.

    Example:
        >>> import minigrad
        >>> from minigrad import nn
        >>> nn.GRUCell(3, 4)(minigrad.zeros(3)).shape
        minigrad.Size([4])
    """

    _cell_name = "GRUCell"

    def __init__(
        self, input_size: int, hidden_size: int, bias: bool = True, device: Any = None,
        dtype: Any = None,
    ) -> None:
        super().__init__(input_size, hidden_size, bias, 3, device, dtype)

    def forward(self, input: Tensor, hx: Tensor | None = None) -> Tensor:
        """One step: the new hidden state."""
        input, (hx,), batched = self._batched(input, None if hx is None else (hx,), 1)
        out = gru_cell(input, hx, self.weight_ih, self.weight_hh, self.bias_ih, self.bias_hh)
        return out if batched else out.squeeze(0)


# --- the sequence models: stacked layers over a whole sequence ---------------------------------

_GATES = {"RNN_TANH": 1, "RNN_RELU": 1, "LSTM": 4, "GRU": 3}


class RNNBase(Module):
    """Parameters, checks and the layer loop shared by ``RNN``, ``LSTM`` and ``GRU``.

    Per layer ``l`` and direction (``""`` or ``"_reverse"``) it registers ``weight_ih_l{l}``
    (gates * hidden, layer input), ``weight_hh_l{l}`` (gates * hidden, hidden or proj_size), the
    biases ``bias_ih_l{l}``, ``bias_hh_l{l}`` and, for an LSTM with ``proj_size``,
    ``weight_hr_l{l}`` (proj_size, hidden), in PyTorch's order, all drawn from
    U(-1/sqrt(hidden_size), 1/sqrt(hidden_size)). The layers run in the mode's top-level
    function (``lstm``, ``gru``, ``rnn_tanh``, ``rnn_relu``), as in PyTorch.
    """

    def __init__(
        self, mode: str, input_size: int, hidden_size: int, num_layers: int = 1,
        bias: bool = True, batch_first: bool = False, dropout: float = 0.0,
        bidirectional: bool = False, proj_size: int = 0, device: Any = None, dtype: Any = None,
    ) -> None:
        super().__init__()
        check_device(device)
        self.mode = mode
        self.input_size = input_size
        self.hidden_size = hidden_size
        self.num_layers = num_layers
        self.bias = bias
        self.batch_first = batch_first
        self.dropout = float(dropout)
        self.bidirectional = bidirectional
        self.proj_size = proj_size
        # PyTorch's checks, in its order and with its texts.
        if (
            not isinstance(dropout, numbers.Number) or isinstance(dropout, bool)
            or not 0 <= dropout <= 1
        ):
            raise ValueError(
                "dropout should be a number in range [0, 1] representing the probability of an "
                "element being zeroed"
            )
        if dropout > 0 and num_layers == 1:
            warnings.warn(
                "dropout option adds dropout after all but last recurrent layer, so non-zero "
                "dropout expects num_layers greater than 1, but got "
                f"dropout={dropout} and num_layers={num_layers}",
                stacklevel=3,
            )
        for name, value, kind in (
            ("bias", bias, bool), ("batch_first", batch_first, bool),
            ("input_size", input_size, int),
        ):
            if not isinstance(value, kind):
                raise TypeError(
                    f"{name} should be of type {kind.__name__}, got: {type(value).__name__}"
                )
        if input_size <= 0:
            raise ValueError("input_size must be greater than zero")
        if not isinstance(hidden_size, int):
            raise TypeError(
                f"hidden_size should be of type int, got: {type(hidden_size).__name__}"
            )
        if hidden_size <= 0:
            raise ValueError("hidden_size must be greater than zero")
        if num_layers <= 0:
            raise ValueError("num_layers must be greater than zero")
        if proj_size < 0:
            raise ValueError(
                "proj_size should be a positive integer or zero to disable projections"
            )
        if proj_size >= hidden_size:
            raise ValueError("proj_size has to be smaller than hidden_size")
        if mode not in _GATES:
            raise ValueError("Unrecognized RNN mode: " + mode)
        gate_size = _GATES[mode] * hidden_size
        real_hidden_size = proj_size if proj_size > 0 else hidden_size
        num_directions = 2 if bidirectional else 1
        self._flat_weights_names: list[str] = []
        self._all_weights: list[list[str]] = []
        for layer in range(num_layers):
            layer_input_size = input_size if layer == 0 else real_hidden_size * num_directions
            for direction in range(num_directions):
                shapes = {
                    "weight_ih": (gate_size, layer_input_size),
                    "weight_hh": (gate_size, real_hidden_size),
                }
                if bias:
                    shapes.update(bias_ih=(gate_size,), bias_hh=(gate_size,))
                if proj_size > 0:
                    shapes["weight_hr"] = (proj_size, hidden_size)
                suffix = "_reverse" if direction == 1 else ""
                names = []
                for kind, shape in shapes.items():
                    names.append(f"{kind}_l{layer}{suffix}")
                    setattr(self, names[-1], Parameter(empty(shape, dtype=dtype)))
                self._flat_weights_names.extend(names)
                self._all_weights.append(names)
        self.reset_parameters()

    @property
    def _flat_weights(self) -> list[Parameter | None]:
        """The parameters in PyTorch's flat order (``None`` for a removed one)."""
        return [getattr(self, name, None) for name in self._flat_weights_names]

    @property
    def all_weights(self) -> list[list[Parameter]]:
        """The parameters grouped per layer and direction, in PyTorch's order."""
        return [[getattr(self, name) for name in names] for names in self._all_weights]

    def flatten_parameters(self) -> None:
        """A no-op, as in PyTorch off the GPU (it packs the weights for cuDNN)."""

    def reset_parameters(self) -> None:
        """Draw every parameter from U(-1/sqrt(hidden_size), 1/sqrt(hidden_size))."""
        _reset_uniformly(self)

    def extra_repr(self) -> str:
        """``input_size, hidden_size`` and the non-default settings, in PyTorch's order."""
        text = f"{self.input_size}, {self.hidden_size}"
        if self.proj_size != 0:
            text += f", proj_size={self.proj_size}"
        if self.num_layers != 1:
            text += f", num_layers={self.num_layers}"
        if self.bias is not True:
            text += f", bias={self.bias}"
        if self.batch_first is not False:
            text += f", batch_first={self.batch_first}"
        if self.dropout != 0:
            text += f", dropout={self.dropout}"
        if self.bidirectional is not False:
            text += f", bidirectional={self.bidirectional}"
        return text

    # --- checks ---------------------------------------------------------------------------------

    def check_input(self, input: Tensor, batch_sizes: Any = None) -> None:
        """PyTorch's dtype, rank and feature-size checks of a (batched, 3-D) input."""
        weight_dtype = self._flat_weights[0].dtype
        if input.dtype != weight_dtype:
            raise ValueError(
                f"RNN input dtype ({input.dtype}) does not match weight dtype ({weight_dtype}). "
                f"Convert input: input.to({weight_dtype}), or convert model: "
                f"model.to({input.dtype})"
            )
        expected_input_dim = 2 if batch_sizes is not None else 3
        if input.dim() != expected_input_dim:
            raise RuntimeError(
                f"input must have {expected_input_dim} dimensions, got {input.dim()}"
            )
        if self.input_size != input.size(-1):
            raise RuntimeError(
                "input.size(-1) must be equal to input_size. Expected "
                f"{self.input_size}, got {input.size(-1)}"
            )

    def get_expected_hidden_size(
        self, input: Tensor, batch_sizes: Any = None
    ) -> tuple[int, int, int]:
        """``(num_layers * num_directions, batch, proj_size or hidden_size)``."""
        if batch_sizes is not None:
            mini_batch = int(batch_sizes[0])
        else:
            mini_batch = input.size(0) if self.batch_first else input.size(1)
        num_directions = 2 if self.bidirectional else 1
        return (
            self.num_layers * num_directions, mini_batch, self.proj_size or self.hidden_size
        )

    def check_hidden_size(
        self, hx: Tensor, expected_hidden_size: tuple[int, int, int],
        msg: str = "Expected hidden size {}, got {}",
    ) -> None:
        """Raise PyTorch's error when ``hx`` does not have the expected size."""
        if tuple(hx.size()) != expected_hidden_size:
            raise RuntimeError(msg.format(expected_hidden_size, list(hx.size())))

    def check_forward_args(self, input: Tensor, hidden: Tensor, batch_sizes: Any = None) -> None:
        """Check the input and the hidden state as PyTorch does."""
        self.check_input(input, batch_sizes)
        self.check_hidden_size(hidden, self.get_expected_hidden_size(input, batch_sizes))

    def _batched(self, input: Tensor) -> tuple[Tensor, bool]:
        """The input with a batch dimension, and whether it had one (PyTorch's rank check)."""
        if input.dim() not in (2, 3):
            raise ValueError(
                f"{self._get_name()}: Expected input to be 2D or 3D, got {input.dim()}D"
                + (" tensor instead" if self.mode.startswith("RNN") else " instead")
            )
        batched = input.dim() == 3
        return (input if batched else input.unsqueeze(1 - self.batch_first)), batched

    def _zeros(self, input: Tensor, size: int) -> Tensor:
        """A zero initial state of ``(num_layers * num_directions, batch, size)``."""
        return zeros(
            self.num_layers * (2 if self.bidirectional else 1),
            input.size(0) if self.batch_first else input.size(1), size, dtype=input.dtype,
        )

    # --- the layers ------------------------------------------------------------------------------

    def _run(
        self, input: Tensor, hx: tuple[Tensor, ...], batched: bool,
        batch_sizes: Tensor | None = None,
    ) -> tuple[Tensor, tuple[Tensor, ...]]:
        """Every layer over the (batched) sequence by the mode's top-level function.

        As PyTorch's modules: ``lstm``, ``gru``, ``rnn_tanh`` or ``rnn_relu`` with the flat
        weights, in their packed form if ``batch_sizes`` is given; an unbatched input's batch
        dimension is taken off the results again.
        """
        function = _FUNCTIONS[self.mode]
        states = hx if self.mode == "LSTM" else hx[0]
        options = (self._flat_weights, self.bias, self.num_layers, self.dropout, self.training,
                   self.bidirectional)
        if batch_sizes is not None:
            output, *final = function(input, batch_sizes, states, *options)
        else:
            output, *final = function(input, states, *options, self.batch_first)
        if not batched:
            output = output.squeeze(1 - self.batch_first)
            final = [state.squeeze(1) for state in final]
        return output, tuple(final)

    def _forward_packed(
        self, input: PackedSequence, hx: Any, sizes: tuple[int, ...]
    ) -> tuple[PackedSequence, tuple[Tensor, ...]]:
        """The layers over a ``PackedSequence``: its output and the final states.

        ``sizes``: each state's last size. The final states come in the batch's original order.
        """
        data, batch_sizes, sorted_indices, unsorted_indices = input
        if hx is None:
            hx = tuple(
                zeros(self.num_layers * (2 if self.bidirectional else 1), int(batch_sizes[0]), size,
                      dtype=data.dtype)
                for size in sizes
            )
        else:
            hx = tuple(hx) if isinstance(hx, (tuple, list)) else (hx,)
            if sorted_indices is not None:  # the states follow the batch's sorting
                hx = tuple(h.index_select(1, sorted_indices) for h in hx)
        if len(hx) == 1:  # (as PyTorch: RNN and GRU check a packed input, LSTM does not)
            self.check_forward_args(data, hx[0], batch_sizes)
        output, final = self._run(data, hx, True, batch_sizes)
        if unsorted_indices is not None:
            final = tuple(h.index_select(1, unsorted_indices) for h in final)
        return PackedSequence(output, batch_sizes, sorted_indices, unsorted_indices), final

    def _forward_one_state(self, input: Any, hx: Tensor | None) -> tuple[Any, Tensor]:
        """``RNN`` and ``GRU``'s forward: PyTorch's checks of ``hx``, then the layers."""
        if isinstance(input, PackedSequence):
            output, (h_n,) = self._forward_packed(input, hx, (self.hidden_size,))
            return output, h_n
        input, batched = self._batched(input)
        if hx is None:
            hx = self._zeros(input, self.hidden_size)
        elif hx.dim() != (3 if batched else 2):
            raise RuntimeError(
                f"For batched 3-D input, hx should also be 3-D but got {hx.dim()}-D tensor"
                if batched else
                f"For unbatched 2-D input, hx should also be 2-D but got {hx.dim()}-D tensor"
            )
        elif not batched:
            hx = hx.unsqueeze(1)
        self.check_forward_args(input, hx)
        output, (h_n,) = self._run(input, (hx,), batched)
        return output, h_n


def _refuse_extra_arguments(kwargs: dict[str, Any]) -> None:
    """``RNN`` and ``GRU`` refuse ``proj_size`` (and unknown keywords) as PyTorch does."""
    if "proj_size" in kwargs:
        raise ValueError("proj_size argument is only supported for LSTM, not RNN or GRU")
    if kwargs:
        raise TypeError(
            f"RNNBase.__init__() got an unexpected keyword argument '{next(iter(kwargs))}'"
        )


class RNN(RNNBase):
    """Elman RNN over a sequence: ``h_t = tanh(x_t @ W_ih.T + b_ih + h_{t-1} @ W_hh.T + b_hh)``.

    Input ``(L, N, input_size)`` (``(N, L, input_size)`` with ``batch_first``) or unbatched
    ``(L, input_size)``; ``hx`` ``(num_layers * num_directions, N, hidden_size)``, zeros if
    omitted. Returns ``(output, h_n)``: the last layer's states at every step (both directions
    concatenated) and every layer's final state. ``dropout`` acts on the outputs of every
    layer but the last, in training.

    Example:
        >>> import minigrad
        >>> from minigrad import nn
        >>> rnn = nn.RNN(3, 4, num_layers=2, bidirectional=True)
        >>> output, h_n = rnn(minigrad.zeros(5, 2, 3))
        >>> output.shape, h_n.shape
        (minigrad.Size([5, 2, 8]), minigrad.Size([4, 2, 4]))
    """

    def __init__(
        self, input_size: int, hidden_size: int, num_layers: int = 1,
        nonlinearity: str = "tanh", bias: bool = True, batch_first: bool = False,
        dropout: float = 0.0, bidirectional: bool = False, device: Any = None, dtype: Any = None,
        **kwargs: Any,
    ) -> None:
        _refuse_extra_arguments(kwargs)
        self.nonlinearity = nonlinearity
        if nonlinearity not in ("tanh", "relu"):
            raise ValueError(
                f"Unknown nonlinearity '{nonlinearity}'. Select from 'tanh' or 'relu'."
            )
        super().__init__(
            "RNN_TANH" if nonlinearity == "tanh" else "RNN_RELU", input_size, hidden_size,
            num_layers, bias, batch_first, dropout, bidirectional, 0, device, dtype,
        )

    def forward(self, input: Tensor, hx: Tensor | None = None) -> tuple[Tensor, Tensor]:
        """``(output, h_n)`` for the whole sequence."""
        return self._forward_one_state(input, hx)


class LSTM(RNNBase):
    """Long short-term memory over a sequence (the step of ``LSTMCell``, layer after layer).

    Input as for ``RNN``; ``hx`` is ``(h_0, c_0)`` (zeros if omitted). With ``proj_size > 0``
    the hidden state is projected to ``proj_size`` by ``weight_hr_l{l}`` after each step.
    Returns ``(output, (h_n, c_n))``.

    Example:
        >>> import minigrad
        >>> from minigrad import nn
        >>> lstm = nn.LSTM(3, 4, batch_first=True, proj_size=2)
        >>> output, (h_n, c_n) = lstm(minigrad.zeros(2, 5, 3))
        >>> output.shape, h_n.shape, c_n.shape
        (minigrad.Size([2, 5, 2]), minigrad.Size([1, 2, 2]), minigrad.Size([1, 2, 4]))
    """

    def __init__(
        self, input_size: int, hidden_size: int, num_layers: int = 1, bias: bool = True,
        batch_first: bool = False, dropout: float = 0.0, bidirectional: bool = False,
        proj_size: int = 0, device: Any = None, dtype: Any = None,
    ) -> None:
        super().__init__(
            "LSTM", input_size, hidden_size, num_layers, bias, batch_first, dropout,
            bidirectional, proj_size, device, dtype,
        )

    def get_expected_cell_size(
        self, input: Tensor, batch_sizes: Any = None
    ) -> tuple[int, int, int]:
        """``(num_layers * num_directions, batch, hidden_size)``."""
        return (*self.get_expected_hidden_size(input, batch_sizes)[:2], self.hidden_size)

    def check_forward_args(  # type: ignore[override]
        self, input: Tensor, hidden: tuple[Tensor, Tensor], batch_sizes: Any = None
    ) -> None:
        """Check the input and both states as PyTorch does."""
        self.check_input(input, batch_sizes)
        self.check_hidden_size(
            hidden[0], self.get_expected_hidden_size(input, batch_sizes),
            "Expected hidden[0] size {}, got {}",
        )
        self.check_hidden_size(
            hidden[1], self.get_expected_cell_size(input, batch_sizes),
            "Expected hidden[1] size {}, got {}",
        )

    def forward(
        self, input: Tensor, hx: tuple[Tensor, Tensor] | None = None
    ) -> tuple[Tensor, tuple[Tensor, Tensor]]:
        """``(output, (h_n, c_n))`` for the whole sequence."""
        if isinstance(input, PackedSequence):
            output, (h_n, c_n) = self._forward_packed(
                input, hx, (self.proj_size or self.hidden_size, self.hidden_size)
            )
            return output, (h_n, c_n)
        input, batched = self._batched(input)
        if hx is None:
            hx = (self._zeros(input, self.proj_size or self.hidden_size),
                  self._zeros(input, self.hidden_size))
        else:
            rank = 3 if batched else 2
            if hx[0].dim() != rank or hx[1].dim() != rank:
                raise RuntimeError(
                    f"For {'batched 3' if batched else 'unbatched 2'}-D input, hx and cx should "
                    f"also be {rank}-D but got ({hx[0].dim()}-D, {hx[1].dim()}-D) tensors"
                )
            hx = tuple(hx) if batched else (hx[0].unsqueeze(1), hx[1].unsqueeze(1))
        self.check_forward_args(input, hx)
        output, (h_n, c_n) = self._run(input, hx, batched)
        return output, (h_n, c_n)


class GRU(RNNBase):
    """Gated recurrent unit over a sequence (the step of ``GRUCell``, layer after layer).

    Input and ``hx`` as for ``RNN``. Returns ``(output, h_n)``.

    Example:
        >>> import minigrad
        >>> from minigrad import nn
        >>> output, h_n = nn.GRU(3, 4)(minigrad.zeros(5, 3))
        >>> output.shape, h_n.shape
        (minigrad.Size([5, 4]), minigrad.Size([1, 4]))
    """

    def __init__(
        self, input_size: int, hidden_size: int, num_layers: int = 1, bias: bool = True,
        batch_first: bool = False, dropout: float = 0.0, bidirectional: bool = False,
        device: Any = None, dtype: Any = None, **kwargs: Any,
    ) -> None:
        _refuse_extra_arguments(kwargs)
        super().__init__(
            "GRU", input_size, hidden_size, num_layers, bias, batch_first, dropout,
            bidirectional, 0, device, dtype,
        )

    def forward(self, input: Tensor, hx: Tensor | None = None) -> tuple[Tensor, Tensor]:
        """``(output, h_n)`` for the whole sequence."""
        return self._forward_one_state(input, hx)
