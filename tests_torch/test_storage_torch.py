"""Differential tests: storages (``untyped_storage()``, ``storage()``) and ``Tensor.set_``.

The same calls in minigrad and PyTorch, comparing sizes, bytes, the data-pointer relations,
versions, warnings, reprs and error texts. The last section checks what minigrad refuses
where numpy cannot give PyTorch's semantics (a storage that tensors use cannot be resized,
``set_`` cannot grow a storage or rebind a view): a clear error, and nothing changed.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
import torch
from _cases import parametrize_in_one

import minigrad


def outcome(call: Callable[[], Any]) -> Any:
    """What a call gives: its value, or the error's type and first line."""
    try:
        return call()
    except (RuntimeError, TypeError, IndexError, ValueError) as error:
        return type(error).__name__, str(error).splitlines()[0].replace("torch", "minigrad")


def both(call: Callable[[Any], Any]) -> tuple[Any, Any]:
    """``call(torch)`` and ``call(minigrad)``, each with TypedStorage's warning silenced."""
    results = []
    for lib in (torch, minigrad):
        with warnings.catch_warnings():
            warnings.filterwarnings("ignore", "TypedStorage is deprecated")
            results.append(outcome(lambda lib=lib: call(lib)))
    return results[0], results[1]


def same(call: Callable[[Any], Any]) -> None:
    expected, got = both(call)
    assert got == expected


# --- untyped_storage(): the memory as bytes ---------------------------------------------------

TENSORS = {
    "contiguous": lambda lib: lib.arange(6.0),
    "row": lambda lib: lib.arange(6.0).view(2, 3)[1],
    "column": lambda lib: lib.arange(6.0).view(2, 3)[:, 2],
    "transposed": lambda lib: lib.arange(6.0).view(2, 3).t(),
    "sliced twice": lambda lib: lib.arange(10.0)[2:][3:5],
    "int64": lambda lib: lib.tensor([1, -2, 300]),
    "bool": lambda lib: lib.tensor([True, False]),
    "float64": lambda lib: lib.tensor([0.5], dtype=lib.float64),
    "empty": lambda lib: lib.empty(0),
    "empty view at the end": lambda lib: lib.arange(6.0)[6:],
    "empty column slice": lambda lib: lib.arange(6.0).view(2, 3)[:, 3:],
    "empty slice of a slice": lambda lib: lib.arange(6.0)[2:][4:],
    "empty in the middle": lambda lib: lib.arange(6.0)[3:3],
    "start past the end": lambda lib: lib.arange(6.0)[9:],
    "narrow to nothing": lambda lib: lib.arange(6.0).narrow(0, 6, 0),
    "an empty piece of split": lambda lib: lib.arange(6.0).split([2, 0, 4])[1],
    "an empty piece of tensor_split": lambda lib: lib.arange(6.0).tensor_split(8)[7],
    "a piece of an empty tensor": lambda lib: lib.zeros(0, 3).split(1, 1)[2],
    "an empty row split": lambda lib: lib.arange(6.0).view(2, 3)[:, 3:].split(1)[1],
}


@parametrize_in_one("name", TENSORS)
def test_a_tensors_storage_is_its_whole_memory(name):
    def described(lib: Any) -> Any:
        x = TENSORS[name](lib)
        s = x.untyped_storage()
        relation = not x.numel() or (
            s.data_ptr() == x.data_ptr() - x.storage_offset() * x.element_size()
        )
        return (
            type(s).__name__,
            s.nbytes(),
            s.size(),
            len(s),
            s.element_size(),
            str(s.device),
            s.is_shared(),
            x.storage_offset(),
            relation,
            s.tolist(),
            repr(s).replace("torch", "minigrad"),
        )

    same(described)


def test_views_of_one_base_share_one_storage_object():
    def described(lib: Any) -> Any:
        x = lib.arange(6.0).view(2, 3)
        s = x.untyped_storage()
        views = (x[1], x.t(), x[:, 1:], x.detach(), x.view(6)[2:])
        return (
            [v.untyped_storage() is s for v in views],
            [v.untyped_storage().data_ptr() == s.data_ptr() for v in views],
            x.clone().untyped_storage().data_ptr() == s.data_ptr(),
            s.data_ptr() == x.data_ptr(),
        )

    same(described)


