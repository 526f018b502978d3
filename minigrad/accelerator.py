"""``minigrad.accelerator``: PyTorch's device-agnostic accelerator API, with no accelerator.

PyTorch's tutorials pick a device with
``torch.accelerator.current_accelerator() if torch.accelerator.is_available() else "cpu"``;
in minigrad that is always the CPU.

Example:
    >>> import minigrad
    >>> minigrad.accelerator.is_available()
    False
    >>> minigrad.accelerator.current_accelerator() is None
    True
"""

from __future__ import annotations

from minigrad._device import NO_ACCELERATOR, device

__all__ = [
    "current_accelerator",
    "current_device_index",
    "device_count",
    "is_available",
    "synchronize",
]


def is_available() -> bool:
    """False: minigrad runs on the CPU only."""
    return False


def device_count() -> int:
    """0: there is no accelerator."""
    return 0


def current_accelerator(check_available: bool = False) -> device | None:
    """The accelerator's device type: None, as there is none."""
    return None


def current_device_index() -> int:
    """Raises PyTorch's error: there is no accelerator device."""
    raise RuntimeError(NO_ACCELERATOR)


def synchronize(device: object = None) -> None:
    """Raises PyTorch's error: there is no accelerator device to wait for."""
    raise RuntimeError(NO_ACCELERATOR)
