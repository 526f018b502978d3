"""Closures made by the hundred at import, sharing the cells of the values they have in common.

A closure keeps each variable it reads from its maker in a cell, one cell per variable per call
of the maker: the ~520 backward runners (``autograd/function.py``), ~950 recording functions
(``autograd/record.py``) and ~970 argument checks (``_arguments.py``) made at import held
~25,000 cells, most of them holding the same few values (``True``, ``False``, ``None``, one
packer, one module constant). Every full collection of the garbage collector visits every one.

``share_cells`` gives a closure, for the variables named, the one cell already made for the
same value, and returns the closure rebuilt on those cells: the same code, so its calls run
the same instructions (a cell is read the same way whichever it is). Only for variables no
code writes after the closure is made (no ``nonlocal`` assignment, no ``cell_contents``
write): a shared cell written would change every closure that shares it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from types import CellType, FunctionType
from typing import Any, TypeVar

_F = TypeVar("_F", bound=Callable[..., Any])

# One cell per value, by the value's identity (the cell keeps the value alive, so its id is
# never reused while the entry exists). (setdefault: two threads making closures at once keep
# one cell, either.)
_CELLS: dict[int, CellType] = {}


def share_cells(function: _F, names: Iterable[str]) -> _F:
    """``function`` rebuilt with the shared cell of each of ``names``' values (see above).

    Example:
        >>> def maker(flag):
        ...     def read():
        ...         return flag
        ...     return share_cells(read, ("flag",))
        >>> first, second = maker(True), maker(True)
        >>> first.__closure__[0] is second.__closure__[0], first(), maker(False)()
        (True, True, False)
    """
    code = function.__code__
    cells = list(function.__closure__ or ())
    wanted = frozenset(names)
    for index, name in enumerate(code.co_freevars):
        if name in wanted:
            value = cells[index].cell_contents
            cells[index] = _CELLS.setdefault(id(value), cells[index])
    rebuilt = FunctionType(code, function.__globals__, function.__name__, function.__defaults__,
                           tuple(cells))
    rebuilt.__kwdefaults__ = function.__kwdefaults__
    rebuilt.__qualname__ = function.__qualname__
    rebuilt.__doc__ = function.__doc__
    rebuilt.__module__ = function.__module__
    rebuilt.__annotations__ = function.__annotations__
    rebuilt.__dict__.update(function.__dict__)
    return rebuilt  # type: ignore[return-value]
