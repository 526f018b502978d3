"""Comparisons, logical ops and ``where``: ``eq``/``lt``/..., ``logical_*``, ``isnan``, ``isclose``.

Comparisons and logical ops give bool tensors and are never differentiable (computed on arrays,
not recorded). ``where`` selects by a condition and is differentiable in its two values.

``isclose`` is PyTorch's closeness test, elementwise::

    |input - other| <= atol + rtol * |other|      (finite values)
    input == other                                (infinities; NaN == NaN with equal_nan)

computed in the tensors' own dtype (integers and bools in the default float dtype, float32, as
PyTorch does to avoid integer overflow). Unlike numpy's, the two tensors must have the same
dtype. ``equal`` asks for the same shape and the same values (after type promotion).
"""

from __future__ import annotations

import warnings
from typing import Any, ClassVar

import numpy as np

from minigrad import errors
from minigrad._dtype import checked_value, default_float, display_name, result_type
from minigrad._layout import elementwise_result
from minigrad.autograd.function import Op
from minigrad.autograd.inplace import apply_inplace, write
from minigrad.autograd.tensor_base import TensorBase, has_internal_overlap
from minigrad.ops._helpers import check_operand, operand, promote, python_scalar, wrap_integer


def check_tensor(function: str, name: str, position: int, value: Any) -> None:
    """PyTorch's TypeError unless ``value`` (argument ``name`` at ``position``) is a tensor."""
    if not isinstance(value, TensorBase):
        raise TypeError(
            errors.wrong_argument_type(
                function, name, "Tensor", errors.python_type_name(value), position
            )
        )


def _float_argument(function: str, name: str, value: Any) -> float:
    if not isinstance(value, (int, float, np.integer, np.floating)):
        raise TypeError(
            errors.wrong_argument_type(function, name, "float", errors.python_type_name(value))
        )
    return float(value)


def _close(function: str, input: Any, other: Any, rtol: Any, atol: Any, equal_nan: Any) -> Any:
    """The boolean array of ``isclose``, after PyTorch's checks in PyTorch's order."""
    check_tensor(function, "input", 1, input)
    check_tensor(function, "other", 2, other)
    rtol, atol = _float_argument(function, "rtol", rtol), _float_argument(function, "atol", atol)
    if not isinstance(equal_nan, bool):
        raise TypeError(
            errors.wrong_argument_type(
                function, "equal_nan", "bool", errors.python_type_name(equal_nan)
            )
        )
    a, b = input._array, other._array
    if a.dtype != b.dtype:
        raise RuntimeError(errors.dtypes_do_not_match(a.dtype, b.dtype))
    for name, value in (("rtol", rtol), ("atol", atol)):
        if not value >= 0:  # (nan too; C++ prints doubles as Python's :g does)
            raise RuntimeError(errors.negative_tolerance(name, value))
    try:
        shape = np.broadcast_shapes(a.shape, b.shape)
    except ValueError:
        raise RuntimeError(errors.broadcast_mismatch(a.shape, b.shape)) from None
    a, b = np.broadcast_to(a, shape), np.broadcast_to(b, shape)
    close = a == b
    if equal_nan and a.dtype.kind == "f":
        close |= np.isnan(a) & np.isnan(b)
    if rtol == 0 and atol == 0:  # closeness is equality then
        return close
    with np.errstate(all="ignore"):  # inf - inf is nan: not close, not a warning
        if a.dtype.kind != "f":  # subtracting integers could overflow: PyTorch uses floats
            a, b = a.astype(default_float()), b.astype(default_float())  # (float16: inf)
        allowed = a.dtype.type(atol) + np.abs(a.dtype.type(rtol) * b)
        actual = np.abs(a - b)
        close |= np.isfinite(actual) & (actual <= allowed)
    return close


def isclose(
    input: Any, other: Any, rtol: float = 1e-05, atol: float = 1e-08, equal_nan: bool = False
) -> Any:
    """Where ``|input - other| <= atol + rtol * |other|``, elementwise (a bool tensor).

    Infinities are close only to themselves; NaNs are close to each other only with
    ``equal_nan``. Both tensors must have the same dtype; their shapes broadcast.

    Example:
        >>> import minigrad
        >>> a = minigrad.tensor([1.0, 2.0, float("nan")])
        >>> minigrad.isclose(a, minigrad.tensor([1.0, 2.0001, float("nan")]))
        tensor([ True, False, False])
        >>> minigrad.isclose(a, a, equal_nan=True)
        tensor([True, True, True])
    """
    close = _close("isclose", input, other, rtol, atol, equal_nan)
    return TensorBase.output_class._make(np.array(close, dtype=np.bool_))