def test_writes_through_a_storage_reach_the_tensor_and_move_no_version():
    def described(lib: Any) -> Any:
        x = lib.arange(4.0)
        view = x[1:]
        s = view.untyped_storage()
        s[0] = 1  # the lowest byte of x[0]
        s[4:8] = 0  # x[1]: all bytes
        s[15] = 64  # the highest byte of x[3]
        part = s[8:12]
        part.fill_(0)
        return x.tolist(), view.tolist(), x._version, view._version, part.nbytes()

    same(described)


def test_a_storage_write_is_unseen_by_saved_tensors_as_data_writes_are():
    def described(lib: Any) -> Any:
        a = lib.tensor([1.0, 2.0], requires_grad=True)
        y = a.sigmoid()  # saves its result
        y.untyped_storage().fill_(0)
        y.sum().backward()  # no error: the version did not move
        return a.grad.tolist(), y._version

    same(described)


@parametrize_in_one(
    "call",
    [
        lambda s: s[7],
        lambda s: s[-1],
        lambda s: s[24],
        lambda s: s[-25],
        lambda s: s[1.0],
        lambda s: s[::2],
        lambda s: s[2:100].nbytes(),
        lambda s: s[-4:].tolist(),
        lambda s: s[5:2].nbytes(),
        lambda s: s.__setitem__(0, 300) or s[0],
        lambda s: s.__setitem__(0, -1) or s[0],
        lambda s: s.__setitem__(0, 1.5),
        lambda s: s.__setitem__(24, 1),
        lambda s: s.__setitem__(-1, 9),
        lambda s: s.__setitem__(slice(-4, None), 9) or s.tolist()[-5:],
        lambda s: s.__setitem__(slice(0, 4, 2), 9),
        lambda s: s.__setitem__(0, True) or s[0],
        lambda s: s.__setitem__(np.int64(1), 3) or s[np.int64(1)],
        lambda s: s.__setitem__(slice(0, 2), 7) or s.tolist()[:3],
        lambda s: s.fill_(256).tolist()[:2],
        lambda s: s.fill_(-1).tolist()[:2],
        lambda s: s.fill_(True).tolist()[:2],
        lambda s: s.fill_(2.5),
        lambda s: s.clone().tolist() == s.tolist(),
        lambda s: s.clone().data_ptr() != s.data_ptr(),
        lambda s: s.cpu() is s,
        lambda s: s.untyped() is s,
        lambda s: list(s)[6:8],
        lambda s: bytes(s)[4:8],
        lambda s: s.is_pinned(),
        lambda s: s.resizable(),
        lambda s: s.get_device(),
        lambda s: s.type().replace("torch", "minigrad"),
        lambda s: s.is_cuda,
    ],
)
def test_storage_bytes(call):
    same(lambda lib: call(lib.tensor([1.0, 2.0, 3.0, 4.0, 5.0, 6.0]).untyped_storage()))


@parametrize_in_one(
    "call",
    [
        lambda lib: lib.UntypedStorage().tolist(),
        lambda lib: lib.UntypedStorage(3).nbytes(),
        lambda lib: lib.UntypedStorage([1, 2, 300]).tolist(),
        lambda lib: lib.UntypedStorage(3, device="cpu").nbytes(),
        lambda lib: lib.UntypedStorage(-1),
        lambda lib: lib.UntypedStorage(0).data_ptr(),
        lambda lib: repr(lib.UntypedStorage(0)).replace("torch", "minigrad"),
        lambda lib: lib.UntypedStorage(3).copy_(lib.UntypedStorage([1, 2, 3])).tolist(),
        lambda lib: lib.UntypedStorage(3).copy_(lib.UntypedStorage(4)),
        lambda lib: lib.UntypedStorage(4).copy_(lib.arange(4.0).untyped_storage()[4:8]).tolist(),
        lambda lib: lib.UntypedStorage([7, 8]).resize_(1).tolist(),
        lambda lib: lib.UntypedStorage([7, 8]).resize_(4).tolist()[:2],
        lambda lib: lib.UntypedStorage(3).resize_(-1),
        lambda lib: lib.zeros(2).share_memory_().untyped_storage().is_shared(),
        lambda lib: lib.zeros(2).untyped_storage().share_memory_().resizable(),
        lambda lib: lib.is_storage(lib.zeros(1).untyped_storage()),
        lambda lib: lib.is_storage(lib.zeros(1)),
    ],
)
def test_new_storages(call):
    same(call)


