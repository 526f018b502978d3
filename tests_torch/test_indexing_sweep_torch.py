"""``x[key]`` and ``x[key] = value`` swept against PyTorch 2.13 (CPU), side by side.

Keys come from a fixed list per base shape plus a seeded generator of mixed keys: ints (negative,
out of range), slices (steps, negative and out-of-range bounds, empty results, the refused
negative and zero steps), ``None``, ``...`` (also two: an error), ``True``/``False``, too many
indices; index tensors (int64 0-d/1-d/2-d, negative, empty, out of range; int32, int16, int8;
uint8 and bool masks of the full shape, of leading dims, 0-d and of a wrong shape; float: an
error), Python lists (of ints, nested, of bools, of floats), numpy arrays, and their
combinations with slices, ``None`` and ``...`` (indices next to each other or separated, which
moves the broadcast dims first; broadcasting index tensors).

The bases: shapes (), (5,), (3, 4), (2, 3, 4); contiguous, transposed (a permuted view) and
sliced (a strided view); float32, float64, int64, bool, float16.

- ``test_getitem_matches_pytorch``: the result's values, shape, dtype, strides, warnings,
  whether it is a view of the base (its ``_base``, and its values and ``_version`` after the
  base is written in place), its ``grad_fn`` and the base's gradient for a random weighting
  (float64), or the error (type and text).
- ``test_setitem_matches_pytorch``: numbers, 0-d tensors, broadcast tensors, tensors of other
  dtypes and of a wrong shape written into a plain base (the base's values, ``_version`` of the
  leaf, of the view written and of another view of it); in float64 also into a non-leaf
  requiring grad (or a view of one) with a value requiring grad (``grad_fn`` names, the
  gradients of the leaf and of the value), and into a leaf requiring grad (refused). A failed
  assignment must leave values and versions as they were: they are compared after errors too.
  Where a key selects a position twice, tensor values are constant (PyTorch's CPU result for
  distinct values there is unspecified).

One difference is kept, as the rule that decides it: PyTorch's CPU ``index_put_`` checks each
index's bounds as it writes, so a write with an out-of-range index has written the elements
before it (uncounted) when it raises; minigrad's failed ops change nothing. There PyTorch's
values are not compared, and minigrad's must be the old ones.

Each test loops over its cases with ``row_cases.check_each`` and reports every differing case.
On the base of this branch (ececaa5) 1367 of the 22514 cases differed and all 11 tests failed
(getitem 217, setitem 1143, index_put 7).
"""

from __future__ import annotations

import warnings
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
import pytest
import torch
from opinfo import OpInfo
from row_cases import Item, RowCase, check_each

import minigrad

DTYPES = ("float32", "float64", "int64", "bool", "float16")
SHAPES: tuple[tuple[int, ...], ...] = ((), (5,), (3, 4), (2, 3, 4))
LAYOUTS = ("contiguous", "transposed", "sliced")


# --- keys --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Idx:
    """An index tensor inside a key, made in each library from ``values``."""

    values: Any
    dtype: str = "int64"

    def make(self, lib: Any) -> Any:
        """The tensor in ``lib``."""
        return lib.tensor(np.asarray(self.values, dtype=self.dtype))

    def __repr__(self) -> str:
        short = {"int64": "", "bool": "b", "uint8": "u8"}.get(self.dtype, self.dtype)
        return f"T{short}{np.asarray(self.values).tolist()}"


def _make_key(lib: Any, key: Any) -> Any:
    if isinstance(key, Idx):
        return key.make(lib)
    if isinstance(key, tuple):
        return tuple(_make_key(lib, item) for item in key)
    if isinstance(key, np.ndarray):
        return key.copy()
    return key


