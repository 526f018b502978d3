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

What can be saved: tensors (and ``nn.Parameter``), ``None``, bools, ints, floats (inf and nan
too), strings, and lists, tuples, dicts, ``OrderedDict`` (with a ``state_dict``'s
``_metadata``) and ``Counter`` of those: module, optimizer and scheduler state dicts. Tensors
that view the same memory the same way are stored once and come back as aliases (one buffer,
one version counter), as tied weights do in PyTorch.
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
from minigrad.tensor import Tensor

__all__ = ["LoadError", "load", "save"]

FORMAT = "minigrad.save"
VERSION = 1
STRUCTURE_ENTRY = "__minigrad__"
FileLike = str | os.PathLike | IO[bytes]


class LoadError(RuntimeError):
    """A file that ``minigrad.load`` refuses: corrupt, truncated, foreign or unsafe."""


# --- saving -----------------------------------------------------------------------------------


class _Encoder:
    """Turns an object into a JSON-able structure plus the list of arrays it references."""

    def __init__(self) -> None:
        self.arrays: list[np.ndarray] = []
        self._index_of_view: dict[tuple[Any, ...], int] = {}

    def encode(self, obj: Any) -> Any:
        """``obj`` as JSON-able data, its tensors' buffers collected in ``self.arrays``."""
        if isinstance(obj, TensorBase):
            return self._tensor(obj)
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

    def _tensor(self, tensor: TensorBase) -> dict[str, Any]:
        array = tensor._array
        view_key = (
            array.__array_interface__["data"][0], array.shape, array.strides, array.dtype.str
        )
        index = self._index_of_view.get(view_key)
        if index is None:
            index = self._index_of_view[view_key] = len(self.arrays)
            self.arrays.append(array if array.flags.c_contiguous else array.copy(order="C"))
        return {
            "type": "tensor",
            "index": index,
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
        self._tensors: dict[int, TensorBase] = {}

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
            return self._tensor(node)
        raise LoadError(f"unknown node {_short(node)}")

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

    def _tensor(self, node: dict[str, Any]) -> TensorBase:
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
    if structure.get("version") != VERSION:
        raise LoadError(
            f"minigrad.load: {where} was written in format version "
            f"{structure.get('version')!r}; this minigrad reads version {VERSION}"
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

