"""Storages: the memory behind tensors, as bytes (``UntypedStorage``) or elements.

``x.untyped_storage()`` is the whole numpy allocation ``x`` lives in (its views' too), read and
written as bytes; ``x.storage()`` the same memory counted in ``x``'s elements (PyTorch's
deprecated ``TypedStorage``, with its warning). Both share the tensor's memory: a write
through a storage is a write to every tensor on it, one autograd does not see (no version
moves), like a write through ``x.data`` or ``x.numpy()``. As in PyTorch, a tensor's storage
is one object while it lives (``x.untyped_storage() is x[1:].untyped_storage()``).

Where numpy's model cannot follow PyTorch's: a storage that tensors use cannot be resized
(numpy arrays cannot move to new memory, where PyTorch's tensors follow their storage), and
``Tensor.set_`` cannot make a storage larger; both raise a ``RuntimeError`` saying so. A
storage made on its own (``UntypedStorage(8)``) resizes freely until a tensor uses it.
"""

from __future__ import annotations

import copy
import operator
import warnings
import weakref
from collections.abc import Iterator
from typing import Any

import numpy as np

from minigrad import _device, _dtype, _memory, _shared_memory

__all__ = ["TypedStorage", "UntypedStorage"]

# PyTorch's texts.
_RESIZE_SHARED = "Trying to resize storage that is not resizable"
_RESIZE_IN_USE = (
    "minigrad: cannot resize a storage that tensors use: their numpy arrays cannot move to "
    "new memory (PyTorch's tensors follow their storage). Resize the tensor instead "
    "(Tensor.resize_), or copy the data into a new storage."
)
_TYPED_STORAGE_DEPRECATED = (
    "TypedStorage is deprecated. It will be removed in the future and UntypedStorage will be "
    "the only storage class. This should only matter to you if you are using storages "
    "directly.  To access UntypedStorage directly, use tensor.untyped_storage() instead of "
    "tensor.storage()"
)

# The storage object of each root array, by id: PyTorch keeps one Python object per storage
# while it lives. Weakly: the storage holds its root, so an id is not reused under it.
_STORAGES: weakref.WeakValueDictionary[int, UntypedStorage] = weakref.WeakValueDictionary()


def _negative_size(nbytes: int) -> RuntimeError:
    """PyTorch's allocator error for a negative size (its unsigned reading of it)."""
    return RuntimeError(
        "[enforce fail at alloc_cpu.cpp:98] ((ptrdiff_t)nbytes) >= 0. alloc_cpu() seems to "
        f"have been called with negative number: {nbytes % 2**64}"
    )


def _check_cpu(device: Any) -> None:
    """Storages live on the CPU: any other device is refused as a tensor factory does."""
    if device is not None:
        where = _device.as_device(device, "UntypedStorage")
        if where.type != "cpu":
            _device.check_available(where)


