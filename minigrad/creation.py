"""Making tensors: ``tensor``, ``from_numpy`` and the factories (``zeros``, ``rand``, ...).

Defaults follow PyTorch: float data becomes float32, integer data int64, bools bool; only
floating-point tensors may require gradients.
"""

from __future__ import annotations

import math
import operator
import warnings
from collections.abc import Sequence
from typing import Any

import numpy as np

from minigrad import (
    _arguments,
    _dtype,
    _layouts,
    _memory,
    _memory_formats,
    _out_of_scope,
    _random,
    _warnings,
    errors,
)
from minigrad._device import as_device, check_available, check_factory_device
from minigrad._half import as_dtype
from minigrad._layout import empty_in_format, format_strides
from minigrad.autograd import guard
from minigrad.autograd.debug_switches import switches
from minigrad.ops.strides import empty_strided as empty_strided_array
from minigrad.tensor import Tensor


def _new(array: np.ndarray, requires_grad: bool) -> Tensor:
    if requires_grad and array.dtype.kind != "f":
        raise RuntimeError(errors.ONLY_FLOAT_FACTORY_REQUIRES_GRAD)
    return Tensor._make(array, requires_grad=bool(requires_grad))


def tensor(
    data: Any,
    dtype: _dtype.dtype | None = None,
    device: Any = None,
    requires_grad: bool = False,
) -> Tensor:
    """A new tensor holding a copy of ``data`` (a number, nested lists, an array or a tensor).

    Example:
        >>> import minigrad
        >>> minigrad.tensor([1, 2, 3.0], requires_grad=True)
        tensor([1., 2., 3.], requires_grad=True)
        >>> minigrad.tensor([[1, 2], [3, 4]]).dtype
        minigrad.int64
    """
    if not isinstance(requires_grad, bool):
        raise TypeError(
            "tensor(): argument 'requires_grad' must be bool, not "
            f"{errors.python_type_name(requires_grad)}"
        )
    if device is not None:  # PyTorch makes the tensor and then copies it there
        check_available(as_device(device, "tensor"))
    numpy_dtype = None if dtype is None else _dtype.to_numpy_dtype(dtype, "tensor")
    if isinstance(data, Tensor):
        warnings.warn(
            "To copy construct from a tensor, it is recommended to use "
            "sourceTensor.detach().clone() or sourceTensor.detach().clone()."
            "requires_grad_(True), rather than minigrad.tensor(sourceTensor).",
            UserWarning,
            stacklevel=2,
        )
        array = np.array(data._array) if numpy_dtype is None else as_dtype(data._array,
                                                                           numpy_dtype)
    elif isinstance(data, np.ndarray):
        _dtype.from_numpy_dtype(data.dtype)  # rejects unsupported types with PyTorch's message
        array = np.array(data) if numpy_dtype is None else as_dtype(data, numpy_dtype)
    else:
        array = _array_from_python(data, numpy_dtype)
    return _new(array, requires_grad)


def _array_from_python(data: Any, numpy_dtype: np.dtype | None) -> np.ndarray:
    """An array of Python data (numbers, numpy scalars, 0-d tensors, nested sequences of them).

    The dtype is PyTorch's: the promotion of every element's own type (a Python float counts
    as the default float dtype, an int as int64, a bool as bool, a numpy scalar or a 0-d tensor
    as its dtype), unless ``numpy_dtype`` is given.
    """
    inferred = _infer_dtype(data)
    target = inferred if numpy_dtype is None else numpy_dtype
    with np.errstate(over="ignore", invalid="ignore"):  # float overflow is inf, as in PyTorch
        raw = np.array(data)
        if target.kind == "f":
            if raw.dtype == object or raw.dtype.kind == "u":  # ints beyond int64
                raw = np.array(data, dtype=np.float64)  # OverflowError beyond a double's range
            return as_dtype(raw, target)  # (float16 from Python floats: through float32)
        if target.kind == "b":
            return raw.astype(target)
        if raw.dtype.kind == "f" and inferred.kind != "f":  # numpy's float for ints past int64
            raise ValueError("Overflow when unpacking long long")
        return _to_integers(raw, target)


_INT64_LIMIT = 2.0**63


def _to_integers(raw: np.ndarray, target: np.dtype) -> np.ndarray:
    """``raw`` as the integer dtype ``target``, with PyTorch's overflow errors."""
    if raw.dtype == object or raw.dtype == np.uint64:  # a Python int beyond int64
        raise ValueError("Overflow when unpacking long long")
    name = _dtype.from_numpy_dtype(target).name
    overflow = f"value cannot be converted to type {name} without overflow"
    in_range = (raw >= -_INT64_LIMIT) & (raw < _INT64_LIMIT)  # (false for nan)
    if raw.dtype.kind == "f" and not np.all(in_range):
        raise RuntimeError(overflow)
    values = raw.astype(np.int64)
    if values.size and target != np.int64:
        limits = np.iinfo(target)
        # Like PyTorch (c10::overflows), an unsigned type lets negative numbers wrap around.
        low = -int(limits.max) if limits.min == 0 else int(limits.min)
        if values.min() < low or values.max() > limits.max:
            raise RuntimeError(overflow)
    return values.astype(target)


def _infer_dtype(data: Any) -> np.dtype:
    """PyTorch's dtype for Python data; also rejects ragged lists and non-numbers.

    Like PyTorch, the shape is read off the first element at each depth; every other element
    must then match it.
    """
    if not isinstance(data, (list, tuple)):
        if isinstance(data, str):
            raise TypeError(f"new(): invalid data type '{type(data).__name__}'")
        return _scalar_dtype(data)
    sizes = []
    item: Any = data
    while isinstance(item, (list, tuple)):
        sizes.append(len(item))
        if not item:
            break
        item = item[0]
    if isinstance(item, str):  # PyTorch takes a string for one more level of nesting
        raise ValueError(f"too many dimensions '{type(item).__name__}'")
    element_types: set[type] = set()
    dtypes: set[np.dtype] = set()
    stack = [(data, 0)]
    while stack:
        seq, dim = stack.pop()
        if len(seq) != sizes[dim]:
            raise ValueError(
                f"expected sequence of length {sizes[dim]} at dim {dim} (got {len(seq)})"
            )
        for item in seq:
            nested = isinstance(item, (list, tuple))
            if dim + 1 < len(sizes):
                if not nested:
                    raise TypeError("not a sequence")
                stack.append((item, dim + 1))
            elif nested:
                raise TypeError(
                    f"'{type(item).__name__}' object cannot be interpreted as an integer"
                )
            elif type(item) in _PYTHON_SCALARS:
                element_types.add(type(item))
            else:
                dtypes.add(_scalar_dtype(item))
    dtypes.update(_python_dtype(kind) for kind in element_types)
    result = None
    for dtype in dtypes:
        result = _dtype.promote_types(result, dtype)
    return _dtype.default_float() if result is None else result  # (an empty list)


_PYTHON_SCALARS = frozenset((bool, int, float))
_PYTHON_SCALAR_DTYPES = {bool: np.dtype(np.bool_), int: np.dtype(np.int64)}


def _python_dtype(kind: type) -> np.dtype:
    """What a Python ``bool``, ``int`` or ``float`` brings to a new tensor (float: the default)."""
    return _dtype.default_float() if kind is float else _PYTHON_SCALAR_DTYPES[kind]


