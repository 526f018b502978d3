"""In-place comparisons (``x.lt_(y)``, ``x.eq_(2)``, ``greater_``...) against PyTorch 2.13, live.

The result is written in self's dtype (1 and 0; an int or bool tensor stays one), self's
version is bumped once, ``other`` broadcasts into self's shape (PyTorch's errors when it
cannot); on a non-leaf the write is recorded (``LtBackward0`` for a number, ``LtBackward1`` for
a tensor), with zero gradients. The op table (tests/opinfo/inplace.py) checks float tensors.
"""

from __future__ import annotations

from typing import Any

import pytest
from _cases import parametrize_in_one

import minigrad

torch = pytest.importorskip("torch")

NAMES = ("eq_", "ne_", "lt_", "le_", "gt_", "ge_", "not_equal_", "less_", "less_equal_",
         "greater_", "greater_equal_")
# (self, other) as code, run with ``lib`` as minigrad or torch
CASES = [
    ("lib.tensor([1., 2., 3.])", "2"),
    ("lib.tensor([1, 2, 3])", "1.5"),
    ("lib.tensor([1, 2, 3])", "lib.tensor([1.5, 2., 4.])"),
    ("lib.tensor([True, False])", "0.5"),
    ("lib.tensor([1., 2.], dtype=lib.float64)", "lib.tensor([2., 2.])"),
    ("lib.tensor([[1., 2., 3.], [4., 5., 6.]])", "lib.tensor([2., 5., 3.])"),
    ("lib.tensor([1., 2.])", "lib.tensor(2)"),
    ("lib.tensor([1., 2.])", "lib.ones(2, 2)"),
    ("lib.tensor([1., 2., 3.])", "lib.ones(2)"),
]


def _text(value: Any) -> str:
    return str(value).replace("torch.", "minigrad.")


def _write(lib: Any, name: str, target: str, other: str) -> tuple[str, ...]:
    x = eval(target, {"lib": lib})  # noqa: S307 - the fixed cases above
    before = x._version
    try:
        result = getattr(x, name)(eval(other, {"lib": lib}))  # noqa: S307
    except Exception as error:  # noqa: BLE001 - the outcome is compared, whatever it is
        return type(error).__name__, _text(error), str(x._version - before), _text(x)
    return _text(result), str(result is x), str(x._version - before), _text(x.dtype)


@parametrize_in_one("name", NAMES)
@parametrize_in_one(("target", "other"), CASES)
def test_written_as_pytorch(name: str, target: str, other: str) -> None:
    assert _write(minigrad, name, target, other) == _write(torch, name, target, other)


def _autograd(lib: Any, name: str) -> list[Any]:
    seen: list[Any] = []
    x = lib.tensor([1.0, 2.0], requires_grad=True)
    try:
        getattr(x, name)(1)
    except RuntimeError as error:  # a leaf that requires grad
        seen.append(_text(error))
    other = lib.tensor([1.0, 5.0], requires_grad=True)
    for argument in (2.0, other):
        y = x * 2
        z = getattr(y, name)(argument)
        nodes = [None if node is None else type(node).__name__
                 for node, _ in z.grad_fn.next_functions]
        z.sum().backward()
        seen += [z.tolist(), z.grad_fn.name(), nodes, x.grad.tolist(), y._version]
        x.grad = None
    seen.append(other.grad.tolist())
    plain = lib.ones(2)
    getattr(plain, name)(other)  # (only other requires grad)
    seen += [plain.grad_fn.name(), plain.requires_grad]
    base = lib.ones(2, 3, requires_grad=True) * 1
    getattr(base[0], name)(0.5)  # (through a view: CopySlices)
    seen += [type(base.grad_fn).__name__, base.tolist()]
    kept = (x * 1).sigmoid()
    getattr(kept, name)(0.5)  # (sigmoid saved its result: backward sees the write)
    with pytest.raises(RuntimeError) as caught:
        kept.sum().backward()
    seen.append(_text(caught.value))
    return seen


@parametrize_in_one("name", NAMES)
def test_autograd_as_pytorch(name: str) -> None:
    assert _autograd(minigrad, name) == _autograd(torch, name)
