"""Small helpers the op modules share: argument checks, dtype casts, error translation."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from minigrad import errors
from minigrad._arguments import check_dim_items, check_int64, index_tensor
from minigrad._dtype import (
    check_python_int,
    default_float,
    display_name,
    result_type,
    to_numpy_dtype,
)
from minigrad._half import as_dtype
from minigrad._layout import copy_in_format, preserved_result
from minigrad._size import Size
from minigrad.autograd import grad_mode
from minigrad.autograd.function import NO_GRAD_CTX, Op
from minigrad.autograd.graph import NOT_IMPLEMENTED as NOT_IMPLEMENTED  # (for the ops)
from minigrad.autograd.inplace import cast_refused
from minigrad.autograd.record import save_for_the_other as save_for_the_other
from minigrad.autograd.tensor_base import TensorBase


class ToCopy(Op):
    """y = x as another dtype (in a memory format);  dx = grad (cast back by the node).

    Saves nothing.
    """

    saves = ()  # (it saves nothing: its node has no slot for saved values)

    @staticmethod
    def forward(
        ctx: Any, x: np.ndarray, dtype: np.dtype, memory_format: Any = None
    ) -> np.ndarray:
        if memory_format is not None:  # (``to(memory_format=...)``, not preserve_format)
            return copy_in_format(cast_array(x, dtype), memory_format)
        # (laid out here, vectors too: a 1-element one keeps its stride, PyTorch's rule)
        return preserved_result(cast_array(x, dtype), (x,))

    @staticmethod
    def backward(ctx: Any, grad: Any) -> Any:
        return grad, None, None


def cast_array(array: np.ndarray, dtype: np.dtype) -> np.ndarray:
    """``array.astype(dtype)`` as PyTorch casts, silently.

    nan, inf and values out of ``dtype``'s range become what C's conversion gives (numpy's
    values too, on the CPUs PyTorch builds for), without numpy's "invalid value" or
    "overflow encountered in cast" warnings. float64 becomes float16 through float32, as
    PyTorch's ``c10::Half(double)`` goes (minigrad/_half.py).
    """
    return as_dtype(array, dtype)


def times(x: Any, factor: Any) -> Any:
    """``x * factor``, without a multiplication (or a recorded node) for the usual factor 1."""
    return x if factor == 1 else x * factor


class Constants:
    """Python numbers as read-only 0-d arrays of an operand's dtype, for formulas on arrays.

    numpy takes a slow path for a Python float operand (about 0.3 µs per ufunc call on small
    arrays); a 0-d array of the operand's dtype takes the fast one and keeps the dtype. Made
    once per dtype. For anything but an array (a tensor, under create_graph) ``of`` gives the
    Python numbers themselves.

    Example:
        >>> import numpy as np
        >>> half, one = Constants(0.5, 1.0).of(np.zeros(2, np.float32))
        >>> half.dtype, float(one)
        (dtype('float32'), 1.0)
        >>> Constants(2.0).of(np.zeros(2, np.int32))[0].dtype  # another dtype: made on first use
        dtype('int32')
    """

    __slots__ = ("values", "arrays")

    def __init__(self, *values: float) -> None:
        self.values = values
        # dtype -> the 0-d arrays. A formula that only ever sees floating arrays (a forward,
        # backward's array branch) indexes it directly: ``arrays[x.dtype]`` is a dict lookup in
        # C, about 0.08 µs less than the method call ``of``. An exact dict, filled for the
        # floating dtypes now (and for others by ``of``, on first use): CPython indexes a dict
        # subclass through a Python-level ``__getitem__`` call (~0.04 µs more per lookup).
        self.arrays = {dtype: self._make(dtype) for dtype in _FLOAT_DTYPES}

    def of(self, like: Any) -> tuple[Any, ...]:
        """The constants for formulas on ``like``."""
        if type(like) is not np.ndarray:
            return self.values
        try:
            return self.arrays[like.dtype]
        except KeyError:  # another dtype's first use
            found = self.arrays[like.dtype] = self._make(like.dtype)
            return found

    def _make(self, dtype: np.dtype) -> tuple[np.ndarray, ...]:
        """The constants as read-only 0-d arrays of ``dtype``."""
        arrays = [np.array(value, dtype=dtype) for value in self.values]
        for array in arrays:
            array.flags.writeable = False  # shared by every call: never written
        return tuple(arrays)


_FLOAT_DTYPES = tuple(map(np.dtype, (np.float16, np.float32, np.float64)))


# Signed integers of each float size, to handle a float array's bits (``zero_where``).
_SAME_SIZE_INTS = {2: np.dtype(np.int16), 4: np.dtype(np.int32), 8: np.dtype(np.int64)}
_BRANCHY_SIZE = 1024  # from about this many elements, np.where's per-element branches dominate
_ZERO = Constants(0.0)


def zero_where(mask: Any, values: Any) -> Any:
    """``np.where(mask, 0, values)``: +0.0 where ``mask``, ``values`` (nan, inf, -0.0) elsewhere.

    np.where branches per element, which costs about ten times a plain pass when the mask
    is unpredictable (relu's is: half the elements, at random). For larger float arrays the
    same result, bit for bit, comes from a bitwise *and* of the values' bits with a mask of
    all-zero or all-one words. Tensors (backward with create_graph) take np.where.

    Example:
        >>> import numpy as np
        >>> zero_where(np.array([True, False, False]), np.array([5.0, -0.0, np.nan]))
        array([ 0., -0., nan])
    """
    if (
        type(values) is not np.ndarray
        or values.dtype.kind != "f"
        or type(mask) is not np.ndarray
        or mask.shape != values.shape
    ):
        return np.where(mask, 0, values)
    if values.size < _BRANCHY_SIZE or values.dtype.itemsize not in _SAME_SIZE_INTS:
        # A copy in the values' layout (np.where's), with a 0-d zero of their dtype written
        # where ``mask``: the same result as np.where, bit for bit, for 0.7 us on (8,) float32
        # where np.where took 1.1 with such a zero and 4.5 with a Python 0 (numpy converts it
        # on every call).
        (zero,) = _ZERO.of(values)
        result = values.copy(order="K")
        np.copyto(result, zero, where=mask)
        return result
    ints = _SAME_SIZE_INTS[values.dtype.itemsize]
    bits = mask.astype(ints)  # 1 where zeroed
    bits -= 1  # 0 where zeroed, all bits set elsewhere
    bits &= values.view(ints)
    return bits.view(values.dtype)


def operand(value: Any) -> Any:
    """What promotion looks at: the array behind a tensor, or the Python scalar itself."""
    return value._array if isinstance(value, TensorBase) else value


def python_scalar(value: Any) -> Any:
    """A numpy scalar as the Python number it holds: PyTorch treats both alike in promotion.

    A Python int that neither an int64 nor a uint64 holds gets the parser's OverflowError.
    """
    if type(value) is int:
        return check_python_int(value)
    return value.item() if isinstance(value, np.generic) else value


def cast(value: Any, dtype: np.dtype) -> Any:
    """``value`` as ``dtype`` (tensors only; Python scalars are left to numpy's weak typing)."""
    if not isinstance(value, TensorBase) or value._array.dtype == dtype:
        return value
    if value.requires_grad:
        return ToCopy.apply(value, dtype)
    return TensorBase.output_class._make(cast_array(value._array, dtype))


def float_input(input: Any) -> Any:
    """``input`` as a floating tensor: integer ones go through math ops as the default float."""
    if isinstance(input, TensorBase) and input._array.dtype.kind == "f":
        return input  # the common case, without a call
    return input if operand(input).dtype.kind == "f" else cast(input, default_float())


def sum_dtype(array: np.ndarray, dtype: Any, function: str) -> np.dtype | None:
    """The dtype sum, prod and cumsum compute in: ``dtype``'s, int64 for integers, else None.

    ``dtype`` may be Python's ``float``, ``int`` or ``bool`` too, as in PyTorch; ``function``
    names the caller in the TypeError for anything else.
    """
    if dtype is not None:
        return to_numpy_dtype(dtype, function)
    return np.dtype(np.int64) if array.dtype.kind in "biu" else None


def restore_reduced(value: Any, axes: tuple[int, ...], keepdim: bool) -> Any:
    """A reduced ``value`` with its reduced axes back as size 1 (so it broadcasts)."""
    return value if keepdim or not axes else np.expand_dims(value, axes)


def broadcast_shapes(a: Any, b: Any) -> tuple[int, ...]:
    """The broadcast of shapes ``a`` and ``b``, with PyTorch's error if they do not broadcast."""
    try:
        return tuple(np.broadcast_shapes(tuple(a), tuple(b)))
    except ValueError:
        raise RuntimeError(errors.broadcast_mismatch(a, b)) from None


def compute_dtype(*values: Any) -> Any:
    """The dtype PyTorch computes a multi-input op in, or None if every array already has it."""
    arrays = [operand(v) for v in values if v is not None]
    dtype = result_type(*arrays)
    if all(isinstance(a, np.ndarray) and a.dtype == dtype for a in arrays):
        return None
    return dtype


def promote(a: Any, b: Any, true_divide: bool = False) -> tuple[Any, Any, np.dtype | None]:
    """``a`` and ``b`` ready for a binary op, and the dtype to compute in.

    The dtype is None where numpy's own choice is already PyTorch's (same dtypes, or a tensor
    with a Python number of its kind): the fast path. Tensors are never cast beforehand: a cast
    copy would lose the version counter of a tensor the op saves.
    """
    if isinstance(a, TensorBase):
        kind = a._array.dtype.kind
        if isinstance(b, TensorBase):
            # (a true division of integers computes in the default float: not numpy's choice)
            if b._array.dtype == a._array.dtype and (kind == "f" or not true_divide):
                return a, b, None
        elif true_divide:
            pass
        elif type(b) is float and kind == "f":
            return a, b, None
        elif type(b) is int and kind in "fiu":
            if b > 0x3FFFFFFF or b < -0x3FFFFFFF:  # (a one-digit int skips the call: cheap)
                check_python_int(b)
            return a, wrap_integer(b, a._array.dtype) if kind != "f" else b, None
    check_operand(a, "input")
    check_operand(b, "other")
    a, b = python_scalar(a), python_scalar(b)
    if type(a) is int and isinstance(b, TensorBase) and b._array.dtype.kind in "iu":
        a = wrap_integer(a, b._array.dtype)  # (``2**62 // x``: as the fast branch wraps ``b``)
    dtype = result_type(operand(a), operand(b))
    if true_divide and dtype.kind != "f":
        dtype = default_float()  # int / int is the default float dtype
    return a, b, dtype


# What a binary op takes as an operand: a tensor, a number (or an array, which numpy code passes).
_OPERANDS = (TensorBase, bool, int, float, np.number, np.bool_, np.ndarray)


def check_operand(value: Any, parameter: str, method: str | None = None) -> None:
    """PyTorch's TypeError for an operand that is neither a tensor nor a number.

    ``method``: the Tensor method it was given to (as its first argument), which PyTorch's
    message names: ``add_(): argument 'other' (position 1) must be Tensor, not NoneType``.
    """
    if not isinstance(value, _OPERANDS):
        raise TypeError(
            errors.operand_not_tensor(parameter, errors.python_type_name(value), method))


def wrap_integer(value: int, dtype: np.dtype) -> int:
    """A Python int as an integer tensor's dtype sees it.

    PyTorch wraps ``int8 + 1000`` around (to -24 + 1); numpy would raise.
    """
    low, high = _INTEGER_RANGES.get(dtype) or _integer_range(dtype)
    if low <= value <= high:
        return value
    if value > 0x7FFFFFFFFFFFFFFF:  # a uint64 Scalar (``x + 2**63``): its bits as an int64
        value -= 1 << 64
    return int(np.array(value, dtype=np.int64).astype(dtype))


# dtype -> (smallest, largest) value: np.iinfo builds an object per call (~1 µs)
_INTEGER_RANGES: dict[np.dtype, tuple[int, int]] = {}


def _integer_range(dtype: np.dtype) -> tuple[int, int]:
    """The range of an integer (or bool) dtype, kept in ``_INTEGER_RANGES``."""
    limits = np.iinfo(dtype)
    _INTEGER_RANGES[dtype] = int(limits.min), int(limits.max)
    return _INTEGER_RANGES[dtype]


def wrap_dim(dim: Any, ndim: int) -> int:
    """One ``dim`` in ``[-ndim, ndim)`` as a non-negative axis (a 0-d tensor takes 0 and -1).

    The one place a dim is checked: PyTorch's TypeError for a dim that is not an integer (a
    float, a str, None...), its IndexError for one out of range.
    """
    if type(dim) is not int and (  # (a plain int, the common dim, skips the type tests)
            not isinstance(dim, (int, np.integer)) or isinstance(dim, bool)):
        if not index_tensor(dim, in_list=True):  # (which PyTorch's parser reads as an int)
            raise TypeError(errors.dim_not_int(errors.python_type_name(dim)))
        dim = int(dim)
    rank = ndim or 1  # (a 0-d tensor takes the dims of a 1-d one: 0 and -1)
    if not -rank <= dim < rank:
        check_int64(dim)  # (past int64, the parser's error comes first)
        raise IndexError(errors.dim_out_of_range(dim, ndim))
    return dim % rank


def dim_size(shape: tuple[int, ...], dim: Any) -> int:
    """``tensor.size(dim)``: PyTorch's IndexError for a dimension ``shape`` lacks (0-d too)."""
    if not shape:
        raise IndexError(errors.dim_of_0d(dim))
    return shape[wrap_dim(dim, len(shape))]


def normalize_dims(dim: Any, ndim: int) -> tuple[int, ...]:
    """``dim`` (an int, a sequence, or None for all) as sorted non-negative axes."""
    if dim is None:
        return tuple(range(ndim))
    if isinstance(dim, (int, np.integer)):
        dims: tuple[Any, ...] = (dim,)
    elif isinstance(dim, (tuple, list)):
        dims = tuple(dim)
    elif index_tensor(dim, in_list=True):  # (one dim: ``wrap_dim`` reads it as an int)
        dims = (dim,)
    else:
        raise TypeError(errors.dims_not_int_tuple(errors.python_type_name(dim)))
    try:
        axes = [wrap_dim(d, ndim) for d in dims]
    except (ValueError, IndexError):
        # (the parser unpacks a whole list before any dim is checked: an item no int64 holds
        # is its TypeError, which names the item's place; the argument checks name the op)
        if isinstance(dim, (tuple, list)):
            check_dim_items(dim)
        raise
    if len(set(axes)) != len(axes):
        raise RuntimeError(errors.dim_repeated(axes[0]))
    return tuple(sorted(a for a in axes if a < ndim or ndim > 0))


def promote_inplace(
    target: TensorBase, other: Any, true_divide: bool = False, method: str | None = None
) -> tuple[Any, np.dtype]:
    """``other`` ready for an in-place op on ``target``, and the dtype to compute in.

    Raises PyTorch's error if the result type cannot be written into ``target`` (an int tensor
    cannot take ``+= 1.5``), or if ``other`` is no operand (naming ``method``, the caller).
    """
    array = target._array
    if array.dtype.kind == "f":  # the common cases, where the target's dtype is the answer
        if isinstance(other, TensorBase):
            if other._array.dtype == array.dtype:
                return other, array.dtype
        elif type(other) is float:
            return other, array.dtype
        elif type(other) is int:
            if other > 0x3FFFFFFF or other < -0x3FFFFFFF:  # (as in ``promote``)
                check_python_int(other)
            return other, array.dtype
    check_operand(other, "other", method)
    other = python_scalar(other)
    if type(other) is int and target._array.dtype.kind in "iu":
        other = wrap_integer(other, target._array.dtype)
    dtype = result_type(target._array, operand(other))
    if true_divide and dtype.kind != "f":
        dtype = default_float()
    if not np.can_cast(dtype, target._array.dtype, casting="same_kind"):
        raise cast_refused(target, (other,), display_name(dtype))
    return other, dtype


class NoDerivativeOf(Op):
    """PyTorch's ``NotImplemented`` node over ``input``: z = ``value``; backward raises.

    ``value`` is an array computed from ``input`` by a kernel without a derivative
    (``bernoulli(input, p)``): backward raises "derivative for <aten name> is not
    implemented".
    """

    fields = ("aten_name",)

    node_name = NOT_IMPLEMENTED
    num_inputs = 1

    @staticmethod
    def forward(ctx: Any, input: Any, value: Any, aten_name: str) -> np.ndarray:
        """A copy of ``value``; ``aten_name`` kept for backward's message."""
        ctx.aten_name = aten_name
        return np.array(value, copy=True)

    @staticmethod
    def backward(ctx: Any, grad: Any) -> Any:
        raise RuntimeError(errors.derivative_not_implemented(ctx.aten_name))


class NoDerivativeOfGradient(NoDerivativeOf):
    """``NoDerivativeOf`` over a gradient computed on arrays, with edges to ``grad`` and ``input``.

    z = ``value``. PyTorch's NotImplemented node of a ``*_backward`` kernel without a
    derivative (``multi_margin_loss_backward``, ``hardsigmoid_backward``) has an edge to its
    ``grad_output`` as well as to its ``self`` (each if it requires grad): differentiating the
    gradient with respect to either raises (so does ``jvp``'s double backward), where an edge
    to ``input`` alone would give zeros for ``grad``.
    """

    node_name = NOT_IMPLEMENTED  # (a node name is not inherited: see Function)
    num_inputs = 2

    @staticmethod
    def forward(ctx: Any, grad: Any, input: Any, value: Any, aten_name: str) -> np.ndarray:
        """A copy of ``value``; ``aten_name`` kept for backward's message."""
        ctx.aten_name = aten_name
        return np.array(value, copy=True)


def is_bool(value: Any) -> bool:
    """Whether ``value`` (a tensor or an array) holds bools."""
    return isinstance(operand(value), np.ndarray) and operand(value).dtype == np.bool_


def check_float_kernel(kernel: str, input: Any) -> None:
    """PyTorch's NotImplementedError when ``kernel`` exists only for floating-point inputs."""
    if operand(input).dtype.kind != "f":
        raise NotImplementedError(errors.not_implemented_for(kernel, dtype_name(input)))


def raw(value: Any) -> Any:
    """The numpy array behind a tensor (or the value itself): for masks, indices and shapes."""
    return value._array if isinstance(value, TensorBase) else value


def zeros_like_grad(grad: Any) -> Any:
    """Zeros shaped like ``grad``, without history: PyTorch's ``zeros_like`` in backward.

    The gradient of an overwritten value or of a piecewise-constant op. Not ``grad * 0``,
    which is nan where ``grad`` is infinite.
    """
    if isinstance(grad, TensorBase):
        return TensorBase.output_class._make(np.zeros_like(grad._array))
    return np.zeros_like(grad)


def run(op: type[Op], *args: Any) -> Any:
    """Run ``op`` inside a backward formula: recorded on tensors, its bare forward on arrays.

    The numpy protocol's rule (``minigrad/_numpy_protocol.py``) for a step that has no numpy
    function but an op of its own (a scatter, a flip, a transposed convolution): if one of the
    op's inputs (its first ``num_inputs`` arguments) is a tensor -- backward with
    ``create_graph=True`` -- the op is applied and recorded, so it can be differentiated again;
    otherwise its forward runs on the arrays (the fast path). Options never decide.
    """
    for arg in args[: op.num_inputs]:  # a loop, not any(): one to three inputs, hot in backward
        if isinstance(arg, TensorBase):
            return op.apply(*args)
    return op.forward(NO_GRAD_CTX, *args)


def along(dim: int, item: Any) -> tuple[Any, ...]:
    """An index that applies ``item`` to axis ``dim`` and keeps the other axes whole.

    The trailing Ellipsis keeps numpy from returning a scalar copy: an integer ``item`` on the
    last axis gives a 0-d view.
    """
    return (slice(None),) * dim + (item, Ellipsis)


def dtype_name(value: Any) -> str:
    """``Float``, ``Double``, ``Long``: the scalar-type name in PyTorch's kernel messages."""
    return display_name(operand(value).dtype)


def is_tensor(value: Any) -> bool:
    """Whether ``value`` is a tensor: in a backward formula, whether a step on it is recorded.

    The one test for ``create_graph`` in backward code (see ``run``). Test the operand the step
    differentiates through: a saved input is a tensor exactly under ``create_graph``; a
    gradient may still be an array there (one that is a constant, such as the ones seeded at
    the root), and a step on a constant need not be recorded.
    """
    return isinstance(value, TensorBase)


def given_gradient(grad: Any) -> Any:
    """``grad``, or None for an output that received no gradient (PyTorch's undefined one).

    The engine passes zeros for such an output, always as an array (under create_graph too);
    formulas with shortcuts for undefined gradients (svdvals: U @ diag(gS) @ Vh) take them,
    and stay finite where the general formula divides by zero (repeated values). A tensor
    gradient was given by the graph (create_graph), whatever its values: the result must
    keep depending on it. This tests what was given, not whether the step is recorded (that
    is ``is_tensor`` of a saved input).
    """
    if is_tensor(grad) or np.any(grad):
        return grad
    return None


def constant_tensor(array: Any) -> Any:
    """A constant tensor on ``array`` (no history, fresh version counter)."""
    return TensorBase.output_class._make(np.asarray(array))


def shape_of(value: Any) -> tuple[int, ...]:
    """The shape of a tensor, an array or a number (``()``)."""
    if isinstance(value, TensorBase):  # (its array's shape, a tuple: without np.shape's layers)
        return value._array.shape
    return tuple(np.shape(value))


def size_text(shape: Sequence[int]) -> str:
    """``minigrad.Size([2, 3])`` as ``repr(tensor.shape)`` prints it."""
    return repr(Size(tuple(shape)))


def not_implemented(kernel: str, value: Any) -> NotImplementedError:
    """PyTorch's error for ``kernel`` having no version for ``value``'s dtype (to raise)."""
    return NotImplementedError(errors.not_implemented_for(kernel, dtype_name(value)))


def check_no_grad(value: Any, argument: str, function: str) -> None:
    """PyTorch's error for an ``argument`` that requires grad where there is no formula for it.

    PyTorch's autograd refuses such inputs before running the op.
    """
    if is_tensor(value) and value.requires_grad:
        raise RuntimeError(errors.not_differentiable_argument(function, argument))


def check_differentiable_result(dtype: np.dtype, *inputs: Any) -> None:
    """PyTorch's error for a result of ``dtype`` that would need a history it cannot have.

    An integer or bool result of an op whose (tensor) input requires grad: ``masked_fill`` of an
    int64 tensor with a 0-d value that requires grad. PyTorch's autograd refuses to record it.
    """
    if dtype.kind != "f" and grad_mode.is_grad_enabled() and any(
        is_tensor(value) and value.requires_grad for value in inputs
    ):
        raise RuntimeError(errors.autograd_dtype(display_name(dtype)))


def trunc_div(a: int, b: int) -> int:
    """C++ integer division (rounds toward zero), which PyTorch's shape checks use."""
    quotient = abs(a) // abs(b)
    return quotient if (a >= 0) == (b > 0) else -quotient