def _label(key: Any) -> str:
    if isinstance(key, tuple):
        return "(" + ",".join(_label(k) for k in key) + ("," if len(key) == 1 else "") + ")"
    if isinstance(key, slice):
        parts = ["" if v is None else str(v) for v in (key.start, key.stop, key.step)]
        return ":".join(parts[:2] if key.step is None else parts)
    if key is Ellipsis:
        return "..."
    if isinstance(key, np.ndarray):
        return f"np{key.tolist()}"
    return repr(key)


def _basic_keys(shape: tuple[int, ...]) -> list[Any]:
    n = shape[0] if shape else 0
    keys: list[Any] = [
        0, 1, -1, n, -n - 1, 7, None, Ellipsis, True, False, (), (None,), (Ellipsis, None),
        (None, Ellipsis, None), (Ellipsis, Ellipsis), (True, None), (False, Ellipsis),
        slice(None), slice(1, 3), slice(None, None, 2), slice(-3, None), slice(None, -1),
        slice(2, 100), slice(-100, 2), slice(3, 1), slice(-1, -3), slice(1, None, 3),
        slice(None, None, -1), slice(None, None, 0), slice(n + 2, None),
        (0,), (-1, Ellipsis), (Ellipsis, 0), (Ellipsis, -1), (0,) * (len(shape) + 1),
        (slice(None),) * (len(shape) + 1), (Ellipsis,) + (0,) * len(shape),
        "a", 1.5, np.int64(1), np.int32(-1), np.bool_(True),
    ]
    if len(shape) >= 2:
        m = shape[1]
        keys += [
            (0, 1), (-1, -1), (1, m), (slice(None), 0), (slice(1, None), slice(None, None, 2)),
            (slice(None), slice(None)), (None, 0, None, slice(1, 3)), (0, slice(m, None)),
            (slice(None), -m - 1), (Ellipsis, slice(None, 1)), (True, 0, False),
            (0, True), (slice(None), slice(None, None, -2)), (0, None, -1),
        ]
    if len(shape) >= 3:
        keys += [(1, Ellipsis, 2), (slice(None), 1, slice(None, None, 2)), (None, 0, 0, 0, None),
                 (Ellipsis, 1, None, slice(1, 3)), (0, 0, 0)]
    return keys


def _advanced_keys(shape: tuple[int, ...], rng: np.random.Generator) -> list[Any]:
    n = shape[0] if shape else 1
    mask = rng.random(shape) < 0.5
    keys: list[Any] = [
        Idx(0), Idx(-1), Idx([0]), Idx([], "int64"), Idx([0, n - 1, -1]), Idx([[0, 1], [1, 0]]),
        Idx([0, n]), Idx([-n - 1]), Idx([1, 0], "int32"), Idx([1, 0], "int16"),
        Idx([0, 1], "int8"), Idx([1.0, 0.0], "float32"), Idx(1.0, "float32"),
        Idx(True, "bool"), Idx(False, "bool"), Idx(mask, "bool"), Idx(mask.astype(np.uint8),
                                                                     "uint8"),
        Idx([True] * (n + 1), "bool"), Idx(1, "uint8"),
        [0, 1], [-1], [[0], [1]], [], [True, False] + [True] * (n - 2), [1.0, 0.0], [0, [1]],
        [0, slice(None)], [None, 0], [Ellipsis], [1.5],
        np.array([0, -1]), np.array(mask), np.array([1], dtype=np.int32),
        (Ellipsis, Idx([0, -1])), (None, Idx([1, 0])), (Idx([0, 1]), None),
        (Idx(mask, "bool"), None), (Idx([0, 1]), Ellipsis),
    ]
    if len(shape) >= 1:
        keys += [Idx(mask[(slice(None),) + (0,) * (len(shape) - 1)], "bool")]
    if len(shape) >= 2:
        m = shape[1]
        lead = mask.reshape(shape[0], -1)[:, 0] if mask.size else mask
        keys += [
            Idx(mask[..., 0] if len(shape) == 3 else lead, "bool"),
            (Idx([0, 1]), Idx([1, 0])), (Idx([[0], [1]]), Idx([0, m - 1, 1])),
            (slice(1, None), Idx([0, m - 1])), (Idx([1, 0]), slice(None, None, 2)),
            (0, Idx([m - 1, 0])), (Idx([1, 0]), -1), (Idx([[1, 0]]), Idx(0)),
            (Idx([0, 1]), Idx([0, 1, 2])), (Idx([0]), Idx([m])), ([0, 1], [1, 0]),
            (slice(None), [True] * m), (slice(None), Idx([True] * (m + 1), "bool")),
            (Idx(True, "bool"), Idx([1, 0])), (Idx([0, 1]), None, Idx([1, 0])),
            (Ellipsis, Idx([[0, 1]])), (Idx([], "int64"), Idx([], "int64")),
            (Idx([0, -1]), Idx([[0], [m - 1]])), (None, Idx([1]), slice(None)),
            (slice(None), Idx([0, 1], "int32")), (Idx([1, 0], "uint8"), 0),
            (Idx([0, 0]),), (Idx([1, 1, 0]), slice(None)),
        ]
    if len(shape) >= 3:
        keys += [
            (Idx([0, 1]), slice(None), Idx([1, 0])), (Idx([1]), slice(1, 3), Idx([[0], [2]])),
            (slice(None), Idx([0, 2]), Idx([1, 3])), (Idx([0, 1]), 0, Idx([3, 2])),
            (Ellipsis, Idx([1, 0]), slice(None)), (0, Idx(mask[0], "bool")),
            (Idx(mask[:, :, 0], "bool"), Idx([0, 1, 2, 0][: int(mask[:, :, 0].sum())])),
            (Idx([1, 0]), None, slice(None), Idx([0, 3])), (slice(None), None, Idx([[1, 0]]), 1),
            (Idx([0, 1]), Ellipsis, Idx([1, 2])), (Idx([[0, 1], [1, 0]]), Idx([2]), Idx([3])),
        ]
    return keys


