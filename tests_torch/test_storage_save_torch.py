"""``save``/``load`` keep storages as PyTorch's do (minigrad's own file format, not a pickle).

A file holds each storage once and each tensor as a geometry on one: tensors that shared
memory share it after loading (views of one base, a transpose, slices), each with a version
counter of its own at 1; one tensor object saved twice loads as one object; storages
themselves can be saved (an ``UntypedStorage`` loads as a ``TypedStorage`` of uint8, as
PyTorch's); two dtypes over one memory are refused. Each program runs in both libraries.
"""

from __future__ import annotations

import io
import warnings
from typing import Any

import pytest

import minigrad

torch = pytest.importorskip("torch")

LIBS = (minigrad, torch)


def _round_trip(lib: Any, obj: Any) -> Any:
    buffer = io.BytesIO()
    lib.save(obj, buffer)
    buffer.seek(0)
    return lib.load(buffer)


def _outcome(program: Any, lib: Any) -> Any:
    """What ``program(lib)`` returns, or its exception's type and message (``torch`` renamed)."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # (TypedStorage's deprecation warning)
            return program(lib)
    except Exception as error:  # (compared across the libraries)
        return type(error).__name__, str(error).replace("torch", "minigrad")


def _views_share_after_load(lib: Any) -> Any:
    x = lib.arange(6.0).reshape(2, 3)
    loaded = _round_trip(lib, {"x": x, "row": x[1], "t": x.t(), "column": x[:, 1:]})
    x2, row, t, column = loaded["x"], loaded["row"], loaded["t"], loaded["column"]
    geometry = [(v.storage_offset(), v.stride(), v.is_contiguous()) for v in (row, t, column)]
    same = [v.untyped_storage().data_ptr() == x2.untyped_storage().data_ptr() for v in (row, t)]
    x2.add_(10)
    return (
        geometry,
        same,
        row.tolist(),
        t.tolist(),
        column.tolist(),
        [v._version for v in (x2, row, t, column)],
        [v._base is None for v in (row, t, column)],
    )


def _a_view_alone_keeps_its_storage(lib: Any) -> Any:
    x = lib.arange(6.0).reshape(2, 3)
    y = _round_trip(lib, x[1, 1:])
    return y.tolist(), y.storage_offset(), y.untyped_storage().nbytes(), y._version


def _one_object_saved_twice(lib: Any) -> Any:
    w = lib.nn.Parameter(lib.ones(2, 2))
    a, b, c = _round_trip(lib, [w, w, w.detach()])
    a.data.mul_(3)
    return a is b, a is c, type(a).__name__, a.requires_grad, c.requires_grad, c.tolist()


def _slices_of_a_parameter(lib: Any) -> Any:
    w = lib.nn.Parameter(lib.ones(4))
    p, head, tail = _round_trip(lib, [w, w[:2], w[2:]])
    return (
        type(head).__name__,
        head.requires_grad,
        head.grad_fn,
        tail.storage_offset(),
        tail.untyped_storage().data_ptr() == p.untyped_storage().data_ptr(),
    )


def _storages_saved(lib: Any) -> Any:
    x = lib.arange(4.0)
    typed = x.storage()
    untyped = lib.ones(3, dtype=lib.int16).untyped_storage()
    t2, typed2, typed3, untyped2, untyped3 = _round_trip(lib, [x, typed, typed, untyped, untyped])
    return (
        type(typed2).__name__,
        typed2.dtype is lib.float32,
        typed2.tolist(),
        typed2 is typed3,
        typed2.data_ptr() == t2.data_ptr(),
        type(untyped2).__name__,
        untyped2.dtype is lib.uint8,
        untyped2.tolist(),
        untyped2 is untyped3,
    )


def _two_dtypes_over_one_memory(lib: Any) -> Any:
    x = lib.ones(2)
    _round_trip(lib, [x, x.view(lib.int32)])


def _a_tensor_and_its_untyped_storage(lib: Any) -> Any:
    x = lib.ones(2)
    _round_trip(lib, [x, x.untyped_storage()])


def _empty_slice(lib: Any) -> Any:
    e = _round_trip(lib, lib.ones(2, 3)[:, 3:])
    return tuple(e.shape), e.stride(), e.storage_offset(), e.untyped_storage().nbytes()


def _a_state_dict_with_tied_weights(lib: Any) -> Any:
    embedding = lib.nn.Embedding(3, 2)
    head = lib.nn.Linear(2, 3, bias=False)
    head.weight = embedding.weight
    model = lib.nn.Sequential(embedding, head)
    state = _round_trip(lib, model.state_dict())
    return sorted(state), state["0.weight"] is state["1.weight"]


PROGRAMS = {
    program.__name__.lstrip("_"): program
    for program in (
        _views_share_after_load,
        _a_view_alone_keeps_its_storage,
        _one_object_saved_twice,
        _slices_of_a_parameter,
        _storages_saved,
        _two_dtypes_over_one_memory,
        _a_tensor_and_its_untyped_storage,
        _empty_slice,
        _a_state_dict_with_tied_weights,
    )
}


@pytest.mark.parametrize("name", list(PROGRAMS))
def test_save_load_as_pytorch(name: str) -> None:
    mine, theirs = (_outcome(PROGRAMS[name], lib) for lib in LIBS)
    assert mine == theirs
