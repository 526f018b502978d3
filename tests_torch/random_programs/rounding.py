"""Inherited rounding: a value difference that the statements pass on, not one an op makes.

PyTorch's float32 results are not always the correctly rounded ones minigrad computes (its
``exp`` is 1 ulp off on some inputs), and an op that amplifies its input's error (``sin`` of
~1618, ``1 / x`` of a small ``x``) turns that last bit into a difference above the
comparison's tolerance, though minigrad's op computed the right value from what it was given.

So when the final values differ, both runs are repeated, keeping every tensor's value after
each statement, and each statement whose result differs between the runs is run once more in
PyTorch, on the values minigrad's run had just before it (plain tensors without history: the
values are what is checked). If PyTorch then gives minigrad's result, that statement only
passed the difference on; if not (or if it cannot be replayed alone, such as ``backward``), its
op computes something else there: a divergence. Only values are judged so: every other field
is compared as before, and a difference in a gradient stays a divergence.
"""

from __future__ import annotations

import warnings
from types import ModuleType
from typing import Any

import numpy as np
import torch

import minigrad
from tests_torch.random_programs.compare import same
from tests_torch.random_programs.generator import Statement
from tests_torch.random_programs.runner import read_value, run

State = dict[str, np.ndarray]  # each tensor's value after a statement, by name


def only_inherited(program: list[Statement]) -> bool:
    """True if each statement whose result differs between the runs passed the difference on.

    That is, PyTorch, running the statement on the values minigrad's run had before it, gives
    minigrad's result (within compare.py's tolerance).
    """
    torch_states = _trace(program, torch)
    minigrad_states = _trace(program, minigrad)
    for index, statement in enumerate(program):
        before, after = minigrad_states[index], minigrad_states[index + 1]
        torch_before, torch_after = torch_states[index], torch_states[index + 1]
        written = _written(before, after) | _written(torch_before, torch_after)
        differing = [name for name in sorted(written)
                     if not same(torch_after.get(name), after.get(name))]
        if differing and not _replay_agrees(statement, before, after, differing):
            return False
    return True


def _trace(program: list[Statement], library: ModuleType) -> list[State]:
    """The values before the program and after each statement, in one run on ``library``."""
    states: list[State] = [{}]
    run(program, library, after_each=lambda namespace: states.append(_state(namespace, library)))
    return states


def _state(namespace: dict[str, Any], library: ModuleType) -> State:
    values = {}
    for name, value in namespace.items():
        if isinstance(value, library.Tensor):
            array = read_value(value)
            if isinstance(array, np.ndarray):  # (not a read that raised)
                values[name] = array
    return values


def _written(before: State, after: State) -> set[str]:
    """The names a statement bound, rebound to another value or wrote."""
    return {name for name, value in after.items()
            if name not in before or not _identical(before[name], value)}


def _identical(a: np.ndarray, b: np.ndarray) -> bool:
    return a.dtype == b.dtype and a.shape == b.shape and a.tobytes() == b.tobytes()


def _replay_agrees(statement: Statement, before: State, after: State, names: list[str]) -> bool:
    """Whether PyTorch, running ``statement`` on ``before``'s values, gives ``after``'s names."""
    namespace: dict[str, Any] = {"torch": torch}
    namespace.update((name, torch.from_numpy(value.copy())) for name, value in before.items())
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            exec(compile(statement.code, "<replay>", "exec"), namespace)  # noqa: S102
    except Exception:  # noqa: BLE001 - a statement that cannot run alone explains nothing
        return False
    for name in names:
        value = namespace.get(name)
        if not isinstance(value, torch.Tensor) or not same(read_value(value), after.get(name)):
            return False
    return True