def _random_item(shape: tuple[int, ...], dim: int, rng: np.random.Generator) -> Any:
    size = shape[dim] if dim < len(shape) else 1
    choice = rng.integers(8)
    if choice == 0:
        return int(rng.integers(-size, size))
    if choice == 1:
        start, stop = (int(v) for v in rng.integers(-size - 1, size + 2, 2))
        return slice(start, stop, int(rng.integers(1, 3)))
    if choice == 2:
        return None
    if choice == 3:
        return slice(None)
    if choice == 4:
        length = int(rng.integers(0, 3))
        return Idx(rng.integers(-size, size, length).tolist() if size else [])
    if choice == 5:
        return Idx(rng.integers(-size, size, (2, 1)).tolist() if size else [[]])
    if choice == 6:
        return [int(v) for v in rng.integers(-size, size, 2)] if size else []
    return Idx(rng.random(size) < 0.5, "bool")


def _random_keys(shape: tuple[int, ...], rng: np.random.Generator, count: int) -> list[Any]:
    keys = []
    for _ in range(count):
        length = int(rng.integers(1, len(shape) + 2))
        items, dim = [], 0
        for _ in range(length):
            item = _random_item(shape, dim, rng)
            items.append(item)
            dim += item is not None
        if rng.random() < 0.2:
            items.insert(int(rng.integers(len(items) + 1)), Ellipsis)
        keys.append(tuple(items))
    return keys


def keys_for(shape: tuple[int, ...], random: int) -> list[Any]:
    """The keys of the sweep for a base of ``shape``: the fixed ones, ``random`` drawn ones."""
    rng = np.random.default_rng(len(shape))
    return _basic_keys(shape) + _advanced_keys(shape, rng) + _random_keys(shape, rng, random)


# --- bases -------------------------------------------------------------------------------------


# float32 and float64 take every key and layout; the other dtypes (whose indexing is the same
# code: they check dtype-specific values, casts and texts) the fixed keys, fewer layouts and
# values, for CI time.
FULL = ("float32", "float64")