def test_share_memory_through_the_storage_marks_the_tensors():
    def described(lib: Any) -> Any:
        x = lib.zeros(3)
        x[1:].untyped_storage().share_memory_()
        return x.is_shared(), x[2].is_shared(), x.clone().is_shared()

    same(described)


# --- storage(): TypedStorage and its deprecation warning --------------------------------------


def _warnings_of(lib: Any, call: Callable[[], Any]) -> list[str]:
    lib.storage._reset_warn_typed_storage_removal()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        call()
    lib.storage._reset_warn_typed_storage_removal()
    return [f"{w.category.__name__}: {w.message}" for w in caught]


def test_typed_storage_warns_once_per_process_with_pytorchs_text():
    def described(lib: Any) -> Any:
        x = lib.arange(3.0)

        def uses() -> None:
            s = x.storage()
            s.size()
            s.tolist()

        return _warnings_of(lib, uses), _warnings_of(lib, lambda: lib.FloatStorage(2))

    expected, got = both(described)
    assert got == expected
    assert got[0][0].startswith("UserWarning: TypedStorage is deprecated")


def test_the_warning_points_at_the_callers_line():
    minigrad.storage._reset_warn_typed_storage_removal()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        minigrad.zeros(1).storage()
    minigrad.storage._reset_warn_typed_storage_removal()
    assert caught[0].filename == __file__


TYPED = {
    "float32": lambda lib: lib.tensor([1.5, 2.0, -3.0]),
    "int64 view": lambda lib: lib.tensor([1, 2, 3, 4])[1:],
    "bool": lambda lib: lib.tensor([True, False]),
    "float16": lambda lib: lib.tensor([0.5], dtype=lib.float16),
    "uint8": lambda lib: lib.tensor([255, 0], dtype=lib.uint8),
    "empty": lambda lib: lib.empty(0, dtype=lib.int32),
}


@pytest.mark.parametrize("name", TYPED)
def test_typed_storage(name):
    def described(lib: Any) -> Any:
        x = TYPED[name](lib)
        s = x.storage()
        return (
            type(s).__name__,
            str(s.dtype),
            s.size(),
            len(s),
            s.nbytes(),
            s.element_size(),
            s.tolist(),
            s.data_ptr() == x.untyped_storage().data_ptr(),
            s.untyped() is x.untyped_storage(),
            s.type(),
            str(s.device),
            repr(s),
        )

    expected, got = both(described)
    assert got == tuple(
        v.replace("torch", "minigrad") if isinstance(v, str) else v for v in expected
    )


@parametrize_in_one(
    "call",
    [
        lambda s: s[0],
        lambda s: s[-1],
        lambda s: s[3],
        lambda s: s[-4],
        lambda s: s[0:1],
        lambda s: s[1.0],
        lambda s: s.__setitem__(0, 9) or s.tolist(),
        lambda s: s.__setitem__(slice(0, 2), 5) or s.tolist(),
        lambda s: s.__setitem__(0, 1.7) or s.tolist(),
        lambda s: s.fill_(2).tolist(),
        lambda s: s.clone().tolist(),
        lambda s: s.clone().data_ptr() != s.data_ptr(),
        lambda s: list(s),
        lambda s: s.pickle_storage_type(),
        lambda s: s.is_shared(),
        lambda s: s.copy_(s.clone().fill_(4)).tolist(),
    ],
)
def test_typed_storage_elements(call):
    def described(lib: Any) -> Any:
        x = lib.tensor([1, 2, 3])
        result = call(x.storage())
        return result, x.tolist(), x._version

    same(described)


def test_legacy_storage_classes():
    def described(lib: Any) -> Any:
        float_storage = lib.zeros(2).storage()
        made = lib.LongStorage([1, 2])
        return (
            isinstance(float_storage, lib.FloatStorage),
            isinstance(float_storage, lib.DoubleStorage),
            isinstance(float_storage, lib.TypedStorage),
            type(made).__name__,
            str(made.dtype).replace("torch", "minigrad"),
            made.tolist(),
            lib.DoubleStorage(3).size(),
            str(lib.TypedStorage(2).dtype).replace("torch", "minigrad"),
            lib.TypedStorage([1, 2], dtype=lib.int64).tolist(),
            isinstance(lib.tensor([True]).storage(), lib.BoolStorage),
        )

    same(described)


