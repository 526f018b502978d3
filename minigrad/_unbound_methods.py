"""``minigrad.Tensor.mul(2, t)`` refuses its non-tensor ``self``, as PyTorch's C methods do.

PyTorch's Tensor methods are C method descriptors of ``torch._C.TensorBase``: called through
the class with something else as ``self`` they raise ``TypeError: descriptor 'mul' for
'torch._C.TensorBase' objects doesn't apply to a 'int' object``. minigrad's methods are Python
functions, which take any ``self``: ``Tensor.mul(2, t)`` ran (``mul(2, t)``'s value).

A check inside the methods would run on every call (``a.add(b, alpha=2)`` paid +0.6 % for it).
Only a call through the class can give another ``self``, and only the class's own attribute
lookup sees that access: ``Tensor.mul`` goes through ``type(Tensor)``, ``t.mul`` does not (an
instance's lookup reads its class's dict and binds the function, in C). So Tensor's metaclass,
``TensorType``, holds a data descriptor per checked name (data descriptors of the metaclass
come first in a class's lookup): ``Tensor.mul`` is the method wrapped in that check, ``t.mul``
is the method itself, at the cost it had. The names are PyTorch's C methods
(``tools/parser_overloads.py``'s "descriptors"); its Python methods (``backward``, ``split``)
take any ``self``, and so do minigrad's. Dunders are left as they are (a metaclass's dunders
are the class's own: ``__repr__`` there would be ``repr(Tensor)``).
"""

from __future__ import annotations

import functools
import weakref
from collections.abc import Callable, Iterable
from types import FunctionType
from typing import Any

from minigrad import _warnings
from minigrad._arguments import PARSER_TABLE
from minigrad.autograd.tensor_base import TensorBase


def descriptor_error(name: str, value: Any) -> TypeError:
    """PyTorch's TypeError for ``Tensor.<name>(value, ...)`` with ``value`` not a tensor."""
    return TypeError(f"descriptor '{name}' for 'minigrad._C.TensorBase' objects doesn't apply "
                     f"to a '{type(value).__name__}' object")


class TensorType(type):
    """Tensor's metaclass: where ``Tensor.<method>`` (through the class) finds its check."""


class _UnboundCheck:
    """``cls.<name>``: the method found on ``cls``, wrapped to refuse a non-tensor ``self``.

    One wrapper per function (kept while the function lives): ``Tensor.abs is
    Tensor.absolute`` as before, and pickle finds ``Tensor.add`` by its name.
    """

    # (made on first access, as the wrappers: ~500 checks are made at import, and a
    # WeakKeyDictionary is ~7 objects for the collector to visit)
    wrappers: weakref.WeakKeyDictionary[Any, Any] | None = None

    def __init__(self, name: str) -> None:
        """The check of ``Tensor.<name>``; its wrappers are made on first access."""
        self.name = name

    def __get__(self, cls: Any, metaclass: Any = None) -> Any:
        """The attribute ``cls`` holds, a function wrapped in the check (the class's lookup)."""
        if cls is None:
            return self
        for klass in cls.__mro__:
            if self.name in klass.__dict__:
                found = klass.__dict__[self.name]
                break
        else:
            raise AttributeError(f"type object '{cls.__name__}' has no attribute '{self.name}'")
        if not isinstance(found, FunctionType) or not (found.__module__ or "").startswith(
                "minigrad."):
            # (another kind of attribute, or a function of the user's, a subclass's own or
            # monkeypatched: Python in PyTorch too)
            return found.__get__(None, cls) if hasattr(found, "__get__") else found
        wrappers = self.wrappers
        if wrappers is None:  # (setdefault: two threads' first accesses keep one dict)
            wrappers = vars(self).setdefault("wrappers", weakref.WeakKeyDictionary())
        wrapper = wrappers.get(found)
        if wrapper is None:  # (setdefault: two threads' first accesses keep one wrapper)
            wrapper = wrappers.setdefault(found, _checking_self(found, self.name))
        return wrapper

    def __set__(self, cls: Any, value: Any) -> None:
        """``Tensor.<name> = value`` (monkeypatching): into the class's dict, as without it."""
        self._bypassed(lambda: type.__setattr__(cls, self.name, value))

    def __delete__(self, cls: Any) -> None:
        """``del Tensor.<name>``: from the class's dict, as without it."""
        self._bypassed(lambda: type.__delattr__(cls, self.name))

    def _bypassed(self, change: Callable[[], None]) -> None:
        """Run ``change`` on the class's dict with this descriptor out of the way."""
        delattr(TensorType, self.name)
        try:
            change()
        finally:
            setattr(TensorType, self.name, self)


def _checking_self(function: Callable[..., Any], name: str) -> Callable[..., Any]:
    """``function`` (a method) refusing a ``self`` that is not a tensor, as PyTorch's."""

    @functools.wraps(function)
    def unbound(*args: Any, **kwargs: Any) -> Any:
        """The method, called through the class: its first argument must be a tensor."""
        if not args:
            raise TypeError(f"unbound method TensorBase.{name}() needs an argument")
        if not isinstance(args[0], TensorBase):
            raise descriptor_error(name, args[0])
        return function(*args, **kwargs)

    _warnings.register_wrapper(unbound.__code__)  # (warnings point past it, at the caller)
    return unbound


def install(names: Iterable[str] | None = None) -> None:
    """Check ``self`` of ``Tensor.<name>(...)`` for each public name (dunders left alone).

    ``names``: PyTorch's C methods by default (minigrad/_parser_overloads.json).
    """
    if names is None:
        names = PARSER_TABLE["descriptors"]
    for name in names:
        if not name.startswith("_"):
            setattr(TensorType, name, _UnboundCheck(name))
