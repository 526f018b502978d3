"""``minigrad.save`` and ``minigrad.load``: checkpoints that can never run code when loaded.

PyTorch's ``torch.save`` pickles, and unpickling a file can run arbitrary code. minigrad
writes a numpy ``.npz`` archive instead (a zip of ``.npy`` arrays):

- ``t0.npy``, ``t1.npy``, ...: the data of each tensor, a plain numeric array;
- ``__minigrad__.npy``: the structure as UTF-8 JSON stored in a ``uint8`` array, e.g.
  ``{"format": "minigrad.save", "version": 1, "root": {"type": "dict", "items": [...]}}``.

Loading reads the archive with ``np.load(..., allow_pickle=False)`` and parses JSON, so no
code from the file ever runs; every node of the structure is checked (known type, existing
array, supported dtype) and the whole object is built before anything is returned, so a
corrupt, truncated or foreign file raises ``minigrad.serialization.LoadError`` and leaves
nothing half-loaded. (``Module.load_state_dict`` likewise checks every key and shape before it
writes.)

What can be saved: tensors (and ``nn.Parameter``), storages (``UntypedStorage``,
``TypedStorage``), ``None``, bools, ints, floats (inf and nan too), strings, and lists, tuples,
dicts, ``OrderedDict`` (with a ``state_dict``'s ``_metadata``) and ``Counter`` of those:
module, optimizer and scheduler state dicts. As PyTorch's, a file stores storages, each once,
whole, in the one dtype its tensors see it in (two dtypes over one memory are refused), and
each tensor as a geometry on one (offset, sizes, strides): tensors that shared memory share
it again after loading (each with a version counter of its own, at 1), and one tensor object
saved twice loads as one object. A saved ``UntypedStorage`` loads as a ``TypedStorage`` of
uint8, as in PyTorch. (Format version 1, a buffer per tensor, is still read.)
"""

from __future__ import annotations

import json
import os
import zipfile
from collections import Counter, OrderedDict
from typing import IO, Any

import numpy as np

from minigrad._dtype import from_numpy_dtype
from minigrad.autograd.tensor_base import TensorBase
from minigrad.nn.parameter import Parameter
from minigrad.ops.setting import _geometry_array
from minigrad.storage import TypedStorage, UntypedStorage
from minigrad.tensor import Tensor

__all__ = ["LoadError", "load", "save"]

FORMAT = "minigrad.save"
VERSION = 2
READABLE_VERSIONS = (1, 2)  # (version 1: a buffer per distinct view, no storages)
STRUCTURE_ENTRY = "__minigrad__"
FileLike = str | os.PathLike | IO[bytes]


class LoadError(RuntimeError):
    """A file that ``minigrad.load`` refuses: corrupt, truncated, foreign or unsafe."""


# --- saving -----------------------------------------------------------------------------------