def _number(value: Any, function: str, name: str, position: int | None) -> Any:
    """A Number argument as PyTorch's parser reads it: a 0-d tensor is its value.

    Only one that does not require grad (the parser's rule); another tensor is refused with
    its text (``position``: where it was given, None for a keyword). Anything else is left
    to the function's own checks.
    """
    if not isinstance(value, Tensor):
        _dtype.check_scalar_arguments(value)  # (the parser's error comes first)
        return value
    if value.dim() == 0 and not value.requires_grad:
        return value.item()
    where = "" if position is None else f" (position {position})"
    raise _arguments.parser_error(
        f"{function}(): argument '{name}'{where} must be Number, not Tensor")


def _real_part(value: Any) -> Any:
    """A complex Number as PyTorch's range functions read it: its real part (a float).

    PyTorch converts the Scalar to a double, which fails for a nonzero imaginary part;
    anything else is left as it is.
    """
    if not isinstance(value, complex):
        return value
    if value.imag != 0:
        raise RuntimeError("value cannot be converted to type double without overflow")
    return value.real


def _refused_number(value: Any) -> bool:
    """A tensor PyTorch's parser does not take for a Number (``_number`` raises for it)."""
    return isinstance(value, Tensor) and (value.dim() != 0 or value.requires_grad)


def _scalar_dtype(value: Any) -> np.dtype:
    """The dtype one element brings to a new tensor; PyTorch's errors for non-numbers."""
    kind = type(value)
    if kind in _PYTHON_SCALARS:
        return _python_dtype(kind)
    if isinstance(value, (np.number, np.bool_)):
        return _dtype.from_numpy_dtype(value.dtype).numpy
    if isinstance(value, Tensor) and value.dim() == 0:
        return value._array.dtype
    if isinstance(value, bool):
        return _python_dtype(bool)
    if isinstance(value, int):
        return _python_dtype(int)
    if isinstance(value, float):
        return _python_dtype(float)
    if isinstance(value, str):
        raise TypeError(f"new(): invalid data type '{type(value).__name__}'")
    if isinstance(value, complex):  # (a complex tensor in PyTorch)
        raise _out_of_scope.complex_number(value)
    raise RuntimeError(f"Could not infer dtype of {type(value).__name__}")


_NOT_WRITABLE = (
    "The given NumPy array is not writable, and PyTorch does not support non-writable tensors. "
    "This means writing to this tensor will result in undefined behavior. You may want to copy "
    "the array to protect its data or make it writable before converting it to a tensor. This "
    "type of warning will be suppressed for the rest of this program."
)


def warn_if_read_only(array: Any, stacklevel: int = 3) -> None:
    """PyTorch's warning for a tensor made on a numpy array that is not writable.

    Once per process (its TORCH_WARN_ONCE: every time under ``set_warn_always(True)``), from
    ``from_numpy``, ``as_tensor`` (any dtype), ``asarray`` when it shares the memory and the
    legacy ``Tensor(array)``; ``tensor`` copies without it. ``stacklevel``: 3 points at the
    call of the function that calls this one.
    """
    if isinstance(array, np.ndarray) and not array.flags.writeable and not (
            switches.guarded and guard.read_only_by_lock(array)):  # (the guard's lock: not
        # the caller's read-only array, which PyTorch would see writable)
        _warnings.warn_once(_NOT_WRITABLE, stacklevel=stacklevel)


def from_numpy(array: np.ndarray) -> Tensor:
    """A tensor sharing ``array``'s memory (writes through either are seen by both).

    A read-only array gives PyTorch's warning, once (``warn_if_read_only``).

    Example:
        >>> import numpy as np, minigrad
        >>> a = np.zeros(2, dtype=np.float32)
        >>> t = minigrad.from_numpy(a)
        >>> a[0] = 5
        >>> t
        tensor([5., 0.])
    """
    if not isinstance(array, np.ndarray):
        raise TypeError(f"expected np.ndarray (got {type(array).__name__})")
    _dtype.from_numpy_dtype(array.dtype)
    warn_if_read_only(array)
    return _sharing(array)


def _sharing(array: np.ndarray) -> Tensor:
    """``from_numpy``'s tensor on ``array``'s memory, without its checks and warning."""
    if array.size and any(s < 0 for s in array.strides):
        raise ValueError(errors.FROM_NUMPY_NEGATIVE_STRIDES)
    # The tensor keeps an array object of its own on that memory: the caller's may be given
    # another shape later (``array.shape = ...``), which must not reshape the tensor. A numpy
    # view's starts a storage of its own at the view's first element, as PyTorch's does.
    own = array.view() if _memory.root(array) is array else _memory.borrowed_view(array)
    guard.note_borrowed(own, array)  # (the guard, if turned on, locks the caller's array too)
    if switches.guarded:  # debugging hook: a numpy view of a guarded buffer inherits its flag
        guard.note_view(own)
    return Tensor._make(own)


def as_tensor(data: Any, dtype: _dtype.dtype | None = None, device: Any = None) -> Tensor:
    """``data`` as a tensor, without a copy where none is needed.

    A tensor is returned as it is (or converted with ``to(dtype)``, which records
    ``ToCopyBackward0`` if it requires grad); a numpy array of a supported dtype shares its
    memory, as with ``from_numpy``, unless ``dtype`` asks for another; anything else is copied
    as by ``tensor(data, dtype=dtype)``.

    Example:
        >>> import numpy as np, minigrad
        >>> a = np.array([1.0, 2.0])
        >>> t = minigrad.as_tensor(a)
        >>> a[0] = 5
        >>> t
        tensor([5., 2.], dtype=minigrad.float64)
    """
    if device is not None:
        check_available(as_device(device, "as_tensor"))
    numpy_dtype = None if dtype is None else _dtype.to_numpy_dtype(dtype, "as_tensor")
    if isinstance(data, Tensor):
        return data if dtype is None else data.to(dtype)
    warn_if_read_only(data)  # (PyTorch shares the array first, whatever the dtype)
    if isinstance(data, np.ndarray) and (numpy_dtype is None or numpy_dtype == data.dtype):
        _dtype.from_numpy_dtype(data.dtype)
        return _sharing(data)
    return tensor(data, dtype=dtype)


_ASARRAY_REQUIRES_GRAD = (
    "minigrad.asarray: unspecified requires_grad now defaults to obj.requires_grad instead of "
    "False. Pass requires_grad=False explicitly to get the old behavior and silence this warning."
)


