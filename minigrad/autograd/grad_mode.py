"""Grad mode: whether operations are recorded for backward. Thread-local, as in PyTorch."""

from __future__ import annotations

import functools
import inspect
import threading
from collections.abc import Callable
from typing import Any, TypeVar

from minigrad import errors
from minigrad.autograd import debug_switches

F = TypeVar("F", bound=Callable[..., Any])


class _GradState(threading.local):
    """Grad mode as set (``requested``) and as recording reads it (``enabled``).

    They differ only in inference mode, which turns recording off whatever grad mode says
    (PyTorch's ``enable_grad`` inside ``inference_mode`` records nothing): ``blocked``.
    ``off_key``: this thread's entry in ``debug_switches.modes_on`` while it records nothing.
    """

    def __init__(self) -> None:
        # Every thread starts with grad mode on, whatever other threads do. An instance
        # attribute rather than a class default: read on every op, it is found faster.
        self.enabled = True
        self.requested = True
        self.blocked = False
        self._owner = _ThreadWithoutGrad()  # freed with the thread's state
        self.off_key = id(self._owner)


class _ThreadWithoutGrad:
    """A thread's key in ``debug_switches.modes_on``: present while it records nothing.

    ``modes_on`` lists why the recording functions cannot skip their mode tests; a thread
    whose grad mode is off is one reason, keyed by this object's id (the dict must not hold
    the object itself: it is freed with the thread's grad state, and then takes its entry out,
    so a thread that ends with grad mode off does not keep the shortcut off for the others).
    """

    __slots__ = ()

    def __del__(self) -> None:
        try:  # noqa: SIM105 - not contextlib: at interpreter exit it may be gone too
            debug_switches.modes_on.pop(id(self), None)
        except (AttributeError, TypeError):  # at interpreter exit the modules may be gone
            pass


def _set(mode: bool) -> None:
    """Set grad mode: what ``is_grad_enabled`` says, and (unless blocked) what is recorded."""
    _state.requested = mode
    if mode and not _state.blocked:
        _state.enabled = True
        _modes_on.pop(_state.off_key, None)
    else:
        _state.enabled = False
        _modes_on[_state.off_key] = "a thread with grad mode off"


_modes_on = debug_switches.modes_on
_state = _GradState()


def is_grad_enabled() -> bool:
    """Return True if operations are currently recorded for backward.

    Example:
        >>> import minigrad
        >>> minigrad.is_grad_enabled()
        True
    """
    return _state.requested


class _GradModeContext:
    """Base of the grad-mode context managers; each also works as a decorator."""

    _mode: bool

    def __enter__(self) -> None:
        self._previous = _state.requested
        _set(self._mode)

    def __exit__(self, *exc_info: object) -> None:
        _set(self._previous)

    def __call__(self, func: F) -> F:
        return _run_in_mode(func, self._mode)


def _run_in_mode(func: F, mode: bool) -> F:
    """Wrap ``func`` so that each call runs with grad mode ``mode`` (re-entrant, thread-safe).

    A generator function gets the mode for each of its steps, not only for its creation.
    """
    if inspect.isgeneratorfunction(func):
        return _generator_in_mode(func, mode)

    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        previous = _state.requested
        _set(mode)
        try:
            return func(*args, **kwargs)
        finally:
            _set(previous)

    return wrapper  # type: ignore[return-value]


def _generator_in_mode(func: F, mode: bool) -> F:
    """Wrap a generator function: every resumption of the generator runs in ``mode``.

    Values sent in, exceptions thrown in and ``close()`` all reach the wrapped generator, and
    its own ``except``/``finally`` blocks run in ``mode`` too (PyTorch's ``_wrap_generator``).
    """

    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        generator = func(*args, **kwargs)
        try:
            with _Mode(mode):
                response = generator.send(None)
            while True:
                try:
                    request = yield response
                except GeneratorExit:
                    with _Mode(mode):
                        generator.close()
                    raise
                except BaseException as error:
                    with _Mode(mode):
                        response = generator.throw(error)
                else:
                    with _Mode(mode):
                        response = generator.send(request)
        except StopIteration as stop:
            return stop.value

    return wrapper  # type: ignore[return-value]


class _Mode:
    """Grad mode ``mode`` for one block, restoring the previous mode after it."""

    __slots__ = ("_mode", "_previous")

    def __init__(self, mode: bool) -> None:
        self._mode = mode

    def __enter__(self) -> None:
        self._previous = _state.requested
        _set(self._mode)

    def __exit__(self, *exc_info: object) -> None:
        _set(self._previous)


class _NoParamContext(_GradModeContext):
    """A mode context that also works as a bare decorator: ``@no_grad`` and ``@no_grad()``."""

    def __new__(cls, func: Callable[..., Any] | None = None) -> Any:
        if func is None:
            return super().__new__(cls)
        return cls()(func)


class no_grad(_NoParamContext):  # noqa: N801 - PyTorch's name
    """Context manager and decorator that turns recording off.

    Example:
        >>> import minigrad
        >>> x = minigrad.ones(2, requires_grad=True)
        >>> with minigrad.no_grad():
        ...     y = x * 2
        >>> y.requires_grad
        False
    """

    def __init__(self) -> None:
        self._mode = False


class enable_grad(_NoParamContext):  # noqa: N801 - PyTorch's name
    """Context manager and decorator that turns recording on (inside ``no_grad``, say).

    Example:
        >>> import minigrad
        >>> x = minigrad.ones(2, requires_grad=True)
        >>> with minigrad.no_grad(), minigrad.enable_grad():
        ...     y = x * 2
        >>> y.requires_grad
        True
    """

    def __init__(self) -> None:
        self._mode = True


class set_grad_enabled(_GradModeContext):  # noqa: N801 - PyTorch's name
    """Set grad mode to ``mode``: at once, and as a context manager that restores it on exit.

    Example:
        >>> import minigrad
        >>> with minigrad.set_grad_enabled(False):
        ...     minigrad.is_grad_enabled()
        False
        >>> minigrad.is_grad_enabled()
        True
    """

    def __init__(self, mode: bool) -> None:
        if type(mode) is not bool:  # (PyTorch's parser takes a bool only: not 1, not a tensor)
            raise TypeError(
                "set_grad_enabled(): argument 'enabled' (position 1) must be bool, not "
                f"{errors.argument_type_name(mode)}"
            )
        # PyTorch applies the mode on construction, so the plain call form works too.
        self._previous = _state.requested
        self._mode = mode
        _set(self._mode)

    def __enter__(self) -> None:
        pass

    def __exit__(self, *exc_info: object) -> None:
        _set(self._previous)

    def __call__(self, func: F) -> F:
        """Use as a decorator: each call of ``func`` runs with the mode."""
        # The constructor already switched the mode; undo that now.
        _set(self._previous)
        return _run_in_mode(func, self._mode)
