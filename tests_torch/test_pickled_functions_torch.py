"""Public functions pickle (by reference) where PyTorch's do.

``pickle.dumps(torch.add)`` works: a function is pickled as its module and qualified name, and
``multiprocessing``, ``functools.partial`` objects and models holding ``self.act = torch.tanh``
rely on it. minigrad's public functions are mostly wrappers (argument checks, ``out=``) whose
names must lead pickle back to the wrapper itself, not to the op it wraps
(minigrad/_published.py).
"""

from __future__ import annotations

import functools
import inspect
import pickle
from typing import Any

import pytest

import minigrad
import minigrad.linalg
import minigrad.nn.functional
import minigrad.special

torch = pytest.importorskip("torch")

NAMESPACES = ("", "linalg", "special", "nn.functional", "nn.init", "autograd", "func", "random")
UNPICKLED: dict[str, list[str]] = {}  # (none left: the known differences, by namespace)


def _namespace(lib: Any, path: str) -> Any:
    for part in filter(None, path.split(".")):
        lib = getattr(lib, part)
    return lib


def _pickles(value: Any) -> bool:
    try:
        return pickle.loads(pickle.dumps(value)) is value
    except (pickle.PicklingError, AttributeError, TypeError):
        return False


def _functions(path: str) -> list[str]:
    namespace = _namespace(minigrad, path)
    names = getattr(namespace, "__all__", None) or [n for n in dir(namespace) if n[0] != "_"]
    return sorted(name for name in set(names)
                  if inspect.isfunction(getattr(namespace, name, None)))


@pytest.mark.parametrize("path", NAMESPACES)
def test_public_functions_pickle_where_torch_does(path):
    ours, theirs = _namespace(minigrad, path), _namespace(torch, path)
    compared = [name for name in _functions(path)
                if hasattr(theirs, name) and _pickles(getattr(theirs, name))]
    assert len(compared) > 3  # (the namespace's functions were found)
    failing = [name for name in compared if not _pickles(getattr(ours, name))]
    assert failing == UNPICKLED.get(path, [])


def test_a_partial_of_a_function_pickles():
    partial = pickle.loads(pickle.dumps(functools.partial(minigrad.add, alpha=2)))
    result = partial(minigrad.tensor([1.0]), minigrad.tensor([2.0]))
    assert result.tolist() == torch.add(torch.tensor([1.0]), torch.tensor([2.0]), alpha=2).tolist()


class Act(minigrad.nn.Module):
    """A module holding a public function (module-level: pickle finds the class)."""

    def __init__(self) -> None:
        super().__init__()
        self.act = minigrad.tanh
        self.relu = minigrad.nn.functional.relu


def test_a_module_holding_a_function_pickles():
    copy = pickle.loads(pickle.dumps(Act()))
    assert copy.act is minigrad.tanh and copy.relu is minigrad.nn.functional.relu


def test_published_wrappers_keep_their_signature_and_docstring():
    for function in (minigrad.add, minigrad.linalg.inv, minigrad.nn.functional.conv2d,
                     minigrad.special.expit):
        op = inspect.unwrap(function)
        assert op.__module__.startswith("minigrad.ops.")  # (its doctest stays there)
        assert function.__name__ == op.__name__
        assert function.__doc__ == op.__doc__
        ours = list(inspect.signature(function).parameters)
        assert ours[:len(inspect.signature(op).parameters)] == list(
            inspect.signature(op).parameters)  # (and ``out``, for the functions taking it)
