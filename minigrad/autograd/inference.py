"""Inference mode: ``no_grad`` plus a promise never to use the results in autograd.

Inside ``minigrad.inference_mode()`` nothing is recorded (grad mode is off), and every tensor
made there is an *inference tensor*: it tracks no version, so autograd cannot check it and
refuses it later, with PyTorch's errors:

- saving it for backward outside inference mode (``x * y``, ``y`` an inference tensor);
- writing it in place outside inference mode (PyTorch writes first, then raises; so does
  minigrad, as both check when the version would be bumped);
- ``requires_grad_()`` on it outside inference mode; reading ``_version`` at all.

Views of an inference tensor are inference tensors (they share its counter); views of a normal
tensor made in inference mode are normal tensors. Whether a tensor is an inference tensor is a
property of its version counter: ``UntrackedCounter`` for tensors made in inference mode,
``InferenceCounter`` for the (writable, counting) aliases ``detach()`` and ``.data`` make of
them outside it.

The mode is thread-local, like grad mode. New tensors get their counter from
``autograd/tensor_base.py``'s ``new_counter``; while some thread is in inference mode it points to
``_counter_for_this_thread``, at other times to the plain ``VersionCounter`` (no cost).
"""

from __future__ import annotations

import functools
import inspect
import threading
from collections.abc import Callable
from typing import Any, TypeVar

from minigrad.autograd import grad_mode, tensor_base
from minigrad.autograd.version import VersionCounter

F = TypeVar("F", bound=Callable[..., Any])

INPLACE_OUTSIDE = (
    "Inplace update to inference tensor outside InferenceMode is not allowed.You can make a "
    "clone to get a normal tensor before doing inplace update.See "
    "https://github.com/pytorch/rfcs/pull/17 for more details."
)
REQUIRES_GRAD_OUTSIDE = (
    "Setting requires_grad=True on inference tensor outside InferenceMode is not allowed."
)
NO_VERSION = "Inference tensors do not track version counter."


class _InferenceState(threading.local):
    enabled = False


_state = _InferenceState()
_lock = threading.Lock()
_threads_inside = 0  # how many threads are in inference mode now


class InferenceCounter(VersionCounter):
    """The counter of an inference tensor's alias made outside inference mode: it counts."""

    is_inference = True


class UntrackedCounter(InferenceCounter):
    """The counter of a tensor made in inference mode: it tracks no version."""

    def bump(self) -> None:
        """An in-place write: fine inside inference mode, refused outside (after the write)."""
        if not _state.enabled:
            raise RuntimeError(INPLACE_OUTSIDE)


def _counter_for_this_thread() -> VersionCounter:
    return UntrackedCounter() if _state.enabled else VersionCounter()


def _set_enabled(value: bool) -> None:
    """Turn this thread's inference mode on or off (and the counter factory with it)."""
    global _threads_inside
    if value == _state.enabled:
        return
    _state.enabled = value
    with _lock:
        _threads_inside += 1 if value else -1
        tensor_base.new_counter = _counter_for_this_thread if _threads_inside else VersionCounter


def is_inference_mode_enabled() -> bool:
    """Return True inside ``inference_mode()``.

    Example:
        >>> import minigrad
        >>> with minigrad.inference_mode():
        ...     minigrad.is_inference_mode_enabled()
        True
        >>> minigrad.is_inference_mode_enabled()
        False
    """
    return _state.enabled


def is_inference(tensor: Any) -> bool:
    """True if ``tensor`` was made in inference mode (or aliases such a tensor)."""
    return tensor._version_counter().is_inference


def check_requires_grad(tensor: Any, value: bool) -> None:
    """Refuse ``requires_grad=True`` on an inference tensor outside inference mode."""
    if value and tensor._version_counter().is_inference and not _state.enabled:
        raise RuntimeError(REQUIRES_GRAD_OUTSIDE)


def version(tensor: Any) -> int:
    """``tensor._version``; PyTorch's error for a tensor made in inference mode."""
    counter = tensor._version_counter()
    if isinstance(counter, UntrackedCounter):
        raise RuntimeError(NO_VERSION)
    return counter.version


def detached_counter(tensor: Any) -> VersionCounter:
    """The counter ``tensor.detach()`` shares: the tensor's own.

    Unless that one tracks nothing and we are outside inference mode: then a fresh, counting
    one, as PyTorch gives.
    """
    counter = tensor._version_counter()
    if isinstance(counter, UntrackedCounter) and not _state.enabled:
        return InferenceCounter()
    return counter


def data_counter(tensor: Any) -> VersionCounter:
    """The fresh counter of ``tensor.data``: an inference one for an inference tensor."""
    return InferenceCounter() if tensor._version_counter().is_inference else VersionCounter()


class inference_mode:  # noqa: N801 - PyTorch's name
    """Context manager and decorator for inference: no recording, and inference tensors.

    ``inference_mode(False)`` turns it (and no_grad) off again inside. As a decorator it works
    with and without parentheses; a generator function runs each of its steps in the mode.

    Example:
        >>> import minigrad
        >>> w = minigrad.ones(2, requires_grad=True)
        >>> with minigrad.inference_mode():
        ...     y = w * 2
        >>> y.requires_grad, y.is_inference()
        (False, True)
        >>> w * y
        Traceback (most recent call last):
        ...
        RuntimeError: Inference tensors cannot be saved for backward. Please do not use Tensors created in inference mode in computation tracked by autograd. To work around this, you can make a clone to get a normal tensor and use it in autograd, or use `minigrad.no_grad()` instead of `minigrad.inference_mode()`.
    """  # noqa: E501 - the doctest shows the message on one line

    def __new__(cls, mode: Any = True) -> Any:
        """An instance for a bool; for a function (``@inference_mode``), that function wrapped."""
        if isinstance(mode, bool):
            return super().__new__(cls)
        return cls()(mode)  # @inference_mode without parentheses

    def __init__(self, mode: bool = True) -> None:
        self.mode = mode
        # (grad mode, recording blocked, inference mode) per entry
        self._previous: list[tuple[bool, bool, bool]] = []

    def __enter__(self) -> None:
        grad_state = grad_mode._state
        self._previous.append((grad_state.requested, grad_state.blocked, _state.enabled))
        # As PyTorch's InferenceMode guard: grad mode is the opposite of the inference flag,
        # and nothing is recorded inside, even under enable_grad (autograd is excluded).
        grad_state.blocked = self.mode
        grad_mode._set(not self.mode)
        _set_enabled(self.mode)

    def __exit__(self, *exc_info: object) -> None:
        grad, blocked, inference = self._previous.pop()
        grad_mode._state.blocked = blocked
        grad_mode._set(grad)
        _set_enabled(inference)

    def clone(self) -> inference_mode:
        """A new context in the same mode."""
        return inference_mode(self.mode)

    def __call__(self, func: F) -> F:
        """Use as a decorator: each call (each step of a generator) runs in the mode."""
        if inspect.isgeneratorfunction(func):

            @functools.wraps(func)
            def generator(*args: Any, **kwargs: Any) -> Any:
                steps = func(*args, **kwargs)
                value = None
                while True:
                    try:
                        with self.clone():
                            value = steps.send(value)
                    except StopIteration as stop:
                        return stop.value
                    value = yield value

            return generator  # type: ignore[return-value]

        @functools.wraps(func)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            with self.clone():
                return func(*args, **kwargs)

        return wrapper  # type: ignore[return-value]
