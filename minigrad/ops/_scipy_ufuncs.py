"""SciPy's special-function ufuncs that some kernels call, imported on first use.

``import scipy.special`` takes about a third of a second, more than half of what ``import
minigrad`` takes without it, for kernels that many programs never run (sigmoid, float32 exp
and erf). So a kernel asks for its ufunc here (``ufunc("expit")``) when it first runs. A hot
kernel keeps the ufunc in a global of its module, which a stub holds until the first call
(``ops/unary.py``'s ``_expit``): a module ``__getattr__`` would do it with less code, but
CPython 3.11 does not specialise attribute reads on a module that has one (~375
instructions more per read).
"""

from __future__ import annotations

from typing import Any

_loaded: dict[str, Any] = {}


def ufunc(name: str) -> Any:
    """``scipy.special``'s ufunc ``name``, SciPy imported at the first call."""
    found = _loaded.get(name)
    if found is None:
        import scipy.special

        found = _loaded[name] = getattr(scipy.special, name)
    return found
