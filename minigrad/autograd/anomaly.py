"""Anomaly detection: remember where each node was created, and check backward for NaNs.

With anomaly mode on, every recorded node keeps the stack of the forward call that made it. When
its backward fails, a warning shows that stack, so the user sees *which forward line* produced the
node whose gradient could not be computed. With ``check_nan`` a backward that returns NaN raises.
"""

from __future__ import annotations

import os
import threading
import traceback
import warnings
from typing import Any

from minigrad.autograd import debug_switches

# minigrad's own source tree: frames from files under it are the op machinery, not the user's code.
# Compared by directory, not by a "/minigrad/" substring, which a checkout named minigrad also has.
_PACKAGE_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__))) + os.sep


class _AnomalyState:
    # Global, as in PyTorch: anomaly mode is a debugging switch for the whole process.
    enabled = False
    check_nan = True


_state = _AnomalyState()
# The node whose backward this thread's engine runs now (PyTorch's current evaluating node):
# a node made meanwhile (create_graph) has it as its parent.
_evaluating = threading.local()


def _set_state(enabled: bool, check_nan: bool) -> None:
    _state.enabled, _state.check_nan = enabled, check_nan
    debug_switches.switches.anomaly = enabled  # anomaly mode also tracks in-place writes
    debug_switches.refresh()


def is_anomaly_enabled() -> bool:
    """Return True if anomaly detection is on."""
    return _state.enabled


def is_anomaly_check_nan_enabled() -> bool:
    """Return True if anomaly detection also checks backward results for NaN."""
    return _state.check_nan


class set_detect_anomaly:  # noqa: N801 - PyTorch's name
    """Turn anomaly detection on or off: at once, and as a context manager that restores it.

    Example:
        >>> import minigrad
        >>> with minigrad.autograd.set_detect_anomaly(True):
        ...     minigrad.autograd.is_anomaly_enabled()
        True
        >>> minigrad.autograd.is_anomaly_enabled()
        False
    """

    def __init__(self, mode: bool, check_nan: bool = True) -> None:
        self._previous = (_state.enabled, _state.check_nan)
        _set_state(bool(mode), bool(check_nan))

    def __enter__(self) -> None:
        pass

    def __exit__(self, *exc_info: object) -> None:
        _set_state(*self._previous)


class detect_anomaly:  # noqa: N801 - PyTorch's name
    """Context manager that turns anomaly detection on inside its block.

    Entering it warns, as PyTorch does, that anomaly mode slows everything down.

    Example:
        >>> import minigrad, warnings
        >>> with warnings.catch_warnings(record=True) as caught:
        ...     warnings.simplefilter("always")
        ...     with minigrad.autograd.detect_anomaly():
        ...         enabled = minigrad.autograd.is_anomaly_enabled()
        >>> enabled, str(caught[0].message)[:29]
        (True, 'Anomaly Detection has been en')
    """

    def __init__(self, check_nan: bool = True) -> None:
        self._check_nan = check_nan

    def __enter__(self) -> None:
        warnings.warn(
            "Anomaly Detection has been enabled. This mode will increase the runtime and should "
            "only be enabled for debugging.",
            UserWarning,
            stacklevel=2,
        )
        self._previous = (_state.enabled, _state.check_nan)
        _set_state(True, self._check_nan)

    def __exit__(self, *exc_info: object) -> None:
        _set_state(*self._previous)


def capture_forward_stack() -> list[str]:
    """The user's stack at this forward call, as formatted traceback lines."""
    stack = traceback.extract_stack()
    return traceback.format_list(_without_minigrad_frames(stack))


def _without_minigrad_frames(stack: traceback.StackSummary) -> list[traceback.FrameSummary]:
    # The innermost frames are minigrad's own op machinery; the user wants to see their line.
    frames = list(stack)
    while frames and os.path.abspath(frames[-1].filename).startswith(_PACKAGE_DIR):
        frames.pop()
    return frames


def remember_creation(node: Any) -> None:
    """Keep on ``node`` (made in anomaly mode) its forward stack and its parent, if any.

    The parent is the node whose backward made it: a double backward's error then also
    shows the forward call behind the first backward's step, as PyTorch's does.
    """
    node._forward_stack = capture_forward_stack()
    parent = getattr(_evaluating, "node", None)
    if parent is not None:
        node._anomaly_parent = parent


def set_evaluating(node: Any) -> Any:
    """Make ``node`` the one whose backward runs now; returns the previous one (or None)."""
    previous = getattr(_evaluating, "node", None)
    _evaluating.node = node
    return previous


def warn_backward_error(node: Any) -> None:
    """Show, as PyTorch does, the forward traceback of the node whose backward failed.

    Then one warning per ancestor: the node whose backward made it, and so on.
    """
    _warn_stack(node.name(), node._forward_stack, parent=False)
    parent = node._anomaly_parent
    while parent is not None:
        _warn_stack(parent.name(), parent._forward_stack, parent=True)
        parent = parent._anomaly_parent


def _warn_stack(node_name: str, forward_stack: list[str] | None, parent: bool) -> None:
    if forward_stack is None:
        # The node was recorded while anomaly mode was off: there is no stack to show.
        message = (
            f"Error detected in {node_name}. No forward pass information available. Enable "
            "detect anomaly during forward pass for more information."
        )
    elif parent:
        message = (
            f"\n\nPrevious calculation was induced by {node_name}. Traceback of forward call "
            "that induced the previous calculation:\n" + "".join(forward_stack)
        )
    else:
        message = (
            f"Error detected in {node_name}. Traceback of forward call that caused the error:\n"
            + "".join(forward_stack)
        )
    warnings.warn(message, UserWarning, stacklevel=4)
