"""Python numbers where PyTorch's argument parser takes them for a Tensor argument.

PyTorch's parser lets a short list of functions take a number for any of their Tensor
parameters (``should_allow_numbers_as_tensors`` in torch/csrc/utils/python_arg_parser.cpp, read
off PyTorch 2.13 with ``torch._C._should_allow_numbers_as_tensors``): ``torch.mul(2.0, t)``,
``torch.add(2, t)``, ``torch.mul(2, 3)`` (``tensor(6)``), ``torch.div(2, 3)`` (``tensor(0.6667)``),
``t.copy_(2)``, ``torch.mul(t, 2, out=3)``. The parser turns such a number into a 0-d "wrapped
number" tensor (``scalar_to_tensor``: a bool, an int64, a float64; a numpy float or bool as a
float64), which type promotion then treats as a Python scalar.

minigrad's binary ops already take a Python number for either operand and promote it so: a
number beside a tensor is passed on as it is. What needs a tensor is a call without any (both
operands numbers: the first one is wrapped, in the dtype it promotes to, so the op computes in
PyTorch's dtype) and the parameters that are not operands (``copy_``'s source, ``out``: wrapped
as the parser wraps them, a float as a float64).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from minigrad._dtype import check_python_int, default_float
from minigrad.autograd.tensor_base import TensorBase

# PyTorch 2.13's list (its in-place and ``_out`` names too). Of these, minigrad has no ``copy``,
# ``_to_copy`` nor ``_conj``, and ``to``'s Tensor overload (``x.to(other)``) comes after its
# device overload, which takes an int: listed for completeness.
NUMBERS_AS_TENSORS = frozenset(
    {
        "add", "add_", "sub", "sub_", "subtract", "subtract_", "mul", "mul_", "multiply",
        "multiply_", "div", "div_", "divide", "divide_", "true_divide", "true_divide_",
        "floor_divide", "floor_divide_", "to", "_to_copy", "copy_", "copy", "_conj",
    }
)  # fmt: skip
# Of those, the ones whose Tensor parameter is not an operand: a number there is always
# wrapped, as the parser makes it (``x.copy_(0.1)`` copies the float64 0.1).
WRAPPED_SOURCES = frozenset({"copy_", "copy", "to", "_to_copy"})
# What the parser takes as such a number (THPUtils_checkScalar; complex numbers too, which
# minigrad has no dtype for: they stay refused, as "must be Tensor, not complex").
NUMBERS = (bool, int, float, np.number, np.bool_)
# What a Tensor parameter of those functions accepts, then (numpy code passes arrays too).
TENSOR_OR_NUMBER = (TensorBase, *NUMBERS, np.ndarray)


def wrapped_number(value: Any, as_operand: bool = False) -> TensorBase:
    """``value`` (a number) as the 0-d tensor PyTorch's parser wraps it in.

    ``as_operand``: for an op's operand, in the dtype it promotes to (a float: the default
    float dtype), as the op would compute with it; else as the parser makes it (a float: float64).
    A numpy bool is a float to the parser (``torch.mul(np.bool_(True), True)`` is
    ``tensor(1.)``); a Python int no int64 nor uint64 holds is its OverflowError.
    """
    if isinstance(value, bool):
        dtype: Any = np.bool_
    elif isinstance(value, int):
        check_python_int(value)
        dtype = np.int64 if value <= 0x7FFFFFFFFFFFFFFF else np.uint64
    elif isinstance(value, np.integer):
        dtype = np.int64
    else:
        value = float(value)
        dtype = default_float() if as_operand else np.float64
    return TensorBase.output_class._make(np.asarray(value, dtype=dtype))


def is_number(value: Any) -> bool:
    """Whether ``value`` is a number the parser wraps (not a tensor)."""
    return isinstance(value, NUMBERS)