# --- set_ -------------------------------------------------------------------------------------


def _geometry(t: Any) -> Any:
    return t.tolist(), tuple(t.shape), t.stride(), t.storage_offset(), t._version


@parametrize_in_one(
    "call",
    [
        lambda lib, x, s: lib.zeros(2).set_(x),
        lambda lib, x, s: lib.zeros(2).set_(x[2:].view(2, 2)),
        lambda lib, x, s: lib.zeros(2).set_(x.t()),
        lambda lib, x, s: lib.zeros(3).set_(),
        lambda lib, x, s: lib.empty(0).set_(s),
        lambda lib, x, s: lib.empty(0).set_(s, 1, (2, 2), (1, 2)),
        lambda lib, x, s: lib.empty(0).set_(s, 1, (2,)),
        lambda lib, x, s: lib.empty(0).set_(s, 1, [2, 2]),
        lambda lib, x, s: lib.empty(0).set_(s, 0, lib.Size([3])),
        lambda lib, x, s: lib.empty(0).set_(s, 0, (3, 2), (0, 1)),
        lambda lib, x, s: lib.empty(0).set_(s, 2, (0,), (1,)),
        lambda lib, x, s: lib.empty(0).set_(source=s, storage_offset=0, size=(2,), stride=(1,)),
        lambda lib, x, s: lib.empty(0).set_(x, 3, (3,), (1,)),
        lambda lib, x, s: lib.empty(0).set_(x.storage()),
        lambda lib, x, s: lib.empty(0, dtype=lib.int32).set_(s),
        lambda lib, x, s: lib.empty(0, dtype=lib.int16).set_(lib.UntypedStorage([1, 2, 3, 4, 5])),
        lambda lib, x, s: lib.empty(0, dtype=lib.float64).set_(s, 0, (3,), (1,)),
        lambda lib, x, s: lib.empty(0, dtype=lib.float64).set_(x),
        lambda lib, x, s: lib.empty(0, dtype=lib.float64).set_(x.storage()),
        lambda lib, x, s: lib.empty(0, dtype=lib.int64).set_(x),
        lambda lib, x, s: lib.empty(0, dtype=lib.float16).set_(x),
        lambda lib, x, s: lib.empty(0, dtype=lib.bool).set_(x.storage()),
        lambda lib, x, s: lib.empty(0).set_(lib.tensor([1, 2]).storage()),
        lambda lib, x, s: lib.empty(0).set_(s, -1, (2,), (1,)),
        lambda lib, x, s: lib.empty(0).set_(s, 0, (-1,), (1,)),
        lambda lib, x, s: lib.empty(0).set_(s, 0, (2, 2)),
        lambda lib, x, s: lib.empty(0).set_(s, 0, (2,), (1, 1)),
        lambda lib, x, s: lib.empty(0).set_(s, 0, (2,), (-1,)),
        lambda lib, x, s: lib.zeros(2).set_(5),
        lambda lib, x, s: lib.zeros(2).set_(x, 1),
        lambda lib, x, s: lib.zeros(2).set_(s, 0),
        lambda lib, x, s: lib.zeros(2).set_(s, 0, 2),
        lambda lib, x, s: lib.zeros(2, requires_grad=True).set_(x),
        lambda lib, x, s: lib.zeros(2, requires_grad=True).set_(),
        lambda lib, x, s: lib.zeros(2, requires_grad=True).set_(s),
    ],
)
def test_set_(call):
    def described(lib: Any) -> Any:
        x = lib.arange(6.0)
        s = x.untyped_storage()
        y = call(lib, x, s)
        shares = y.numel() == 0 or y.untyped_storage().data_ptr() == s.data_ptr()
        return _geometry(y), x._version, shares, y.is_leaf, y.requires_grad

    same(described)


def test_set_to_a_tensor_shares_memory_but_not_the_version_counter():
    def described(lib: Any) -> Any:
        x = lib.arange(4.0)
        y = lib.zeros(2)
        y.set_(x)
        before = (y.is_set_to(x), x.is_set_to(y), y.data_ptr() == x.data_ptr(), y._is_view())
        y.add_(1)
        x[0] = 10
        return before, x.tolist(), y.tolist(), x._version, y._version, y.is_set_to(x[1:])

    same(described)


