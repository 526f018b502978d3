"""Anomaly detection: remember where each node was created, and check backward for NaNs.

With anomaly mode on, every recorded node keeps the stack of the forward call that made it. When
its backward fails, a warning shows that stack, so the user sees *which forward line* produced the
node whose gradient could not be computed. With ``check_nan`` a backward that returns NaN raises.
"""

from __future__ import annotations

import gc
import os
import threading
import traceback
import warnings
from typing import Any

from minigrad.autograd import collector, debug_switches

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


# Whether anomaly mode was ever on in this process: only then can a node have a stack.
ever_enabled = False


def _set_state(enabled: bool, check_nan: bool) -> None:
    global ever_enabled
    _state.enabled, _state.check_nan = enabled, check_nan
    ever_enabled = ever_enabled or enabled
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
    shows the forward call behind the first backward's step, as PyTorch's does. The leaves'
    accumulators ``node`` has edges to get a stack too, where PyTorch would make them now
    (``renew_accumulator``).
    """
    _stamp(node)
    for next_node in node._next_nodes:
        renew_accumulator(next_node, node)


def renew_accumulator(accumulator: Any, new_holder: Any = None) -> bool:
    """Give a leaf's accumulator without a stack the stack of now, if PyTorch would make it now.

    A PyTorch leaf holds its accumulator weakly: it lives while some graph's edge holds it,
    and the next op (or a backward from the leaf itself) makes a new one, which in anomaly
    mode keeps the stack of that call. A minigrad leaf keeps its accumulator for good, so one
    made outside anomaly mode has no stack: when no node but ``new_holder`` has an edge to
    it, it takes the stack PyTorch's new one would have. (It walks every live node,
    so only for accumulators without a stack, in anomaly mode. One that has a stack keeps it
    where PyTorch's new one would show a later call; ``release_accumulators`` clears it when
    PyTorch's would have died.) Returns whether it gave one.
    """
    from minigrad.autograd.graph import AccumulateGrad  # (graph imports this module)

    if type(accumulator) is not AccumulateGrad or accumulator._forward_stack is not None:
        return False
    if _held_by_a_node(accumulator, new_holder):
        return False  # a graph holds it: PyTorch's is this one, without a stack
    _stamp(accumulator)
    return True


def release_accumulators(nodes: list[Any]) -> None:
    """After a backward: the roots' accumulators (``nodes``) that nothing holds lose their stack.

    PyTorch's accumulator of a leaf backward started from dies with that backward unless a
    graph holds it, and the next op makes a new one, without a stack outside anomaly mode.
    (The live nodes are walked only for an accumulator that has a stack.)
    """
    from minigrad.autograd.graph import AccumulateGrad  # (graph imports this module)

    for node in nodes:
        if (type(node) is AccumulateGrad and node._forward_stack is not None
                and not _held_by_a_node(node, None)):
            node._forward_stack = None
            node._anomaly_parent = None


def _held_by_a_node(accumulator: Any, new_holder: Any) -> bool:
    """Whether a node other than ``new_holder`` has an edge to ``accumulator``.

    The collector's referrers first (a scan of the tracked objects); only if no tracked node
    holds it, every node alive, which also finds those hidden from the collector
    (autograd/collector.py) at several times the cost.
    """
    if _held_by_a_tracked_node(accumulator, new_holder):
        return True
    return any(node is not new_holder and any(child is accumulator for child in node._next_nodes)
               for node in collector.live_nodes())


def _held_by_a_tracked_node(accumulator: Any, new_holder: Any) -> bool:
    """``_held_by_a_node`` among the nodes the collector tracks (its referrers)."""
    from minigrad.autograd.graph import Node  # (graph imports this module)

    # A node holds its edges in slots (one or two inputs) or in its ``_next_nodes`` tuple.
    for referrer in gc.get_referrers(accumulator):
        if isinstance(referrer, Node) and referrer is not new_holder:
            return True
        if type(referrer) is tuple:
            for owner in gc.get_referrers(referrer):
                if owner is not new_holder and getattr(owner, "_next_nodes", None) is referrer:
                    return True
    return False


def _stamp(node: Any) -> None:
    # graph.py imports this module: imported at call time (anomaly mode only)
    from minigrad.autograd.graph import extend

    extend(node)  # (a built-in op's node has no ``__dict__``)
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