def allclose(
    input: Any, other: Any, rtol: float = 1e-05, atol: float = 1e-08, equal_nan: bool = False
) -> bool:
    """True if every element of ``input`` is close to ``other``'s (see ``isclose``).

    Example:
        >>> import minigrad
        >>> minigrad.allclose(minigrad.tensor([1e4, 1e-8]), minigrad.tensor([10000.1, 1e-9]))
        True
        >>> minigrad.allclose(minigrad.tensor([1e4, 1e-7]), minigrad.tensor([10000.1, 1e-8]))
        False
    """
    return bool(_close("allclose", input, other, rtol, atol, equal_nan).all())


def equal(input: Any, other: Any) -> bool:
    """True if the tensors have the same shape and the same values (dtypes may differ).

    The values are compared after PyTorch's type promotion; NaN equals nothing.

    Example:
        >>> import minigrad
        >>> minigrad.equal(minigrad.tensor([1.0, 2.0]), minigrad.tensor([1, 2]))
        True
        >>> minigrad.equal(minigrad.tensor([1.0, 2.0]), minigrad.tensor([[1.0, 2.0]]))
        False
    """
    check_tensor("equal", "input", 1, input)
    check_tensor("equal", "other", 2, other)
    a, b = input._array, other._array
    if a.shape != b.shape:
        return False
    dtype = result_type(a, b)
    return bool(np.array_equal(a.astype(dtype, copy=False), b.astype(dtype, copy=False)))



class Where(Op):
    """z = x where condition else y;  dx = grad where condition,  dy = grad elsewhere.

    Saves the condition (PyTorch): changing it in place before backward raises. The condition
    is an option, not a graph input: the node has edges for x and y only (``WhereBackward0``'s
    ``next_functions``).
    """

    tensor_options = True  # (the condition)
    # (laid out by forward: PyTorch's iteration takes the condition as its first operand)
    result_layout = None

    saves = "condition"
    node_name = "WhereBackward0"
    unsummed_when_called = True  # grad_fn(grad): a broadcast input's gradient unsummed
    num_inputs = 2

    @staticmethod
    def forward(ctx: Any, x: Any, y: Any, condition: Any, dtype: Any) -> np.ndarray:
        ctx.save_for_backward(condition)
        result = np.where(condition, x, y)
        if dtype is not None:
            result = result.astype(dtype, copy=False)
        return elementwise_result(result, (condition, x, y)) if result.ndim > 1 else result

    @staticmethod
    def backward(ctx: Any, grad: Any) -> tuple[Any, ...]:
        (condition,) = ctx.saved_tensors
        return (
            np.where(condition, grad, 0) if ctx.needs_input_grad[0] else None,
            np.where(condition, 0, grad) if ctx.needs_input_grad[1] else None,
            None,
            None,
        )


def where(condition: Any, input: Any, other: Any) -> Any:
    """Elements of ``input`` where ``condition`` is True, else of ``other`` (broadcasting).

    Example:
        >>> import minigrad
        >>> minigrad.where(minigrad.tensor([True, False]), minigrad.ones(2), 0.0)
        tensor([1., 0.])
    """
    condition_dtype = np.asarray(operand(condition)).dtype
    if condition_dtype == np.uint8:
        warnings.warn(errors.WHERE_UINT8_CONDITION, UserWarning, stacklevel=3)
    elif condition_dtype != np.bool_:
        raise RuntimeError(errors.where_condition_not_bool(display_name(condition_dtype)))
    a, b, dtype = promote(input, other)
    _check_numbers_fit(input, other, dtype if dtype is not None else operand(a).dtype)
    try:
        return Where.apply(a, b, condition, dtype)
    except ValueError as error:
        # PyTorch broadcasts the condition with input first, then the result with other.
        shape = np.shape(operand(condition))
        for value in (a, b):
            try:
                shape = np.broadcast_shapes(shape, np.shape(operand(value)))
            except ValueError:
                raise RuntimeError(
                    errors.broadcast_mismatch(shape, np.shape(operand(value)))
                ) from None
        raise RuntimeError(str(error)) from None