def test_set_to_a_storage_then_the_tensors_storage_is_that_storage():
    def described(lib: Any) -> Any:
        s = lib.UntypedStorage(8)
        y = lib.empty(0, dtype=lib.int32).set_(s)
        y.fill_(7)
        return y.untyped_storage() is s, s.tolist(), y.tolist()

    same(described)


def test_set_records_pytorchs_not_implemented_node():
    def described(lib: Any) -> Any:
        x = lib.arange(3.0)
        a = lib.zeros(4, requires_grad=True)
        b = a * 2
        b.set_(x)
        nodes = [
            b.grad_fn.name(),
            [None if f is None else f.name() for f, _ in b.grad_fn.next_functions],
        ]
        q = lib.zeros(2)
        q.set_(lib.ones(2, requires_grad=True))
        nodes.append([None if f is None else f.name() for f, _ in q.grad_fn.next_functions])
        c = a * 2
        c.set_(x.untyped_storage())
        nodes.append([None if f is None else f.name() for f, _ in c.grad_fn.next_functions])
        d = a * 2
        d.set_()
        nodes.append(d.grad_fn.name())
        return (
            nodes,
            (b.requires_grad, b.is_leaf, q.requires_grad, q.is_leaf),
            outcome(lambda: b.sum().backward()),
            outcome(lambda: q.sum().backward()),
        )

    same(described)


def test_set_under_no_grad_on_a_leaf_that_requires_grad():
    def described(lib: Any) -> Any:
        x = lib.arange(3.0)
        leaf = lib.zeros(2, requires_grad=True)
        with lib.no_grad():
            leaf.set_(x)
        plain = lib.zeros(2)
        plain.set_(x)  # nothing requires grad: no node
        return _geometry(leaf), leaf.requires_grad, leaf.is_leaf, plain.grad_fn is None

    same(described)


def test_set_makes_a_saved_tensor_stale():
    def described(lib: Any) -> Any:
        a = lib.ones(3, requires_grad=True)
        m = lib.ones(3)
        out = m * a  # saves m
        m.set_(lib.zeros(3))
        return outcome(lambda: out.sum().backward())

    same(described)


def test_set_keeps_retain_grad_with_the_tensor():
    def described(lib: Any) -> Any:
        a = lib.ones(2, requires_grad=True)
        b = a * 2
        b.retain_grad()
        b.set_(lib.ones(2, requires_grad=True) * 3)
        result = outcome(lambda: (b * 1).sum().backward())
        return b.retains_grad, result, None if b.grad is None else b.grad.tolist()

    same(described)


def test_views_of_a_base_keep_the_old_memory_after_the_base_is_set_():
    def described(lib: Any) -> Any:
        b = lib.zeros(4)
        v = b[1:]
        b.set_(lib.arange(6.0))
        v.add_(1)
        a = lib.zeros(4, requires_grad=True)
        c = a * 2
        w = c[1:]
        c.set_(lib.arange(6.0))
        w.mul_(2)
        return (
            (v.tolist(), b.tolist(), v._version, b._version, v._base is b),
            (w.tolist(), c.tolist(), w.grad_fn.name(), c.grad_fn.name()),
            outcome(lambda: w.sum().backward()),
        )

    same(described)


def test_set_to_itself_moves_the_version_only():
    def described(lib: Any) -> Any:
        y = lib.arange(3.0)
        y.set_(y)
        return _geometry(y)

    same(described)


@pytest.mark.parametrize(
    "call",
    [
        lambda lib: lib.zeros(2).set_(5),
        lambda lib: lib.zeros(2).set_(lib.zeros(2).untyped_storage(), 0, 2),
        lambda lib: lib.zeros(2).set_(lib.zeros(2).storage(), 0),
        lambda lib: lib.zeros(2).set_(lib.zeros(1), 1),
        lambda lib: lib.zeros(2).set_(source=lib.zeros(1), size=(1,)),
        lambda lib: lib.zeros(2).set_(lib.zeros(1), other=1),
    ],
)
def test_the_invalid_combination_message_lists_pytorchs_forms(call):
    def message(lib: Any) -> str:
        with warnings.catch_warnings():
            warnings.filterwarnings("ignore", "TypedStorage is deprecated")
            try:
                call(lib)
            except TypeError as error:
                return str(error).replace("torch", "minigrad")
        raise AssertionError("no error")

    assert message(minigrad) == message(torch)


