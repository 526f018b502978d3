"""Parameter names: every public function and method takes its arguments under PyTorch's names.

A PyTorch snippet that passes an argument by keyword (``x.dot(tensor=y)``,
``minigrad.linalg.cholesky(input=a)``) must run unchanged. PyTorch's names are read off
PyTorch 2.13 itself: a function written in Python by its signature; one bound by PyTorch's
argument parser by its ATen schemas (``self`` is ``input`` in a function and absent from a
method), plus what the parser adds to every schema (``out``, the factories' ``requires_grad``)
and the NumPy names it accepts for some parameters (``axis`` for ``dim``, ``x`` for ``input``).
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np
import pytest
from _cases import parametrize_in_one

import minigrad
import minigrad.nn.functional as minigrad_functional

torch = pytest.importorskip("torch")
torch_functional = pytest.importorskip("torch.nn.functional")

# The parser's additions to the schemas' names (python_arg_parser.cpp), and its NumPy names.
PARSER_NAMES = {"out", "requires_grad", "pin_memory", "axis", "keepdims", "x", "a", "x1", "x2"}
# Parameters the Python bindings have and the schemas do not.
BINDING_ONLY = {("nonzero", "as_tuple"), ("cpu", "memory_format"), ("cuda", "device"),
                ("cuda", "non_blocking")}
# The differences left, each with why: ``label: parameter``.
KNOWN = {
    # PyTorch binds three overloads (indices, sections, tensor_indices_or_sections); minigrad's
    # one Python parameter takes all three (positionally, as PyTorch's docs show it).
    "minigrad.tensor_split: indices_or_sections",
    "Tensor.tensor_split: indices_or_sections",
    # PyTorch's name is ``from``, a Python keyword: no Python function can take it by name.
    "Tensor.uniform_: from_",
    "Tensor.random_: from_",
    # minigrad.selu is nn.functional.selu, whose ``inplace`` torch.selu does not have.
    "minigrad.selu: inplace",
    # minigrad's max pools are nn.functional's, whose ``return_indices`` torch's do not have.
    "minigrad.max_pool1d: return_indices",
    "minigrad.max_pool1d_with_indices: return_indices",
    "minigrad.max_pool2d: return_indices",
    "minigrad.max_pool3d: return_indices",
}


def torch_names(function: Any, aten_name: str, method: bool) -> set[str] | None:
    """The parameter names PyTorch's ``function`` accepts (None: any, ``**kwargs``)."""
    try:
        parameters = inspect.signature(function).parameters.values()
    except (TypeError, ValueError):  # bound by the argument parser: its schemas decide
        schemas = torch._C._jit_get_schemas_for_operator(f"aten::{aten_name}")
        if not schemas:  # a binding of its own (Tensor.numpy, new_tensor): not known here
            return None
        names = set(PARSER_NAMES)
        for schema in schemas:
            for argument in schema.arguments:
                if argument.name != "self":
                    names.add(argument.name)
                elif not method:
                    names.add("input")
        return names
    if any(p.kind is p.VAR_KEYWORD for p in parameters):
        return None
    return {p.name for p in parameters}


def minigrad_names(function: Callable[..., Any], method: bool) -> list[str]:
    parameters = list(inspect.signature(function).parameters.values())[1 if method else 0:]
    return [p.name for p in parameters if p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)]


def pairs() -> Iterator[tuple[str, Any, Any, str, bool]]:
    """(label, minigrad's callable, PyTorch's, its ATen name, is a method) for every public name
    PyTorch has too."""
    namespaces = [("minigrad", minigrad, torch, ""),
                  ("minigrad.nn.functional", minigrad_functional, torch_functional, ""),
                  ("minigrad.linalg", minigrad.linalg, torch.linalg, "linalg_"),
                  ("minigrad.signal.windows", minigrad.signal.windows, torch.signal.windows, "")]
    for label, ours, theirs, prefix in namespaces:
        for name in ours.__all__:
            function = getattr(ours, name)
            if inspect.isfunction(function) and hasattr(theirs, name):
                yield f"{label}.{name}", function, getattr(theirs, name), prefix + name, False
    example = torch.ones(1)
    for name, function in vars(minigrad.Tensor).items():
        if not name.startswith("_") and inspect.isfunction(function) and hasattr(example, name):
            yield f"Tensor.{name}", function, getattr(example, name), name, True


def mismatches() -> list[str]:
    found = []
    for label, ours, theirs, aten_name, method in pairs():
        accepted = torch_names(theirs, aten_name, method)
        if accepted is None:
            continue
        for name in minigrad_names(ours, method):
            base = aten_name.removeprefix("linalg_")
            if name not in accepted and (base, name) not in BINDING_ONLY:
                found.append(f"{label}: {name}")
    return found


