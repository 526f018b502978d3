"""Warnings given once per process, as PyTorch's ``TORCH_WARN_ONCE`` gives them."""

from __future__ import annotations

import warnings

_given: set[str] = set()


def warn_once(message: str, stacklevel: int = 2) -> None:
    """A UserWarning given once per process; ``stacklevel`` as the caller would give ``warn``.

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
    if message not in _given:
        _given.add(message)
        warnings.warn(message, UserWarning, stacklevel=stacklevel + 1)  # (+1: this frame)