class _Encoder:
    """Turns an object into a JSON-able structure plus the list of arrays it references."""

    def __init__(self) -> None:
        self.arrays: list[np.ndarray] = []
        # id(the memory's root) -> (its entry, the dtype it is saved in)
        self._storages: dict[int, tuple[int, np.dtype]] = {}
        self._tensor_ids: dict[int, int] = {}  # id(tensor) -> the number its node carries
        self._kept: list[Any] = []  # (the tensors numbered: alive, so no id is reused)

    def encode(self, obj: Any) -> Any:
        """``obj`` as JSON-able data, its storages' memory collected in ``self.arrays``."""
        if isinstance(obj, TensorBase):
            return self._tensor(obj)
        if isinstance(obj, (UntypedStorage, TypedStorage)):
            typed = isinstance(obj, TypedStorage)
            untyped = obj._untyped_storage if typed else obj
            dtype = obj.dtype.numpy if typed else np.dtype(np.uint8)
            return {"type": "storage", "storage": self._storage(untyped, dtype)}
        if obj is None:
            return {"type": "none"}
        if isinstance(obj, (bool, str)):
            return {"type": type(obj).__name__, "value": obj}
        if isinstance(obj, int):
            return {"type": "int", "value": int(obj)}
        if isinstance(obj, float):
            return {"type": "float", "value": repr(float(obj))}  # repr keeps inf, nan, all bits
        if isinstance(obj, (list, tuple)) and type(obj) in (list, tuple):
            return {"type": type(obj).__name__, "items": [self.encode(item) for item in obj]}
        if isinstance(obj, dict) and type(obj) in (dict, OrderedDict, Counter):
            node: dict[str, Any] = {
                "type": {dict: "dict", OrderedDict: "ordered_dict", Counter: "counter"}[type(obj)],
                "items": [[self.encode(k), self.encode(v)] for k, v in obj.items()],
            }
            metadata = getattr(obj, "_metadata", None)
            if metadata is not None:
                node["metadata"] = self.encode(metadata)
            return node
        raise TypeError(
            f"minigrad.save cannot store an object of type {type(obj).__module__}."
            f"{type(obj).__qualname__}: only tensors, None, bools, ints, floats, strings, and "
            "lists, tuples and dicts of them (e.g. a model's or an optimizer's state_dict())"
        )

    def _storage(self, storage: UntypedStorage, dtype: np.dtype) -> int:
        """The entry of ``storage``'s whole memory, seen as ``dtype`` (saved on first use)."""
        saved = self._storages.get(id(storage._root))
        if saved is not None:
            if saved[1] != dtype:
                raise RuntimeError(
                    "Cannot save multiple tensors or storages that view the same data as "
                    "different types")
            return saved[0]
        memory = storage._bytes
        index = len(self.arrays)
        self.arrays.append(memory[: memory.size - memory.size % dtype.itemsize].view(dtype))
        self._storages[id(storage._root)] = (index, dtype)
        return index

    def _tensor(self, tensor: TensorBase) -> dict[str, Any]:
        number = self._tensor_ids.get(id(tensor))
        if number is None:
            number = self._tensor_ids[id(tensor)] = len(self._kept)
            self._kept.append(tensor)
        array = tensor._array
        return {
            "type": "tensor",
            "id": number,
            "storage": self._storage(UntypedStorage._of(array), array.dtype),
            "offset": tensor.storage_offset(),
            "size": list(array.shape),
            "stride": list(tensor.stride()),
            "requires_grad": bool(tensor.requires_grad),
            "parameter": isinstance(tensor, Parameter),
        }


def save(obj: Any, f: FileLike) -> None:
    """Save ``obj`` (tensors, state dicts, nested containers of them) to ``f``.

    ``f`` is a path (written as given, no extension added; an existing file is replaced only
    once the new one is complete) or a writable binary file object.

    Example:
        >>> import io, minigrad
        >>> from minigrad import nn
        >>> buffer = io.BytesIO()
        >>> minigrad.save(nn.Linear(2, 1).state_dict(), buffer)
        >>> _ = buffer.seek(0)
        >>> sorted(minigrad.load(buffer))
        ['bias', 'weight']
    """
    encoder = _Encoder()
    structure = {"format": FORMAT, "version": VERSION, "root": encoder.encode(obj)}
    entries = {f"t{i}": array for i, array in enumerate(encoder.arrays)}
    entries[STRUCTURE_ENTRY] = np.frombuffer(json.dumps(structure).encode("utf-8"), np.uint8)
    if not isinstance(f, (str, os.PathLike)):
        np.savez(f, **entries)
        return
    path = os.fspath(f)
    partial = path + ".partial"
    try:
        with open(partial, "wb") as file:  # a file object: numpy would append ".npz" to a path
            np.savez(file, **entries)
        os.replace(partial, path)
    finally:
        if os.path.exists(partial):
            os.remove(partial)


# --- loading ----------------------------------------------------------------------------------


