"""``Tensor.set_``: a tensor takes other memory (another tensor's, or a storage's) in place.

PyTorch's forms: ``set_()`` (empty memory), ``set_(tensor)`` (the tensor's memory and
geometry), ``set_(storage)`` (the whole storage, 1-D) and ``set_(source, storage_offset,
size, stride=None)`` (a geometry in the storage of ``source``, a storage or a tensor).

The rules are an in-place op's: refused on a leaf that requires grad while grad mode is on
(PyTorch's leaf error), the version moves once, and the tensor keeps its own version counter
(the source's does not move). PyTorch has no derivative: recording (grad mode on, the tensor
or the source requiring grad), the tensor's new node is ``NotImplemented`` over the tensor's
old history and the source's, and backward through it raises.

Where numpy cannot follow (said by a ``RuntimeError`` rather than done differently): a
geometry past the end of the storage (PyTorch grows the storage, and every tensor on it moves
with it; numpy arrays cannot move), and ``set_`` on a view (minigrad's views replay on their
base's memory, which the view would leave).
"""

from __future__ import annotations

import operator
from typing import Any

import numpy as np

from minigrad import _arguments, errors
from minigrad._dtype import from_numpy_dtype
from minigrad.autograd import grad_mode
from minigrad.autograd.function import Op
from minigrad.autograd.graph import Node, follow_new_grad_fn
from minigrad.autograd.inplace import check_inplace
from minigrad.autograd.tensor_base import TensorBase, set_array
from minigrad.ops._helpers import NOT_IMPLEMENTED
from minigrad.storage import TypedStorage, UntypedStorage

SET_VIEW = (
    "minigrad: set_() on a view is not supported: a minigrad view replays on its base's "
    "memory, which set_() would make it leave. Call set_() on a tensor that is not a view "
    "(e.g. view.clone() or view.detach().clone())."
)
SET_GROWS = (
    "minigrad: set_() cannot make a storage larger: the geometry needs {needed} bytes and the "
    "storage has {nbytes}. (PyTorch grows the storage and moves every tensor on it; numpy "
    "arrays cannot move to new memory.)"
)

# The C++ type names PyTorch's messages use (caffe2's TypeMeta) and its storage type names.
_CPP_NAMES = {
    "float16": "c10::Half",
    "float32": "float",
    "float64": "double",
    "int8": "signed char",
    "uint8": "unsigned char",
    "int16": "short int",
    "int32": "int",
    "int64": "long int",
    "bool": "bool",
}


def _cpp_name(dtype: np.dtype) -> str:
    return _CPP_NAMES[np.dtype(dtype).name]


def _storage_name(dtype: np.dtype) -> str:
    """``Float``: the legacy type name without ``Tensor``."""
    return from_numpy_dtype(np.dtype(dtype)).tensor_type.removesuffix("Tensor")


class SetSource(Op):
    """x.set_(source): x takes source's memory. No derivative: backward raises, as PyTorch's.

    Its node (PyTorch's ``NotImplemented``) has edges to x's old history and to source's.
    The forward's value is a placeholder of the new geometry's shape: set_ writes nothing.
    """

    saves = ()  # (it saves nothing: its node has no slot for saved values)
    node_name = NOT_IMPLEMENTED
    num_inputs = 2

    @staticmethod
    def forward(ctx: Any, x: Any, source: Any, shape: tuple[int, ...]) -> np.ndarray:
        return np.empty(shape, dtype=x.dtype)

    @staticmethod
    def backward(ctx: Any, grad: Any) -> Any:
        raise RuntimeError(errors.derivative_not_implemented("set_"))


class SetStorage(Op):
    """x.set_(storage) or x.set_(): as ``SetSource``, with an edge to x's old history only."""

    node_name = NOT_IMPLEMENTED

    @staticmethod
    def forward(ctx: Any, x: Any, shape: tuple[int, ...]) -> np.ndarray:
        return np.empty(shape, dtype=x.dtype)

    @staticmethod
    def backward(ctx: Any, grad: Any) -> Any:
        raise RuntimeError(errors.derivative_not_implemented("set_"))


# Unlike PyTorch's other NotImplemented nodes (graph.NOT_IMPLEMENTED_EDGES), set_'s lists an
# edge per input, ``(None, 0)`` for a source that needs no gradient.
SetSource._Node.next_functions = Node.next_functions


def _ints(value: Any) -> tuple[int, ...] | None:
    """``value`` as a tuple of ints (a list, tuple or Size of ints), or None if it is not."""
    if not isinstance(value, (list, tuple)):
        return None
    try:
        return tuple(operator.index(v) for v in value)
    except TypeError:
        return None


