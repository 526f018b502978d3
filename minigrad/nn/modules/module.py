"""``nn.Module``: the base class of every layer and model, with PyTorch's behaviour.

A module keeps three ordered registries, filled by plain attribute assignment:

- ``_parameters``: ``Parameter`` objects (assigning a ``Parameter`` registers it);
- ``_buffers``: tensors that are state but not trained (``register_buffer``), e.g. BatchNorm's
  running statistics; non-persistent ones stay out of the ``state_dict``;
- ``_modules``: child modules (assigning a ``Module`` registers it).

Everything else (``parameters()``, ``state_dict()``, ``train()``, ``zero_grad()``, the ``repr``)
walks these registries in registration order, which is what makes PyTorch's key names
(``"0.weight"``, ``"encoder.layer.bias"``) and messages come out the same.
"""

from __future__ import annotations

import functools
import itertools
import warnings
from collections import OrderedDict, namedtuple
from collections.abc import Callable, Iterator, Mapping
from typing import Any, ClassVar, TypeVar

from minigrad import _dtype, errors
from minigrad.autograd.grad_mode import no_grad
from minigrad.autograd.tensor_base import TensorBase
from minigrad.nn.modules.backward_hook import BackwardHook
from minigrad.nn.modules.hooks import RemovableHandle, add_hook
from minigrad.nn.modules.utils import check_device, reset_grad, typename
from minigrad.nn.parameter import Buffer, Parameter
from minigrad.tensor import Tensor

__all__ = ["Module"]

ModuleT = TypeVar("ModuleT", bound="Module")

# The state_dict key (after the module's prefix) of what ``get_extra_state`` returns.
_EXTRA_STATE_KEY_SUFFIX = "_extra_state"


class _IncompatibleKeys(namedtuple("IncompatibleKeys", ["missing_keys", "unexpected_keys"])):
    """What ``load_state_dict`` returns: the keys it missed and the keys it did not use."""

    __slots__ = ()

    def __repr__(self) -> str:
        if not self.missing_keys and not self.unexpected_keys:
            return "<All keys matched successfully>"
        return super().__repr__()

    __str__ = __repr__


def _never_called(method: str) -> str:
    """PyTorch's error for the base class's ``get_extra_state`` / ``set_extra_state``."""
    return (
        f"Reached a code path in Module.{method}() that should never be called. Please file an "
        "issue at https://github.com/pytorch/pytorch/issues/new?template=bug-report.yml to "
        "report this bug."
    )


def _overrides(module: Module, method: str) -> bool:
    """Whether ``module``'s class defines its own ``method`` (extra state is opt-in)."""
    return getattr(type(module), method, None) is not getattr(Module, method)


def _write_planned(writes: list[tuple[Module, str, Tensor | None, Any]], assign: bool) -> None:
    """Carry out the writes ``load_state_dict`` planned (all of them were checked first)."""
    for module, name, target, value in writes:
        if target is None:
            module.set_extra_state(value)
            continue
        with no_grad():
            if not assign:
                target.copy_(value)
            elif isinstance(target, Parameter):
                if not isinstance(value, Parameter):
                    value = Parameter(value, requires_grad=target.requires_grad)
                else:
                    value.requires_grad_(target.requires_grad)
                setattr(module, name, value)
            else:
                setattr(module, name, value)


def _addindent(text: str, spaces: int) -> str:
    """Indent every line but the first of a child's repr (PyTorch's ``_addindent``)."""
    first, *rest = text.split("\n")
    if not rest:
        return text
    return "\n".join([first] + [" " * spaces + line if line.strip() else "" for line in rest])