class UntypedStorage:
    """A block of memory as bytes: a tensor's (``Tensor.untyped_storage()``) or a new one.

    ``UntypedStorage()`` is empty, ``UntypedStorage(n)`` has ``n`` zero bytes (PyTorch's are
    uninitialized), ``UntypedStorage([1, 2, 3])`` the given bytes (modulo 256). Indexing reads
    and writes bytes as ints; a slice (step 1) is a storage over the same memory.

    Example:
        >>> import minigrad
        >>> x = minigrad.tensor([1.0, 2.0])
        >>> s = x.untyped_storage()
        >>> s.nbytes(), s[7], s is x[1:].untyped_storage()
        (8, 64, True)
        >>> s[3] = 64  # x[0]'s highest byte: a write into x's memory autograd does not see
        >>> x, x._version
        (tensor([4., 2.]), 0)
    """

    __slots__ = ("__weakref__", "_bytes", "_lent", "_root", "_tensors_use")

    is_sparse = False
    is_sparse_csr = False
    is_cuda = False
    is_hpu = False

    def __init__(self, *args: Any, device: Any = None) -> None:
        _check_cpu(device)
        if not args:
            memory = np.zeros(0, dtype=np.uint8)
        elif len(args) == 1 and isinstance(args[0], int) and not isinstance(args[0], bool):
            if args[0] < 0:
                raise _negative_size(args[0])
            memory = np.zeros(args[0], dtype=np.uint8)
        elif len(args) == 1 and isinstance(args[0], (list, tuple)):
            values = [operator.index(v) for v in args[0]]
            memory = np.array([v % 256 for v in values], dtype=np.uint8)
        else:
            got = ", ".join(type(a).__name__ for a in args)
            raise TypeError(f"UntypedStorage(): no constructor takes ({got})")
        self._attach(memory, memory, tensors_use=False)

    def _attach(self, root: np.ndarray, memory: np.ndarray, tensors_use: bool) -> None:
        self._root = root  # the array owning the memory: the storage's identity
        self._bytes = memory  # the memory as a 1-D uint8 array (a view of root)
        self._lent = False  # True once a tensor or a slice uses the memory
        self._tensors_use = tensors_use
        _STORAGES[id(root)] = self

    @classmethod
    def _of(cls, array: np.ndarray) -> UntypedStorage:
        """The storage of the memory ``array`` lives in (one object per memory, as PyTorch's)."""
        root = _memory.root(array)
        storage = _STORAGES.get(id(root))
        if storage is not None and storage._root is root:
            return storage
        storage = cls.__new__(cls)
        storage._attach(root, _memory.as_bytes(root), tensors_use=True)
        return storage

    def _lend(self) -> np.ndarray:
        """The bytes, for a tensor or a slice that will use them: no longer resizable."""
        self._lent = True
        return self._bytes

    # --- size and place ---------------------------------------------------------------------

    def nbytes(self) -> int:
        """The size in bytes."""
        return self._bytes.size

    def size(self) -> int:
        """The size in bytes (``nbytes()``)."""
        return self._bytes.size

    def __len__(self) -> int:
        return self._bytes.size

    def element_size(self) -> int:
        """1: the elements of an untyped storage are bytes."""
        return 1

    def data_ptr(self) -> int:
        """The address of the first byte (0 for an empty storage)."""
        memory = self._bytes
        return memory.__array_interface__["data"][0] if memory.size else 0

    @property
    def device(self) -> _device.device:
        """``device(type='cpu')``: minigrad's memory is the CPU's."""
        return _device.CPU

    def get_device(self) -> None:
        """The device index: None for the CPU, as PyTorch's storages say."""
        return None

    def type(self, dtype: Any = None, non_blocking: bool = False) -> str:
        """The type name, ``'minigrad.storage.UntypedStorage'``."""
        if dtype is not None:
            raise NotImplementedError("minigrad: UntypedStorage.type(dtype) converts nothing")
        return "minigrad.storage.UntypedStorage"

    def untyped(self) -> UntypedStorage:
        """This storage (it is untyped already)."""
        return self

    def is_pinned(self, device: Any = None) -> bool:
        """False: there is no accelerator, so no page-locked memory."""
        return False

    def pin_memory(self, device: Any = None) -> UntypedStorage:
        """Raises PyTorch's error for a machine without an accelerator (minigrad has none)."""
        raise RuntimeError(_device.NO_ACCELERATOR)

    def is_shared(self) -> bool:
        """Whether ``share_memory_()`` marked the memory shared (its tensors' ``is_shared``)."""
        return _shared_memory.is_shared(self._root)

    def share_memory_(self) -> UntypedStorage:
        """Mark the memory shared; it can no longer be resized.

        Nothing moves: minigrad runs in one process.
        """
        _shared_memory.share(self._root)
        return self

    def resizable(self) -> bool:
        """True, as PyTorch's CPU storages answer (``resize_`` may still refuse: see there)."""
        return True

    def resize_(self, size: int) -> UntypedStorage:
        """Make the storage ``size`` bytes long, keeping the bytes that fit; new ones are 0.

        Refused (``RuntimeError``) for shared memory, as PyTorch's, and for memory tensors use:
        numpy cannot move their arrays to the new memory, as PyTorch moves its tensors.
        """
        size = operator.index(size)
        if size < 0:
            raise _negative_size(size)
        if self.is_shared():
            raise RuntimeError(_RESIZE_SHARED)
        if self._tensors_use or self._lent:
            raise RuntimeError(_RESIZE_IN_USE)
        grown = np.zeros(size, dtype=np.uint8)
        kept = min(size, self._bytes.size)
        grown[:kept] = self._bytes[:kept]
        del _STORAGES[id(self._root)]
        self._attach(grown, grown, tensors_use=False)
        return self

    # --- bytes --------------------------------------------------------------------------------

    def _index(self, index: int) -> int:
        n = self._bytes.size
        if not -n <= index < n:
            raise IndexError(
                f"index {index + n if index < 0 else index} out of range for storage of size {n}"
            )
        return index % n

    def __getitem__(self, index: Any) -> Any:
        if isinstance(index, slice):
            begin, end, step = index.indices(self._bytes.size)
            if step != 1:
                raise RuntimeError(
                    f"Trying to slice with a step of {step}, but only a step of 1 is supported"
                )
            part = self._lend()[begin : max(begin, end)]
            root = _memory.borrow(part, part.__array_interface__["data"][0], part.size, np.uint8)
            storage = UntypedStorage.__new__(UntypedStorage)
            storage._attach(root, root, tensors_use=False)
            return storage
        if not isinstance(index, (int, np.integer)):
            raise TypeError(f"can't index a minigrad.UntypedStorage with {type(index).__name__}")
        return int(self._bytes[self._index(int(index))])

    def __setitem__(self, index: Any, value: Any) -> None:
        if not isinstance(value, (int, np.integer)):
            raise RuntimeError(
                "can only set storage content with a int types, but got "
                f"{type(value).__name__} instead"
            )
        if not -(2**63) <= value < 2**64:
            raise OverflowError("int too big to convert")
        if isinstance(index, slice):
            begin, end, step = index.indices(self._bytes.size)
            if step != 1:
                raise RuntimeError(
                    f"Trying to slice with a step of {step}, but only a step of 1 is supported"
                )
            self._bytes[begin:end] = int(value) % 256
            return
        if not isinstance(index, (int, np.integer)) or not 0 <= index < self._bytes.size:
            raise RuntimeError("out of bounds")  # (PyTorch's: a negative index is one too)
        self._bytes[index] = int(value) % 256

    def __iter__(self) -> Iterator[int]:
        return iter(self._bytes.tolist())

    def tolist(self) -> list[int]:
        """The bytes as a list of ints."""
        return self._bytes.tolist()

    def fill_(self, value: Any) -> UntypedStorage:
        """Set every byte to ``value`` (an int, modulo 256; a bool counts as 0 or 1)."""
        if not isinstance(value, int):
            raise RuntimeError(f"fill_ expects int, but got {type(value).__name__}")
        self._bytes[...] = int(value) % 256
        return self

    def copy_(self, source: Any, non_blocking: bool | None = None) -> UntypedStorage:
        """Copy the bytes of ``source``, a storage of the same size in bytes."""
        if isinstance(source, TypedStorage):
            source = source._untyped_storage
        if not isinstance(source, UntypedStorage):
            raise TypeError(
                "copy_(): argument 'src' (position 1) must be minigrad.Storage, not "
                f"{type(source).__name__}"
            )
        if source.nbytes() != self.nbytes():
            raise RuntimeError(
                f"size does not match, self was {self.nbytes()} bytes but src was "
                f"{source.nbytes()} bytes"
            )
        np.copyto(self._bytes, source._bytes)
        return self

    def clone(self) -> UntypedStorage:
        """A copy in new memory."""
        return UntypedStorage(self.nbytes()).copy_(self)

    def cpu(self) -> UntypedStorage:
        """This storage (it is on the CPU already)."""
        return self

    def __copy__(self) -> UntypedStorage:
        return self.clone()

    def __deepcopy__(self, memo: dict[Any, Any]) -> UntypedStorage:
        memo = memo.setdefault("minigrad", {})
        if id(self._root) not in memo:
            memo[id(self._root)] = self.clone()
        return memo[id(self._root)]

    def __repr__(self) -> str:
        data = " " + "\n ".join(str(b) for b in self._bytes.tolist())
        return f"{data}\n[minigrad.storage.UntypedStorage(device=cpu) of size {len(self)}]"

    __str__ = __repr__


