"""float64 values to float16 as PyTorch converts them: through float32.

PyTorch's ``c10::Half`` is made from a float: ``Half(double)`` rounds to float32 first, then
to float16; numpy's cast rounds once. A value just off a float16 midpoint (by less than half a
float32 step) lands on the other side after the first rounding: 8 of 200,000 random values
differ, every such value near a midpoint does. ``x.half()``, ``to``, ``tensor(data,
dtype=float16)``, ``copy_`` and writes of a float64 result into a float16 tensor all go
through ``as_dtype`` or ``copy_into``; other casts are numpy's unchanged (one test of the
dtypes' characters: float32 -> float16 keeps its speed).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from minigrad.autograd.quiet import run_quietly


def as_dtype(array: np.ndarray, dtype: np.dtype) -> np.ndarray:
    """``array.astype(dtype)``, silently (no numpy overflow or invalid-value warnings).

    Example:
        >>> import numpy as np
        >>> value = np.array([1 + 2.0 ** -11 + 2.0 ** -40])  # just over a float16 midpoint
        >>> half = np.dtype(np.float16)
        >>> float(as_dtype(value, half)[0]), float(value.astype(half)[0])
        (1.0, 1.0009765625)
    """
    if dtype.char == "e" and array.dtype.char == "d":
        array = run_quietly(array.astype, np.float32)
    return run_quietly(array.astype, dtype)


def copy_into(target: np.ndarray, values: Any) -> None:
    """``np.copyto(target, values, casting="unsafe")``, silently, float64 through float32."""
    if target.dtype.char == "e" and getattr(values, "dtype", None) == np.float64:
        values = run_quietly(values.astype, np.float32)
    run_quietly(np.copyto, target, values, "unsafe")
