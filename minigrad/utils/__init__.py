"""``minigrad.utils``: PyTorch's ``torch.utils`` helpers minigrad has (``data``).

``data`` is imported on first access (``minigrad.utils.data``, ``from minigrad.utils import
data``): ``import minigrad`` skips its modules until a program uses them.
"""

import importlib as _importlib
from typing import Any as _Any

__all__ = ["data"]


def __getattr__(name: str) -> _Any:
    """The subpackage ``data``, imported now (it binds itself here too)."""
    if name in __all__:
        return _importlib.import_module(f"{__name__}.{name}")
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__() -> list[str]:
    """The module's names, ``data`` too (imported or not)."""
    hidden = {"__dir__", "__getattr__", "_importlib", "_Any"}  # (dir as before it was lazy)
    return sorted((globals().keys() | set(__all__)) - hidden)