class _Decoder:
    """Builds objects from a checked structure; every problem is a LoadError."""

    def __init__(self, arrays: dict[str, np.ndarray]) -> None:
        self.arrays = arrays
        self.used: set[str] = set()
        self._tensors: dict[int, TensorBase] = {}  # version 1: by buffer; 2: by tensor number
        self._memories: dict[int, np.ndarray] = {}  # a storage's entry -> its memory (bytes)
        self._storage_objects: dict[Any, TypedStorage] = {}  # a storage's entry -> it

    def decode(self, node: Any) -> Any:
        """The object ``encode`` turned into ``node``, tensors rebuilt on the loaded buffers."""
        kind = node.get("type") if isinstance(node, dict) else None
        if kind == "none":
            return None
        if kind in ("bool", "int", "str"):
            value = node.get("value")
            if type(value) is not {"bool": bool, "int": int, "str": str}[kind]:
                raise LoadError(f"a {kind} node holds {value!r}")
            return value
        if kind == "float":
            return self._float(node.get("value"))
        if kind in ("list", "tuple"):
            items = [self.decode(item) for item in self._list(node, "items")]
            return items if kind == "list" else tuple(items)
        if kind in ("dict", "ordered_dict", "counter"):
            return self._mapping(node, kind)
        if kind == "tensor":
            return self._tensor(node) if "storage" in node else self._tensor_v1(node)
        if kind == "storage":  # (one object per storage saved, as PyTorch's memo)
            index = node.get("storage")
            storage = self._storage_objects.get(index)
            if storage is None:
                dtype = from_numpy_dtype(self._dtype_of(index))
                storage = self._storage_objects[index] = TypedStorage(
                    wrap_storage=UntypedStorage._of(self._memory(index)), dtype=dtype,
                    _internal=True)
            return storage
        raise LoadError(f"unknown node {_short(node)}")

    def _entry(self, index: Any) -> tuple[str, np.ndarray]:
        """The array entry ``index`` names (``t0``, ``t1``, ...), marked used."""
        name = f"t{index}"
        if type(index) is not int or name not in self.arrays:
            raise LoadError(f"a node refers to array {name!r}, which the file does not have")
        self.used.add(name)
        return name, self.arrays[name]

    def _dtype_of(self, index: Any) -> np.dtype:
        name, array = self._entry(index)
        try:
            from_numpy_dtype(array.dtype)
        except TypeError:
            raise LoadError(f"array {name!r} has an unsupported dtype {array.dtype}") from None
        return array.dtype

    def _memory(self, index: Any) -> np.ndarray:
        """Storage ``index``'s memory as bytes: one array however many tensors use it."""
        memory = self._memories.get(index)
        if memory is None:
            name, array = self._entry(index)
            if array.ndim != 1:
                raise LoadError(f"storage {name!r} is not a 1-D array")
            memory = self._memories[index] = np.ascontiguousarray(array).view(np.uint8)
        return memory

    def _tensor(self, node: dict[str, Any]) -> TensorBase:
        number, offset, size, stride = (
            node.get("id"), node.get("offset"), node.get("size"), node.get("stride"))
        requires_grad, parameter = node.get("requires_grad"), node.get("parameter")
        if (type(number) is not int or type(offset) is not int
                or not _int_list(size) or not _int_list(stride)
                or type(requires_grad) is not bool or type(parameter) is not bool):
            raise LoadError(f"malformed tensor node {_short(node)}")
        loaded = self._tensors.get(number)
        if loaded is not None:  # the same tensor object, saved again: the same object
            return loaded
        dtype = self._dtype_of(node.get("storage"))
        if requires_grad and not from_numpy_dtype(dtype).is_floating_point:
            raise LoadError(f"a tensor of dtype {dtype} cannot require grad")
        memory = self._memory(node.get("storage"))
        reach = 0 if 0 in size else 1 + sum((n - 1) * s for n, s in zip(size, stride))
        if (offset + reach) * dtype.itemsize > memory.size:
            raise LoadError(f"tensor node {_short(node)} reaches past the end of its storage "
                            f"({(offset + reach) * dtype.itemsize} bytes of {memory.size})")
        try:
            array = _geometry_array(memory, dtype, offset, tuple(size), tuple(stride))
        except RuntimeError as error:  # (a geometry past the storage's end, a negative size)
            raise LoadError(f"tensor node {_short(node)}: {error}") from None
        if not array.size:  # (set_'s geometry zeroes an empty tensor's strides; keep them)
            array = np.ndarray(array.shape, dtype, buffer=array.base,
                               offset=offset * dtype.itemsize,
                               strides=tuple(n * dtype.itemsize for n in stride))
        tensor = Tensor._make(array)
        tensor._version_counter().bump()  # (PyTorch's load sets each tensor's memory: version 1)
        if parameter:
            tensor = Parameter(tensor, requires_grad=requires_grad)
        elif requires_grad:
            tensor.requires_grad_(True)
        self._tensors[number] = tensor
        return tensor

    @staticmethod
    def _float(text: Any) -> float:
        if not isinstance(text, str):
            raise LoadError(f"a float node holds {text!r}")
        try:
            return float(text)
        except ValueError:
            raise LoadError(f"a float node holds {text!r}") from None

    @staticmethod
    def _list(node: dict[str, Any], key: str) -> list[Any]:
        value = node.get(key)
        if not isinstance(value, list):
            raise LoadError(f"node {_short(node)} has no list {key!r}")
        return value

    def _mapping(self, node: dict[str, Any], kind: str) -> Any:
        result: Any = {"dict": dict, "ordered_dict": OrderedDict, "counter": Counter}[kind]()
        for pair in self._list(node, "items"):
            if not (isinstance(pair, list) and len(pair) == 2):
                raise LoadError(f"a {kind} item is not a [key, value] pair: {_short(pair)}")
            key = self.decode(pair[0])
            try:
                hash(key)
            except TypeError:
                raise LoadError(f"a {kind} key is not hashable: {_short(pair[0])}") from None
            result[key] = self.decode(pair[1])
        if "metadata" in node:
            if kind != "ordered_dict":
                raise LoadError(f"a {kind} node cannot carry metadata")
            result._metadata = self.decode(node["metadata"])
        return result

    def _tensor_v1(self, node: dict[str, Any]) -> TensorBase:
        """A tensor node of format version 1: a buffer of its own, or an alias of another's."""
        index, requires_grad, parameter = (
            node.get("index"), node.get("requires_grad"), node.get("parameter")
        )
        if type(index) is not int or type(requires_grad) is not bool or (
            type(parameter) is not bool
        ):
            raise LoadError(f"malformed tensor node {_short(node)}")
        name = f"t{index}"
        if name not in self.arrays:
            raise LoadError(f"a tensor refers to array {name!r}, which the file does not have")
        self.used.add(name)
        shared = self._tensors.get(index)
        if shared is not None:  # another view of memory already loaded: an alias, as saved
            tensor = shared.detach()
        else:
            array = self.arrays[name]
            try:
                dtype = from_numpy_dtype(array.dtype)
            except TypeError:
                raise LoadError(f"array {name!r} has an unsupported dtype {array.dtype}") from None
            if requires_grad and not dtype.is_floating_point:
                raise LoadError(f"array {name!r} of dtype {array.dtype} cannot require grad")
            tensor = self._tensors[index] = Tensor._make(array)
        if parameter:
            return Parameter(tensor, requires_grad=requires_grad)
        return tensor.requires_grad_(requires_grad) if requires_grad else tensor