def asarray(
    obj: Any,
    *,
    dtype: _dtype.dtype | None = None,
    device: Any = None,
    copy: bool | None = None,
    requires_grad: bool | None = None,
) -> Tensor:
    """``obj`` as a tensor, sharing memory with a tensor or numpy array where it can.

    PyTorch's rules: a tensor or numpy array is aliased unless ``copy=True`` or ``dtype``
    differs (``copy=False`` then refuses); a tensor comes back as the same object. Sequences
    and numbers are copied (``copy=False`` refuses them), a numpy scalar too. ``requires_grad``
    defaults to the tensor's own, and is set on the result: on a leaf given as it is, that
    changes the leaf itself; a non-leaf told False is detached.

    Example:
        >>> import numpy as np, minigrad
        >>> a = np.array([1.0, 2.0])
        >>> t = minigrad.asarray(a)
        >>> a[0] = 5
        >>> t
        tensor([5., 2.], dtype=minigrad.float64)
        >>> minigrad.asarray(t) is t
        True
    """
    if device is not None:
        check_available(as_device(device, "asarray"))
    numpy_dtype = None if dtype is None else _dtype.to_numpy_dtype(dtype, "asarray")
    given = obj if isinstance(obj, Tensor) else None
    keep_grad = requires_grad if requires_grad is not None else bool(
        given is not None and given.requires_grad)
    if keep_grad and requires_grad is None:
        _warnings.warn_once(_ASARRAY_REQUIRES_GRAD)
    force_copy = copy is True
    if given is None and isinstance(obj, (np.generic, np.ndarray)):
        if copy is False and isinstance(obj, np.generic):
            raise RuntimeError("can't alias NumPy scalars. Either remove copy=False or "
                               "transform it in a ndarray. ")
        if np.ndim(obj) == 0:  # a numpy scalar or 0-d array (numpy's "scalar"): copied here
            warn_if_read_only(obj)  # (a 0-d array: PyTorch shares it first, even to copy it)
            given, force_copy = from_numpy(np.array(obj)), False
        else:
            if not force_copy and (numpy_dtype is None or numpy_dtype == obj.dtype):
                warn_if_read_only(obj)  # (shared: PyTorch's warning)
            given = _sharing(obj)
    if given is None:  # a sequence or a number: a new tensor
        if copy is False:
            raise ValueError("can't alias arbitrary sequence into a tensor.")
        result = tensor(obj, dtype=dtype)
        if keep_grad and result._array.dtype.kind != "f":
            raise RuntimeError(errors.ONLY_FLOAT_FACTORY_REQUIRES_GRAD)
        return result.requires_grad_(keep_grad) if keep_grad else result
    wrong_dtype = numpy_dtype is not None and numpy_dtype != given._array.dtype
    result = given
    if force_copy or (copy is None and wrong_dtype):
        result = given.to(dtype, copy=force_copy) if wrong_dtype else given.clone()
    elif wrong_dtype:  # (asked not to copy, or a numpy scalar's copy=True: PyTorch's quirk)
        raise ValueError(
            f"can't alias tensor with dtype '{_dtype.display_name(given._array.dtype)}' into "
            f"dtype '{_dtype.display_name(numpy_dtype)}'.")
    if not result.is_leaf and not keep_grad:  # (a non-leaf's flag cannot be set: detach)
        return result.detach()
    if keep_grad and result._array.dtype.kind != "f":
        raise RuntimeError(errors.ONLY_FLOAT_FACTORY_REQUIRES_GRAD)
    if result.is_leaf:
        result.requires_grad_(keep_grad)
    return result


def shape_argument(
    size: tuple[Any, ...], function: str, negative: bool = False
) -> tuple[int, ...]:
    """A factory's ``*size`` (ints, or one sequence of ints), read as PyTorch's parser reads it.

    The first element must be an int (not a bool); the others only need to convert to one, and
    PyTorch says "failed to unpack" for one that does not. ``function`` names the factory.
    ``negative``: a negative size is let through (the caller has its own error for it).
    """
    items: Any = size
    if len(size) == 1:
        items = size[0]
        if _arguments.is_int(items):
            items = (items,)
        elif not isinstance(items, (tuple, list)):
            raise TypeError(
                f"{function}(): argument 'size' (position 1) must be tuple of ints, not "
                f"{errors.python_type_name(items)}"
            )
    elif size and not _arguments.is_int(size[0]):  # not an int: not the ints form, so one argument
        raise TypeError(f"{function}() takes 1 positional argument but {len(size)} were given")
    if items and not _arguments.is_int(items[0]):
        raise TypeError(
            f"{function}(): argument 'size' (position 1) must be tuple of ints, but found "
            f"element of type {errors.python_type_name(items[0])} at pos 0"
        )
    if items:
        _arguments.check_first_int64(items[0], function, "size")
    _arguments.check_unpacked(items[1:], function, "size")
    items = [operator.index(n) for n in items]
    for n in items:
        if n < 0 and not negative:
            raise RuntimeError(
                f"Trying to create tensor with negative dimension {n}: {[int(m) for m in items]}"
            )
    return tuple(int(n) for n in items)


def _factory_options(layout: _layouts.layout | None, pin_memory: bool | None) -> None:
    """The factories' ``layout`` and ``pin_memory``, of which minigrad has one value each.

    ``layout``: ``strided`` (or None); a sparse layout is out of scope (PyTorch would make a
    sparse tensor). ``pin_memory=True``: PyTorch's error on a machine without an accelerator.
    """
    if layout is not None and layout is not _layouts.strided:
        raise errors.OutOfScopeError(
            f"layout={layout!r}: minigrad has dense tensors only (no sparse layouts)")
    if pin_memory:
        raise RuntimeError(errors.PIN_MEMORY_WITHOUT_ACCELERATOR)


def _float_dtype(dtype: _dtype.dtype | None, factory: str, device: Any = None) -> np.dtype:
    """The factory's dtype (None: the default float dtype), after checking ``device`` is the CPU."""
    check_factory_device(device, factory)
    return _dtype.default_float() if dtype is None else _dtype.to_numpy_dtype(dtype, factory)


def zeros(
    *size: Any,
    dtype: _dtype.dtype | None = None,
    layout: _layouts.layout | None = _layouts.strided,
    device: Any = None,
    requires_grad: bool = False,
    pin_memory: bool | None = False,
) -> Tensor:
    """A tensor of zeros of the given shape.

    Example:
        >>> import minigrad
        >>> minigrad.zeros(2, 2)
        tensor([[0., 0.],
                [0., 0.]])
    """
    _factory_options(layout, pin_memory)
    numpy_dtype = _float_dtype(dtype, "zeros", device)
    return _new(np.zeros(shape_argument(size, "zeros"), dtype=numpy_dtype), requires_grad)


def ones(
    *size: Any,
    dtype: _dtype.dtype | None = None,
    layout: _layouts.layout | None = _layouts.strided,
    device: Any = None,
    requires_grad: bool = False,
    pin_memory: bool | None = False,
) -> Tensor:
    """A tensor of ones of the given shape."""
    _factory_options(layout, pin_memory)
    numpy_dtype = _float_dtype(dtype, "ones", device)
    return _new(np.ones(shape_argument(size, "ones"), dtype=numpy_dtype), requires_grad)


def empty(
    *size: Any,
    dtype: _dtype.dtype | None = None,
    layout: _layouts.layout | None = _layouts.strided,
    device: Any = None,
    requires_grad: bool = False,
    pin_memory: bool | None = False,
    memory_format: _memory_formats.memory_format | None = None,
) -> Tensor:
    """An uninitialized tensor of the given shape, row-major or in ``memory_format``.

    Example:
        >>> import minigrad
        >>> minigrad.empty(2, 3, 4, 5, memory_format=minigrad.channels_last).stride()
        (60, 1, 15, 3)
    """
    _factory_options(layout, pin_memory)
    numpy_dtype = _float_dtype(dtype, "empty", device)
    shape = shape_argument(size, "empty")
    if memory_format is _memory_formats.preserve_format:
        raise RuntimeError(errors.PRESERVE_FORMAT_IN_EMPTY)
    if memory_format is None or memory_format is _memory_formats.contiguous_format:
        return _new(np.empty(shape, dtype=numpy_dtype), requires_grad)
    return _new(empty_strided_array(shape, format_strides(shape, memory_format), numpy_dtype),
                requires_grad)


