"""Run a program on one library and describe what happened as plain, comparable data.

Every statement runs on its own (a raising statement does not stop the program: a failed op must
leave everything as it was, and the statements after it show whether it did). For each statement
the run keeps the exception (type name and text) and the warnings; at the end it reads, for each
tensor in the namespace, its value, dtype, shape, ``_version``, ``grad_fn``, ``requires_grad``,
``is_leaf`` and ``.grad`` — always in that order, since reading ``grad_fn`` of a view may
regenerate its history in both libraries.
"""

from __future__ import annotations

import contextlib
import re
import warnings
from collections.abc import Callable
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any

import numpy as np

from tests_torch.random_programs.generator import Statement

_TORCH_NAME = re.compile(r"\btorch\.(?=[A-Za-z_])")
# PyTorch's C++ warnings end with where they were raised; minigrad has no C++ to point at.
_TRIGGERED = re.compile(r" \(Triggered internally at [^)]*\)")

# Statements whose result is a gradient made by the library's backward formulas. PyTorch's
# formulas sometimes write into their gradient buffers in place (maximum's backward bumps its
# result to version 2): an implementation detail. Such tensors' versions (and those of their
# views) are compared from the value they had when the statement bound them.
_GRADIENT_KINDS = {"grad", "read_grad"}
_BINDING_KINDS = {"leaf", "unary", "binary", "view", "data"}  # statements that bind a new tensor


def normalize(text: str) -> str:
    """PyTorch's text with ``torch.`` type and function names spelled as minigrad's."""
    return _TRIGGERED.sub("", _TORCH_NAME.sub("minigrad.", text))


@dataclass
class Outcome:
    """What one statement did: its exception (or None) and its warnings."""

    error: tuple[str, str] | None
    warnings: tuple[tuple[str, str], ...]


@dataclass
class Run:
    """One program on one library."""

    outcomes: list[Outcome]
    tensors: dict[str, dict[str, Any]]
    # minigrad only: what ``known.py`` classifies by, per statement (see ``_facts``).
    facts: list[set[str]] = field(default_factory=list)
    # The names bound to a result of ``autograd.grad`` (or to a view of one) at the end.
    from_grad: set[str] = field(default_factory=set)


def run(
    program: list[Statement],
    library: ModuleType,
    after_each: Callable[[dict[str, Any]], None] | None = None,
) -> Run:
    """Run ``program`` with ``torch`` bound to ``library``.

    ``after_each``: called with the namespace after each statement (rounding.py's trace).
    """
    namespace: dict[str, Any] = {"torch": library}
    outcomes = []
    facts = []
    version_offsets: dict[str, int] = {}
    from_grad: set[str] = set()
    is_minigrad = library.__name__ == "minigrad"
    try:
        for statement in program:
            facts.append(_facts(statement, namespace, from_grad) if is_minigrad else set())
            outcomes.append(_execute(statement, namespace, library))
            _note_gradient(statement, namespace, library, version_offsets)
            _note_from_grad(statement, from_grad)
            if after_each is not None:
                after_each(namespace)
        tensors = {
            name: _describe(value, version_offsets.get(name, 0))
            for name, value in namespace.items()
            if isinstance(value, library.Tensor)
        }
    finally:
        library.autograd.set_detect_anomaly(False)
        library.set_grad_enabled(True)
    return Run(outcomes, tensors, facts, from_grad)


def _execute(statement: Statement, namespace: dict[str, Any], library: ModuleType) -> Outcome:
    error = None
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        if ".register_hook(" in statement.code:
            _bring_history_up_to_date(namespace.get(statement.target or ""))
        try:
            exec(compile(statement.code, "<program>", "exec"), namespace)  # noqa: S102
        except Exception as exception:  # noqa: BLE001 - comparing exceptions is the point
            error = (type(exception).__name__, normalize(str(exception)))
    shown = tuple(
        (w.category.__name__, normalize(str(w.message)).split("\n", 1)[0]) for w in caught
    )
    return Outcome(error, shown)


def _bring_history_up_to_date(tensor: Any) -> None:
    """Read ``tensor.grad_fn`` before ``register_hook`` reads it (the same in both libraries).

    PyTorch 2.13 segfaults when ``register_hook`` itself regenerates the history of a view
    whose base changed (``t2 = t0.T``, ``t0[0] = 1.0`` under no_grad, ``t2.register_hook(f)``).
    ``register_hook`` reads ``grad_fn`` anyway, so reading it first changes nothing else; an
    error it raises is raised again by ``register_hook``.
    """
    with contextlib.suppress(Exception):  # register_hook raises it again, and it is compared
        _ = tensor.grad_fn


