"""``nn.utils.stateless.functional_call``: run a module with other tensors in place of its own.

The given tensors are swapped into the module's parameter and buffer registries (by dotted
name) for one call and the originals are put back afterwards, even if the call raises. Weights
the module shares under several names (tied weights) are all replaced when one of them is given
(``tie_weights=True``). PyTorch deprecates this entry point in favour of
``minigrad.func.functional_call`` (same function) and warns.
"""

from __future__ import annotations

import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from minigrad.autograd.tensor_base import TensorBase
from minigrad.nn.modules.module import Module

__all__ = ["functional_call"]

_MISSING: Any = object()


def _swap_tensor(module: Module, name: str, tensor: Any, allow_missing: bool = False) -> Any:
    """Put ``tensor`` at ``module.<name>`` (``_MISSING``: remove it); return what was there."""
    if tensor is not _MISSING and tensor is not None and not isinstance(tensor, TensorBase):
        raise TypeError(f"{tensor} is not an instance of minigrad.Tensor")
    if "." in name:
        raise KeyError('tensor name can\'t contain "."')
    if name == "":
        raise KeyError('tensor name can\'t be empty string ""')
    for registry in (module._parameters, module._buffers):
        if name in registry:
            original = registry[name]
            if tensor is _MISSING:
                del registry[name]
            else:
                registry[name] = tensor  # a plain tensor may stand in for a parameter
            return original
    if hasattr(module, name):
        original = getattr(module, name)
    elif not allow_missing:
        raise AttributeError(f"{module._get_name()} has no attribute `{name}`")
    else:
        original = _MISSING
    if original is not _MISSING and original is not None and not isinstance(original, TensorBase):
        raise TypeError(f"attribute `{name}`: {original} is not an instance of minigrad.Tensor")
    if tensor is not _MISSING:
        setattr(module, name, tensor)
    elif hasattr(module, name):
        delattr(module, name)
    return original


def _submodule(module: Module, path: str) -> Module:
    for attr in [part for part in path.split(".") if part]:
        try:
            child = getattr(module, attr)
        except AttributeError as error:
            raise AttributeError(f"{module._get_name()} has no attribute `{attr}`") from error
        if not isinstance(child, Module):
            raise TypeError(f"submodule `{path}`: {child} is not an instance of minigrad.nn.Module")
        module = child
    return module


def _swap_all(module: Module, tensors: dict[str, Any]) -> dict[str, Any]:
    """Swap every entry in; on a failure put back what was already swapped and re-raise."""
    originals: dict[str, Any] = {}
    try:
        for name, tensor in tensors.items():
            prefix, _, attr = name.rpartition(".")
            originals[name] = _swap_tensor(_submodule(module, prefix), attr, tensor, True)
    except Exception:
        _swap_all(module, originals)
        raise
    return originals


def _untie(module: Module, tensors: dict[str, Any]) -> dict[str, Any]:
    """Extend ``tensors`` to every name of a tied weight one of whose names is given."""
    names_of: dict[int, set[str]] = {}
    for name, tensor in [
        *module.named_parameters(remove_duplicate=False),
        *module.named_buffers(remove_duplicate=False),
    ]:
        names_of.setdefault(id(tensor), set()).add(name)
    tied = {name: names for names in names_of.values() if len(names) > 1 for name in names}
    given_tied = [name for name in tensors if name in tied]
    for name in given_tied:
        names = tied[name]
        if (
            len(names.intersection(given_tied)) > 1
            and len({id(tensors[other]) for other in names if other in tensors}) != 1
        ):
            raise ValueError(
                f"functional_call got multiple values for keys {sorted(names)}, which are "
                "tied. Consider using tie_weights=False"
            )
    untied = dict(tensors)
    for name in given_tied:
        for other in tied[name]:
            untied[other] = tensors[name]
    return untied


@contextmanager
def _reparametrize_module(
    module: Module, tensors: dict[str, Any], tie_weights: bool = False, strict: bool = False
) -> Iterator[None]:
    """Inside the block, ``module`` uses ``tensors`` (dotted names) instead of its own."""
    if tie_weights:
        tensors = _untie(module, tensors)
    if strict:
        valid = {
            name
            for name, _ in [
                *module.named_parameters(remove_duplicate=False),
                *module.named_buffers(remove_duplicate=False),
            ]
        }
        missing, unexpected = sorted(valid - set(tensors)), sorted(set(tensors) - valid)
        messages = []
        if unexpected:
            messages.append(f"Unexpected key(s): {', '.join(map(repr, unexpected))}.")
        if missing:
            messages.append(f"Missing key(s): {', '.join(map(repr, missing))}.")
        if messages:
            raise RuntimeError(
                f"Error(s) in reparametrizing for {module._get_name()}:\n\t" + "\n\t".join(messages)
            )
    originals: dict[str, Any] = {}
    try:
        originals = _swap_all(module, tensors)
        yield
    finally:
        _swap_all(module, originals)


def _functional_call(
    module: Module,
    parameters_and_buffers: dict[str, Any],
    args: Any = None,
    kwargs: dict[str, Any] | None = None,
    *,
    tie_weights: bool = True,
    strict: bool = False,
) -> Any:
    if kwargs is None:
        kwargs = {}
    if args is None:
        args = ()
    elif not isinstance(args, tuple):
        args = (args,)
    with _reparametrize_module(module, parameters_and_buffers, tie_weights, strict):
        return module(*args, **kwargs)


def functional_call(
    module: Module,
    parameters_and_buffers: dict[str, Any],
    args: Any = None,
    kwargs: dict[str, Any] | None = None,
    *,
    tie_weights: bool = True,
    strict: bool = False,
) -> Any:
    """Deprecated: call ``module(*args, **kwargs)`` with ``parameters_and_buffers`` swapped in.

    Use ``minigrad.func.functional_call``, the same function without the FutureWarning.

    Example:
        >>> import warnings
        >>> import minigrad
        >>> from minigrad import nn
        >>> layer = nn.Linear(2, 1)
        >>> state = {"weight": minigrad.ones(1, 2), "bias": minigrad.zeros(1)}
        >>> with warnings.catch_warnings():
        ...     warnings.simplefilter("ignore")
        ...     nn.utils.stateless.functional_call(layer, state, minigrad.tensor([1.0, 2.0]))
        tensor([3.])
    """
    warnings.warn(
        "`minigrad.nn.utils.stateless.functional_call` is deprecated as of PyTorch 2.0 and will "
        "be removed in a future version of PyTorch. Please use `minigrad.func.functional_call` "
        "instead which is a drop-in replacement.",
        FutureWarning,
        stacklevel=2,
    )
    return _functional_call(
        module, parameters_and_buffers, args, kwargs, tie_weights=tie_weights, strict=strict
    )