def strided_array(size: Any, stride: Any, numpy_dtype: np.dtype, function: str) -> np.ndarray:
    """An uninitialized array of ``size`` with these element strides (``empty_strided``'s).

    The arguments are checked as PyTorch's parser and kernel check them (``function`` names
    the caller in the messages); the memory spans exactly the elements the strides reach.
    """
    _arguments.check_int_sequence(size, function, "size", 1, lone_int=False)
    shape = shape_argument((size,), function)
    _arguments.check_int_sequence(stride, function, "stride", 2, lone_int=False)
    strides = _arguments.int_tuple(stride)
    if len(strides) != len(shape):
        raise RuntimeError(f"dimensionality of sizes ({len(shape)}) must match dimensionality "
                           f"of strides ({len(strides)})")
    if any(step < 0 for step in strides):
        raise RuntimeError(f"Storage size calculation overflowed with sizes={list(shape)} and "
                           f"strides={list(strides)}")
    return empty_strided_array(shape, strides, numpy_dtype)


def empty_strided_like(
    function: str,
    size: Any,
    stride: Any,
    dtype: _dtype.dtype | None,
    layout: _layouts.layout | None,
    device: Any,
    requires_grad: bool,
    pin_memory: bool | None,
) -> Tensor:
    """``empty_strided``'s work, for it and ``Tensor.new_empty_strided`` (named ``function``)."""
    _factory_options(layout, pin_memory)
    numpy_dtype = _float_dtype(dtype, function, device)
    return _new(strided_array(size, stride, numpy_dtype, function), requires_grad)


def empty_strided(
    size: Any,
    stride: Any,
    *,
    dtype: _dtype.dtype | None = None,
    layout: _layouts.layout | None = None,
    device: Any = None,
    requires_grad: bool = False,
    pin_memory: bool | None = False,
) -> Tensor:
    """An uninitialized tensor of ``size`` with these strides (elements may share memory).

    Example:
        >>> import minigrad
        >>> minigrad.empty_strided((2, 3), (1, 2)).stride()
        (1, 2)
    """
    return empty_strided_like("empty_strided", size, stride, dtype, layout, device,
                              requires_grad, pin_memory)


def full(
    size: Sequence[int],
    fill_value: Any,
    *,
    dtype: _dtype.dtype | None = None,
    layout: _layouts.layout | None = _layouts.strided,
    device: Any = None,
    requires_grad: bool = False,
    pin_memory: bool | None = False,
) -> Tensor:
    """A tensor filled with ``fill_value``; its dtype follows the value (as in PyTorch).

    Example:
        >>> import minigrad
        >>> minigrad.full((2,), 7)
        tensor([7, 7])
    """
    _factory_options(layout, pin_memory)
    check_factory_device(device, "full")
    fill_value = _number(fill_value, "full", "fill_value", 2)
    if dtype is not None:
        numpy_dtype = _dtype.to_numpy_dtype(dtype, "full")
    elif isinstance(fill_value, bool):
        numpy_dtype = np.dtype(np.bool_)
    elif isinstance(fill_value, int):
        numpy_dtype = np.dtype(np.int64)
    else:
        numpy_dtype = _dtype.default_float()
    shape = shape_argument((size,), "full")
    # (float16 takes any number into one element, rounded; into more, PyTorch checks it)
    one_element = math.prod(shape) == 1
    fill_value = _dtype.checked_value(fill_value, numpy_dtype, check_half=not one_element)
    return _new(np.full(shape, fill_value, dtype=numpy_dtype), requires_grad)


def scalar_tensor(
    s: Any,
    *,
    dtype: _dtype.dtype | None = None,
    layout: _layouts.layout | None = _layouts.strided,
    device: Any = None,
    requires_grad: bool = False,
    pin_memory: bool | None = False,
) -> Tensor:
    """A 0-d tensor holding the number ``s``, in the default float dtype unless ``dtype`` says.

    Example:
        >>> import minigrad
        >>> minigrad.scalar_tensor(2)
        tensor(2.)
    """
    _factory_options(layout, pin_memory)
    numpy_dtype = _float_dtype(dtype, "scalar_tensor", device)
    s = _number(s, "scalar_tensor", "s", 1)
    if not isinstance(s, _NUMBERS):
        raise _arguments.parser_error(
            f"scalar_tensor(): argument 's' (position 1) must be Number, not {type(s).__name__}")
    if isinstance(s, int) and not -(2**63) <= s < 2**64:  # (PyTorch reads an int64 or a uint64)
        raise OverflowError("int too big to convert" if s > 0
                            else "can't convert negative int to unsigned")
    return _new(np.array(_dtype.checked_value(s, numpy_dtype), dtype=numpy_dtype), requires_grad)


_NUMBERS = (bool, int, float, np.number, np.bool_)


def _numpy_generator(function: str, args: tuple[Any, ...], generator: Any) -> Any:
    """The numpy generator behind ``generator=`` (None: the default generator's).

    Anything else fits none of PyTorch's overloads of ``function``: its parser's listing.
    """
    if not _random.is_generator(generator):
        raise TypeError(
            _arguments.function_call_fits_none(function, args, {"generator": generator}))
    return _random.generator(generator)


def _check_random_kernel(kernel: str, numpy_dtype: np.dtype) -> None:
    # PyTorch's uniform and normal kernels exist for floating-point dtypes only.
    if numpy_dtype.kind != "f":
        raise NotImplementedError(
            errors.not_implemented_for(kernel, _dtype.display_name(numpy_dtype)))


def rand(
    *size: Any,
    generator: _random.Generator | None = None,
    dtype: _dtype.dtype | None = None,
    layout: _layouts.layout | None = _layouts.strided,
    device: Any = None,
    requires_grad: bool = False,
    pin_memory: bool | None = False,
) -> Tensor:
    """Uniform random numbers in ``[0, 1)`` (from ``generator``, else the default one)."""
    _factory_options(layout, pin_memory)
    numpy_generator = _numpy_generator("rand", size, generator)
    numpy_dtype = _float_dtype(dtype, "rand", device)
    shape = shape_argument(size, "rand")
    _check_random_kernel("check_uniform_bounds", numpy_dtype)
    values = numpy_generator.random(shape).astype(numpy_dtype)
    return _new(values, requires_grad)


def randn(
    *size: Any,
    generator: _random.Generator | None = None,
    dtype: _dtype.dtype | None = None,
    layout: _layouts.layout | None = _layouts.strided,
    device: Any = None,
    requires_grad: bool = False,
    pin_memory: bool | None = False,
) -> Tensor:
    """Standard normal random numbers (from ``generator``, else the default one)."""
    _factory_options(layout, pin_memory)
    numpy_generator = _numpy_generator("randn", size, generator)
    numpy_dtype = _float_dtype(dtype, "randn", device)
    shape = shape_argument(size, "randn")
    _check_random_kernel("normal_kernel_cpu", numpy_dtype)
    values = numpy_generator.standard_normal(shape).astype(numpy_dtype)
    return _new(values, requires_grad)