def test_every_parameter_has_pytorchs_name():
    found = mismatches()
    new = sorted(set(found) - KNOWN)
    assert not new, "parameters PyTorch names otherwise:\n" + "\n".join(new)
    gone = sorted(KNOWN - set(found))
    assert not gone, "now as in PyTorch (remove from KNOWN): " + ", ".join(gone)


@parametrize_in_one(("call", "theirs"), [
    (lambda lib, v: lib.dot(input=v, tensor=v), None),
    (lambda lib, v: v.dot(tensor=v), None),
    (lambda lib, v: lib.swapaxes(v.view(1, 3), axis0=0, axis1=1), None),
    (lambda lib, v: lib.split(tensor=v, split_size_or_sections=2), None),
    (lambda lib, v: lib.nn.functional.one_hot(input=v.long()), None),
    (lambda lib, v: lib.det(input=lib.diag(v)), None),
    (lambda lib, v: lib.linalg.det(A=lib.diag(v)), None),
    (lambda lib, v: lib.linalg.cholesky(input=lib.diag(v)), None),
    (lambda lib, v: lib.linalg.cholesky_ex(input=lib.diag(v)).L, None),
    (lambda lib, v: lib.linalg.eigh(input=lib.diag(v)).eigenvalues, None),
    (lambda lib, v: lib.linalg.eigvalsh(input=lib.diag(v)), None),
    (lambda lib, v: lib.linalg.pinv(input=lib.diag(v)), None),
    (lambda lib, v: lib.linalg.vector_norm(x=v), None),
])
def test_a_call_by_pytorchs_keywords_runs_unchanged(call, theirs):
    mine = call(minigrad, minigrad.tensor([1.0, 2.0, 3.0]))
    expected = call(torch, torch.tensor([1.0, 2.0, 3.0]))
    mine = mine if isinstance(mine, tuple) else (mine,)
    expected = expected if isinstance(expected, tuple) else (expected,)
    assert [m.tolist() for m in mine] == [e.tolist() for e in expected]


@pytest.mark.parametrize("call", [
    lambda lib, v: v.dot(other=v),
    lambda lib, v: lib.dot(v, other=v),
    lambda lib, v: lib.det(A=lib.diag(v)),
    lambda lib, v: lib.linalg.cholesky(A=lib.diag(v)),
    lambda lib, v: lib.swapaxes(v.view(1, 3), dim0=0, dim1=1),
    lambda lib, v: lib.split(input=v, split_size_or_sections=2),
])
def test_a_keyword_pytorch_does_not_know_is_refused(call):
    with pytest.raises(TypeError):
        call(torch, torch.tensor([1.0, 2.0, 3.0]))
    with pytest.raises(TypeError):
        call(minigrad, minigrad.tensor([1.0, 2.0, 3.0]))


@parametrize_in_one("call", [
    lambda lib, v: lib.sum(v, axis=0),
    lambda lib, v: v.sum(axis=1, keepdims=True),
    lambda lib, v: lib.sum(a=v),
    lambda lib, v: lib.exp(x=v),
    lambda lib, v: lib.add(x1=v, x2=v),
    lambda lib, v: lib.mean(v, axis=1),
    lambda lib, v: v.max(axis=0)[0],
    lambda lib, v: lib.cumsum(v, axis=0),
    lambda lib, v: v.eq(x2=v),
    lambda lib, v: lib.cat([v, v], axis=0),
    lambda lib, v: lib.argmax(v, axis=1),
    lambda lib, v: lib.linalg.vector_norm(input=v),
    lambda lib, v: lib.linalg.vector_norm(a=v),
    lambda lib, v: lib.linalg.norm(x=v),
    lambda lib, v: lib.nn.functional.gelu(x=v),
])
def test_pytorchs_parser_takes_numpys_names_too(call):
    mine = call(minigrad, minigrad.arange(6.0).reshape(2, 3))
    theirs = call(torch, torch.arange(6.0).reshape(2, 3))
    np.testing.assert_allclose(mine.numpy(), theirs.numpy(), rtol=1e-6)


@pytest.mark.parametrize("call", [
    lambda lib, v: lib.norm(v, axis=0),  # (functions PyTorch writes in Python)
    lambda lib, v: v.split(1, axis=0),
    lambda lib, v: lib.nn.functional.relu(x=v),
    lambda lib, v: lib.sum(v, dim=0, axis=0),
])
def test_numpys_names_only_where_pytorchs_parser_takes_them(call):
    with pytest.raises(TypeError):
        call(torch, torch.arange(6.0).reshape(2, 3))
    with pytest.raises(TypeError):
        call(minigrad, minigrad.arange(6.0).reshape(2, 3))
