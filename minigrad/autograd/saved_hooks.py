"""Saved-tensor hooks: replace how autograd keeps the values a node saves for backward.

``saved_tensors_hooks(pack, unpack)`` (PyTorch's ``torch.autograd.graph.saved_tensors_hooks``):
while it is active, every tensor a recorded op or custom Function saves is handed to
``pack(tensor)``, and the node keeps whatever ``pack`` returns instead of the tensor. When
backward (or ``grad_fn._saved_self``) needs the value, ``unpack(packed)`` must give a tensor
back. As in PyTorch:

- the hooks are thread-local, and nested contexts do not compose: the innermost pair is used;
- the pair is fixed when the value is saved, so leaving the context changes nothing for nodes
  already recorded;
- a value kept by hooks is not version-checked (autograd cannot see what ``pack`` did with it);
- Python numbers an op keeps (``x * 2.0``'s ``2.0``) are not packed.

``save_on_cpu`` is the pair that moves saved tensors to CPU memory; in this CPU-only library it
behaves as PyTorch's does for CPU tensors. ``disable_saved_tensors_hooks(message)`` forbids
them for a while (a feature that cannot work with them): entering a pair raises ``message``.
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Callable, Iterator
from typing import Any

from minigrad.autograd import debug_switches

Pack = Callable[[Any], Any]
Unpack = Callable[[Any], Any]


class _HooksState(threading.local):
    def __init__(self) -> None:
        # The active (pack, unpack) pairs of this thread, innermost last.
        self.stack: tuple[tuple[Pack, Unpack], ...] = ()
        # While ``disable_saved_tensors_hooks`` is active: its message.
        self.disabled_message: str | None = None


_state = _HooksState()
# How many saved_tensors_hooks contexts are open, in all threads: the recording path reads this
# plain list first (a few ns) and the thread-local stack only while some context is open.
active = [0]
_active_lock = threading.Lock()


def current_hooks() -> tuple[Pack, Unpack] | None:
    """The innermost active ``(pack, unpack)`` pair, or None."""
    stack = _state.stack
    return stack[-1] if stack else None


class saved_tensors_hooks:  # noqa: N801 - PyTorch's name
    """Context manager: pack the tensors saved for backward with hooks (PyTorch's name).

    While it is active, each tensor a recorded op saves is kept as ``pack_hook(tensor)`` and
    given back as ``unpack_hook(packed)`` (``torch.autograd.graph.saved_tensors_hooks``).

    ``pack_hook(tensor)`` may return any object; ``unpack_hook(packed)`` must return a tensor
    with the original's value. ``pack_hook`` must not modify its argument in place.

    Example:
        >>> import minigrad
        >>> from minigrad.autograd.graph import saved_tensors_hooks
        >>> packed = []
        >>> def pack(t):
        ...     packed.append(t.shape)
        ...     return t.clone()
        >>> x = minigrad.tensor([1.0, 2.0], requires_grad=True)
        >>> with saved_tensors_hooks(pack, lambda t: t):
        ...     y = x.exp()
        >>> packed
        [minigrad.Size([2])]
        >>> y.sum().backward()
        >>> x.grad
        tensor([2.7183, 7.3891])
    """

    def __init__(self, pack_hook: Pack, unpack_hook: Unpack) -> None:
        self.pack_hook = pack_hook
        self.unpack_hook = unpack_hook

    def __enter__(self) -> None:
        if _state.disabled_message is not None:
            raise RuntimeError(_state.disabled_message)
        _state.stack = (*_state.stack, (self.pack_hook, self.unpack_hook))
        with _active_lock:
            active[0] += 1
            debug_switches.modes_on["saved-tensor hooks"] = True  # recording's shortcut off

    def __exit__(self, *exc_info: object) -> None:
        _state.stack = _state.stack[:-1]
        with _active_lock:
            active[0] -= 1
            if not active[0]:
                debug_switches.modes_on.pop("saved-tensor hooks", None)


class save_on_cpu(saved_tensors_hooks):  # noqa: N801 - PyTorch's name
    """Context manager: keep the tensors saved for backward in CPU memory (PyTorch's name).

    PyTorch's ``torch.autograd.graph.save_on_cpu``.

    minigrad's tensors are all on the CPU, so, as PyTorch does for CPU tensors, each saved tensor
    is kept as it is (``tensor.cpu()`` is the tensor itself), or as a copy with
    ``pin_memory=True``. Like any value kept by hooks, it is not version-checked.

    Example:
        >>> import minigrad
        >>> x = minigrad.tensor([0.0, 1.0], requires_grad=True)
        >>> with minigrad.autograd.graph.save_on_cpu():
        ...     y = x.exp()
        >>> y.sum().backward()
        >>> x.grad
        tensor([1.0000, 2.7183])
    """

    def __init__(self, pin_memory: bool = False, device_type: str = "cuda") -> None:
        self.pin_memory = pin_memory
        self.device_type = device_type

        def pack_to_cpu(tensor: Any) -> tuple[Any, Any]:
            if not pin_memory:
                return tensor.device, tensor.cpu()  # a CPU tensor is kept as it is
            # Pinned memory needs CUDA: without it PyTorch makes an ordinary copy.
            return tensor.device, tensor.detach().clone()

        def unpack_from_cpu(packed: tuple[Any, Any]) -> Any:
            device, tensor = packed
            return tensor.to(device)

        super().__init__(pack_to_cpu, unpack_from_cpu)


@contextlib.contextmanager
def disable_saved_tensors_hooks(error_message: str) -> Iterator[None]:
    """Context manager (and decorator): forbid saved-tensor hooks meanwhile (PyTorch's name).

    Entering ``saved_tensors_hooks`` (or ``save_on_cpu``) while it is active raises
    ``RuntimeError(error_message)``, as does entering it while a pair is active, as PyTorch's
    ``torch.autograd.graph.disable_saved_tensors_hooks``. Nested, the inner message applies
    until the inner context ends.

    Example:
        >>> import minigrad
        >>> from minigrad.autograd.graph import disable_saved_tensors_hooks, save_on_cpu
        >>> with disable_saved_tensors_hooks("no hooks here"):
        ...     try:
        ...         with save_on_cpu():
        ...             pass
        ...     except RuntimeError as error:
        ...         print(error)
        no hooks here
    """
    if not isinstance(error_message, str):
        raise TypeError(
            "_saved_tensors_hooks_disable(): incompatible function arguments. The following "
            "argument types are supported:\n    1. (error_message: str, fail_if_non_empty: bool "
            f"= True) -> None\n\nInvoked with: {error_message!r}"
        )
    previous = _state.disabled_message
    _state.disabled_message = error_message
    try:
        if _state.stack:  # (PyTorch's message is set before it checks)
            raise RuntimeError(error_message)
        yield
    finally:
        _state.disabled_message = previous