def _parse(tensor: TensorBase, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
    """(source, offset, size, stride) from set_'s arguments; PyTorch's TypeError if none fits."""
    names = ("source", "storage_offset", "size", "stride")
    given = dict(zip(names, args))
    unknown = [k for k in kwargs if k not in names or k in given]
    given.update({k: v for k, v in kwargs.items() if k in names})
    source = given.get("source")
    fits = not unknown and len(args) <= 4
    if fits and source is None:
        fits = not given
    elif fits and len(given) == 1:
        fits = isinstance(source, (TensorBase, UntypedStorage, TypedStorage))
    elif fits:
        offset, size = given.get("storage_offset"), _ints(given.get("size"))
        stride = given.get("stride")
        fits = (
            isinstance(source, (TensorBase, UntypedStorage, TypedStorage))
            and isinstance(offset, int)
            and not isinstance(offset, bool)
            and size is not None
            and (stride is None or _ints(stride) is not None)
        )
    if not fits:
        raise TypeError(_arguments.method_call_fits_none("set_", args, kwargs))
    if len(given) <= 1:
        return source, None, None, None
    stride = given.get("stride")
    return (
        source,
        given["storage_offset"],
        _ints(given["size"]),
        (None if stride is None else _ints(stride)),
    )


def _geometry_array(
    memory: np.ndarray, dtype: np.dtype, offset: int, size: tuple[int, ...], stride: Any
) -> np.ndarray:
    """The elements of ``memory`` (bytes) at (offset, size, stride) in ``dtype``: a view."""
    if offset < 0:
        raise RuntimeError(f"Tensor: invalid storage offset {offset}")
    if any(n < 0 for n in size):
        raise RuntimeError("numel: integer multiplication overflow")
    if stride is None:
        stride = tuple(int(np.prod(size[i + 1 :])) for i in range(len(size)))
    elif len(stride) != len(size):
        raise RuntimeError(f"unequal size length ({len(size)}) and stride length ({len(stride)})")
    if any(s < 0 for s in stride):
        raise RuntimeError(
            f"Storage size calculation overflowed with sizes={list(size)} and "
            f"strides={list(stride)}"
        )
    itemsize = dtype.itemsize
    empty = 0 in size
    needed = offset if empty else offset + 1 + sum((n - 1) * s for n, s in zip(size, stride))
    if needed * itemsize > memory.size:
        raise RuntimeError(SET_GROWS.format(needed=needed * itemsize, nbytes=memory.size))
    if empty:  # (numpy keeps the offset of an empty array made on a buffer, not a slice's)
        stride = tuple(0 for _ in size)
    return np.ndarray(
        size,
        dtype,
        buffer=memory,
        offset=offset * itemsize,
        strides=tuple(s * itemsize for s in stride),
    )


def set_(tensor: TensorBase, args: tuple[Any, ...], kwargs: dict[str, Any]) -> TensorBase:
    """``tensor.set_(...)``: see the module docstring. Returns ``tensor``.

    Example:
        >>> import minigrad
        >>> x, y = minigrad.arange(4.0), minigrad.zeros(2)
        >>> y.set_(x) is y, y, y.is_set_to(x), y._version, x._version
        (True, tensor([0., 1., 2., 3.]), True, 1, 0)
    """
    source, offset, size, stride = _parse(tensor, args, kwargs)
    dtype = tensor._array.dtype
    if isinstance(source, TensorBase) and offset is None:
        if source._array.dtype != dtype:
            raise RuntimeError(
                f"Could not set tensor of type {_cpp_name(source._array.dtype)} to a tensor "
                f"of type {_cpp_name(dtype)}"
            )
        storage = None  # (a tensor's memory: its storage is not resizable already)
        array = source._array.view()  # (a numpy view: its chain of bases leads to the memory)
    else:
        if source is None:
            storage = UntypedStorage(0)
        elif isinstance(source, TensorBase):
            if source._array.dtype != dtype:
                raise RuntimeError(
                    f"Could not set tensor of type {_cpp_name(source._array.dtype)} to a "
                    f"tensor of type {_cpp_name(dtype)}"
                )
            storage = UntypedStorage._of(source._array)
        elif isinstance(source, TypedStorage):
            if source.dtype.numpy != dtype:
                raise RuntimeError(
                    f"Expected a Storage of type {_cpp_name(dtype)} or an UntypedStorage, but "
                    f"got type {_storage_name(source.dtype.numpy)} for argument 1 'storage'"
                )
            storage = source._untyped_storage
        else:
            storage = source
        memory = storage._bytes
        if offset is None:  # (the whole storage, as a 1-D tensor)
            offset, size = 0, (memory.size // dtype.itemsize,)
        array = _geometry_array(memory, dtype, offset, size, stride)
    if tensor._base is not None:
        raise RuntimeError(SET_VIEW)
    source_tensor = source if isinstance(source, TensorBase) else None
    recording = grad_mode._state.enabled and (
        tensor.requires_grad or (source_tensor is not None and source_tensor.requires_grad)
    )
    check_inplace(tensor, recording, check_overlap=False)
    if storage is not None:
        storage._lend()  # (a tensor uses its memory now: it can no longer be resized)
    if recording:
        if source_tensor is None:
            node = SetStorage.apply(tensor, array.shape)._grad_fn
        else:
            node = SetSource.apply(tensor, source_tensor, array.shape)._grad_fn
    set_array(tensor, array, new_accumulator=True)  # (PyTorch: the next nodes reach a new one)
    tensor._version_counter().bump()
    if recording:
        old_node, old_output_nr = tensor._grad_fn, tensor._output_nr
        tensor._grad_fn, tensor._output_nr = node, 0
        follow_new_grad_fn(tensor, old_node, old_output_nr)
    return tensor