def _check_numbers_fit(input: Any, other: Any, dtype: np.dtype) -> None:
    """The Python numbers of ``where``, as its kernel converts them to the result's ``dtype``.

    One the dtype cannot hold raises (``where(c, int32_tensor, 2**31)``), where an arithmetic
    op would wrap it; float16 takes any number (inf past its range).
    """
    for value in (input, other):
        if type(value) is int or type(value) is float:
            checked_value(value, dtype, check_half=False)


def bool_op(ufunc: np.ufunc, input: Any, other: Any) -> Any:
    """``ufunc(input, other)`` as a bool tensor, not recorded.

    Comparisons happen in PyTorch's common dtype. The one helper behind ``==``, ``eq``,
    ``logical_and``... and numpy's comparisons on tensors (``_numpy_protocol``).
    """
    check_operand(other, "other")
    other = python_scalar(other)
    a, b = np.asarray(operand(input)), operand(other)
    try:
        result = _applied(ufunc, a, b)
    except ValueError:
        raise RuntimeError(errors.broadcast_mismatch(np.shape(a), np.shape(b))) from None
    result = np.asarray(result)
    if result.ndim > 1:
        result = elementwise_result(result, (a, b))  # laid out as PyTorch's
    return TensorBase.output_class._make(result)


def _applied(ufunc: np.ufunc, a: np.ndarray, b: Any) -> Any:
    """``ufunc(a, b)``, a comparison in PyTorch's common dtype of the operands."""
    # (0..127 is every integer dtype's own value: the common ``x > 0`` skips the dtype test)
    if type(b) is int and not 0 <= b <= 127 and ufunc in _COMPARISONS and a.dtype.kind in "iub":
        if a.dtype.kind != "b":
            # The Scalar becomes the tensor's dtype, wrapping (int64 ``x < 2**63`` is all False)
            return ufunc(a, wrap_integer(b, a.dtype))
        result_type(a, b)  # (bool with an int past int64: PyTorch's promotion error)
    if ufunc in _COMPARISONS and isinstance(b, np.ndarray) and a.dtype != b.dtype:
        dtype = result_type(a, b)  # compare in PyTorch's common dtype
        a, b = a.astype(dtype), b.astype(dtype)
    elif ufunc in _COMPARISONS and isinstance(b, float) and a.dtype.kind != "f":
        with np.errstate(over="ignore"):  # (a float16 default: large integers become inf)
            a = a.astype(default_float())  # an integer tensor and a Python float: default float
            return ufunc(a, b)
    elif type(b) is float and not -65504.0 <= b <= 65504.0 and ufunc in _COMPARISONS:
        with np.errstate(over="ignore"):  # (a float past float16's or float32's range: inf)
            return ufunc(a, b)
    return ufunc(a, b)


_COMPARISONS = (np.equal, np.not_equal, np.less, np.less_equal, np.greater, np.greater_equal)


def eq(input: Any, other: Any) -> Any:
    """``input == other`` elementwise (a bool tensor)."""
    return bool_op(np.equal, input, other)


def ne(input: Any, other: Any) -> Any:
    """``input != other`` elementwise (a bool tensor)."""
    return bool_op(np.not_equal, input, other)


def lt(input: Any, other: Any) -> Any:
    """``input < other`` elementwise (a bool tensor)."""
    return bool_op(np.less, input, other)


def le(input: Any, other: Any) -> Any:
    """``input <= other`` elementwise (a bool tensor)."""
    return bool_op(np.less_equal, input, other)


def gt(input: Any, other: Any) -> Any:
    """``input > other`` elementwise (a bool tensor)."""
    return bool_op(np.greater, input, other)


def ge(input: Any, other: Any) -> Any:
    """``input >= other`` elementwise (a bool tensor)."""
    return bool_op(np.greater_equal, input, other)


# PyTorch's other names for them
not_equal, less, less_equal, greater, greater_equal = ne, lt, le, gt, ge


# --- in place: x.eq_(other) ... -------------------------------------------------------------


