"""dtypes: minigrad's names for numpy's types, and PyTorch's type-promotion rules.

PyTorch promotes differently from numpy in the cases people hit most: a Python float does not
upcast a float32 tensor but turns an int tensor into float32 (numpy: float64); a 0-d tensor does
not decide the result's precision when a higher-dimensional tensor of the same category is present;
int / int is the default float dtype (float32). ``result_type`` implements PyTorch's rule.
"""

from __future__ import annotations

from typing import Any

import numpy as np


class dtype:  # noqa: N801 - PyTorch's name
    """A tensor element type, e.g. ``minigrad.float32``.

    Example:
        >>> import minigrad
        >>> minigrad.float64
        minigrad.float64
        >>> minigrad.float64.is_floating_point
        True
    """

    __slots__ = ("name", "numpy", "is_floating_point", "itemsize", "tensor_type", "_display")

    def __init__(self, name: str, numpy_type: type, tensor_type: str, display: str) -> None:
        self.name = name
        self.numpy = np.dtype(numpy_type)
        self.is_floating_point = self.numpy.kind == "f"
        self.itemsize = self.numpy.itemsize
        self.tensor_type = tensor_type  # "FloatTensor": used in messages as minigrad.FloatTensor
        self._display = display  # "Float": used in casting messages

    def __repr__(self) -> str:
        return f"minigrad.{self.name}"

    def __reduce__(self) -> str:
        return self.name


float16 = dtype("float16", np.float16, "HalfTensor", "Half")
float32 = dtype("float32", np.float32, "FloatTensor", "Float")
float64 = dtype("float64", np.float64, "DoubleTensor", "Double")
uint8 = dtype("uint8", np.uint8, "ByteTensor", "Byte")
int8 = dtype("int8", np.int8, "CharTensor", "Char")
int16 = dtype("int16", np.int16, "ShortTensor", "Short")
int32 = dtype("int32", np.int32, "IntTensor", "Int")
int64 = dtype("int64", np.int64, "LongTensor", "Long")
bool_ = dtype("bool", np.bool_, "BoolTensor", "Bool")

ALL_DTYPES = (float16, float32, float64, uint8, int8, int16, int32, int64, bool_)
_BY_NUMPY = {d.numpy: d for d in ALL_DTYPES}

# The default floating dtype: what Python floats, float data and the float factories become.
# Process-global, as PyTorch's (a thread sees what another set); changed only through
# ``set_default_dtype``. Everything that follows it asks ``default_float()``.
_default: dtype = float32

_NOT_FLOATING = "only floating-point types are supported as the default type"


def get_default_dtype() -> dtype:
    """The dtype Python floats become in tensors: ``minigrad.float32`` unless set otherwise.

    Example:
        >>> import minigrad
        >>> minigrad.get_default_dtype()
        minigrad.float32
    """
    return _default


def default_float() -> np.dtype:
    """The numpy dtype of ``get_default_dtype()``: the one question every default site asks."""
    return _default.numpy


def set_default_dtype(d: dtype, /) -> None:
    """Make ``d`` (float16, float32 or float64) the default floating dtype, for the process.

    It decides the dtype of ``tensor(1.5)``, of the float factories (``zeros``, ``rand``,
    ``arange(0.5)`` ...), of nn layers' parameters, and of integer tensors combined with Python
    floats or divided (``int_tensor * 1.5``, ``int_tensor / 2``, ``sqrt(int_tensor)``).
    Tensors that exist keep their dtype; ``from_numpy`` and numpy arrays keep theirs.

    Example:
        >>> import minigrad
        >>> minigrad.set_default_dtype(minigrad.float64)
        >>> minigrad.tensor([1.5]).dtype
        minigrad.float64
        >>> minigrad.set_default_dtype(minigrad.float32)
    """
    global _default
    if not isinstance(d, dtype):
        raise TypeError("invalid dtype object: " + _NOT_FLOATING)
    if not d.is_floating_point:
        raise TypeError(_NOT_FLOATING)
    _default = d


def from_numpy_dtype(numpy_dtype: np.dtype) -> dtype:
    """The minigrad dtype of a numpy dtype; TypeError for types minigrad does not support."""
    try:
        return _BY_NUMPY[numpy_dtype]
    except KeyError:
        raise TypeError(
            f"can't convert np.ndarray of type numpy.{numpy_dtype.type.__name__}. The only "
            "supported types are: float64, float32, float16, int64, int32, int16, int8, uint8, "
            "and bool."
        ) from None


_PYTHON_TYPES = {float: "float64", int: "int64", bool: "bool"}


def to_numpy_dtype(value: Any, function: str) -> np.dtype:
    """The numpy dtype for ``function``'s ``dtype=`` argument; TypeError if it is not one.

    Python's ``float``, ``int`` and ``bool`` are accepted, as in PyTorch (float64, int64, bool).
    """
    if isinstance(value, dtype):
        return value.numpy
    if value in _PYTHON_TYPES:
        return np.dtype(_PYTHON_TYPES[value])
    raise TypeError(
        f"{function}(): argument 'dtype' must be minigrad.dtype, not {type(value).__name__}"
    )


