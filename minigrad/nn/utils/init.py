"""``nn.utils.skip_init``: build a module without spending time on initialising it."""

from __future__ import annotations

import inspect
from typing import Any

from minigrad.creation import empty_like
from minigrad.nn.modules.module import Module

__all__ = ["skip_init"]


def skip_init(module_cls: type, *args: Any, **kwargs: Any) -> Module:
    """``module_cls(*args, **kwargs)`` with uninitialised parameters and buffers.

    PyTorch builds the module on the meta device and gives it fresh, uninitialised memory;
    minigrad (CPU only) builds it and then replaces every parameter's and buffer's values by
    fresh uninitialised memory (``empty_like``), so the result is the same: the right shapes
    and arbitrary values, to be filled by the caller. The class must take a ``device``
    argument, as PyTorch requires.

    Example:
        >>> from minigrad import nn
        >>> layer = nn.utils.skip_init(nn.Linear, 5, 1)
        >>> layer.weight.shape
        minigrad.Size([1, 5])
    """
    if not issubclass(module_cls, Module):
        raise RuntimeError(f"Expected a Module; got {module_cls}")
    if "device" not in inspect.signature(module_cls).parameters:
        raise RuntimeError("Module must support a 'device' arg to skip initialization")
    module = module_cls(*args, **kwargs)
    return module._apply(empty_like)
