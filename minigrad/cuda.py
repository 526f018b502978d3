"""``minigrad.cuda``: what PyTorch's ``torch.cuda`` says in a build without CUDA.

Device-agnostic scripts ask ``torch.cuda.is_available()`` and seed the GPU generators
unconditionally; both work, as in a CPU-only PyTorch. Anything that needs a GPU raises
``OutOfScopeError``.

Example:
    >>> import minigrad
    >>> minigrad.cuda.is_available()
    False
    >>> device = "cuda" if minigrad.cuda.is_available() else "cpu"
    >>> minigrad.zeros(2, device=device).device
    device(type='cpu')
"""

from __future__ import annotations

from typing import Any

from minigrad import _out_of_scope

__all__ = [
    "device_count",
    "empty_cache",
    "is_available",
    "is_initialized",
    "manual_seed",
    "manual_seed_all",
    "seed",
    "seed_all",
]


def is_available() -> bool:
    """False: minigrad has no CUDA support."""
    return False


def device_count() -> int:
    """0: no CUDA devices."""
    return 0


def is_initialized() -> bool:
    """False: CUDA is never initialized."""
    return False


def manual_seed(seed: int) -> None:
    """Seed the current GPU's generator: there is none, so nothing happens (as in PyTorch)."""


def manual_seed_all(seed: int) -> None:
    """Seed every GPU's generator: there are none, so nothing happens (as in PyTorch)."""


def seed() -> None:
    """Seed the current GPU's generator randomly: nothing to seed (as in PyTorch)."""


def seed_all() -> None:
    """Seed every GPU's generator randomly: nothing to seed (as in PyTorch)."""


def empty_cache() -> None:
    """Release cached GPU memory: none is held, so nothing happens (as in PyTorch)."""


def __getattr__(name: str) -> Any:
    raise _out_of_scope.missing(__name__, name, _out_of_scope.CUDA)
