"""ctc_loss's argument checks, compared live with PyTorch 2.13: exception type and message.

``torch.ctc_loss`` has two overloads, int lists or tensors for both lengths: a call that fits
neither gets the parser's listing (``F.ctc_loss`` passes its seven arguments on by position, so
its listing shows seven). Then the kernel's checks, in its order: the dtype, the dimensions of
``log_probs`` and of ``targets``, ``blank``, the lengths.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from _cases import parametrize_in_one

import minigrad

torch = pytest.importorskip("torch")

BIG = 2**70
TARGETS = np.array([[1, 2], [3, 3]])


def _top(lengths: tuple[Any, Any], *rest: Any, targets: Any = TARGETS) -> Callable[..., Any]:
    """``lib.ctc_loss(log_probs, targets, *lengths, *rest)``, tensors made in ``lib``."""

    def call(lib: Any, log_probs: Any) -> Any:
        made = [lib.tensor(v) if isinstance(v, np.ndarray) else v for v in (targets, *lengths)]
        return lib.ctc_loss(log_probs, *made, *rest)

    return call


def _functional(lengths: tuple[Any, Any], targets: Any = TARGETS) -> Callable[..., Any]:
    """``lib.nn.functional.ctc_loss(log_probs, targets, *lengths)``."""

    def call(lib: Any, log_probs: Any) -> Any:
        made = [lib.tensor(v) if isinstance(v, np.ndarray) else v for v in (targets, *lengths)]
        return lib.nn.functional.ctc_loss(log_probs, *made)

    return call


CALLS: dict[str, Callable[..., Any]] = {
    "lone_ints": _top((5, 3)),
    "lone_ints_blank": _top((5, 3), 1),
    "lone_ints_all": _top((5, 3), 0, 0, True),
    "floats": _top(([5, 4], (0.5,))),
    "list_and_tensor": _top(([5, 4], np.array([2, 1]))),
    "tensor_and_list": _top((np.array([5, 4]), [2, 1])),
    "str_lengths": _top(([5, 4], "a")),
    "item_past_int64": _top(([5, BIG], [2, 1])),
    "first_item_past_int64": _top(([5, 4], (BIG,))),
    "blank_past_int64": _top(([5, 4], [2, 1], BIG)),
    "reduction_past_int64": _top((np.array([5, 4]), np.array([2, 1])), 0, BIG),
    "float_tensor_lengths": _top((np.array([5.0, 4.0]), np.array([2, 1]))),
    "targets_4d": _top(([5, 4], [2, 1]), targets=np.ones((2, 1, 1, 3), dtype=np.int64)),
    "targets_0d_bad_blank": _top(([5, 4], [2, 1], 99), targets=np.array(1)),
    "targets_4d_bad_blank": _top(([5, 4], [2, 1], 99), targets=np.ones((2, 1, 3, 3), np.int64)),
    "F_lone_ints": _functional((5, 3)),
    "F_none": _functional(([5, 4], None)),
    "F_str_targets": _functional(([5, 4], [2, 1]), targets="a"),
    "F_list_and_tensor": _functional(([5, 4], np.array([2, 1]))),
    "F_item_past_int64": _functional(([5, 4], (1, BIG))),
}


def _message(error: BaseException) -> str:
    """The message without the C++ trace PyTorch puts inside some parser errors' quotes."""
    text = str(error)
    message, trace, _ = text.partition("\nException raised from")
    if trace and text.endswith('"'):
        message += '"'
    return message.replace("torch.", "minigrad.")


def _outcome(lib: Any, call: Callable[..., Any], log_probs: Any) -> BaseException:
    with pytest.raises(Exception) as caught:
        call(lib, log_probs)
    return caught.value


@parametrize_in_one("name", list(CALLS))
def test_misuse_as_pytorch(name: str) -> None:
    values = np.log(np.full((5, 2, 4), 0.25, dtype=np.float32))
    theirs = _outcome(torch, CALLS[name], torch.from_numpy(values.copy()))
    log_probs = minigrad.from_numpy(values.copy())
    mine = _outcome(minigrad, CALLS[name], log_probs)
    assert type(mine) is type(theirs)
    assert str(mine) == _message(theirs)
    assert np.array_equal(log_probs.numpy(), values) and log_probs._version == 0


@pytest.mark.parametrize("dtype", ["int64", "bool"])
def test_dtype_is_checked_first(dtype: str) -> None:
    # (the kernel's dispatch on log_probs' dtype comes before every other check)
    values = np.ones((5, 2, 4), dtype=dtype)
    errors = []
    for lib in (torch, minigrad):
        call = _top(([5, 4, 3], [2, 1], 99), targets=np.ones((2, 1), np.int64))
        errors.append(_outcome(lib, call, lib.from_numpy(values.copy())))
    assert type(errors[1]) is type(errors[0]) is NotImplementedError
    assert str(errors[1]) == _message(errors[0])
