"""``RemovableHandle``: what registering a module or optimizer hook returns (``add_hook``).

PyTorch's ``torch.utils.hooks.RemovableHandle``.
Hooks live in ordered dicts keyed by a handle id; removing the handle deletes the entry from
its dict (and from the "extra" dicts that hold per-hook flags such as ``with_kwargs``).
"""

from __future__ import annotations

import itertools
import weakref
from collections import OrderedDict
from collections.abc import Callable, Iterable, MutableMapping
from typing import Any

_next_id = itertools.count()


class RemovableHandle:
    """A handle that removes a registered hook: ``handle.remove()``, or leave a ``with`` block.

    Example:
        >>> from collections import OrderedDict
        >>> hooks = OrderedDict()
        >>> handle = RemovableHandle(hooks)
        >>> hooks[handle.id] = print
        >>> handle.remove()
        >>> len(hooks)
        0
    """

    def __init__(
        self,
        hooks_dict: MutableMapping[int, Any],
        *,
        extra_dict: MutableMapping[int, Any] | Iterable[MutableMapping[int, Any]] | None = None,
    ) -> None:
        self.hooks_dict_ref = weakref.ref(hooks_dict)
        self.id = next(_next_id)
        if extra_dict is None:
            extra_dicts: Iterable[MutableMapping[int, Any]] = ()
        elif isinstance(extra_dict, MutableMapping):
            extra_dicts = (extra_dict,)
        else:
            extra_dicts = extra_dict
        self.extra_dict_ref = tuple(weakref.ref(d) for d in extra_dicts)

    def remove(self) -> None:
        """Unregister the hook (a second call does nothing)."""
        for ref in (self.hooks_dict_ref, *self.extra_dict_ref):
            hooks = ref()
            if hooks is not None and self.id in hooks:
                del hooks[self.id]

    def __enter__(self) -> RemovableHandle:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.remove()


def add_hook(
    hooks: OrderedDict[int, Callable[..., Any]],
    hook: Callable[..., Any],
    *,
    prepend: bool = False,
    extra_dict: MutableMapping[int, Any] | Iterable[MutableMapping[int, Any]] | None = None,
) -> RemovableHandle:
    """Register ``hook`` in ``hooks``, after the others or (``prepend``) before them.

    Returns its handle, which also removes its entries of ``extra_dict`` (per-hook flags).

    Example:
        >>> from collections import OrderedDict
        >>> hooks = OrderedDict()
        >>> first = add_hook(hooks, print)
        >>> second = add_hook(hooks, repr, prepend=True)
        >>> list(hooks.values())
        [<built-in function repr>, <built-in function print>]
    """
    handle = RemovableHandle(hooks, extra_dict=extra_dict)
    hooks[handle.id] = hook
    if prepend:
        hooks.move_to_end(handle.id, last=False)
    return handle
