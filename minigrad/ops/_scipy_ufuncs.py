"""SciPy's special-function ufuncs that some kernels call, imported on first use.

``import scipy.special`` takes about a third of a second, more than half of what ``import
minigrad`` takes without it, for kernels that many programs never run (sigmoid, float32 exp
and erf). So kernels read them as attributes of this module (``_scipy_ufuncs.expit``): the
first read imports SciPy and keeps the ufunc here, so that later reads find it in the module's
dictionary, as cheap as a global's.
"""

from __future__ import annotations

from typing import Any


def __getattr__(name: str) -> Any:
    """``scipy.special``'s ``name``, imported now and kept as this module's attribute."""
    import scipy.special

    ufunc = getattr(scipy.special, name)
    globals()[name] = ufunc
    return ufunc
