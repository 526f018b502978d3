"""minigrad's warnings: pointed at the caller past the public functions' wrappers; or once.

PyTorch binds its functions in C++: a warning from ``torch.var`` points at the line that
called it. minigrad's public functions are wrapped (the argument checks of _arguments.py, the
``out=`` of _out.py), each wrapper a Python frame of its own; ``warn`` does not count those
frames, so a ``stacklevel`` means the same whether or not the function is wrapped.
"""

from __future__ import annotations

import sys
import warnings
from types import CodeType, FrameType
from typing import Any

# The code of the wrappers whose frames a warning's stacklevel passes over (register_wrapper).
_WRAPPERS: set[CodeType] = set()
_given: set[str] = set()
# set_warn_always(True): the once-per-process warnings (PyTorch's TORCH_WARN_ONCE) warn every time.
_warn_always = False


def register_wrapper(code: CodeType) -> None:
    """Let ``warn`` pass over the frames running ``code`` (a wrapper around public functions)."""
    _WRAPPERS.add(code)


def warn(message: str, category: type[Warning] = UserWarning, stacklevel: int = 2) -> None:
    """``warnings.warn``, its ``stacklevel`` counted without the wrappers' frames.

    Example:
        >>> import warnings
        >>> with warnings.catch_warnings(record=True) as caught:
        ...     warnings.simplefilter("always")
        ...     warn("an example", stacklevel=1)
        >>> caught[0].filename.startswith("<doctest")
        True
    """
    frame: FrameType | None = sys._getframe(1)  # (the caller's: stacklevel 1)
    frames = 1
    for _ in range(stacklevel - 1):
        frame, frames = frame.f_back, frames + 1
        while frame is not None and frame.f_code in _WRAPPERS:
            frame, frames = frame.f_back, frames + 1
        if frame is None:
            break
    warnings.warn(message, category, stacklevel=frames + 1)  # (+1: this frame)


def warn_once(message: str, stacklevel: int = 2) -> None:
    """A UserWarning given once per process (every time under ``set_warn_always(True)``).

    ``stacklevel`` as the caller would give ``warn``.

    The default points at the call of the function that calls this one.

    Example:
        >>> import warnings
        >>> with warnings.catch_warnings(record=True) as caught:
        ...     warnings.simplefilter("always")
        ...     for _ in range(2):
        ...         warn_once("an example given once")
        >>> len(caught)
        1
    """
    if _warn_always or message not in _given:
        _given.add(message)
        warn(message, UserWarning, stacklevel=stacklevel + 1)  # (+1: this frame)


def set_warn_always(b: Any, /) -> None:
    """Let the warnings PyTorch gives once per process (deprecations ...) warn on every call.

    Example:
        >>> import minigrad
        >>> minigrad.set_warn_always(True)
        >>> minigrad.is_warn_always_enabled()
        True
        >>> minigrad.set_warn_always(False)
    """
    global _warn_always
    # (a bool, not annotated as such: PyTorch's message is its C++ setter's)
    if not isinstance(b, bool):
        raise RuntimeError(f"setWarnOnlyOnce expects a bool, but got {type(b).__name__}")
    _warn_always = b


def is_warn_always_enabled() -> bool:
    """True if ``set_warn_always(True)`` is in effect (off by default)."""
    return _warn_always