# --- TypedStorage: deprecated in PyTorch, kept for old code -------------------------------------

_always_warn_typed_storage_removal = False


def _set_always_warn_typed_storage_removal(always_warn: bool) -> None:
    """Warn on every use of a TypedStorage, not only the first (PyTorch's test switch)."""
    global _always_warn_typed_storage_removal
    if not isinstance(always_warn, bool):
        raise AssertionError(f"always_warn must be bool, got {type(always_warn).__name__}")
    _always_warn_typed_storage_removal = always_warn


def _warn_typed_storage_removal(stacklevel: int = 2) -> None:
    """PyTorch's deprecation warning: once per process (unless always), at the caller."""
    if _always_warn_typed_storage_removal or not getattr(
        _warn_typed_storage_removal, "has_warned", False
    ):
        warnings.warn(_TYPED_STORAGE_DEPRECATED, UserWarning, stacklevel=stacklevel + 1)
        _warn_typed_storage_removal.has_warned = True  # type: ignore[attr-defined]


def _reset_warn_typed_storage_removal() -> None:
    """Let the next use of a TypedStorage warn again."""
    _warn_typed_storage_removal.has_warned = False  # type: ignore[attr-defined]


class TypedStorage:
    """A storage counted in elements of ``dtype`` (PyTorch's deprecated ``Tensor.storage()``).

    It wraps the tensor's ``UntypedStorage`` (``untyped()``); every public use warns, once
    per process, that TypedStorage is deprecated, as PyTorch's does. ``TypedStorage(n,
    dtype=...)`` makes ``n`` zero elements, ``TypedStorage([...], dtype=...)`` the given ones.

    Example:
        >>> import minigrad, warnings
        >>> with warnings.catch_warnings():
        ...     warnings.simplefilter("ignore")
        ...     s = minigrad.tensor([1.5, 2.0]).storage()
        ...     s.dtype, s.size(), s[0], s.tolist()
        (minigrad.float32, 2, 1.5, [1.5, 2.0])
    """

    is_sparse = False
    dtype: _dtype.dtype

    def __init__(
        self,
        *args: Any,
        dtype: Any = None,
        device: Any = None,
        wrap_storage: UntypedStorage | None = None,
        _internal: bool = False,
    ) -> None:
        if not _internal:
            _warn_typed_storage_removal()
        _check_cpu(device)
        if dtype is None:
            dtype = _dtype.get_default_dtype()
        self.dtype = dtype
        if wrap_storage is not None:
            if args:
                raise RuntimeError(
                    "No positional arguments should be given when using `wrap_storage`"
                )
            if not isinstance(wrap_storage, UntypedStorage):
                raise TypeError(
                    "expected a minigrad.storage.UntypedStorage for argument 'wrap_storage', "
                    f"but got {type(wrap_storage).__name__}"
                )
            self._untyped_storage = wrap_storage
            return
        itemsize = dtype.numpy.itemsize
        if not args:
            self._untyped_storage = UntypedStorage(0)
        elif len(args) == 1 and isinstance(args[0], int) and not isinstance(args[0], bool):
            self._untyped_storage = UntypedStorage(args[0] * itemsize)
        elif len(args) == 1 and isinstance(args[0], (list, tuple)):
            values = np.array(args[0], dtype=dtype.numpy)
            storage = UntypedStorage(values.nbytes)
            storage._bytes[...] = values.view(np.uint8)
            self._untyped_storage = storage
        else:
            got = ", ".join(type(a).__name__ for a in args)
            raise TypeError(f"TypedStorage(): no constructor takes ({got})")

    # --- the elements, as a tensor over the memory -------------------------------------------

    def _elements(self) -> Any:
        """A plain tensor over the whole storage (PyTorch reads and writes through one)."""
        from minigrad.tensor import Tensor  # (tensor.py builds on this module)

        return Tensor._make(_memory.typed(self._untyped_storage._bytes, self.dtype.numpy))

    def _size(self) -> int:
        return self._untyped_storage.nbytes() // self.dtype.numpy.itemsize

    def size(self) -> int:
        """The number of elements."""
        _warn_typed_storage_removal()
        return self._size()

    def __len__(self) -> int:
        _warn_typed_storage_removal()
        return self._size()

    def nbytes(self) -> int:
        """The size in bytes."""
        _warn_typed_storage_removal()
        return self._untyped_storage.nbytes()

    def element_size(self) -> int:
        """The bytes one element takes."""
        _warn_typed_storage_removal()
        return self.dtype.numpy.itemsize

    def data_ptr(self) -> int:
        """The address of the first element (0 for an empty storage)."""
        _warn_typed_storage_removal()
        return self._untyped_storage.data_ptr()

    @property
    def device(self) -> _device.device:
        """``device(type='cpu')``."""
        _warn_typed_storage_removal()
        return _device.CPU

    def get_device(self) -> None:
        """The device index: None for the CPU."""
        _warn_typed_storage_removal()
        return None

    def untyped(self) -> UntypedStorage:
        """The UntypedStorage this one counts in elements."""
        _warn_typed_storage_removal()
        return self._untyped_storage

    def _legacy_name(self) -> str | None:
        for legacy in _LEGACY:
            if legacy._legacy_dtype is self.dtype:
                return legacy.__name__
        return None

    def type(self, dtype: Any = None, non_blocking: bool = False) -> str:
        """The legacy type name, e.g. ``'minigrad.FloatStorage'``."""
        _warn_typed_storage_removal()
        if dtype is not None:
            raise NotImplementedError("minigrad: TypedStorage.type(dtype) converts nothing")
        name = self._legacy_name()
        return f"minigrad.{name}" if name else "minigrad.storage.TypedStorage"

    def pickle_storage_type(self) -> str:
        """The legacy type's short name, e.g. ``'FloatStorage'``."""
        _warn_typed_storage_removal()
        name = self._legacy_name()
        if name is None:
            raise KeyError(f"dtype {self.dtype} is not recognized")
        return name

    def _wrap_index(self, index: Any) -> int:
        if type(index) is not int:
            raise TypeError(f"can't index a {type(self)} with {type(index)}")
        n = self._size()
        if index >= n or index < -n:
            raise IndexError(f"index {index} out of range for storage of size {n}")
        return index % n

    def __getitem__(self, index: Any) -> Any:
        _warn_typed_storage_removal()
        if isinstance(index, slice):
            raise RuntimeError("slices are only supported in UntypedStorage.__getitem__")
        if not isinstance(index, int):
            raise RuntimeError(f"can't index a {type(self)} with {type(index)}")
        return self._elements()[self._wrap_index(index)].item()

    def __setitem__(self, index: Any, value: Any) -> None:
        _warn_typed_storage_removal()
        if not isinstance(index, (int, slice)):
            raise RuntimeError(f"can't index a {type(self)} with {type(index)}")
        if isinstance(value, (UntypedStorage, TypedStorage)):
            raise RuntimeError(f"cannot set item with value type {type(value)}")
        self._elements()[index] = value  # (a fresh tensor: its version is nobody's)

    def __iter__(self) -> Iterator[Any]:
        _warn_typed_storage_removal()
        return iter(self._elements().tolist())

    def tolist(self) -> list[Any]:
        """The elements as a list of Python numbers."""
        _warn_typed_storage_removal()
        return self._elements().tolist()

    def fill_(self, value: Any) -> TypedStorage:
        """Set every element to ``value``."""
        _warn_typed_storage_removal()
        self._elements().fill_(value)
        return self

    def copy_(self, source: Any, non_blocking: bool | None = None) -> TypedStorage:
        """Copy the bytes of ``source``, a storage of the same size in bytes."""
        _warn_typed_storage_removal()
        if isinstance(source, TypedStorage):
            source = source._untyped_storage
        self._untyped_storage.copy_(source, non_blocking)
        return self

    def _new_wrapped_storage(self, untyped: UntypedStorage) -> TypedStorage:
        return TypedStorage(wrap_storage=untyped, dtype=self.dtype, _internal=True)

    def clone(self) -> TypedStorage:
        """A copy in new memory."""
        _warn_typed_storage_removal()
        return self._new_wrapped_storage(self._untyped_storage.clone())

    def cpu(self) -> TypedStorage:
        """This storage's memory on the CPU (a new wrapper of the same memory)."""
        _warn_typed_storage_removal()
        return self._new_wrapped_storage(self._untyped_storage.cpu())

    def __copy__(self) -> TypedStorage:
        _warn_typed_storage_removal()
        return self._new_wrapped_storage(copy.copy(self._untyped_storage))

    def __deepcopy__(self, memo: dict[Any, Any]) -> TypedStorage:
        _warn_typed_storage_removal()
        return self._new_wrapped_storage(copy.deepcopy(self._untyped_storage, memo))

    def is_pinned(self, device: Any = None) -> bool:
        """False: there is no accelerator, so no page-locked memory."""
        _warn_typed_storage_removal()
        return False

    def is_shared(self) -> bool:
        """Whether the memory was marked shared."""
        _warn_typed_storage_removal()
        return self._untyped_storage.is_shared()

    def share_memory_(self) -> TypedStorage:
        """Mark the memory shared (see ``UntypedStorage.share_memory_``)."""
        _warn_typed_storage_removal()
        self._untyped_storage.share_memory_()
        return self

    def resize_(self, size: int) -> None:
        """Make the storage ``size`` elements long (``UntypedStorage.resize_``'s rules)."""
        _warn_typed_storage_removal()
        self._untyped_storage.resize_(operator.index(size) * self.dtype.numpy.itemsize)

    def __str__(self) -> str:
        _warn_typed_storage_removal()
        kind = "minigrad.storage.TypedStorage"
        info = f"[{kind}(dtype={self.dtype}, device=cpu) of size {self._size()}]"
        data = " " + "\n ".join(str(v) for v in self._elements().tolist())
        return f"{data}\n{info}"

    def __repr__(self) -> str:
        return str(self)