_RANGE_DEPRECATED = (
    "minigrad.range is deprecated and will be removed in a future release because its behavior "
    "is inconsistent with Python's range builtin. Instead, use minigrad.arange, which produces "
    "values in [start, end)."
)


def deprecated_range(
    start: Any,
    end: Any,
    step: Any = 1,
    *,
    dtype: _dtype.dtype | None = None,
    device: Any = None,
    requires_grad: bool = False,
) -> Tensor:
    """``minigrad.range``: ``[start, end]`` (end included) in steps of ``step``; deprecated.

    The default float dtype whatever the numbers (integers too), unlike ``arange``.

    Example:
        >>> import warnings
        >>> import minigrad
        >>> with warnings.catch_warnings():
        ...     warnings.simplefilter("ignore")
        ...     minigrad.range(1, 3)
        tensor([1., 2., 3.])
    """
    warnings.warn(_RANGE_DEPRECATED, UserWarning, stacklevel=2)  # (every call, as PyTorch)
    check_factory_device(device, "range")
    start, end, step = (
        _real_part(_number(value, "range", name, None))
        for name, value in (("start", start), ("end", end), ("step", step))
    )
    if step == 0:
        raise RuntimeError("step must be nonzero")
    if (end - start) * step < 0:
        raise RuntimeError("upper bound and lower bound inconsistent with step sign")
    numpy_dtype = (
        _dtype.default_float() if dtype is None else _dtype.to_numpy_dtype(dtype, "range")
    )
    _check_no_bool_kernel(numpy_dtype, "range_cpu")
    count = int(math.floor((end - start) / step)) + 1
    return _new((start + step * np.arange(count)).astype(numpy_dtype), requires_grad)


def arange(
    start: Any = _arguments.NOT_GIVEN,
    end: Any = _arguments.NOT_GIVEN,
    step: Any = _arguments.NOT_GIVEN,
    *,
    dtype: _dtype.dtype | None = None,
    layout: _layouts.layout | None = _layouts.strided,
    device: Any = None,
    requires_grad: bool = False,
    pin_memory: bool | None = False,
) -> Tensor:
    """``[start, end)`` in steps of ``step``: int64 for integer arguments, else float32.

    Example:
        >>> import minigrad
        >>> minigrad.arange(3)
        tensor([0, 1, 2])
    """
    _factory_options(layout, pin_memory)
    check_factory_device(device, "arange")
    if start is _arguments.NOT_GIVEN:  # arange(end=...): PyTorch's first overload
        start, end = 0, _number(end, "arange", "end", None)
    elif end is _arguments.NOT_GIVEN:  # arange(end); an explicit None is refused below
        start, end = 0, _number(start, "arange", "end", 1)
    else:
        if any(_refused_number(value) for value in (start, end, step)):
            # Two or three numbers fit two of PyTorch's overloads: its parser lists them all.
            given = [start, end] + ([step] if step is not _arguments.NOT_GIVEN else [])
            options = {"dtype": dtype, "device": device, "requires_grad": requires_grad}
            named = {name: value for name, value in options.items() if value}
            listings = _arguments.PARSER_OVERLOADS["function"]["arange"]
            raise _arguments.parser_error(errors.invalid_arguments(
                "arange", given, named, [listing[1:-1] for listing, _, _ in listings]))
        start, end = _number(start, "arange", "start", None), _number(end, "arange", "end", None)
    step = 1 if step is _arguments.NOT_GIVEN else _number(step, "arange", "step", None)
    start, end, step = _real_part(start), _real_part(end), _real_part(step)
    if dtype is not None:
        numpy_dtype = _dtype.to_numpy_dtype(dtype, "arange")
    elif all(isinstance(v, (int, np.integer)) for v in (start, end, step)):
        numpy_dtype = np.dtype(np.int64)
    else:
        numpy_dtype = _dtype.default_float()
    for name, value in (("start", start), ("end", end), ("step", step)):
        if not isinstance(value, (int, float, np.number)):
            raise TypeError(
                f"arange(): argument '{name}' must be Number, not {errors.python_type_name(value)}"
            )
    _check_no_bool_kernel(numpy_dtype, "arange_cpu")  # (PyTorch's dispatch, before any check)
    _check_range_bounds(start, end, step)
    if numpy_dtype.kind in "iu":
        return _new(_integer_arange(start, end, step, numpy_dtype), requires_grad)
    size = _arange_size(float(start), float(end), float(step))  # (before numpy allocates)
    values = np.arange(start, end, step)[:size]  # (an infinite step: numpy keeps ``start``)
    return _new(values.astype(numpy_dtype), requires_grad)


# The largest int64 + 1: PyTorch's range checks compare sizes with it as a double.
_INT64_END = 1 << 63


def _check_range_bounds(start: Any, end: Any, step: Any) -> None:
    """PyTorch's ``arange_check_bounds``: a nonzero step, a finite range in the step's direction.

    In doubles, whatever the result's dtype (``arange(0, 2**63, 0)`` says the step is zero).
    """
    start, end, step = float(start), float(end), float(step)
    if not (step > 0 or step < 0):
        raise RuntimeError("step must be nonzero")
    if not (math.isfinite(start) and math.isfinite(end)):
        raise RuntimeError(
            f"unsupported range: {errors.double_text(start)} -> {errors.double_text(end)}")
    if not (step > 0 and end >= start or step < 0 and end <= start):
        raise RuntimeError("upper bound and lower bound inconsistent with step sign")


def _arange_size(start: float, end: float, step: float) -> int:
    """The length of ``arange``'s result as PyTorch computes it in doubles (not int64 results)."""
    size = math.ceil((end - start) / step) if math.isfinite((end - start) / step) else math.inf
    if not 0 <= size <= _INT64_END:
        raise RuntimeError("invalid size, possible overflow?")
    if size == _INT64_END:  # (converted to int64, 2**63 becomes -2**63: a size no shape takes)
        raise RuntimeError(
            f"IntArrayRef contains an int that cannot be represented as a SymInt: {-_INT64_END}")
    return size


def _as_int64(value: Any) -> int:
    """A Scalar as PyTorch's ``Scalar.to<int64_t>()`` reads it: checked, truncated toward zero.

    A uint64 int (``2**63``) or a double past int64 raises; the check lets exactly ``2.0**63``
    through, which then converts to -2**63 (as on x86).
    """
    if isinstance(value, (float, np.floating)):
        if not -_INT64_END <= value <= _INT64_END:
            raise RuntimeError("value cannot be converted to type int64_t without overflow")
        return _wrap_int64(int(value))
    value = int(value)
    if not -_INT64_END <= value < _INT64_END:
        raise RuntimeError("value cannot be converted to type int64_t without overflow")
    return value


def _wrap_int64(value: int) -> int:
    """``value`` as int64 arithmetic leaves it: wrapped around modulo 2**64."""
    return (value + _INT64_END) % (1 << 64) - _INT64_END


