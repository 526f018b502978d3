"""A function's parameters as ``inspect.signature`` reads them, for a fraction of its cost.

``import minigrad`` reads ~2,000 signatures: the argument checks (``_arguments``), the ``out=``
layers (``_out``), the options of the op classes (``autograd/function.py``). Through
``inspect.signature`` that was ~40 % of the import's CPU time: each ``Parameter`` is built
through an enum call and validated, and a ``Signature`` around them. ``parameters`` reads a
plain function's code object instead, as ``inspect._signature_from_function`` does, into
small records with the same attributes; anything else (a wrapper with ``__wrapped__``, a
``__signature__``, a partial, a builtin) goes through ``inspect.signature`` itself.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from types import FunctionType, MethodType
from typing import Any

_CO_VARARGS = inspect.CO_VARARGS
_CO_VARKEYWORDS = inspect.CO_VARKEYWORDS
_EMPTY = inspect.Parameter.empty
# (attributes that make inspect.signature look past the function's own code)
_SIGNATURE_ATTRIBUTES = ("__wrapped__", "__signature__", "_partialmethod")


class Parameter:
    """One parameter, as ``inspect.Parameter``'s attributes (no validation, no methods)."""

    __slots__ = ("name", "kind", "default", "annotation")
    POSITIONAL_ONLY = inspect.Parameter.POSITIONAL_ONLY
    POSITIONAL_OR_KEYWORD = inspect.Parameter.POSITIONAL_OR_KEYWORD
    VAR_POSITIONAL = inspect.Parameter.VAR_POSITIONAL
    KEYWORD_ONLY = inspect.Parameter.KEYWORD_ONLY
    VAR_KEYWORD = inspect.Parameter.VAR_KEYWORD
    empty = _EMPTY

    def __init__(self, name: str, kind: Any, default: Any, annotation: Any) -> None:
        """A parameter as ``inspect.Parameter`` has it (no checks: read off a code object)."""
        self.name, self.kind, self.default, self.annotation = name, kind, default, annotation

    def __repr__(self) -> str:
        """As ``inspect.Parameter``'s."""
        return f"<Parameter {self.name} {self.kind.description}>"


def parameters(function: Callable[..., Any]) -> list[Parameter]:
    """``inspect.signature(function).parameters.values()`` as a list of ``Parameter``.

    Example:
        >>> from minigrad._signatures import parameters
        >>> def f(a, /, b: int, c=2, *rest, d, e=None, **more): ...
        >>> [(p.name, p.kind.name) for p in parameters(f)][2:4]
        [('c', 'POSITIONAL_OR_KEYWORD'), ('rest', 'VAR_POSITIONAL')]
        >>> [(p.name, p.default) for p in parameters(f)][4:6]
        [('d', <class 'inspect._empty'>), ('e', None)]
    """
    if type(function) is MethodType and "__signature__" not in function.__func__.__dict__:
        # (a classmethod's, bound: its first parameter goes, as inspect drops it)
        found = parameters(function.__func__)
        if found and found[0].kind in (Parameter.POSITIONAL_ONLY, Parameter.POSITIONAL_OR_KEYWORD):
            return found[1:]
    if type(function) is not FunctionType or any(
            name in function.__dict__ for name in _SIGNATURE_ATTRIBUTES):
        return [Parameter(p.name, p.kind, p.default, p.annotation)
                for p in inspect.signature(function).parameters.values()]
    code = function.__code__
    names = code.co_varnames
    annotations = function.__annotations__
    positional = code.co_argcount
    positional_only = code.co_posonlyargcount
    keyword_only = code.co_kwonlyargcount
    defaults = function.__defaults__ or ()
    first_default = positional - len(defaults)
    found = []
    for index in range(positional):
        name = names[index]
        kind = Parameter.POSITIONAL_ONLY if index < positional_only else (
            Parameter.POSITIONAL_OR_KEYWORD)
        default = defaults[index - first_default] if index >= first_default else _EMPTY
        found.append(Parameter(name, kind, default, annotations.get(name, _EMPTY)))
    index = positional + keyword_only
    if code.co_flags & _CO_VARARGS:
        name = names[index]
        found.append(Parameter(name, Parameter.VAR_POSITIONAL, _EMPTY,
                               annotations.get(name, _EMPTY)))
        index += 1
    keyword_defaults = function.__kwdefaults__ or {}
    for name in names[positional:positional + keyword_only]:
        found.append(Parameter(name, Parameter.KEYWORD_ONLY, keyword_defaults.get(name, _EMPTY),
                               annotations.get(name, _EMPTY)))
    if code.co_flags & _CO_VARKEYWORDS:
        name = names[index]
        found.append(Parameter(name, Parameter.VAR_KEYWORD, _EMPTY,
                               annotations.get(name, _EMPTY)))
    return found


class SignaturePlus(inspect.Signature):
    """``inspect.signature(function)`` with one more parameter, built when first read.

    An ``inspect.Signature`` (what ``inspect.signature`` asks of a ``__signature__``) whose
    ``_parameters`` and ``_return_annotation`` slots are filled on first access: the ``out=``
    layers (``_out``) give ~350 functions ``help()``'s signature with ``out``, which nobody
    reads at import. ``added`` goes before the first parameter of ``before_kind`` (or last).
    """

    __slots__ = ("_source", "_added", "_before_kind")

    def __init__(self, function: Callable[..., Any], added: inspect.Parameter,
                 before_kind: Any) -> None:
        """``function``'s signature with ``added`` before ``before_kind``, built when read."""
        # (no Signature.__init__: the slots it fills are filled by __getattr__)
        # Where the signature will be read: as ``inspect.signature(function)`` reads it now, a
        # ``__signature__`` on the way as it is now (a wrapper may later get this one).
        source = inspect.unwrap(function, stop=lambda f: hasattr(f, "__signature__"))
        signature = getattr(source, "__signature__", None)
        self._source = signature if isinstance(signature, inspect.Signature) else source
        self._added, self._before_kind = added, before_kind

    def __getattr__(self, name: str) -> Any:
        """Build the signature on the first read of an unfilled slot (normal lookup failed)."""
        if name not in ("_parameters", "_return_annotation"):
            raise AttributeError(f"'{type(self).__name__}' object has no attribute '{name}'")
        source = self._source
        signature = source if isinstance(source, inspect.Signature) else inspect.signature(source)
        listed = list(signature.parameters.values())
        position = next((i for i, p in enumerate(listed) if p.kind is self._before_kind),
                        len(listed))
        listed.insert(position, self._added)
        full = signature.replace(parameters=listed)
        # (two threads may both build it: equal values, either kept)
        self._parameters = full._parameters
        self._return_annotation = full._return_annotation
        return getattr(full, name)

    def __reduce__(self) -> Any:
        """As a plain Signature: copy and pickle need not know how it was made."""
        return inspect.Signature, (tuple(self.parameters.values()),), {
            "_return_annotation": self.return_annotation}