class _LegacyStorageMeta(type):
    """``isinstance(x.storage(), FloatStorage)`` asks for a TypedStorage of float32."""

    _legacy_dtype: _dtype.dtype

    def __instancecheck__(cls, instance: Any) -> bool:
        if type(instance) is TypedStorage:
            return instance.dtype is cls._legacy_dtype
        return super().__instancecheck__(instance)


class _LegacyStorage(TypedStorage, metaclass=_LegacyStorageMeta):
    """The base of ``FloatStorage`` & co.: a TypedStorage whose class says the dtype."""

    _legacy_dtype: _dtype.dtype

    def __new__(cls, *args: Any, wrap_storage: UntypedStorage | None = None) -> Any:
        """A TypedStorage of the class's dtype (PyTorch's type of it is TypedStorage too)."""
        return TypedStorage(*args, dtype=cls._legacy_dtype, wrap_storage=wrap_storage)


class DoubleStorage(_LegacyStorage):
    """A TypedStorage of float64."""

    _legacy_dtype = _dtype.float64


class FloatStorage(_LegacyStorage):
    """A TypedStorage of float32."""

    _legacy_dtype = _dtype.float32


class HalfStorage(_LegacyStorage):
    """A TypedStorage of float16."""

    _legacy_dtype = _dtype.float16


