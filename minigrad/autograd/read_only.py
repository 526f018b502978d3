"""Read-only attributes of nodes as PyTorch's C++ nodes show them.

PyTorch's nodes are C++ objects whose attributes (``next_functions``, ``metadata``,
``requires_grad``, ``_saved_self`` ...) are getset descriptors without a setter: assigning or
deleting one raises ``AttributeError: attribute 'next_functions' of 'SigmoidBackward0' objects
is not writable``. A Python ``property`` without a setter says "property 'next_functions' of
'SigmoidBackward0' object has no setter" instead. ``ReadOnly`` is a property whose refusal is
PyTorch's text; reading it is the property's own C code (no Python layer on the read).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any


class ReadOnly(property):
    """A property that refuses assignment and ``del`` with PyTorch's text for its nodes.

    Example:
        >>> import minigrad
        >>> x = minigrad.tensor([1.0], requires_grad=True)
        >>> x.sigmoid().grad_fn.next_functions = ()
        Traceback (most recent call last):
        ...
        AttributeError: attribute 'next_functions' of 'SigmoidBackward0' objects is not writable
    """

    def __init__(
        self, fget: Callable[[Any], Any], doc: str | None = None, name: str | None = None
    ) -> None:
        super().__init__(fget, doc=doc)
        self.name = name  # the attribute's name, for the text (``__set_name__`` if not given)

    def __set_name__(self, owner: type, name: str) -> None:
        """Remember the name it is assigned to in a class body."""
        if self.name is None:
            self.name = name

    def __set__(self, instance: Any, value: Any) -> None:
        """Refuse, as a C++ node's attribute without a setter."""
        raise AttributeError(self._not_writable(instance))

    def __delete__(self, instance: Any) -> None:
        """Refuse, with the same text as assignment (PyTorch's)."""
        raise AttributeError(self._not_writable(instance))

    def _not_writable(self, instance: Any) -> str:
        name = self.name if self.name is not None else getattr(self.fget, "__name__", "?")
        # (CPython names the type that defines the attribute: a built-in node's own class, or
        # for a custom Function's node PyTorch's ``_FunctionBase``)
        owner = getattr(type(instance), "_read_only_owner", None) or type(instance).__name__
        return f"attribute '{name}' of '{owner}' objects is not writable"