def type_name(numpy_dtype: np.dtype) -> str:
    """``minigrad.FloatTensor``: the legacy type name PyTorch's messages use."""
    return "minigrad." + _BY_NUMPY[numpy_dtype].tensor_type


def backend_type_name(numpy_dtype: np.dtype) -> str:
    """The tensor type PyTorch's C++ messages print: ``type_name``'s, but ``CPUBoolType`` for bool.

    (PyTorch's C++ names a tensor type by its legacy Python name where it has one in its
    table, and by the backend's name, which it keeps, for bool.)
    """
    return "CPUBoolType" if numpy_dtype == np.bool_ else type_name(numpy_dtype)


def display_name(numpy_dtype: np.dtype) -> str:
    """``Float``: the scalar-type name PyTorch's casting messages use."""
    return _BY_NUMPY[numpy_dtype]._display


# --- PyTorch's type promotion -------------------------------------------------------------

_BOOL, _INT, _FLOAT = 0, 1, 2


def _category(numpy_dtype: np.dtype) -> int:
    kind = numpy_dtype.kind
    return _FLOAT if kind == "f" else _BOOL if kind == "b" else _INT


# What a Python int past int64 promotes as: PyTorch makes it a uint64 Scalar (minigrad has no
# uint64 tensors; the dtype stands for that Scalar in promotion only).
_UINT64 = np.dtype(np.uint64)
_BOOL_DTYPE = np.dtype(np.bool_)
_INT64_MAX = 0x7FFFFFFFFFFFFFFF

# The numpy dtype classes of float buffers, for the hot paths' test of a float tensor:
# ``type(array.dtype) in FLOAT_DTYPE_CLASSES`` (``type`` of one argument, a tuple's identity
# test) saves ~200 of the ~450 instructions ``array.dtype.kind == "f"`` costs (``kind`` makes a
# str).
FLOAT_DTYPE_CLASSES = (
    np.dtypes.Float32DType, np.dtypes.Float64DType, np.dtypes.Float16DType,
    np.dtypes.LongDoubleDType,
)


def promote_types(a: np.dtype | None, b: np.dtype | None) -> np.dtype | None:
    """The smallest dtype both ``a`` and ``b`` fit in, by PyTorch's table (None = absent)."""
    if a is None or a == b:
        return b
    if b is None:
        return a
    if a == _UINT64 or b == _UINT64:
        return _promote_unsigned(a, b)
    category_a, category_b = _category(a), _category(b)
    if category_a != category_b:
        # PyTorch keeps the higher category's own type: int64 with float16 is float16.
        return a if category_a > category_b else b
    return np.promote_types(a, b)


def _promote_unsigned(a: np.dtype, b: np.dtype) -> np.dtype:
    """PyTorch's promotion of uint64 with another type: a floating type wins, else an error."""
    if a.kind == "f":
        return a
    if b.kind == "f":
        return b
    raise RuntimeError(
        "Promotion for uint16, uint32, uint64 types is not supported, attempted to promote "
        f"{_promotion_name(a)} and {_promotion_name(b)}")


def _promotion_name(numpy_dtype: np.dtype) -> str:
    return "UInt64" if numpy_dtype == _UINT64 else _BY_NUMPY[numpy_dtype]._display


def can_cast(from_: np.dtype, to: np.dtype) -> bool:
    """PyTorch's ``canCast``: no floating point into integers, nothing but bool into bool.

    The rule in-place ops and ``out=`` apply to a result: any other cast is allowed, to a
    narrower type too (int64 into uint8).
    """
    if from_.kind == "f" and to.kind in "iub":
        return False
    return not (from_.kind != "b" and to.kind == "b")


def _combine(higher: np.dtype | None, lower: np.dtype | None) -> np.dtype | None:
    # A lower-priority group only matters if it brings a higher category; under bool, PyTorch
    # promotes the two (which refuses bool with a uint64 Scalar).
    if higher is None:
        return lower
    if lower is not None and higher is _BOOL_DTYPE:
        return promote_types(higher, lower)
    if lower is None or _category(higher) >= _category(lower):
        return higher
    return lower


def result_type(*operands: Any) -> np.dtype:
    """The dtype PyTorch gives an elementwise op on ``operands`` (arrays or Python scalars).

    Arrays with dimensions decide first, then 0-d arrays, then Python scalars, each group only
    where it raises the category (bool < integer < floating). A Python float counts as the
    default float dtype (``get_default_dtype()``), a Python int as int64.
    """
    dims = zero_dims = scalars = None
    for operand in operands:
        if isinstance(operand, np.ndarray):
            if operand.ndim:
                dims = promote_types(dims, operand.dtype)
            else:
                zero_dims = promote_types(zero_dims, operand.dtype)
        elif isinstance(operand, (bool, np.bool_)):
            scalars = promote_types(scalars, np.dtype(np.bool_))
        elif isinstance(operand, (int, np.integer)):
            if type(operand) is int and check_python_int(operand) > _INT64_MAX:
                scalars = promote_types(scalars, _UINT64)
            else:
                scalars = promote_types(scalars, np.dtype(np.int64))
        else:
            scalars = promote_types(scalars, _default.numpy)
    result = _combine(dims, _combine(zero_dims, scalars))
    assert result is not None, "result_type needs at least one operand"
    # (uint64 Scalars alone: PyTorch's result is uint64, which minigrad does not have; their
    # bits as int64, as before)
    return np.dtype(np.int64) if result == _UINT64 else result