def _integer_arange(start: Any, end: Any, step: Any, numpy_dtype: np.dtype) -> np.ndarray:
    """``arange`` into an integer dtype, computed as PyTorch's kernel computes it.

    The values are ``start + i * step`` in int64 (start and step truncated to ints, so
    ``arange(-0.5, 3.5, 1.5, dtype=int64)`` is ``[0, 1, 2]``), wrapped into the dtype. An int64
    result's length is computed in int64 too, with its wrapping: a range wider than int64 can
    come out empty or of a negative length (PyTorch's "invalid size" error).
    """
    if numpy_dtype == np.int64:
        first, last, stride = _as_int64(start), _as_int64(end), _as_int64(step)
        if stride == 0:  # (a float step truncated to 0: ``arange(0, 5, 0.5, dtype=int64)``)
            raise ValueError("step must be nonzero")
        sign = (stride > 0) - (stride < 0)
        span = _wrap_int64(last - first + stride - sign)
        size = abs(span) // abs(stride) * (1 if (span < 0) == (stride < 0) else -1)
        if size < 0:
            raise RuntimeError("invalid size, possible overflow?")
    else:
        size = _arange_size(float(start), float(end), float(step))
        first, stride = _as_int64(start), _as_int64(step)
    with np.errstate(over="ignore"):
        values = np.arange(size, dtype=np.int64) * np.int64(stride) + np.int64(first)
    return values.astype(numpy_dtype)


def linspace(
    start: float | Tensor,
    end: float | Tensor,
    steps: int,
    *,
    dtype: _dtype.dtype | None = None,
    layout: _layouts.layout | None = _layouts.strided,
    device: Any = None,
    requires_grad: bool = False,
    pin_memory: bool | None = False,
) -> Tensor:
    """``steps`` evenly spaced values from ``start`` to ``end`` inclusive.

    ``start`` and ``end`` may be 0-d tensors (PyTorch's Tensor overloads: their values are
    read, whether they require grad or not).

    Example:
        >>> import minigrad
        >>> minigrad.linspace(minigrad.tensor(0.0), 1, 3)
        tensor([0.0000, 0.5000, 1.0000])
    """
    _factory_options(layout, pin_memory)
    values, numpy_dtype = _spaced(start, end, steps, dtype, device, "linspace")
    return _new(values.astype(numpy_dtype), requires_grad)


def logspace(
    start: float | Tensor,
    end: float | Tensor,
    steps: int,
    base: float = 10.0,
    *,
    dtype: _dtype.dtype | None = None,
    layout: _layouts.layout | None = _layouts.strided,
    device: Any = None,
    requires_grad: bool = False,
    pin_memory: bool | None = False,
) -> Tensor:
    """``steps`` values ``base ** e`` for ``e`` evenly spaced from ``start`` to ``end``.

    The exponents are ``linspace``'s, in float64; the powers are rounded once to ``dtype``.

    Example:
        >>> import minigrad
        >>> minigrad.logspace(0, 2, 3)
        tensor([  1.,  10., 100.])
    """
    _factory_options(layout, pin_memory)
    exponents, numpy_dtype = _spaced(start, end, steps, dtype, device, "logspace")
    return _new(np.power(float(base), exponents).astype(numpy_dtype), requires_grad)


def _spaced(
    start: Any, end: Any, steps: int, dtype: Any, device: Any, name: str
) -> tuple[np.ndarray, np.dtype]:
    """``steps`` evenly spaced float64 values from ``start`` to ``end``, and the result's dtype.

    The arguments are checked as ``name`` (``linspace`` or ``logspace``) checks them.
    """
    # (numbers no int64 or Scalar holds: the parser's errors first, the last argument's first)
    _arguments.check_int64_arguments(steps)
    _dtype.check_scalar_arguments(start, end)
    start, end = _range_bound(start, "start", name), _range_bound(end, "end", name)
    numpy_dtype = _float_dtype(dtype, name, device)
    if steps < 0:
        raise RuntimeError("number of steps must be non-negative")
    _arguments.check_int64(steps)  # (past int64, the parser's error: before numpy's)
    _check_no_bool_kernel(numpy_dtype, f"{name}_cpu")
    return np.linspace(start, end, steps), numpy_dtype


def _range_bound(value: Any, bound: str, name: str) -> Any:
    """``linspace``'s (``logspace``'s) ``start`` or ``end``: a number, or a 0-d tensor's value."""
    if not isinstance(value, Tensor):
        return value
    if value.dim() != 0:
        raise RuntimeError(
            f"{name} only supports 0-dimensional start and end tensors, but got {bound} with "
            f"{value.dim()} dimension(s).")
    return value.item()


def _check_no_bool_kernel(numpy_dtype: np.dtype, kernel: str) -> None:
    """PyTorch's error for a range in bool: ``kernel`` has no bool version."""
    if numpy_dtype == np.bool_:
        raise NotImplementedError(errors.not_implemented_for(kernel, "Bool"))


def _filled_like(
    input: Tensor,
    dtype: _dtype.dtype | None,
    device: Any,
    factory: str,
    fill_value: Any,
    memory_format: Any = None,
) -> np.ndarray:
    """An array of ``input``'s shape and of ``dtype`` (or ``input``'s), full of ``fill_value``.

    Laid out in memory in ``memory_format`` (None: as PyTorch's ``preserve_format`` lays it
    out); a ``fill_value`` of None leaves it unset.
    """
    check_factory_device(device, factory, "aten::empty_strided")
    numpy_dtype = input._array.dtype if dtype is None else _dtype.to_numpy_dtype(dtype, factory)
    result = empty_in_format(input._array, numpy_dtype, memory_format)
    if fill_value is not None:
        result.fill(_dtype.checked_value(fill_value, numpy_dtype, check_half=result.size != 1))
    return result


def zeros_like(
    input: Tensor,
    *,
    dtype: _dtype.dtype | None = None,
    layout: _layouts.layout | None = None,
    device: Any = None,
    requires_grad: bool = False,
    pin_memory: bool | None = False,
    memory_format: _memory_formats.memory_format | None = _memory_formats.preserve_format,
) -> Tensor:
    """Zeros with ``input``'s shape and dtype."""
    _factory_options(layout, pin_memory)
    return _new(_filled_like(input, dtype, device, "zeros_like", 0, memory_format), requires_grad)


def ones_like(
    input: Tensor,
    *,
    dtype: _dtype.dtype | None = None,
    layout: _layouts.layout | None = None,
    device: Any = None,
    requires_grad: bool = False,
    pin_memory: bool | None = False,
    memory_format: _memory_formats.memory_format | None = _memory_formats.preserve_format,
) -> Tensor:
    """Ones with ``input``'s shape and dtype."""
    _factory_options(layout, pin_memory)
    return _new(_filled_like(input, dtype, device, "ones_like", 1, memory_format), requires_grad)


def empty_like(
    input: Tensor,
    *,
    dtype: _dtype.dtype | None = None,
    layout: _layouts.layout | None = None,
    device: Any = None,
    requires_grad: bool = False,
    pin_memory: bool | None = False,
    memory_format: _memory_formats.memory_format | None = _memory_formats.preserve_format,
) -> Tensor:
    """An uninitialized tensor with ``input``'s shape and dtype."""
    _factory_options(layout, pin_memory)
    result = _filled_like(input, dtype, device, "empty_like", None, memory_format)
    return _new(result, requires_grad)