def _int_list(value: Any) -> bool:
    return isinstance(value, list) and all(type(item) is int for item in value)


def _short(node: Any) -> str:
    text = json.dumps(node) if not isinstance(node, str) else repr(node)
    return text if len(text) <= 80 else text[:77] + "..."


def _describe(f: Any) -> str:
    return repr(os.fspath(f)) if isinstance(f, (str, os.PathLike)) else "the file object"


def _magic(file: IO[bytes]) -> bytes:
    """The first bytes of ``file``; its read position is restored."""
    start = file.tell()
    head = file.read(6)
    file.seek(start)
    return head


def _not_ours(where: str, what: str) -> LoadError:
    return LoadError(
        f"minigrad.load: {where} is not a file written by minigrad.save: {what}. minigrad never "
        "unpickles; to use a PyTorch checkpoint, load it with torch.load(..., "
        "weights_only=True) and save its tensors with minigrad.save."
    )


def _read_entries(file: IO[bytes], where: str) -> dict[str, np.ndarray]:
    """Every array of the archive, read without unpickling; LoadError if it is not one."""
    head = _magic(file)
    if not head.startswith(b"PK\x03\x04"):
        if head.startswith(b"\x93NUMPY"):
            raise _not_ours(where, "it is a single numpy array (.npy)")
        if head[:1] == b"\x80":
            raise _not_ours(where, "it is a Python pickle (e.g. torch.save's legacy format)")
        raise _not_ours(where, "it is not a zip archive" if head else "it is empty")
    try:
        archive = np.load(file, allow_pickle=False)
        names = list(archive.files)
    except (OSError, ValueError, EOFError, zipfile.BadZipFile) as error:
        raise _not_ours(where, f"it is not a readable zip archive ({error})") from None
    with archive:
        if STRUCTURE_ENTRY not in names:
            if any(name.endswith("data.pkl") for name in archive.zip.namelist()):
                raise _not_ours(where, "it is a PyTorch checkpoint (torch.save)")
            raise _not_ours(where, f"it has no {STRUCTURE_ENTRY!r} entry (a plain .npz archive?)")
        entries = {}
        for name in names:
            try:
                entries[name] = archive[name]
            except ValueError as error:
                if "allow_pickle" in str(error):
                    raise LoadError(
                        f"minigrad.load: {where}: entry {name!r} is a pickled object array; "
                        "minigrad never unpickles, so it refuses the file"
                    ) from None
                raise LoadError(
                    f"minigrad.load: {where}: entry {name!r} is corrupt ({error})"
                ) from None
            except (OSError, EOFError, zipfile.BadZipFile) as error:
                raise LoadError(
                    f"minigrad.load: {where}: entry {name!r} is corrupt ({error})"
                ) from None
    return entries


