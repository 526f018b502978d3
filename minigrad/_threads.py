"""Thread settings: ``set_num_threads`` and friends, as PyTorch's CPU build has them.

minigrad's own work runs in the calling thread; the only parallel work is inside numpy's BLAS
(matrix products), so PyTorch's intra-op thread count is BLAS's: ``set_num_threads(1)`` limits
it through threadpoolctl, as ``torch.set_num_threads(1)`` limits PyTorch's pool. minigrad has no
inter-op pool (ops run one after another), so the inter-op count is only recorded, with
PyTorch's rule that it may be set once, before any use.
"""

from __future__ import annotations

import os
from typing import Any

# (threadpoolctl is imported by the first call that needs it: ~25 ms and ~1,000 objects that
# ``import minigrad`` need not pay for functions few programs call)

_interop: dict[str, Any] = {"threads": os.cpu_count() or 1, "set": False}


def _check_count(value: Any, function: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise RuntimeError(f"{function} expects an int, but got {type(value).__name__}")
    if value <= 0:
        raise RuntimeError(f"{function} expects a positive integer")
    return value


def set_num_threads(int: Any) -> None:  # noqa: A002 - PyTorch's parameter name
    """Set the number of threads of intra-op parallelism (numpy's BLAS threads).

    Example:
        >>> import minigrad
        >>> minigrad.set_num_threads(1)
        >>> minigrad.get_num_threads()
        1
    """
    from threadpoolctl import threadpool_limits

    threadpool_limits(_check_count(int, "set_num_threads"), user_api="blas")


def get_num_threads() -> int:
    """The number of threads of intra-op parallelism (numpy's BLAS threads; 1 without BLAS)."""
    from threadpoolctl import threadpool_info

    counts = [pool["num_threads"] for pool in threadpool_info() if pool["user_api"] == "blas"]
    return max(counts, default=1)


def set_num_interop_threads(int: Any) -> None:  # noqa: A002 - PyTorch's parameter name
    """Set the number of inter-op threads: once, as in PyTorch (minigrad runs ops in turn)."""
    count = _check_count(int, "set_num_interop_threads")
    if _interop["set"]:
        raise RuntimeError("Error: cannot set number of interop threads after parallel work "
                           "has started or set_num_interop_threads called")
    _interop.update(threads=count, set=True)


def get_num_interop_threads() -> int:
    """The number of inter-op threads (the CPU count unless set)."""
    return _interop["threads"]