def full_like(
    input: Tensor,
    fill_value: Any,
    *,
    dtype: _dtype.dtype | None = None,
    layout: _layouts.layout | None = None,
    device: Any = None,
    requires_grad: bool = False,
    pin_memory: bool | None = False,
    memory_format: _memory_formats.memory_format | None = _memory_formats.preserve_format,
) -> Tensor:
    """``fill_value`` everywhere, with ``input``'s shape and dtype."""
    _factory_options(layout, pin_memory)
    fill_value = _number(fill_value, "full_like", "fill_value", 2)
    result = _filled_like(input, dtype, device, "full_like", fill_value, memory_format)
    return _new(result, requires_grad)


def rand_like(
    input: Tensor,
    *,
    generator: _random.Generator | None = None,
    dtype: _dtype.dtype | None = None,
    layout: _layouts.layout | None = None,
    device: Any = None,
    requires_grad: bool = False,
    pin_memory: bool | None = False,
    memory_format: _memory_formats.memory_format | None = _memory_formats.preserve_format,
) -> Tensor:
    """Uniform random numbers with ``input``'s shape and dtype."""
    _factory_options(layout, pin_memory)
    numpy_generator = _numpy_generator("rand_like", (input,), generator)
    result = _filled_like(input, dtype, device, "rand_like", None, memory_format)
    result[...] = numpy_generator.random(result.shape)
    return _new(result, requires_grad)


def randn_like(
    input: Tensor,
    *,
    generator: _random.Generator | None = None,
    dtype: _dtype.dtype | None = None,
    layout: _layouts.layout | None = None,
    device: Any = None,
    requires_grad: bool = False,
    pin_memory: bool | None = False,
    memory_format: _memory_formats.memory_format | None = _memory_formats.preserve_format,
) -> Tensor:
    """Standard normal random numbers with ``input``'s shape and dtype."""
    _factory_options(layout, pin_memory)
    numpy_generator = _numpy_generator("randn_like", (input,), generator)
    result = _filled_like(input, dtype, device, "randn_like", None, memory_format)
    result[...] = numpy_generator.standard_normal(result.shape)
    return _new(result, requires_grad)


def randint_like(
    input: Tensor,
    *args: Any,
    low: Any = None,
    high: Any = None,
    generator: _random.Generator | None = None,
    dtype: _dtype.dtype | None = None,
    layout: _layouts.layout | None = None,
    device: Any = None,
    requires_grad: bool = False,
    pin_memory: bool | None = False,
    memory_format: _memory_formats.memory_format | None = _memory_formats.preserve_format,
) -> Tensor:
    """Random integers from ``[low, high)`` (``low`` defaults to 0) in ``input``'s shape.

    Called as ``randint_like(input, high)`` or ``randint_like(input, low, high)`` (``high``
    may be a 0-d integer tensor); ``input``'s dtype and layout unless told otherwise.

    Example:
        >>> import minigrad
        >>> x = minigrad.randint_like(minigrad.zeros(2, 2), 3, 10)
        >>> x.shape, x.dtype, bool(((x >= 3) & (x < 10)).all())
        (minigrad.Size([2, 2]), minigrad.float32, True)
    """
    given = {k: v for k, v in (("low", low), ("high", high)) if v is not None}
    if len(args) == 1 and not given and isinstance(args[0], Tensor):
        args = (args[0].item(),)  # (PyTorch's overload of a Tensor ``high``)
    names = ("low", "high") if len(args) + len(given) == 2 else ("high",)
    bound = dict(zip(names, args))
    if (len(args) + len(given) not in (1, 2) or set(bound) & set(given)
            or {*bound, *given} != set(names)
            or not all(_arguments.is_int(v) for v in (*bound.values(), *given.values()))):
        raise TypeError(_arguments.function_call_fits_none("randint_like", (input, *args),
                                                           given))
    bound.update(given)
    numpy_generator = _numpy_generator("randint_like", (input, *args), generator)
    _factory_options(layout, pin_memory)
    result = _filled_like(input, dtype, device, "randint_like", None, memory_format)
    low, high = int(bound.get("low", 0)), int(bound["high"])
    _random.check_random_range(low, high, result.dtype)
    result[...] = numpy_generator.integers(low, high, result.shape, endpoint=False)
    return _new(result, requires_grad)


# --- more factories: eye, random integers and permutations, triangle indices -----------------

def _int_argument(function: str, name: str, position: int | None, value: Any) -> int:
    """``value`` if it is an int (not a bool); else PyTorch's argument TypeError.

    ``position``: None for an argument given by keyword.
    """
    if isinstance(value, (int, np.integer)) and not isinstance(value, (bool, np.bool_)):
        return _arguments.check_int64(int(value))  # (past int64: the parser's ValueError)
    where = "" if position is None else f" (position {position})"
    raise TypeError(
        f"{function}(): argument '{name}'{where} must be int, not "
        f"{errors.python_type_name(value)}"
    )


def eye(
    n: int,
    m: int = _arguments.NOT_GIVEN,
    *,
    dtype: _dtype.dtype | None = None,
    layout: _layouts.layout | None = _layouts.strided,
    device: Any = None,
    requires_grad: bool = False,
    pin_memory: bool | None = False,
) -> Tensor:
    """The ``n`` x ``m`` identity matrix (ones on the diagonal; ``m`` defaults to ``n``).

    Example:
        >>> import minigrad
        >>> minigrad.eye(2, 3)
        tensor([[1., 0., 0.],
                [0., 1., 0.]])
    """
    _factory_options(layout, pin_memory)
    if m is _arguments.NOT_GIVEN:  # (an explicit None is refused, as by PyTorch)
        m = n
    _arguments.check_int64(n), _arguments.check_int64(m)  # (past int64: the parser's error)
    numpy_dtype = _float_dtype(dtype, "eye", device)
    if n < 0:
        raise RuntimeError(f"n must be greater or equal to 0, got {n}")
    if m < 0:
        raise RuntimeError(f"m must be greater or equal to 0, got {m}")
    return _new(np.eye(n, int(m), dtype=numpy_dtype), requires_grad)


def empty_permuted(
    size: Sequence[int],
    physical_layout: Sequence[int],
    *,
    dtype: _dtype.dtype | None = None,
    layout: _layouts.layout | None = None,
    device: Any = None,
    requires_grad: bool = False,
    pin_memory: bool | None = False,
) -> Tensor:
    """An uninitialized tensor of ``size`` whose dims lie in memory in ``physical_layout`` order.

    Example:
        >>> import minigrad
        >>> minigrad.empty_permuted((2, 3, 4), (2, 0, 1)).stride()
        (3, 1, 6)
    """
    _factory_options(layout, pin_memory)
    size, order = tuple(int(n) for n in size), tuple(int(d) for d in physical_layout)
    if len(order) == len(size) and len(set(order)) != len(order):
        raise RuntimeError("Duplicate dim not allowed")
    if sorted(order) != list(range(len(size))):
        raise RuntimeError(
            f"Number of dimensions in size does not match the length of the physical_layout; "
            f"i.e. len(size) = {len(size)} is not equal to len(physical_layout) = {len(order)}"
        )
    numpy_dtype = _float_dtype(dtype, "empty_permuted", device)
    physical = np.empty(tuple(size[d] for d in order), dtype=numpy_dtype)
    return _new(np.transpose(physical, np.argsort(order)), requires_grad)