# --- storage_offset of from_numpy views -------------------------------------------------------

ARRAYS = {
    "slice": lambda: np.arange(10.0)[2:],
    "columns": lambda: np.arange(6.0).reshape(2, 3)[:, 1:],
    "transposed view": lambda: np.arange(10.0).reshape(2, 5).T,
    "strided": lambda: np.arange(10.0)[1::2],
    "owner": lambda: np.arange(4.0, dtype=np.float32),
    "empty": lambda: np.zeros((0, 3)),
    "reversed": lambda: np.arange(3.0)[::-1],
}


@pytest.mark.parametrize("name", ARRAYS)
def test_from_numpy_storage_starts_at_the_arrays_first_element(name):
    def described(lib: Any) -> Any:
        array = ARRAYS[name]()
        t = lib.from_numpy(array)
        return (
            t.storage_offset(),
            t[1:].storage_offset() if len(t) > 1 else None,
            t.untyped_storage().nbytes(),
            not array.size or t.untyped_storage().data_ptr() == array.ctypes.data,
            t.tolist(),
        )

    same(described)


def test_from_numpy_of_a_view_still_shares_the_arrays_memory():
    def described(lib: Any) -> Any:
        array = np.arange(6.0)
        t = lib.from_numpy(array[2:])
        t[0] = -1.0
        array[5] = 50.0
        return array.tolist(), t.tolist(), t.as_strided((2,), (1,), 1).tolist()

    same(described)


# --- where numpy cannot follow PyTorch: a clear error, and nothing changed --------------------


def test_a_storage_that_tensors_use_cannot_be_resized():
    x = minigrad.arange(4.0)
    for storage in (x.untyped_storage(), x[1:].untyped_storage()):
        with pytest.raises(RuntimeError, match="minigrad: cannot resize a storage that tensors"):
            storage.resize_(64)
    s = minigrad.UntypedStorage(8)
    minigrad.empty(0).set_(s)
    with pytest.raises(RuntimeError, match="cannot resize a storage that tensors use"):
        s.resize_(16)
    assert x.tolist() == [0.0, 1.0, 2.0, 3.0] and s.nbytes() == 8


def test_a_shared_storage_is_not_resizable():
    # (PyTorch 2.13 crashes on UntypedStorage(3).share_memory_().resize_(5); its text for a
    # tensor on shared memory is the one compared in test_tensor_memory_torch.py)
    with pytest.raises(RuntimeError, match="^Trying to resize storage that is not resizable$"):
        minigrad.UntypedStorage(3).share_memory_().resize_(5)


def test_set_cannot_grow_a_storage():
    x = minigrad.arange(6.0)
    y = minigrad.zeros(2)
    with pytest.raises(RuntimeError, match="set_\\(\\) cannot make a storage larger"):
        y.set_(x.untyped_storage(), 5, (2, 2), (2, 1))
    assert _geometry(y) == ([0.0, 0.0], (2,), (1,), 0, 0)
    assert x.untyped_storage().nbytes() == 24


def test_set_on_a_view_is_refused():
    base = minigrad.zeros(4)
    view = base[1:]
    with pytest.raises(RuntimeError, match="set_\\(\\) on a view is not supported"):
        view.set_(minigrad.arange(6.0))
    assert _geometry(view) == ([0.0, 0.0, 0.0], (3,), (1,), 1, 0)


def test_growing_a_tensor_moves_only_that_tensor_to_new_memory():
    # (documented in minigrad/ops/resizing.py: PyTorch's views and storage follow the growth)
    x = minigrad.arange(4.0)
    view = x[1:]
    storage = x.untyped_storage()
    x.resize_(8)
    assert x[:4].tolist() == [0.0, 1.0, 2.0, 3.0]
    assert x.untyped_storage() is not storage and storage.nbytes() == 16
    assert view.untyped_storage() is storage and view.tolist() == [1.0, 2.0, 3.0]
    assert x._version == view._version == 1


def test_a_refused_set_leaves_a_new_storage_resizable():
    s = minigrad.UntypedStorage(8)
    with pytest.raises(RuntimeError):
        minigrad.zeros(2, requires_grad=True).set_(s)
    assert s.resize_(16).nbytes() == 16