class Module:
    """Base class for all neural network modules; subclass it and define ``forward``.

    Assigning a ``Parameter``, a ``Module`` or (after ``register_buffer``) a tensor to an
    attribute registers it, so ``parameters()``, ``state_dict()``, ``train()`` and the
    ``repr`` see it. Call the module (``model(x)``), not ``forward``: the call runs the
    forward hooks.

    Example:
        >>> import minigrad
        >>> from minigrad import nn
        >>> class Affine(nn.Module):
        ...     def __init__(self):
        ...         super().__init__()
        ...         self.scale = nn.Parameter(minigrad.ones(2))
        ...         self.register_buffer("shift", minigrad.zeros(2))
        ...     def forward(self, x):
        ...         return x * self.scale + self.shift
        >>> model = Affine()
        >>> [name for name, _ in model.named_parameters()], list(model.state_dict())
        (['scale'], ['scale', 'shift'])
        >>> model(minigrad.tensor([1.0, 2.0]))
        tensor([1., 2.], grad_fn=<AddBackward0>)
    """

    training: bool
    _version: ClassVar[int] = 1  # stored in state_dict metadata, as in PyTorch
    call_super_init: ClassVar[bool] = False

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        if not self.call_super_init and kwargs:
            raise TypeError(
                f"{type(self).__name__}.__init__() got an unexpected keyword argument "
                f"'{next(iter(kwargs))}'"
            )
        if not self.call_super_init and args:
            raise TypeError(
                f"{type(self).__name__}.__init__() takes 1 positional argument but "
                f"{len(args) + 1} were given"
            )
        # object.__setattr__: these are the registries themselves, not things to register.
        set_plain = super().__setattr__
        set_plain("training", True)
        set_plain("_parameters", {})
        set_plain("_buffers", {})
        set_plain("_non_persistent_buffers_set", set())
        set_plain("_backward_hooks", OrderedDict())
        set_plain("_backward_pre_hooks", OrderedDict())
        set_plain("_is_full_backward_hook", None)
        set_plain("_forward_hooks", OrderedDict())
        set_plain("_forward_hooks_with_kwargs", OrderedDict())
        set_plain("_forward_hooks_always_called", OrderedDict())
        set_plain("_forward_pre_hooks", OrderedDict())
        set_plain("_forward_pre_hooks_with_kwargs", OrderedDict())
        set_plain("_modules", {})
        set_plain("_state_dict_hooks", OrderedDict())
        set_plain("_state_dict_pre_hooks", OrderedDict())
        set_plain("_load_state_dict_pre_hooks", OrderedDict())
        set_plain("_load_state_dict_post_hooks", OrderedDict())

    def forward(self, *args: Any, **kwargs: Any) -> Any:
        """The computation of the module; every subclass defines it."""
        raise NotImplementedError(
            f'Module [{type(self).__name__}] is missing the required "forward" function'
        )

    # --- calling ------------------------------------------------------------------------------

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        """Run ``forward`` (and the forward hooks, if any)."""
        if not (self._forward_hooks or self._forward_pre_hooks or self._backward_hooks
                or self._backward_pre_hooks):
            return self.forward(*args, **kwargs)  # the common case: no hook work at all
        return self._call_with_hooks(args, kwargs)

    def _call_with_hooks(self, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
        """Pre-hooks (may replace the inputs), forward, hooks (may replace the output)."""
        result = None
        called_always_hooks = set()
        try:
            for hook_id, hook in list(self._forward_pre_hooks.items()):
                if hook_id in self._forward_pre_hooks_with_kwargs:
                    new = hook(self, args, kwargs)
                    if new is not None:
                        if not (isinstance(new, tuple) and len(new) == 2):
                            raise RuntimeError(
                                "forward pre-hook must return None or a tuple of (new_args, "
                                f"new_kwargs), but got {new}."
                            )
                        args, kwargs = new
                else:
                    new = hook(self, args)
                    if new is not None:
                        args = new if isinstance(new, tuple) else (new,)
            backward_hook = None
            if self._backward_hooks or self._backward_pre_hooks:
                backward_hook = BackwardHook(self, list(self._backward_hooks.values()),
                                             list(self._backward_pre_hooks.values()))
                args = backward_hook.setup_input_hook(args)
            result = self.forward(*args, **kwargs)
            for hook_id, hook in list(self._forward_hooks.items()):
                if hook_id in self._forward_hooks_always_called:
                    called_always_hooks.add(hook_id)
                new = self._run_forward_hook(hook_id, hook, args, kwargs, result)
                if new is not None:
                    result = new
            if backward_hook is not None:
                if not isinstance(result, TensorBase | tuple):
                    warnings.warn(
                        "For backward hooks to be called, module output should be a Tensor or "
                        f"a tuple of Tensors but received {type(result)}", stacklevel=2)
                result = backward_hook.setup_output_hook(result)
            return result
        except Exception:
            # Hooks registered with always_call=True run even when forward raised.
            for hook_id, hook in list(self._forward_hooks.items()):
                if hook_id in self._forward_hooks_always_called and (
                    hook_id not in called_always_hooks
                ):
                    try:
                        new = self._run_forward_hook(hook_id, hook, args, kwargs, result)
                        if new is not None:
                            result = new
                    except Exception as error:
                        warnings.warn(
                            "module forward hook with ``always_call=True`` raised an exception "
                            f"that was silenced as another error was raised in forward: {error}",
                            stacklevel=2,
                        )
            raise

    def _run_forward_hook(
        self, hook_id: int, hook: Callable[..., Any], args: Any, kwargs: Any, result: Any
    ) -> Any:
        if hook_id in self._forward_hooks_with_kwargs:
            return hook(self, args, kwargs, result)
        return hook(self, args, result)

    def register_full_backward_hook(self, hook: Callable[..., Any],
                                    prepend: bool = False) -> RemovableHandle:
        """Call ``hook(module, grad_input, grad_output)`` when the inputs' gradients are known.

        It may return new ``grad_input`` (a tuple, None where an input is not a tensor). The
        module's tensors pass through ``BackwardHookFunction`` (PyTorch's mechanism), whose
        ``grad_fn`` they then show.

        Example:
            >>> import minigrad
            >>> from minigrad import nn
            >>> layer = nn.Linear(2, 1)
            >>> seen = []
            >>> handle = layer.register_full_backward_hook(
            ...     lambda module, grad_input, grad_output: seen.append(grad_output[0].shape))
            >>> layer(minigrad.ones(3, 2, requires_grad=True)).sum().backward()
            >>> seen
            [minigrad.Size([3, 1])]
        """
        if self._is_full_backward_hook is False:
            raise RuntimeError(
                "Cannot use both regular backward hooks and full backward hooks on a single "
                "Module. Please use only one of them.")
        self._is_full_backward_hook = True
        return add_hook(self._backward_hooks, hook, prepend=prepend)

    def register_full_backward_pre_hook(self, hook: Callable[..., Any],
                                        prepend: bool = False) -> RemovableHandle:
        """Call ``hook(module, grad_output)`` when the outputs' gradients are known.

        It may return new ``grad_output`` (a tuple), which the module's backward then uses.
        """
        return add_hook(self._backward_pre_hooks, hook, prepend=prepend)

    def register_forward_pre_hook(
        self, hook: Callable[..., Any], *, prepend: bool = False, with_kwargs: bool = False
    ) -> RemovableHandle:
        """Call ``hook(module, args)`` before every ``forward``; it may return new args.

        With ``with_kwargs=True`` the hook is ``hook(module, args, kwargs)`` and may return a
        ``(new_args, new_kwargs)`` tuple. ``prepend=True`` runs it before the hooks already
        registered.
        """
        handle = add_hook(self._forward_pre_hooks, hook, prepend=prepend,
                          extra_dict=self._forward_pre_hooks_with_kwargs)
        if with_kwargs:
            self._forward_pre_hooks_with_kwargs[handle.id] = True
        return handle

    def register_forward_hook(
        self,
        hook: Callable[..., Any],
        *,
        prepend: bool = False,
        with_kwargs: bool = False,
        always_call: bool = False,
    ) -> RemovableHandle:
        """Call ``hook(module, args, output)`` after every ``forward``; it may return a new output.

        With ``with_kwargs=True`` the hook is ``hook(module, args, kwargs, output)``;
        ``always_call=True`` runs it even when forward raises.

        Example:
            >>> import minigrad
            >>> from minigrad import nn
            >>> layer = nn.Identity()
            >>> handle = layer.register_forward_hook(lambda module, args, out: out * 10)
            >>> layer(minigrad.tensor([1.0]))
            tensor([10.])
            >>> handle.remove()
            >>> layer(minigrad.tensor([1.0]))
            tensor([1.])
        """
        handle = add_hook(
            self._forward_hooks, hook, prepend=prepend,
            extra_dict=[self._forward_hooks_with_kwargs, self._forward_hooks_always_called],
        )
        if with_kwargs:
            self._forward_hooks_with_kwargs[handle.id] = True
        if always_call:
            self._forward_hooks_always_called[handle.id] = True
        return handle

    # --- registration -------------------------------------------------------------------------

    def register_buffer(self, name: str, tensor: Tensor | None, persistent: bool = True) -> None:
        """Register a tensor that is state but not a parameter (e.g. a running mean).

        Persistent buffers are part of the ``state_dict``; ``persistent=False`` keeps one out.
        """
        if "_buffers" not in self.__dict__:
            raise AttributeError("cannot assign buffer before Module.__init__() call")
        if not isinstance(name, str):
            raise TypeError(f"buffer name should be a string. Got {typename(name)}")
        if "." in name:
            raise KeyError('buffer name can\'t contain "."')
        if name == "":
            raise KeyError('buffer name can\'t be empty string ""')
        if hasattr(self, name) and name not in self._buffers:
            raise KeyError(f"attribute '{name}' already exists")
        if tensor is not None and not isinstance(tensor, TensorBase):
            raise TypeError(
                f"cannot assign '{typename(tensor)}' object to buffer '{name}' "
                "(minigrad Tensor or None required)"
            )
        self._buffers[name] = tensor
        if persistent:
            self._non_persistent_buffers_set.discard(name)
        else:
            self._non_persistent_buffers_set.add(name)

    def register_parameter(self, name: str, param: Parameter | None) -> None:
        """Register ``param`` (a ``Parameter`` or None) under ``name``."""
        if "_parameters" not in self.__dict__:
            raise AttributeError("cannot assign parameter before Module.__init__() call")
        if not isinstance(name, str):
            raise TypeError(f"parameter name should be a string. Got {typename(name)}")
        if "." in name:
            raise KeyError('parameter name can\'t contain "."')
        if name == "":
            raise KeyError('parameter name can\'t be empty string ""')
        if hasattr(self, name) and name not in self._parameters:
            raise KeyError(f"attribute '{name}' already exists")
        if param is not None and not isinstance(param, Parameter):
            raise TypeError(
                f"cannot assign '{typename(param)}' object to parameter '{name}' "
                "(minigrad.nn.Parameter or None required)"
            )
        if param is not None and param.grad_fn is not None:
            raise ValueError(
                f"Cannot assign non-leaf Tensor to parameter '{name}'. Model parameters must be "
                f"created explicitly. To express '{name}' as a function of another Tensor, "
                "compute the value in the forward() method."
            )
        self._parameters[name] = param

    def add_module(self, name: str, module: Module | None) -> None:
        """Register ``module`` (or None) as a child under ``name``."""
        if not isinstance(module, Module) and module is not None:
            raise TypeError(f"{typename(module)} is not a Module subclass")
        if not isinstance(name, str):
            raise TypeError(f"module name should be a string. Got {typename(name)}")
        if hasattr(self, name) and name not in self._modules:
            raise KeyError(f"attribute '{name}' already exists")
        if "." in name:
            raise KeyError(f'module name can\'t contain ".", got: {name}')
        if name == "":
            raise KeyError('module name can\'t be empty string ""')
        self._modules[name] = module

    def register_module(self, name: str, module: Module | None) -> None:
        """Alias of ``add_module``."""
        self.add_module(name, module)

    def get_submodule(self, target: str) -> Module:
        """The submodule at the dotted path ``target`` (``""`` is the module itself)."""
        if target == "":
            return self
        module: Module = self
        for item in target.split("."):
            if not hasattr(module, item):
                raise AttributeError(module._get_name() + " has no attribute `" + item + "`")
            module = getattr(module, item)
            if not isinstance(module, Module):
                raise AttributeError("`" + item + "` is not an nn.Module")
        return module

    def set_submodule(self, target: str, module: Module, strict: bool = False) -> None:
        """Put ``module`` at the dotted path ``target``, replacing what is there.

        The parent (all of ``target`` but its last name) must exist; with ``strict=True`` the
        submodule itself must exist too.

        Example:
            >>> from minigrad import nn
            >>> model = nn.Sequential(nn.Linear(2, 2), nn.ReLU())
            >>> model.set_submodule("1", nn.Tanh())
            >>> model
            Sequential(
              (0): Linear(in_features=2, out_features=2, bias=True)
              (1): Tanh()
            )
        """
        if target == "":
            raise ValueError("Cannot set the submodule without a target name!")
        atoms = target.split(".")
        if not isinstance(module, Module):
            raise ValueError(f"`module` is not an nn.Module, found {type(module)}")
        parent = self if len(atoms) == 1 else self.get_submodule(".".join(atoms[:-1]))
        name = atoms[-1]
        if strict and not hasattr(parent, name):
            raise AttributeError(parent._get_name() + " has no attribute `" + name + "`")
        if hasattr(parent, name) and not isinstance(getattr(parent, name), Module):
            raise AttributeError("`" + name + "` is not an nn.Module")
        setattr(parent, name, module)

    def get_parameter(self, target: str) -> Parameter:
        """The parameter at the dotted path ``target``, e.g. ``"encoder.weight"``."""
        module_path, _, name = target.rpartition(".")
        module = self.get_submodule(module_path)
        if not hasattr(module, name):
            raise AttributeError(module._get_name() + " has no attribute `" + name + "`")
        param = getattr(module, name)
        if not isinstance(param, Parameter):
            raise AttributeError("`" + name + "` is not an nn.Parameter")
        return param

    def get_buffer(self, target: str) -> Tensor:
        """The buffer at the dotted path ``target``, e.g. ``"bn.running_mean"``."""
        module_path, _, name = target.rpartition(".")
        module = self.get_submodule(module_path)
        if not hasattr(module, name):
            raise AttributeError(module._get_name() + " has no attribute `" + name + "`")
        if name not in module._buffers:
            raise AttributeError("`" + name + "` is not a buffer")
        return getattr(module, name)

    def __getattr__(self, name: str) -> Any:
        # Only called when normal lookup fails: parameters, buffers and children live here.
        registries = self.__dict__
        for registry in ("_parameters", "_buffers", "_modules"):
            if registry in registries and name in registries[registry]:
                return registries[registry][name]
        raise AttributeError(f"'{type(self).__name__}' object has no attribute '{name}'")

    def __setattr__(self, name: str, value: Any) -> None:
        def remove_from(*registries: Any) -> None:
            for registry in registries:
                if name in registry:
                    if isinstance(registry, dict):
                        del registry[name]
                    else:
                        registry.discard(name)

        params = self.__dict__.get("_parameters")
        if isinstance(value, Buffer):  # nn.Buffer: registers a plain tensor, as PyTorch's
            remove_from(self.__dict__, self._parameters, self._modules)
            self.register_buffer(name, value._plain(), persistent=value.persistent)
        elif isinstance(value, Parameter):
            if params is None:
                raise AttributeError("cannot assign parameters before Module.__init__() call")
            remove_from(
                self.__dict__, self._buffers, self._modules, self._non_persistent_buffers_set
            )
            self.register_parameter(name, value)
        elif params is not None and name in params:
            if value is not None:
                raise TypeError(
                    f"cannot assign '{typename(value)}' as parameter '{name}' "
                    "(minigrad.nn.Parameter or None expected)"
                )
            self.register_parameter(name, value)
        else:
            modules = self.__dict__.get("_modules")
            if isinstance(value, Module):
                if modules is None:
                    raise AttributeError("cannot assign module before Module.__init__() call")
                remove_from(
                    self.__dict__,
                    self._parameters,
                    self._buffers,
                    self._non_persistent_buffers_set,
                )
                modules[name] = value
            elif modules is not None and name in modules:
                if value is not None:
                    raise TypeError(
                        f"cannot assign '{typename(value)}' as child module '{name}' "
                        "(minigrad.nn.Module or None expected)"
                    )
                modules[name] = value
            else:
                buffers = self.__dict__.get("_buffers")
                if buffers is not None and name in buffers:
                    if value is not None and not isinstance(value, TensorBase):
                        raise TypeError(
                            f"cannot assign '{typename(value)}' as buffer '{name}' "
                            "(minigrad.nn.Buffer, minigrad.Tensor or None expected)"
                        )
                    buffers[name] = value
                else:
                    super().__setattr__(name, value)

    def __delattr__(self, name: str) -> None:
        if name in self._parameters:
            del self._parameters[name]
        elif name in self._buffers:
            del self._buffers[name]
            self._non_persistent_buffers_set.discard(name)
        elif name in self._modules:
            del self._modules[name]
        else:
            super().__delattr__(name)

    def __dir__(self) -> list[str]:
        keys = [*dir(type(self)), *self.__dict__, *self._parameters, *self._modules, *self._buffers]
        return sorted(key for key in keys if not key[0].isdigit())

    # --- walking the tree ---------------------------------------------------------------------

    def named_modules(
        self, memo: set[Module] | None = None, prefix: str = "", remove_duplicate: bool = True
    ) -> Iterator[tuple[str, Module]]:
        """``(dotted name, module)`` for this module and every descendant, each once."""
        if memo is None:
            memo = set()
        if self in memo:
            return
        if remove_duplicate:
            memo.add(self)
        yield prefix, self
        for name, module in self._modules.items():
            if module is None:
                continue
            yield from module.named_modules(
                memo, prefix + ("." if prefix else "") + name, remove_duplicate
            )

    def modules(self) -> Iterator[Module]:
        """This module and every descendant, each once."""
        for _, module in self.named_modules():
            yield module

    def named_children(self) -> Iterator[tuple[str, Module]]:
        """``(name, module)`` for the direct children, each once."""
        memo = set()
        for name, module in self._modules.items():
            if module is not None and module not in memo:
                memo.add(module)
                yield name, module

    def children(self) -> Iterator[Module]:
        """The direct children, each once."""
        for _, module in self.named_children():
            yield module

    def _named_members(
        self,
        members_of: Callable[[Module], Any],
        prefix: str = "",
        recurse: bool = True,
        remove_duplicate: bool = True,
    ) -> Iterator[tuple[str, Any]]:
        """Parameters or buffers with their dotted names; a shared tensor is listed once."""
        memo = set()
        modules = (
            self.named_modules(prefix=prefix, remove_duplicate=remove_duplicate)
            if recurse
            else [(prefix, self)]
        )
        for module_prefix, module in modules:
            for name, value in members_of(module):
                if value is None or value in memo:
                    continue
                if remove_duplicate:
                    memo.add(value)
                yield module_prefix + ("." if module_prefix else "") + name, value

    def named_parameters(
        self, prefix: str = "", recurse: bool = True, remove_duplicate: bool = True
    ) -> Iterator[tuple[str, Parameter]]:
        """``(dotted name, parameter)`` pairs; a parameter shared by two modules comes once.

        Example:
            >>> from minigrad import nn
            >>> model = nn.Sequential(nn.Linear(2, 3), nn.ReLU(), nn.Linear(3, 1))
            >>> [name for name, _ in model.named_parameters()]
            ['0.weight', '0.bias', '2.weight', '2.bias']
        """
        return self._named_members(
            lambda module: module._parameters.items(), prefix, recurse, remove_duplicate
        )

    def parameters(self, recurse: bool = True) -> Iterator[Parameter]:
        """Every parameter (each once), in registration order; what optimizers take."""
        for _, param in self.named_parameters(recurse=recurse):
            yield param

    def named_buffers(
        self, prefix: str = "", recurse: bool = True, remove_duplicate: bool = True
    ) -> Iterator[tuple[str, Tensor]]:
        """``(dotted name, buffer)`` pairs, persistent or not."""
        return self._named_members(
            lambda module: module._buffers.items(), prefix, recurse, remove_duplicate
        )

    def buffers(self, recurse: bool = True) -> Iterator[Tensor]:
        """Every buffer (each once)."""
        for _, buffer in self.named_buffers(recurse=recurse):
            yield buffer

    def apply(self: ModuleT, fn: Callable[[Module], None]) -> ModuleT:
        """Call ``fn`` on every child (recursively, children first) and then on this module."""
        for module in self.children():
            module.apply(fn)
        fn(self)
        return self

    # --- modes and gradients ------------------------------------------------------------------

    def train(self: ModuleT, mode: bool = True) -> ModuleT:
        """Set training mode (Dropout drops, BatchNorm uses batch statistics) recursively."""
        if not isinstance(mode, bool):
            raise ValueError("training mode is expected to be boolean")
        self.training = mode
        for module in self.children():
            module.train(mode)
        return self

    def eval(self: ModuleT) -> ModuleT:
        """Set evaluation mode: ``train(False)``."""
        return self.train(False)

    def requires_grad_(self: ModuleT, requires_grad: bool = True) -> ModuleT:
        """Set ``requires_grad`` on every parameter (e.g. ``False`` to freeze a network)."""
        for param in self.parameters():
            param.requires_grad_(requires_grad)
        return self

    def zero_grad(self, set_to_none: bool = True) -> None:
        """Reset the gradients of all parameters: to None (default), or to zeros in place."""
        for param in self.parameters():
            reset_grad(param, set_to_none)

    # --- converting ---------------------------------------------------------------------------

    def _apply(self: ModuleT, fn: Callable[[Tensor], Tensor], recurse: bool = True) -> ModuleT:
        """Replace every parameter's, gradient's and buffer's data by ``fn`` of it, in place.

        Parameters stay the same objects (their ``.data`` is replaced, as PyTorch does), so
        optimizers built on them keep working. ``recurse=False``: this module's own only.
        """
        if recurse:
            for module in self.children():
                module._apply(fn)
        for param in self._parameters.values():
            if param is None:
                continue
            with no_grad():
                param.data = fn(param)
            if param.grad is not None:
                with no_grad():
                    param.grad.data = fn(param.grad)
        for key, buffer in self._buffers.items():
            if buffer is not None:
                self._buffers[key] = fn(buffer)
        return self

    def to(self: ModuleT, *args: Any, **kwargs: Any) -> ModuleT:
        """Convert floating-point parameters and buffers to a dtype (``"cpu"`` is accepted too).

        ``memory_format=`` lays out the 4-d and 5-d ones in that format (PyTorch's rule: a
        ``channels_last`` module with a 5-d parameter gets the rank's error).

        Example:
            >>> import minigrad
            >>> from minigrad import nn
            >>> nn.Linear(2, 2).to(minigrad.float64).weight.dtype
            minigrad.float64
            >>> conv = nn.Conv2d(2, 3, 2).to(memory_format=minigrad.channels_last)
            >>> conv.weight.stride()
            (8, 1, 4, 2)
        """
        dtype = kwargs.pop("dtype", None)
        device = kwargs.pop("device", None)
        memory_format = kwargs.pop("memory_format", None)
        if kwargs:
            raise TypeError(f"to() got an unexpected keyword argument '{next(iter(kwargs))}'")
        for arg in args:
            if isinstance(arg, _dtype.dtype):
                dtype = arg
            else:
                device = arg
        check_device(device)
        if dtype is None and memory_format is None:
            return self
        if dtype is not None and not dtype.is_floating_point:
            raise TypeError(
                "nn.Module.to only accepts floating point or complex dtypes, but got desired "
                f"dtype={dtype}"
            )

        def convert(t: Tensor) -> Tensor:
            cast = dtype if t.is_floating_point() else None
            if memory_format is not None and t.dim() in (4, 5):
                return t.to(dtype=cast, memory_format=memory_format)
            return t if cast is None else t.to(cast)

        return self._apply(convert)

    def float(self: ModuleT) -> ModuleT:
        """Convert floating-point parameters and buffers to float32."""
        return self._apply(lambda t: t.float() if t.is_floating_point() else t)

    def double(self: ModuleT) -> ModuleT:
        """Convert floating-point parameters and buffers to float64."""
        return self._apply(lambda t: t.double() if t.is_floating_point() else t)

    def half(self: ModuleT) -> ModuleT:
        """Convert floating-point parameters and buffers to float16."""
        return self._apply(lambda t: t.half() if t.is_floating_point() else t)

    def type(self: ModuleT, dst_type: Any) -> ModuleT:
        """Convert every parameter and buffer to ``dst_type``, integer ones too (PyTorch's rule).

        Example:
            >>> import minigrad
            >>> from minigrad import nn
            >>> norm = nn.BatchNorm1d(2).type(minigrad.float64)
            >>> norm.weight.dtype, norm.num_batches_tracked.dtype
            (minigrad.float64, minigrad.float64)
        """
        return self._apply(lambda t: t.type(dst_type))

    def share_memory(self: ModuleT) -> ModuleT:
        """Mark every parameter's, gradient's and buffer's memory shared (``share_memory_``)."""
        return self._apply(lambda t: t.share_memory_())

    def to_empty(self: ModuleT, *, device: Any, recurse: bool = True) -> ModuleT:
        """Give every parameter and buffer new, uninitialized memory of its shape and dtype.

        ``device`` must be the CPU's; ``recurse=False``: this module's own only.
        """
        from minigrad.creation import empty_like  # (creation imports nothing of nn)

        return self._apply(lambda t: empty_like(t, device=device), recurse=recurse)

    def cpu(self: ModuleT) -> ModuleT:
        """Everything already lives on the CPU: returns the module."""
        return self

    # --- state dict ---------------------------------------------------------------------------

    def get_extra_state(self) -> Any:
        """The extra (non-tensor) state a subclass keeps in its ``state_dict``.

        Override it together with ``set_extra_state``: ``state_dict`` then stores its result
        under ``<prefix>_extra_state`` and ``load_state_dict`` hands that value back. The base
        class's version is never meant to run and raises PyTorch's error.

        Example:
            >>> from minigrad import nn
            >>> class Counter(nn.Module):
            ...     def __init__(self):
            ...         super().__init__()
            ...         self.calls = 0
            ...     def get_extra_state(self):
            ...         return {"calls": self.calls}
            ...     def set_extra_state(self, state):
            ...         self.calls = state["calls"]
            >>> source, target = Counter(), Counter()
            >>> source.calls = 3
            >>> target.load_state_dict(source.state_dict())
            <All keys matched successfully>
            >>> target.calls, list(source.state_dict())
            (3, ['_extra_state'])
        """
        raise RuntimeError(_never_called("get_extra_state"))

    def set_extra_state(self, state: Any) -> None:
        """Restore what ``get_extra_state`` returned (called by ``load_state_dict``)."""
        raise RuntimeError(_never_called("set_extra_state"))

    def _save_to_state_dict(
        self, destination: dict[str, Any], prefix: str, keep_vars: bool
    ) -> None:
        """Put this module's parameters, persistent buffers and extra state in (not children's)."""
        for name, param in self._parameters.items():
            if param is not None:
                destination[prefix + name] = param if keep_vars else param.detach()
        for name, buffer in self._buffers.items():
            if buffer is not None and name not in self._non_persistent_buffers_set:
                destination[prefix + name] = buffer if keep_vars else buffer.detach()
        if _overrides(self, "get_extra_state"):
            destination[prefix + _EXTRA_STATE_KEY_SUFFIX] = self.get_extra_state()

    def state_dict(
        self, *args: Any, destination: Any = None, prefix: str = "", keep_vars: bool = False
    ) -> Any:
        """An ordered dict of every parameter and persistent buffer under its dotted name.

        The values are ``detach()``-ed aliases (same memory, same version counter) unless
        ``keep_vars=True``. Like PyTorch's, the dict carries ``_metadata`` (each module's
        ``_version``), which ``load_state_dict`` reads. Each module runs its state-dict
        pre-hooks before adding its entries and its post-hooks after its children's.

        Example:
            >>> from minigrad import nn
            >>> list(nn.Sequential(nn.Linear(2, 2), nn.BatchNorm1d(2)).state_dict())[2:]
            ['1.weight', '1.bias', '1.running_mean', '1.running_var', '1.num_batches_tracked']

        ``destination``, ``prefix`` and ``keep_vars`` may still come positionally, in that
        order, with PyTorch's FutureWarning.
        """
        if args:
            warnings.warn(errors.STATE_DICT_POSITIONAL, FutureWarning, stacklevel=2)
            if destination is None:
                destination = args[0]
            if len(args) > 1 and prefix == "":
                prefix = args[1]
            if len(args) > 2 and keep_vars is False:
                keep_vars = args[2]
        if destination is None:
            destination = OrderedDict()
            destination._metadata = OrderedDict()
        local_metadata = {"version": self._version}
        if hasattr(destination, "_metadata"):
            destination._metadata[prefix[:-1]] = local_metadata
        for hook in self._state_dict_pre_hooks.values():
            hook(self, prefix, keep_vars)
        self._save_to_state_dict(destination, prefix, keep_vars)
        for name, module in self._modules.items():
            if module is not None:
                module.state_dict(
                    destination=destination, prefix=prefix + name + ".", keep_vars=keep_vars
                )
        for hook in self._state_dict_hooks.values():
            result = hook(self, destination, prefix, local_metadata)
            if getattr(hook, "_from_public_api", False):
                if result is not None:
                    raise RuntimeError("state_dict post-hook must return None")
            elif result is not None:  # the private API's hooks may return a new dict
                destination = result
        return destination

    def _register_state_dict_hook(self, hook: Callable[..., Any]) -> RemovableHandle:
        """Call ``hook(module, state_dict, prefix, local_metadata)`` after ``state_dict``.

        The hook may edit the dict (or return a new one); the legacy ``spectral_norm`` records
        its version in the metadata this way.
        """
        if getattr(hook, "_from_public_api", False):
            raise RuntimeError(
                "Cannot register the same function as the state dict post hook that was "
                "previously registered via register_state_dict_post_hook"
            )
        return add_hook(self._state_dict_hooks, hook)

    def register_state_dict_post_hook(self, hook: Callable[..., Any]) -> RemovableHandle:
        """Call ``hook(module, state_dict, prefix, local_metadata)`` after ``state_dict``.

        The hook edits ``state_dict`` in place and must return None (PyTorch marks the function
        ``_from_public_api`` to tell it from the private hooks, which may return a new dict).

        Example:
            >>> from minigrad import nn
            >>> layer = nn.Linear(2, 2)
            >>> handle = layer.register_state_dict_post_hook(
            ...     lambda module, sd, prefix, meta: sd.pop(prefix + "bias"))
            >>> list(layer.state_dict())
            Traceback (most recent call last):
              ...
            RuntimeError: state_dict post-hook must return None
            >>> handle.remove()
            >>> list(layer.state_dict())
            ['weight', 'bias']
        """
        hook._from_public_api = True  # type: ignore[attr-defined]
        return add_hook(self._state_dict_hooks, hook)

    def register_state_dict_pre_hook(self, hook: Callable[..., Any]) -> RemovableHandle:
        """Call ``hook(module, prefix, keep_vars)`` before ``state_dict`` reads this module.

        Example:
            >>> from minigrad import nn
            >>> model = nn.Sequential(nn.Linear(2, 2))
            >>> handle = model[0].register_state_dict_pre_hook(
            ...     lambda module, prefix, keep_vars: print("saving", repr(prefix)))
            >>> keys = model.state_dict()
            saving '0.'
        """
        return add_hook(self._state_dict_pre_hooks, hook)

    def _register_load_state_dict_pre_hook(
        self, hook: Callable[..., Any], with_module: bool = False
    ) -> RemovableHandle:
        """Call a hook on the state_dict before this module's entries are checked.

        The hook is ``hook(state_dict, prefix, local_metadata, strict, missing_keys,
        unexpected_keys, error_msgs)``; it may rename or convert entries of ``state_dict``
        (how ``weight_norm`` reads the old ``weight_g`` / ``weight_v`` keys);
        ``with_module=True`` passes the module first.
        """
        if with_module:
            hook = functools.partial(hook, self)
        return add_hook(self._load_state_dict_pre_hooks, hook)

    def register_load_state_dict_pre_hook(self, hook: Callable[..., Any]) -> RemovableHandle:
        """Call a hook before ``load_state_dict`` reads this module's entries.

        The hook is ``hook(module, state_dict, prefix, local_metadata, strict, missing_keys,
        unexpected_keys, error_msgs)`` and may edit ``state_dict`` (a copy of the caller's).

        Example:
            >>> import minigrad
            >>> from minigrad import nn
            >>> def rename(module, sd, prefix, *rest):
            ...     sd[prefix + "weight"] = sd.pop(prefix + "w")
            >>> layer = nn.Linear(1, 1, bias=False)
            >>> handle = layer.register_load_state_dict_pre_hook(rename)
            >>> layer.load_state_dict({"w": minigrad.tensor([[2.0]])})
            <All keys matched successfully>
            >>> layer.weight
            Parameter containing:
            tensor([[2.]], requires_grad=True)
        """
        return self._register_load_state_dict_pre_hook(hook, with_module=True)

    def register_load_state_dict_post_hook(self, hook: Callable[..., Any]) -> RemovableHandle:
        """Call ``hook(module, incompatible_keys)`` after ``load_state_dict`` loaded this module.

        ``incompatible_keys`` has the lists ``missing_keys`` and ``unexpected_keys`` found so
        far; the hook may edit them in place, and the strict check reads them afterwards
        (clearing both lets a strict load pass). It must return None.

        Example:
            >>> import minigrad
            >>> from minigrad import nn
            >>> layer = nn.Linear(1, 1)
            >>> handle = layer.register_load_state_dict_post_hook(
            ...     lambda module, keys: keys.missing_keys.clear())
            >>> layer.load_state_dict({"weight": minigrad.tensor([[2.0]])})
            <All keys matched successfully>
        """
        return add_hook(self._load_state_dict_post_hooks, hook)

    def load_state_dict(
        self, state_dict: Mapping[str, Any], strict: bool = True, assign: bool = False
    ) -> _IncompatibleKeys:
        """Copy the values of ``state_dict`` into this module's parameters and buffers.

        With ``strict=True`` (default) missing and unexpected keys are errors; a shape
        mismatch always is. Every key and shape is checked *before* anything is written, so a
        failed load leaves the module exactly as it was (PyTorch copies the entries that fit
        before it raises; minigrad refuses to half-load). The exception is a tree with load
        post-hooks: they see the loaded values (as in PyTorch) and may edit the key lists the
        strict check reads, so there each module is written as the walk reaches it. The copies
        are in place under ``no_grad``: each bumps its tensor's version, as in PyTorch.
        ``assign=True`` makes the module use the given tensors themselves instead of copying.

        Returns:
            ``(missing_keys, unexpected_keys)``; its repr is ``<All keys matched
            successfully>`` when both are empty.

        Raises:
            RuntimeError: ``Error(s) in loading state_dict for <Class>:`` followed by one line
                per problem, in PyTorch's words.
        """
        if not isinstance(state_dict, Mapping):
            raise TypeError(f"Expected state_dict to be dict-like, got {type(state_dict)}.")
        missing_keys: list[str] = []
        unexpected_keys: list[str] = []
        error_msgs: list[str] = []
        writes: list[tuple[Module, str, Tensor | None, Any]] = []
        metadata = getattr(state_dict, "_metadata", None)
        state_dict = OrderedDict(state_dict)  # a copy the pre-hooks may edit
        if metadata is not None:
            state_dict._metadata = metadata  # type: ignore[attr-defined]
        # Load post-hooks see the values loaded (as in PyTorch) and may edit the key lists the
        # strict check reads: with any of them in the tree, each module is written as the walk
        # reaches it, PyTorch's order; without, nothing is written until all is checked.
        write_as_walked = any(module._load_state_dict_post_hooks for module in self.modules())

        def walk(module: Module, local_state_dict: dict[str, Any], prefix: str = "") -> None:
            local_metadata = {} if metadata is None else metadata.get(prefix[:-1], {})
            if assign:  # (PyTorch writes it into the metadata, where the hooks see it)
                local_metadata["assign_to_params_buffers"] = assign
            for hook in module._load_state_dict_pre_hooks.values():
                # PyTorch's walk always hands the hooks strict=True.
                hook(
                    local_state_dict,
                    prefix,
                    local_metadata,
                    True,
                    missing_keys,
                    unexpected_keys,
                    error_msgs,
                )
            planned = len(writes)
            module._plan_load_from_state_dict(
                local_state_dict,
                prefix,
                local_metadata,
                missing_keys,
                unexpected_keys,
                error_msgs,
                writes,
            )
            if write_as_walked:
                _write_planned(writes[planned:], assign)
            for name, child in module._modules.items():
                if child is not None:
                    child_prefix = prefix + name + "."
                    walk(
                        child,
                        {k: v for k, v in local_state_dict.items() if k.startswith(child_prefix)},
                        child_prefix,
                    )
            incompatible = _IncompatibleKeys(missing_keys, unexpected_keys)
            for hook in module._load_state_dict_post_hooks.values():
                if hook(module, incompatible) is not None:
                    raise AssertionError(
                        "Hooks registered with ``register_load_state_dict_post_hook`` are not "
                        "expected to return new values, if incompatible_keys need to be "
                        "modified, it should be done inplace."
                    )

        walk(self, state_dict)
        if strict:
            if unexpected_keys:
                error_msgs.insert(
                    0,
                    "Unexpected key(s) in state_dict: {}. ".format(
                        ", ".join(f'"{k}"' for k in unexpected_keys)
                    ),
                )
            if missing_keys:
                error_msgs.insert(
                    0,
                    "Missing key(s) in state_dict: {}. ".format(
                        ", ".join(f'"{k}"' for k in missing_keys)
                    ),
                )
        if error_msgs:
            raise RuntimeError(
                "Error(s) in loading state_dict for {}:\n\t{}".format(
                    type(self).__name__, "\n\t".join(error_msgs)
                )
            )
        if not write_as_walked:
            _write_planned(writes, assign)
        return _IncompatibleKeys(missing_keys, unexpected_keys)

    def _plan_load_from_state_dict(
        self,
        state_dict: dict[str, Any],
        prefix: str,
        local_metadata: dict[str, Any],
        missing_keys: list[str],
        unexpected_keys: list[str],
        error_msgs: list[str],
        writes: list[tuple[Module, str, Tensor | None, Any]],
    ) -> None:
        """Check this module's entries of ``state_dict`` and list the writes to make.

        PyTorch's ``_load_from_state_dict`` without the writing: problems go to the three lists
        in PyTorch's words, planned copies to ``writes`` (a ``None`` target stands for
        ``set_extra_state``). A subclass that must adapt old state
        dicts (BatchNorm) edits ``state_dict`` and calls this.
        """
        persistent_buffers = {
            k: v for k, v in self._buffers.items() if k not in self._non_persistent_buffers_set
        }
        local_state = {
            k: v
            for k, v in itertools.chain(self._parameters.items(), persistent_buffers.items())
            if v is not None
        }
        for name, param in local_state.items():
            key = prefix + name
            if key not in state_dict:
                missing_keys.append(key)
                continue
            value = state_dict[key]
            if not isinstance(value, TensorBase):
                error_msgs.append(
                    f'While copying the parameter named "{key}", expected minigrad.Tensor or '
                    f"Tensor-like object from checkpoint but received {type(value)}"
                )
                continue
            if param.dim() == 0 and value.dim() == 1 and value.shape[0] == 1:
                value = value[0]
            if value.shape != param.shape:
                error_msgs.append(
                    f"size mismatch for {key}: copying a param with shape {value.shape} from "
                    f"checkpoint, the shape in current model is {param.shape}."
                )
                continue
            writes.append((self, name, param, value))
        extra_key = prefix + _EXTRA_STATE_KEY_SUFFIX
        if _overrides(self, "set_extra_state"):
            if extra_key in state_dict:
                writes.append((self, _EXTRA_STATE_KEY_SUFFIX, None, state_dict[extra_key]))
            else:
                missing_keys.append(extra_key)
        elif extra_key in state_dict:
            unexpected_keys.append(extra_key)
        for key in state_dict:
            if key.startswith(prefix) and key != extra_key:
                input_name = key[len(prefix) :].split(".", 1)
                if len(input_name) > 1:
                    if input_name[0] not in self._modules:
                        unexpected_keys.append(key)
                elif input_name[0] not in local_state:
                    unexpected_keys.append(key)

    # --- printing -----------------------------------------------------------------------------

    def extra_repr(self) -> str:
        """The module's own settings for its ``repr`` (e.g. ``in_features=2, ...``)."""
        return ""

    def _get_name(self) -> str:
        return type(self).__name__

    def __repr__(self) -> str:
        extra = self.extra_repr()
        extra_lines = extra.split("\n") if extra else []
        child_lines = [
            "(" + key + "): " + _addindent(repr(module), 2) for key, module in self._modules.items()
        ]
        lines = extra_lines + child_lines
        text = self._get_name() + "("
        if lines:
            if len(extra_lines) == 1 and not child_lines:
                text += extra_lines[0]
            else:
                text += "\n  " + "\n  ".join(lines) + "\n"
        return text + ")"