def _read_structure(entries: dict[str, np.ndarray], where: str) -> Any:
    raw = entries.pop(STRUCTURE_ENTRY)
    if raw.dtype != np.uint8 or raw.ndim != 1:
        raise LoadError(f"minigrad.load: {where}: the structure entry is not UTF-8 bytes")
    try:
        structure = json.loads(raw.tobytes().decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError) as error:
        raise LoadError(
            f"minigrad.load: {where}: the structure is not valid JSON ({error})"
        ) from None
    if not isinstance(structure, dict) or structure.get("format") != FORMAT:
        raise LoadError(
            f"minigrad.load: {where}: the structure does not name the {FORMAT!r} format"
        )
    if structure.get("version") not in READABLE_VERSIONS:
        raise LoadError(
            f"minigrad.load: {where} was written in format version "
            f"{structure.get('version')!r}; this minigrad reads versions "
            f"{' and '.join(str(version) for version in READABLE_VERSIONS)}"
        )
    if "root" not in structure:
        raise LoadError(f"minigrad.load: {where}: the structure has no root object")
    return structure["root"]


def load(f: FileLike, map_location: Any = None, *, weights_only: bool | None = None) -> Any:
    """Load an object written by ``minigrad.save`` from a path or a binary file object.

    Never runs code from the file: the archive is read with ``allow_pickle=False`` and the
    structure is JSON. ``map_location`` may only name the CPU; ``weights_only`` is accepted
    for PyTorch compatibility (minigrad always loads data only).

    Raises:
        LoadError: the file is not a complete, valid minigrad file (a PyTorch pickle, a plain
            .npz, a truncated or tampered archive, an object array, an unknown node, ...).
            Nothing is returned in part.

    Example:
        >>> import io, minigrad
        >>> buffer = io.BytesIO()
        >>> minigrad.save({"w": minigrad.tensor([1.0, 2.0]), "step": 3}, buffer)
        >>> _ = buffer.seek(0)
        >>> minigrad.load(buffer)
        {'w': tensor([1., 2.]), 'step': 3}
    """
    if map_location is not None and str(map_location) != "cpu":
        raise RuntimeError(f"minigrad runs on the CPU only, not on {map_location!r}")
    where = _describe(f)
    if isinstance(f, (str, os.PathLike)):
        with open(f, "rb") as file:
            entries = _read_entries(file, where)
    else:
        entries = _read_entries(f, where)
    root = _read_structure(entries, where)
    decoder = _Decoder(entries)
    try:
        result = decoder.decode(root)
    except LoadError as error:
        raise LoadError(f"minigrad.load: {where} is corrupt: {error}") from None
    except RecursionError:
        raise LoadError(f"minigrad.load: {where}: the structure is nested too deeply") from None
    unused = sorted(set(entries) - decoder.used)
    if unused:
        raise LoadError(
            f"minigrad.load: {where} is corrupt: entries {unused[:5]} belong to no object"
        )
    return result

