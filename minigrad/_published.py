"""Where pickle finds minigrad's public functions: ``pickle.dumps(minigrad.add)`` works.

pickle saves a function by reference, as its ``__module__`` and ``__qualname__``, and checks
on saving that importing the one and following the other leads back to the same object
(``multiprocessing``, ``functools.partial`` objects and models holding ``self.act =
minigrad.tanh`` rely on it, and PyTorch's functions pickle). A public function that is a wrapper
(the argument checks of _arguments.py, the ``out=`` layer of _out.py) carries its op's names
(``functools.wraps``): they lead pickle to the op (``minigrad.ops.arithmetic.add``), another
object, and pickling fails.

The wrapper cannot simply be named after its public module (``__module__ = "minigrad"``):
doctest, ``inspect.getmodule`` and help() read ``__module__`` too, and doctest collects a
function's examples in the module it names: the examples would run a second time, under
``minigrad/__init__.py``, whose globals shadow ``float``, ``abs``... So ``publish`` names the
wrapper after this module, which holds no function doctest would collect, with the public path
as its qualified name (``minigrad.add``, ``minigrad.nn.functional.relu``): pickle imports this
module and follows ``minigrad`` (imported below), then ``add``. PyTorch's functions pickle
through internal names too (``torch._C._VariableFunctionsClass.add``); the op keeps its own
names, module and examples.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any

import minigrad  # noqa: F401 - pickle's path to every published function starts here


def found_by_pickle(function: Callable[..., Any]) -> bool:
    """Whether ``function``'s module and qualified name lead back to it, as pickle checks.

    Example:
        >>> import minigrad
        >>> found_by_pickle(minigrad.add), minigrad.add.__qualname__
        (True, 'minigrad.add')
        >>> found_by_pickle(minigrad.add.__wrapped__)  # (the op: minigrad.ops.arithmetic.add)
        True
    """
    found: Any = sys.modules.get(function.__module__)
    for part in function.__qualname__.split("."):
        found = getattr(found, part, None)
    return found is function


def publish(wrapper: Callable[..., Any], namespace: dict[str, Any], name: str) -> None:
    """Let pickle find ``wrapper``, published as ``namespace[name]``, by that path.

    Only for wrappers made where the public API is assembled: an op's own function keeps the
    names its module, doctest and Python's TypeError texts know it by.
    """
    if found_by_pickle(wrapper):
        return
    wrapper.__module__ = __name__
    wrapper.__qualname__ = f"{namespace['__name__']}.{name}"