def _base_layouts(shape: tuple[int, ...], dtype: str) -> tuple[str, ...]:
    if not shape:
        return ("contiguous",)
    if len(shape) == 1:
        return ("contiguous", "sliced")
    return LAYOUTS if dtype in FULL or len(shape) == 2 else ("contiguous",)


def _data(shape: tuple[int, ...], dtype: str, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    if dtype == "bool":
        return rng.random(shape) < 0.5
    if dtype == "int64":
        return rng.integers(-5, 6, shape).astype(np.int64)
    return np.round(rng.standard_normal(shape), 3).astype(dtype)


def _leaf_array(shape: tuple[int, ...], layout: str, dtype: str, seed: int = 0) -> np.ndarray:
    if layout == "transposed":
        return _data(shape[::-1], dtype, seed)
    if layout == "sliced":
        return _data(shape[:-1] + (2 * shape[-1],), dtype, seed)
    return _data(shape, dtype, seed)


def _view(lib: Any, leaf: Any, layout: str) -> Any:
    if layout == "transposed":
        return leaf.permute(*reversed(range(leaf.dim())))
    if layout == "sliced":
        return leaf[..., ::2]
    return leaf


# --- observing ---------------------------------------------------------------------------------


def _text(error: BaseException | Warning) -> tuple[str, str]:
    message = str(error).split(" (Triggered internally at")[0]
    return type(error).__name__, message.replace("torch", "minigrad")


def _array(t: Any) -> np.ndarray:
    return t.detach().numpy().copy()


def _name(t: Any) -> str | None:
    return None if t.grad_fn is None else t.grad_fn.name()


def _compare(want: Any, got: Any, where: str) -> None:
    if isinstance(want, dict):
        assert want.keys() == got.keys(), f"{where}: {sorted(want)} != {sorted(got)}: {got}"
        for key in want:
            _compare(want[key], got[key], f"{where}.{key}")
    elif isinstance(want, list | tuple):
        assert isinstance(got, list | tuple) and len(want) == len(got), (
            f"{where}: {want!r} != {got!r}")
        for i, (w, g) in enumerate(zip(want, got, strict=True)):
            _compare(w, g, f"{where}[{i}]")
    elif isinstance(want, np.ndarray):
        assert isinstance(got, np.ndarray), f"{where}: {want!r} != {got!r}"
        assert (want.dtype, want.shape) == (got.dtype, got.shape), (
            f"{where}: {want.dtype}{want.shape} != {got.dtype}{got.shape}")
        if want.dtype.kind == "f":
            np.testing.assert_allclose(got, want, rtol=1e-6, atol=1e-12, err_msg=where)
        else:
            assert np.array_equal(want, got), f"{where}: {want} != {got}"
    else:
        assert want == got, f"{where}: {want!r} != {got!r}"


def _catching(observed: dict[str, Any], call: Callable[[], Any]) -> Any:
    """``call()``; its warnings (and error) recorded in ``observed``; None if it raised."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            result = call()
        except Exception as error:  # noqa: BLE001 - the error is the outcome compared
            observed["error"] = _text(error)
            result = None
    observed["warnings"] = [_text(w.message) for w in caught]
    return result


@dataclass(frozen=True)
class Get:
    """One getitem case."""

    shape: tuple[int, ...]
    layout: str
    dtype: str
    key: Any


def _getitem(lib: Any, case: Get) -> dict[str, Any]:
    observed: dict[str, Any] = {}
    leaf = lib.tensor(_leaf_array(case.shape, case.layout, case.dtype))
    base = _view(lib, leaf, case.layout)
    key = _make_key(lib, case.key)
    out = _catching(observed, lambda: base[key])
    if out is None:
        return observed
    observed.update(values=_array(out), stride=out.stride(), view=out._base is leaf,
                    version=out._version)
    leaf.copy_(lib.tensor(_leaf_array(case.shape, case.layout, case.dtype, seed=1)))
    observed.update(after=_array(out), version_after=out._version)
    if case.dtype != "float64":
        return observed
    leaf = lib.tensor(_leaf_array(case.shape, case.layout, case.dtype), requires_grad=True)
    out = _view(lib, leaf, case.layout)[_make_key(lib, case.key)]
    observed["grad_fn"] = _name(out)
    weights = np.random.default_rng(2).standard_normal(tuple(out.shape))
    (out * lib.tensor(weights)).sum().backward()
    observed["grad"] = _array(leaf.grad)
    return observed


# --- setitem ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Value:
    """A value assigned: a number, or a tensor of ``shape`` and ``dtype`` (constant if
    ``constant``)."""

    number: Any = None
    shape: tuple[int, ...] | None = None
    dtype: str = ""
    constant: bool = False

    def make(self, lib: Any, requires_grad: bool) -> Any:
        """The value in ``lib`` (a tensor requiring grad if asked and it can)."""
        if self.shape is None:
            return self.number
        array = _data(self.shape, self.dtype, 3)
        if self.constant:
            array = np.full(self.shape, array.flat[0] if array.size else 0, self.dtype)
        grad = requires_grad and self.dtype in ("float32", "float64", "float16")
        return lib.tensor(array, requires_grad=grad)

    def __repr__(self) -> str:
        if self.shape is None:
            return repr(self.number)
        return f"{self.dtype}{list(self.shape)}" + ("c" if self.constant else "")


@dataclass(frozen=True)
class Set:
    """One setitem case: ``mode`` one of ``_MODES``."""

    shape: tuple[int, ...]
    layout: str
    dtype: str
    key: Any
    value: Value
    mode: str


def _setitem(lib: Any, case: Set) -> dict[str, Any]:
    observed: dict[str, Any] = {}
    grad = case.mode in ("grad", "leaf", "no_grad")
    leaf = lib.tensor(_leaf_array(case.shape, case.layout, case.dtype), requires_grad=grad)
    root = leaf * 1 if case.mode == "grad" else leaf
    base = _view(lib, root, case.layout)
    other = root.unsqueeze(0)  # another view sharing the counter
    value = case.value.make(lib, requires_grad=case.mode in ("grad", "value_grad"))
    key = _make_key(lib, case.key)

    def write() -> None:
        if case.mode == "no_grad":  # (a leaf requiring grad may be written under no_grad)
            with lib.no_grad():
                base[key] = value
        else:
            base[key] = value

    before = _array(root)
    _catching(observed, write)
    observed.update(values=_array(root), versions=(root._version, base._version, other._version))
    if "out of bounds" in observed.get("error", ("", ""))[1] and _has_index_tensor(case.key):
        # PyTorch's CPU index_put_ kernel checks each index as it writes: the elements before
        # the bad one are written (uncounted). minigrad keeps its rule, a failed op changes
        # nothing: its values must be the old ones; PyTorch's are not compared.
        observed["values"] = lib is torch or np.array_equal(observed["values"], before)
    if case.mode not in ("grad", "value_grad"):
        return observed
    observed["grad_fn"] = (_name(root), _name(base))
    weights = np.random.default_rng(2).standard_normal(tuple(root.shape))
    try:
        (root * lib.tensor(weights)).sum().backward()
    except Exception as error:  # noqa: BLE001 - the error is the outcome compared
        observed["backward"] = _text(error)
        return observed
    observed["grads"] = [None if t.grad is None else _array(t.grad)
                         for t in (leaf, value) if isinstance(t, lib.Tensor)]
    return observed


def _has_index_tensor(key: Any) -> bool:
    items = key if isinstance(key, tuple) else (key,)
    return any(not isinstance(item, int | slice | None | type(Ellipsis)) for item in items)


_FACTS: dict[tuple[tuple[int, ...], str], tuple[tuple[int, ...] | None, bool]] = {}


def _key_facts(shape: tuple[int, ...], key: Any) -> tuple[tuple[int, ...] | None, bool]:
    """The shape of ``base[key]`` in PyTorch (None if refused), and whether a position repeats."""
    label = (shape, _label(key))
    if label not in _FACTS:
        with warnings.catch_warnings():  # (the key's deprecation warnings: not compared here)
            warnings.simplefilter("ignore")
            _FACTS[label] = (_indexed_shape(shape, key), _has_repeats(shape, key))
    return _FACTS[label]


def _has_repeats(shape: tuple[int, ...], key: Any) -> bool:
    positions = torch.arange(int(np.prod(shape))).reshape(shape)
    try:
        chosen = positions[_make_key(torch, key)]
    except Exception:  # noqa: BLE001 - a refused key writes nothing
        return False
    return chosen.unique().numel() < chosen.numel()


def _indexed_shape(shape: tuple[int, ...], key: Any) -> tuple[int, ...] | None:
    try:
        return tuple(torch.zeros(shape)[_make_key(torch, key)].shape)
    except Exception:  # noqa: BLE001 - a refused key: values of no particular shape
        return None


def _values(shape: tuple[int, ...], key: Any, dtype: str, rng: np.random.Generator,
            count: int, broadcast: bool = False) -> list[Value]:
    """A number and ``count`` values drawn from the tensors that fit (or not) ``base[key]``.

    ``broadcast``: instead of the number, a tensor broadcast along the first dimension of
    ``base[key]`` (its gradient is then summed).
    """
    numbers = [Value(2), Value(-1.5), Value(True)]
    target, repeats = _key_facts(shape, key)
    if target is None:
        return [numbers[int(rng.integers(3))], Value(shape=(2,), dtype=dtype)][: count + 1]
    other = "float32" if dtype == "float64" else "float64"
    shapes = [(), target, (1,) + target, target[1:], target[:-1] + (target[-1] + 2,)
              if target else (2,)]
    tensors = [Value(shape=s, dtype=d, constant=repeats) for s in shapes for d in (dtype,)]
    tensors += [Value(shape=(), dtype=other), Value(shape=target, dtype=other, constant=repeats),
                Value(shape=target, dtype="int64" if dtype != "int64" else "float32",
                      constant=repeats)]
    chosen = rng.choice(len(tensors), size=min(count, len(tensors)), replace=False)
    first = numbers[int(rng.integers(3))]
    if broadcast and target:
        first = Value(shape=target[1:], dtype=dtype, constant=repeats)
    return [first] + [tensors[int(i)] for i in chosen]


# --- the tests ---------------------------------------------------------------------------------

def _row(name: str) -> OpInfo:
    return OpInfo(name, lambda lib, *args: None, lambda rng: [])


def _get_cases(dtype: str) -> RowCase:
    items = []
    for shape in SHAPES:
        for layout in _base_layouts(shape, dtype):
            for key in keys_for(shape, 20 if dtype in FULL else 0):
                label = f"{list(shape)}-{layout}-{_label(key)}"
                items.append(Item(label, Get(shape, layout, dtype, key)))
    return RowCase(_row("getitem"), tuple(items), dtype)


# plain: a base not requiring grad; grad: a non-leaf requiring grad (or a view of one) and a
# value requiring grad; value_grad: a plain base and a value requiring grad; leaf: a leaf
# requiring grad (refused), no_grad: the same under no_grad (written).
_MODES = ("plain", "grad", "value_grad", "leaf", "no_grad")


def _set_cases(dtype: str) -> RowCase:
    items = []
    rng = np.random.default_rng(DTYPES.index(dtype))
    for shape in SHAPES:
        for layout in _base_layouts(shape, dtype):
            for key in keys_for(shape, 10 if dtype in FULL else 0):
                modes = _MODES if dtype == "float64" else ("plain",)
                for mode in modes:
                    # (a leaf requiring grad refuses every write: its error before the value's)
                    count = 2 if mode == "plain" and dtype in FULL else int(mode != "leaf")
                    gradients = mode in ("grad", "value_grad")
                    for value in _values(shape, key, dtype, rng, count, broadcast=gradients):
                        label = f"{list(shape)}-{layout}-{_label(key)}={value!r}-{mode}"
                        case = Set(shape, layout, dtype, key, value, mode)
                        items.append(Item(label, case))
    return RowCase(_row("setitem"), tuple(items), dtype)


def _check(program: Callable[[Any, Any], dict[str, Any]]) -> Callable[[Any], None]:
    def check(case: Any) -> None:
        with warnings.catch_warnings():
            # (only the warnings of the op itself are compared: ``_catching`` records them)
            warnings.simplefilter("ignore")
            want = program(torch, case)
            got = program(minigrad, case)
        _compare(want, got, "")

    return check


@pytest.mark.parametrize("dtype", DTYPES)
def test_getitem_matches_pytorch(dtype):
    check_each(_get_cases(dtype), _check(_getitem))


@pytest.mark.parametrize("dtype", DTYPES)
def test_setitem_matches_pytorch(dtype):
    check_each(_set_cases(dtype), _check(_setitem))


# --- index_put / index_put_: the same kernel called as a function ------------------------------


def _index_put_program(call: Callable[[Any], Any]) -> Callable[[Any, Any], dict[str, Any]]:
    def program(lib: Any, _: Any) -> dict[str, Any]:
        observed: dict[str, Any] = {}
        result = _catching(observed, lambda: call(lib))
        if result is not None:
            observed["values"] = _array(result)
        return observed

    return program


_INDEX_PUT = {
    "mask_float64_value": lambda L: L.zeros(3).index_put_(
        (L.tensor([True, False, True]),), L.tensor(2.0, dtype=L.float64)),
    "mask_float64_value_function": lambda L: L.index_put(
        L.zeros(3), (L.tensor([True, False, True]),), L.tensor(2.0, dtype=L.float64)),
    "mask_one_element_value": lambda L: L.zeros(2, 2).index_put_(
        (L.tensor([True, False]),), L.tensor([[5.0]])),
    "uint8_mask": lambda L: L.zeros(3).index_put_((L.tensor([1, 0, 1], dtype=L.uint8),),
                                                  L.tensor(2.0)),
    "uint8_mask_values": lambda L: L.zeros(3).index_put_(
        (L.tensor([1, 0, 1], dtype=L.uint8),), L.tensor([2.0, 3.0])),
    "leaf_before_dtype": lambda L: L.zeros(3, requires_grad=True).index_put_(
        (L.tensor([0]),), L.tensor([2.0], dtype=L.float64)),
    "leaf_before_index_dtype": lambda L: L.zeros(3, requires_grad=True).index_put_(
        (L.tensor([0.0]),), L.tensor(1.0)),
    "shape_before_bounds": lambda L: L.zeros(3).index_put_((L.tensor([0, 5]),),
                                                           L.tensor([1.0, 2.0, 3.0])),
    "dtype_before_bounds": lambda L: L.zeros(3).index_put_((L.tensor([0, 5]),),
                                                           L.tensor([1.0, 2.0], dtype=L.float64)),
    "accumulate_dtype": lambda L: L.zeros(3).index_put_(
        (L.tensor([True, False, True]),), L.tensor(2.0, dtype=L.float64), accumulate=True),
    "accumulate_int16_index": lambda L: L.zeros(3).index_put_(
        (L.tensor([0, 0], dtype=L.int16),), L.tensor(2.0), accumulate=True),
    "accumulate_repeats": lambda L: L.zeros(3).index_put_(
        (L.tensor([0, 0, 2]),), L.tensor([1.0, 2.0, 3.0]), accumulate=True),
}


def test_index_put_matches_pytorch():
    items = tuple(Item(name, _index_put_program(call)) for name, call in _INDEX_PUT.items())
    check_each(RowCase(_row("index_put"), items), lambda program: _compare(
        program(torch, None), program(minigrad, None), ""))