class LongStorage(_LegacyStorage):
    """A TypedStorage of int64."""

    _legacy_dtype = _dtype.int64


class IntStorage(_LegacyStorage):
    """A TypedStorage of int32."""

    _legacy_dtype = _dtype.int32


class ShortStorage(_LegacyStorage):
    """A TypedStorage of int16."""

    _legacy_dtype = _dtype.int16


class CharStorage(_LegacyStorage):
    """A TypedStorage of int8."""

    _legacy_dtype = _dtype.int8


class ByteStorage(_LegacyStorage):
    """A TypedStorage of uint8."""

    _legacy_dtype = _dtype.uint8


class BoolStorage(_LegacyStorage):
    """A TypedStorage of bool."""

    _legacy_dtype = _dtype.bool_


_LEGACY = (
    DoubleStorage,
    FloatStorage,
    HalfStorage,
    LongStorage,
    IntStorage,
    ShortStorage,
    CharStorage,
    ByteStorage,
    BoolStorage,
)


def is_storage(obj: Any) -> bool:
    """True if ``obj`` is a storage (untyped or typed).

    Example:
        >>> import minigrad
        >>> minigrad.is_storage(minigrad.zeros(2).untyped_storage()), minigrad.is_storage(1)
        (True, False)
    """
    return isinstance(obj, (UntypedStorage, TypedStorage))
