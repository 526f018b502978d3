"""Public functions pickle (by reference) where PyTorch's do.

``pickle.dumps(torch.add)`` works: a function is pickled as its module and qualified name, and
``multiprocessing``, ``functools.partial`` objects and DataLoader workers rely on it. minigrad's
public functions are wrappers (argument checks, ``out=``) whose names must lead pickle back to
the wrapper itself, not to the function it wraps.
"""

from __future__ import annotations

import inspect
import pickle
from typing import Any

import pytest

import minigrad
import minigrad.linalg
import minigrad.nn.functional
import minigrad.special

torch = pytest.importorskip("torch")

NAMESPACES = ("", "linalg", "special", "nn.functional")


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
    return sorted(name for name in names if inspect.isfunction(getattr(namespace, name, None)))


@pytest.mark.parametrize("path", NAMESPACES)
def test_public_functions_pickle_where_torch_does(path):
    ours, theirs = _namespace(minigrad, path), _namespace(torch, path)
    failing = [name for name in _functions(path)
               if hasattr(theirs, name) and _pickles(getattr(theirs, name))
               and not _pickles(getattr(ours, name))]
    assert failing == []


def test_a_partial_of_a_function_pickles():
    import functools

    partial = pickle.loads(pickle.dumps(functools.partial(minigrad.add, alpha=2)))
    result = partial(minigrad.tensor([1.0]), minigrad.tensor([2.0]))
    assert result.tolist() == [5.0]
