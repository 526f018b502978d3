"""The deterministic-algorithms flag, recorded as PyTorch records it.

minigrad's kernels are numpy's on the CPU and deterministic already: nothing changes behaviour
with the flag; code that sets it and asks for it back runs unchanged.
"""

from __future__ import annotations

from typing import Any

from minigrad import _arguments

_enabled = False
_warn_only = False


def use_deterministic_algorithms(mode: Any, *, warn_only: Any = False) -> None:
    """Ask for deterministic algorithms (``warn_only``: warn instead of raising where none is).

    Process-global, as in PyTorch. Every minigrad kernel is deterministic already, so the flag
    is recorded and read back, nothing more.

    Example:
        >>> import minigrad
        >>> minigrad.use_deterministic_algorithms(True)
        >>> minigrad.are_deterministic_algorithms_enabled()
        True
        >>> minigrad.use_deterministic_algorithms(False)
    """
    global _enabled, _warn_only
    # (bools, not annotated as such: PyTorch's message names its internal function)
    for name, position, value in (("mode", 1, mode), ("warn_only", None, warn_only)):
        if not isinstance(value, bool):
            where = "" if position is None else f" (position {position})"
            raise _arguments.parser_error(
                f"_set_deterministic_algorithms(): argument '{name}'{where} must be bool, "
                f"not {type(value).__name__}")
    _enabled, _warn_only = mode, warn_only


def are_deterministic_algorithms_enabled() -> bool:
    """True if ``use_deterministic_algorithms(True)`` is in effect (off by default)."""
    return _enabled


def is_deterministic_algorithms_warn_only_enabled() -> bool:
    """True if deterministic algorithms were asked for with ``warn_only=True``."""
    return _warn_only