def _note_gradient(
    statement: Statement, namespace: dict[str, Any], library: ModuleType, offsets: dict[str, int]
) -> None:
    """Remember the version of a gradient (or of a view of one) when it was bound to a name."""
    name = statement.target
    value = namespace.get(name or "")
    if not isinstance(value, library.Tensor) or name is None:
        return
    derived = statement.kind == "view" and any(o in offsets for o in statement.operands)
    # An op that returns its operand itself (``g.float()`` of a float32 ``g``) binds the
    # gradient under a second name: the same tensor, compared from the same version.
    same = [o for o in statement.operands if o in offsets and namespace.get(o) is value]
    if same:
        offsets[name] = offsets[same[0]]
    elif statement.kind in _GRADIENT_KINDS or derived:
        offsets[name] = value._version
    elif statement.kind in _BINDING_KINDS:
        offsets.pop(name, None)


def _note_from_grad(statement: Statement, from_grad: set[str]) -> None:
    """Track the names bound to a result of ``autograd.grad``, or to a view of one."""
    name = statement.target
    if name is None:
        return
    if statement.kind == "grad" or (
        statement.kind == "view" and any(o in from_grad for o in statement.operands)
    ):
        from_grad.add(name)
    elif statement.kind in _BINDING_KINDS:
        from_grad.discard(name)


def _facts(
    statement: Statement, namespace: dict[str, Any], from_grad: set[str]
) -> set[str]:
    """Facts about the statement about to run that classify known divergences (minigrad)."""
    found = set()
    if {statement.target, *statement.operands} & from_grad:
        found.add("uses_result_of_grad")
    names = (statement.target or "", *statement.operands)
    if any(name in namespace and namespace[name] is None for name in names):
        found.add("operand_is_none")  # e.g. an unset ``.grad`` read into a name earlier
    for name in statement.operands:
        operand = namespace.get(name)
        if _is_edgeless_view(operand):
            found.add("operand_is_edgeless_view")
    if statement.kind == "inplace_binary" and _overlap_too_hard(
        namespace.get(statement.target or ""), [namespace.get(n) for n in statement.operands]
    ):
        found.add("inplace_operand_overlaps_undecidably")
    if statement.kind == "inplace_binary":
        target = namespace.get(statement.target or "")
        for name in statement.operands:
            other = namespace.get(name)
            if (
                target is not None
                and other is not None
                and hasattr(target, "_version_counter")
                and hasattr(other, "_version_counter")
                and target._version_counter() is other._version_counter()
            ):
                found.add("inplace_operand_shares_counter")
    return found


def _is_edgeless_view(tensor: Any) -> bool:
    """A view that requires grad through its base yet has no gradient edge (minigrad)."""
    return (
        getattr(tensor, "_base", None) is not None
        and tensor._grad_fn is None
        and not tensor._requires_grad
        and tensor._base.requires_grad
    )


def _overlap_too_hard(target: Any, operands: list[Any]) -> bool:
    """An operand shares memory with the written tensor and one of them is not dense (minigrad).

    PyTorch does not check such pairs; its result depends on its kernel's element order.
    """
    from minigrad._layout import is_non_overlapping_and_dense

    array = getattr(target, "_array", None)
    if array is None:
        return False
    for operand in operands:
        other = getattr(operand, "_array", None)
        if (
            other is not None
            and operand is not target
            and np.shares_memory(array, other)
            and not (is_non_overlapping_and_dense(array) and is_non_overlapping_and_dense(other))
        ):
            return True
    return False


def _describe(tensor: Any, version_offset: int) -> dict[str, Any]:
    """The tensor's observable state, each field read in a fixed order."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # reading .grad of a non-leaf warns in both
        return {
            "value": read_value(tensor),
            "dtype": _read(lambda: normalize(str(tensor.dtype))),
            "shape": _read(lambda: tuple(tensor.shape)),
            "_version": _read(lambda: tensor._version - version_offset),
            "grad_fn": _read(lambda: _node_name(tensor.grad_fn)),
            "requires_grad": _read(lambda: tensor.requires_grad),
            "is_leaf": _read(lambda: tensor.is_leaf),
            "grad": _read(lambda: _grad(tensor.grad)),
        }


def read_value(tensor: Any) -> Any:
    """The tensor's value as a new numpy array, or what reading it raised."""
    return _read(lambda: _array(tensor))


def _array(tensor: Any) -> np.ndarray:
    # force=True: PyTorch's gradient of an op whose derivative is known to be zero (abs's
    # sign) is a "ZeroTensor", which plain numpy() refuses; its value is zeros, as minigrad's.
    return np.array(tensor.detach().numpy(force=True), copy=True)


def _grad(grad: Any) -> Any:
    if grad is None:
        return None
    return (normalize(str(grad.dtype)), _array(grad))


def _node_name(node: Any) -> str | None:
    return None if node is None else type(node).__name__


def _read(getter: Any) -> Any:
    try:
        return getter()
    except Exception as exception:  # noqa: BLE001
        return ("raises", type(exception).__name__, normalize(str(exception)))