def check_python_int(value: int) -> int:
    """``value``, or the OverflowError PyTorch's argument parser gives an int it cannot hold.

    A Python int becomes a Scalar as an int64 or, failing that, a uint64 (so ``x * 2**63``
    works); anything outside both raises before the op looks at it.
    """
    if -0x8000000000000000 <= value <= 0xFFFFFFFFFFFFFFFF:
        return value
    raise OverflowError(
        "can't convert negative int to unsigned" if value < 0 else "int too big to convert")


def check_scalar_arguments(*values: Any) -> None:
    """The parser's OverflowError for the last int among ``values`` that no Scalar holds.

    For a function's Scalar options (``alpha``, a weight, a fill value ...), off the hot path:
    anything but a Python int is left to the function's own checks. ``values`` in the order
    of the function's parameters: PyTorch's bindings unpack a call's arguments last first (the
    C++ compiler's order for the arguments of the dispatch call), so with two bad ones the
    last one's error is raised (``clamp(x, -2**70, 2**70)``: "int too big to convert").
    """
    for value in reversed(values):
        if type(value) is int:
            check_python_int(value)


# The C++ names of c10::checked_convert's overflow message ("value cannot be converted to type
# int without overflow"). bool is absent: PyTorch converts any number to it.
# (Keyed by numpy dtypes: ``dtype.name`` is a Python-level property, slow.)
_CHECKED_TYPE_NAMES = {
    np.dtype(name): cpp for name, cpp in (
        ("int64", "int64_t"), ("int32", "int"), ("int16", "int16_t"), ("int8", "int8_t"),
        ("uint8", "uint8_t"), ("float16", "c10::Half"), ("float32", "float"),
        ("float64", "double"))
}
_INT_RANGES = {np.dtype(name): (int(np.iinfo(name).min), int(np.iinfo(name).max))
               for name in ("int64", "int32", "int16", "int8", "uint8")}
_FLOAT_MAX = {np.dtype(name): float(np.finfo(name).max)
              for name in ("float16", "float32", "float64")}
_NUMBERS = (int, float, np.integer, np.floating)


def checked_value(value: Any, dtype: np.dtype, check_half: bool = True) -> Any:
    """The number ``value`` as a fill writes it into ``dtype``, or PyTorch's overflow error.

    c10's ``checked_convert``, which fill_, full, masked_fill and index_fill apply to a number:
    a float must lie within the dtype's range (inf and nan fit floating dtypes, never integer
    ones), an int too, except that an unsigned dtype lets a negative int wrap (uint8 takes -1
    as 255). An integer dtype then takes C's conversion (toward zero; 2.0**63, which passes
    the check as a double, becomes int64's lowest). ``check_half`` False: float16 takes any
    number, rounded (to inf past its range), as where's numbers and fill_ and full into a
    single element (PyTorch 2.13 checks the range for 0 or 2+ elements). Anything else
    (tensors, bools, complex numbers) is returned as it is.
    """
    if type(value) is int:
        check_python_int(value)  # (the parser's error comes first)
    if dtype is _BOOL_DTYPE and isinstance(value, _NUMBERS):
        return bool(value)  # (any number converts: 2**63 is True)
    if dtype not in _CHECKED_TYPE_NAMES or not isinstance(value, _NUMBERS) or isinstance(
        value, (bool, np.bool_)
    ):
        return value
    if dtype.kind == "f":
        if not check_half and dtype == np.float16:
            with np.errstate(over="ignore"):
                return np.float16(np.float32(value))  # (c10::Half of a double: via float)
        if _FLOAT_MAX[dtype] < abs(float(value)) < float("inf"):  # (nan and inf fit)
            raise _overflow(dtype)
        if dtype.char == "e" and isinstance(value, float):  # (np.float64 too)
            return np.float16(np.float32(value))  # (c10::Half of a double: via float)
        return value
    low, high = _INT_RANGES[dtype]
    if isinstance(value, (float, np.floating)):
        number = float(value)
        if not float(low) <= number <= float(high):  # (as doubles, as C++ compares; nan: out)
            raise _overflow(dtype)
        result = int(number)  # toward zero
        return result - 2 * (high + 1) if result > high else result  # (2.0**63 into int64)
    number = check_python_int(int(value))
    if low == 0:  # unsigned: a negative int wraps (two's complement), as in PyTorch
        if number > high or -number > high:
            raise _overflow(dtype)
        return number % (high + 1)
    if not low <= number <= high:
        raise _overflow(dtype)
    return number


def _overflow(dtype: np.dtype) -> RuntimeError:
    return RuntimeError(
        f"value cannot be converted to type {_CHECKED_TYPE_NAMES[dtype]} without overflow")