class _ComparedInPlace(Op):
    """self = (self <op> other), written in self's dtype (1 or 0): ``x.lt_(y)``, ``x.eq_(2)``.

    Not differentiable, but recorded as PyTorch records it (derivatives.yaml): a node whose
    gradients are zeros, for self and for a tensor ``other``. A number ``other`` is the Scalar
    overload (``LtBackward0``, one input); a tensor the Tensor overload (``LtBackward1``).
    Saves nothing (shapes and dtypes are metadata).
    """

    ufunc: ClassVar[np.ufunc]
    broadcasts = True  # numpy's broadcasting errors become PyTorch's message
    fields = ("shape", "dtype", "other_shape", "other_dtype")

    @classmethod
    def forward(cls, ctx: Any, x: np.ndarray, other: Any) -> np.ndarray:
        ctx.shape, ctx.dtype = x.shape, x.dtype
        ctx.other_shape, ctx.other_dtype = np.shape(other), getattr(other, "dtype", None)
        return np.asarray(_applied(cls.ufunc, x, other)).astype(x.dtype)

    @staticmethod
    def backward(ctx: Any, grad: Any) -> tuple[Any, Any]:
        other = None if ctx.other_dtype is None else np.zeros(ctx.other_shape, ctx.other_dtype)
        return np.zeros(ctx.shape, ctx.dtype), other


def _compared_in_place(ufunc: np.ufunc, name: str) -> tuple[type[Op], type[Op]]:
    """The two overloads of ``name_`` as ops: (with a number ``other``, with a tensor)."""
    scalar = type(f"{name}Scalar", (_ComparedInPlace,), {
        "ufunc": ufunc, "node_name": f"{name}Backward0", "__doc__": _ComparedInPlace.__doc__})
    tensor = type(f"{name}Tensor", (_ComparedInPlace,), {
        "ufunc": ufunc, "node_name": f"{name}Backward1", "num_inputs": 2,
        "__doc__": _ComparedInPlace.__doc__})
    return scalar, tensor


_IN_PLACE = {
    name: _compared_in_place(ufunc, name.capitalize())
    for name, ufunc in zip(("eq", "ne", "lt", "le", "gt", "ge"), _COMPARISONS)
}


def compare_(input: Any, other: Any, name: str) -> Any:
    """``input.<name>_(other)``: the comparison written into ``input`` (autograd/inplace.py)."""
    check_operand(other, "other", f"{name}_")
    other = python_scalar(other)
    scalar, tensor = _IN_PLACE[name]
    return apply_inplace(tensor if isinstance(other, TensorBase) else scalar, input, other)


def logical_and(input: Any, other: Any) -> Any:
    """Both nonzero, elementwise (a bool tensor)."""
    return bool_op(np.logical_and, input, other)


def logical_or(input: Any, other: Any) -> Any:
    """Either nonzero, elementwise (a bool tensor)."""
    return bool_op(np.logical_or, input, other)


def logical_xor(input: Any, other: Any) -> Any:
    """Exactly one nonzero, elementwise (a bool tensor)."""
    return bool_op(np.logical_xor, input, other)


def logical_(ufunc: np.ufunc, input: Any, *other: Any) -> Any:
    """``input.logical_and_(other)`` ...: the truth values written into ``input`` as 1 and 0.

    PyTorch records nothing for these (they have no derivative) and checks no leaf or view
    rule: the write is counted on the version counter, and ``input``'s history stays as it was.
    """
    if has_internal_overlap(input._array):
        raise RuntimeError(errors.INTERNAL_OVERLAP)
    result = bool_op(ufunc, input, *other) if other else bool_unary(ufunc, input)
    write(input, result._array)
    return input


def bool_unary(ufunc: np.ufunc, input: Any) -> Any:
    """``ufunc(input)`` as a tensor, not recorded (``isnan``, ``logical_not``...)."""
    array = operand(input)
    # (not recorded: laid out here as the recorded elementwise ops are)
    return TensorBase.output_class._make(elementwise_result(np.asarray(ufunc(array)), (array,)))


def logical_not(input: Any) -> Any:
    """Zero elements become True, others False (a bool tensor)."""
    return bool_unary(np.logical_not, input)


def isnan(input: Any) -> Any:
    """True where ``input`` is nan."""
    return bool_unary(np.isnan, input)


def isinf(input: Any) -> Any:
    """True where ``input`` is +inf or -inf."""
    return bool_unary(np.isinf, input)


def isfinite(input: Any) -> Any:
    """True where ``input`` is neither nan nor infinite."""
    return bool_unary(np.isfinite, input)


__all__ = [
    "isclose",
    "allclose",
    "equal",
    "where",
    "bool_op",
    "eq",
    "ne",
    "lt",
    "le",
    "gt",
    "ge",
    "logical_and",
    "logical_or",
    "logical_xor",
    "bool_unary",
    "logical_not",
    "isnan",
    "isinf",
    "isfinite",
]