def randint(
    *args: Any,
    size: Any = None,
    low: Any = None,
    high: Any = None,
    generator: _random.Generator | None = None,
    dtype: _dtype.dtype | None = None,
    layout: _layouts.layout | None = _layouts.strided,
    device: Any = None,
    requires_grad: bool = False,
    pin_memory: bool | None = False,
) -> Tensor:
    """Random integers drawn uniformly from ``[low, high)`` (``low`` defaults to 0); int64.

    Called as ``randint(high, size)`` or ``randint(low, high, size)``. The numbers come from
    minigrad's own generator: seeded runs repeat, but differ from PyTorch's.

    Example:
        >>> import minigrad
        >>> x = minigrad.randint(3, 10, (2, 2))
        >>> x.shape, x.dtype, bool(((x >= 3) & (x < 10)).all())
        (minigrad.Size([2, 2]), minigrad.int64, True)
    """
    # The forms are (high, size) and (low, high, size); keywords may give any of the three.
    given = {k: v for k, v in (("low", low), ("high", high), ("size", size)) if v is not None}
    numpy_generator = _numpy_generator("randint", args, generator)
    count = len(args) + len(given)
    names = ("low", "high", "size") if count == 3 else ("high", "size")
    bound = dict(zip(names, args))
    if count not in (2, 3) or set(bound) & set(given) or {*bound, *given} != set(names):
        raise TypeError(_arguments.function_call_fits_none("randint", args, given))
    bound.update(given)
    # (an argument given by keyword has no position in the messages)
    positions = dict.fromkeys(given) | {name: i + 1 for i, name in enumerate(names[: len(args)])}
    named = given if dtype is None else {**given, "dtype": dtype}
    options = {"layout": layout, "pin_memory": pin_memory}
    if not isinstance(layout, (_layouts.layout, type(None))) or not isinstance(
        pin_memory, (bool, type(None))
    ):  # (PyTorch's parser: no overload fits, its listing)
        wrong = {key: value for key, value in options.items()
                 if value is not None and value is not False and value is not _layouts.strided}
        raise TypeError(_arguments.function_call_fits_none("randint", args, {**named, **wrong}))
    _factory_options(layout, pin_memory)
    try:
        low = 0 if "low" not in bound else _int_argument("randint", "low", positions["low"],
                                                         bound["low"])
        high = _int_argument("randint", "high", positions["high"], bound["high"])
        _arguments.check_int_sequence(bound["size"], "randint", "size", positions["size"],
                                      lone_int=False)
        numpy_dtype = (np.dtype(np.int64) if dtype is None
                       else _dtype.to_numpy_dtype(dtype, "randint"))
    except TypeError as complaint:
        raise _arguments.no_overload_fits("randint", args, named, complaint) from None
    shape = shape_argument((tuple(bound["size"]),), "randint")
    check_factory_device(device, "randint")
    _random.check_random_range(low, high, numpy_dtype)
    values = numpy_generator.integers(low, high, shape, dtype=np.int64, endpoint=False)
    return _new(values.astype(numpy_dtype), requires_grad)


# How randperm names the C++ type a too-large n would overflow.
_RANDPERM_INT_TYPES = {"uint8": "uint8_t", "int8": "int8_t", "int16": "int16_t", "int32": "int"}


def randperm(
    n: int,
    *,
    generator: _random.Generator | None = None,
    dtype: _dtype.dtype | None = None,
    layout: _layouts.layout | None = _layouts.strided,
    device: Any = None,
    requires_grad: bool = False,
    pin_memory: bool | None = False,
) -> Tensor:
    """A random permutation of ``0 .. n - 1`` (int64 by default).

    Example:
        >>> import minigrad
        >>> sorted(minigrad.randperm(4).tolist())
        [0, 1, 2, 3]
    """
    _factory_options(layout, pin_memory)
    numpy_generator = _numpy_generator("randperm", (n,), generator)
    n = _int_argument("randperm", "n", 1, n)
    numpy_dtype = np.dtype(np.int64) if dtype is None else _dtype.to_numpy_dtype(dtype, "randperm")
    check_factory_device(device, "randperm")
    shape_argument((n,), "randperm")
    if numpy_dtype == np.bool_:
        raise NotImplementedError(errors.not_implemented_for("randperm", "Bool"))
    if numpy_dtype.name in _RANDPERM_INT_TYPES and n - 1 > np.iinfo(numpy_dtype).max:
        raise RuntimeError(
            f"value cannot be converted to type {_RANDPERM_INT_TYPES[numpy_dtype.name]} without "
            "overflow"
        )
    if numpy_dtype == np.float16 and n > 2049:
        raise RuntimeError("n cannot be greater than 2049 for Half type.")
    if numpy_dtype == np.float32 and n > 2**24 + 1:
        raise RuntimeError("n cannot be greater than 2^24+1 for Float type.")
    return _new(numpy_generator.permutation(n).astype(numpy_dtype), requires_grad)


def tril_indices(
    row: int,
    col: int,
    offset: int = 0,
    *,
    dtype: _dtype.dtype | None = None,
    layout: _layouts.layout | None = _layouts.strided,
    device: Any = None,
    pin_memory: bool | None = False,
) -> Tensor:
    """The (row, column) indices of the lower triangle of a ``row`` x ``col`` matrix.

    A ``2 x N`` tensor, in row-major order; ``offset`` shifts the diagonal (as in ``tril``).

    Example:
        >>> import minigrad
        >>> minigrad.tril_indices(3, 3)
        tensor([[0, 1, 1, 2, 2, 2],
                [0, 0, 1, 0, 1, 2]])
    """
    _factory_options(layout, pin_memory)
    return _triangle_indices("tril_indices", np.tril_indices, row, col, offset, dtype, device)


def triu_indices(
    row: int,
    col: int,
    offset: int = 0,
    *,
    dtype: _dtype.dtype | None = None,
    layout: _layouts.layout | None = _layouts.strided,
    device: Any = None,
    pin_memory: bool | None = False,
) -> Tensor:
    """The (row, column) indices of the upper triangle of a ``row`` x ``col`` matrix.

    A ``2 x N`` tensor, in row-major order; ``offset`` shifts the diagonal (as in ``triu``).

    Example:
        >>> import minigrad
        >>> minigrad.triu_indices(2, 3, 1)
        tensor([[0, 0, 1],
                [1, 2, 2]])
    """
    _factory_options(layout, pin_memory)
    return _triangle_indices("triu_indices", np.triu_indices, row, col, offset, dtype, device)


def _triangle_indices(
    name: str, indices: Any, row: Any, col: Any, offset: Any, dtype: Any, device: Any
) -> Tensor:
    row, col, offset = (
        _int_argument(name, arg, position, value)
        for position, (arg, value) in enumerate((("row", row), ("col", col), ("offset", offset)),
                                                start=1)
    )
    numpy_dtype = np.dtype(np.int64) if dtype is None else _dtype.to_numpy_dtype(dtype, name)
    check_factory_device(device, name, f"aten::{name}")
    if row < 0:
        raise RuntimeError(f"row must be non-negative, got{row}")  # (sic: no space)
    if col < 0:
        raise RuntimeError(f"col must be non-negative, got{col}")
    if numpy_dtype not in (np.int32, np.int64):
        raise NotImplementedError(
            errors.not_implemented_for(name, _dtype.display_name(numpy_dtype))
        )
    rows, cols = indices(row, offset, col)
    return _new(np.stack([rows, cols]).astype(numpy_dtype).reshape(2, -1), False)
