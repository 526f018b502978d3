"""Recurrent cells: ``RNNCell``, ``LSTMCell`` and ``GRUCell`` (one time step each).

Each cell holds ``weight_ih`` (chunks * hidden, input), ``weight_hh`` (chunks * hidden,
hidden) and the biases ``bias_ih``, ``bias_hh``, all initialised from
U(-1/sqrt(hidden_size), 1/sqrt(hidden_size)) as in PyTorch. The step is composed from public
ops (``F.linear``, ``chunk``, ``sigmoid``, ``tanh``), so autograd records it op by op.
Inputs are (batch, input_size) or, unbatched, (input_size); a missing hidden state is zeros.
"""

from __future__ import annotations

import math
from typing import Any

from minigrad.creation import empty, zeros
from minigrad.nn import functional as F
from minigrad.nn import init
from minigrad.nn.modules.module import Module
from minigrad.nn.modules.utils import check_device
from minigrad.nn.parameter import Parameter
from minigrad.tensor import Tensor

__all__ = ["GRUCell", "LSTMCell", "RNNCell"]


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
        stdv = 1.0 / math.sqrt(self.hidden_size) if self.hidden_size > 0 else 0
        for weight in self.parameters():
            init.uniform_(weight, -stdv, stdv)

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
        """Checked 2-D input and states (zeros if none), and whether the input was batched."""
        self._check_rank(input, "input")
        for idx, value in enumerate(states or ()):
            self._check_rank(value, "hidden" if count == 1 else f"hx[{idx}]")
        batched = input.dim() == 2
        if not batched:
            input = input.unsqueeze(0)
            states = None if states is None else tuple(s.unsqueeze(0) for s in states)
        if states is None:
            states = (zeros(input.size(0), self.hidden_size, dtype=input.dtype),) * count
        self._check_sizes(input, states)
        return input, states, batched

    def _check_sizes(self, input: Tensor, hiddens: tuple[Tensor, ...]) -> None:
        """PyTorch's checks of input and hidden sizes, with its messages."""
        if input.size(1) != self.input_size:
            raise RuntimeError(
                f"input has inconsistent input_size: got {input.size(1)} expected "
                f"{self.input_size}"
            )
        for i, hidden in enumerate(hiddens):
            if input.size(0) != hidden.size(0):
                raise RuntimeError(
                    f"Input batch size {input.size(0)} doesn't match hidden{i} batch size "
                    f"{hidden.size(0)}"
                )
            if hidden.size(1) != self.hidden_size:
                raise RuntimeError(
                    f"hidden{i} has inconsistent hidden_size: got {hidden.size(1)}, expected "
                    f"{self.hidden_size}"
                )

    def _gates(self, input: Tensor, hidden: Tensor) -> tuple[Tensor, Tensor]:
        """``(x @ W_ih.T + b_ih, h @ W_hh.T + b_hh)``."""
        return (
            F.linear(input, self.weight_ih, self.bias_ih),
            F.linear(hidden, self.weight_hh, self.bias_hh),
        )


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
        from_input, from_hidden = self._gates(input, hx)
        if self.nonlinearity == "tanh":
            out = (from_input + from_hidden).tanh()
        elif self.nonlinearity == "relu":
            out = (from_input + from_hidden).relu()
        else:
            raise RuntimeError(f"Unknown nonlinearity: {self.nonlinearity}")
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
        from_input, from_hidden = self._gates(input, h)
        i, f, g, o = (from_hidden + from_input).chunk(4, 1)
        c_next = f.sigmoid() * c + i.sigmoid() * g.tanh()
        h_next = o.sigmoid() * c_next.tanh()
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
        from_input, from_hidden = self._gates(input, hx)
        x_r, x_z, x_n = from_input.chunk(3, 1)
        h_r, h_z, h_n = from_hidden.chunk(3, 1)
        reset = (h_r + x_r).sigmoid()
        update = (h_z + x_z).sigmoid()
        new = (x_n + h_n * reset).tanh()
        out = (hx - new) * update + new
        return out if batched else out.squeeze(0)
