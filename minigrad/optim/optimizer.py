"""``Optimizer``: the base class of every optimizer, with PyTorch's behaviour.

An optimizer holds ``param_groups`` (a list of dicts: the parameters plus their settings, such
as ``lr``) and a per-parameter ``state`` (momentum buffers, step counts, ...). ``step()``
updates every parameter that has a gradient *in place, under no_grad*: each update is an
in-place op on the parameter, so it bumps the parameter's version exactly as PyTorch's does. A
step taken between a forward and its backward therefore makes the backward raise, because
the forward saved the parameter (e.g. ``F.linear`` saves ``weight.t()``) at the old version.
"""

from __future__ import annotations

import functools
import warnings
from collections import OrderedDict, defaultdict
from collections.abc import Callable, Iterator
from copy import deepcopy
from itertools import chain
from typing import Any, TypeVar

from minigrad import _dtype
from minigrad.autograd.grad_mode import enable_grad, no_grad
from minigrad.autograd.tensor_base import TensorBase
from minigrad.creation import tensor, zeros_like
from minigrad.nn.modules.hooks import RemovableHandle, add_hook
from minigrad.nn.modules.utils import reset_grad, typename
from minigrad.tensor import Tensor

__all__ = ["Optimizer", "required"]

StepT = TypeVar("StepT", bound=Callable[..., Any])


class _RequiredParameter:
    """Singleton marking a setting that every param group must give (e.g. SGD's old ``lr``)."""

    def __repr__(self) -> str:
        return "<required parameter>"


required = _RequiredParameter()

# Options of PyTorch's optimizers that select other implementations (CUDA kernels, graphs, a
# differentiable step). minigrad keeps them in param_groups, as PyTorch does, but has only the
# single-tensor implementation, so they must stay off.
_UNSUPPORTED_OPTIONS = ("fused", "capturable", "differentiable")


def optimizer_step(step: StepT) -> StepT:
    """Decorate an optimizer's ``step``: run it under no_grad, between the step hooks.

    (The step evaluates its closure, if any, with grad mode back on: ``evaluate_closure``.)
    """

    @functools.wraps(step)
    def wrapper(self: Optimizer, closure: Callable[[], Any] | None = None) -> Any:
        args: tuple[Any, ...] = (self,) if closure is None else (self, closure)
        kwargs: dict[str, Any] = {}
        for hook in list(self._optimizer_step_pre_hooks.values()):
            result = hook(self, args, kwargs)
            if result is not None:
                if not (isinstance(result, tuple) and len(result) == 2):
                    raise RuntimeError(
                        f"{step} must return None or a tuple of (new_args, new_kwargs), but got "
                        f"{result}."
                    )
                args, kwargs = result
        with no_grad():
            out = step(*args, **kwargs)
        for hook in list(self._optimizer_step_post_hooks.values()):
            hook(self, args, kwargs)
        return out

    return wrapper  # type: ignore[return-value]


class Optimizer:
    """Base class for optimizers: parameter groups, state, ``zero_grad`` and state dicts.

    Args:
        params: An iterable of tensors, of ``(name, tensor)`` pairs, or of dicts (param
            groups: ``{"params": [...], "lr": ...}``) whose settings override ``defaults``.
        defaults: The default settings of every param group.

    Example:
        >>> import minigrad
        >>> from minigrad import nn, optim
        >>> model = nn.Linear(2, 1)
        >>> opt = optim.SGD([{"params": [model.weight]}, {"params": [model.bias], "lr": 1.0}],
        ...                 lr=0.1)
        >>> [group["lr"] for group in opt.param_groups]
        [0.1, 1.0]
    """

    def __init__(self, params: Any, defaults: dict[str, Any]) -> None:
        for option in _UNSUPPORTED_OPTIONS:
            if defaults.get(option):
                raise NotImplementedError(
                    f"minigrad's {type(self).__name__} has no {option}=True implementation"
                )
        self.defaults = defaults
        self._optimizer_step_pre_hooks: OrderedDict[int, Callable[..., Any]] = OrderedDict()
        self._optimizer_step_post_hooks: OrderedDict[int, Callable[..., Any]] = OrderedDict()
        self._optimizer_state_dict_pre_hooks: OrderedDict[int, Callable[..., Any]] = OrderedDict()
        self._optimizer_state_dict_post_hooks: OrderedDict[int, Callable[..., Any]] = OrderedDict()
        self._optimizer_load_state_dict_pre_hooks: OrderedDict[int, Callable[..., Any]] = (
            OrderedDict())
        self._optimizer_load_state_dict_post_hooks: OrderedDict[int, Callable[..., Any]] = (
            OrderedDict())
        if isinstance(params, TensorBase):
            raise TypeError(
                "params argument given to the optimizer should be an iterable of Tensors or "
                "dicts, but got " + typename(params)
            )
        self.state: defaultdict[Any, Any] = defaultdict(dict)
        self.param_groups: list[dict[str, Any]] = []
        param_groups = list(params)
        if not param_groups:
            raise ValueError("optimizer got an empty parameter list")
        if not isinstance(param_groups[0], dict):
            param_groups = [{"params": param_groups}]
        for param_group in param_groups:
            self.add_param_group(param_group)

    def __repr__(self) -> str:
        text = type(self).__name__ + " ("
        for i, group in enumerate(self.param_groups):
            text += f"\nParameter Group {i}\n"
            for key in sorted(group):
                if key != "params":
                    text += f"    {key}: {group[key]}\n"
        return text + ")"

    def add_param_group(self, param_group: dict[str, Any]) -> None:
        """Add a group of parameters with its own settings (e.g. to unfreeze layers later)."""
        if not isinstance(param_group, dict):
            raise TypeError(f"param_group must be a dict, but got {type(param_group)}")
        params = param_group["params"]
        if isinstance(params, TensorBase):
            params = [params]
        elif isinstance(params, set):
            raise TypeError(
                "optimizer parameters need to be organized in ordered collections, but the "
                "ordering of tensors in sets will change between runs. Please use a list instead."
            )
        tensors, names = [], []
        for param in params:
            if isinstance(param, tuple):  # (name, tensor) pairs, e.g. from named_parameters()
                names.append(param[0])
                param = param[1]
            tensors.append(param)
        param_group["params"] = tensors
        if names:
            if len(names) != len(tensors):
                raise ValueError(
                    "all optimizer params should be with/without names. Some param names are "
                    "missing"
                )
            param_group["param_names"] = names
        for param in tensors:
            if not isinstance(param, TensorBase):
                raise TypeError(
                    "optimizer can only optimize Tensors, but one of the params is "
                    + typename(param)
                )
            if not (param.is_leaf or param.retains_grad):
                raise ValueError("can't optimize a non-leaf Tensor")
        for name, default in self.defaults.items():
            if default is required and name not in param_group:
                raise ValueError(
                    "parameter group didn't specify a value of required optimization parameter "
                    f"{name}"
                )
            param_group.setdefault(name, default)
        if len(tensors) != len(set(tensors)):
            warnings.warn(
                "optimizer contains a parameter group with duplicate parameters; in future, "
                "this will cause an error; see github.com/pytorch/pytorch/issues/40967 for more "
                "information",
                stacklevel=3,
            )
        param_set: set[Any] = set()
        for group in self.param_groups:
            param_set.update(group["params"])
            if ("param_names" in param_group) != ("param_names" in group):
                which = "with names" if "param_names" in param_group else "without names"
                raise ValueError(
                    "all optimizer param groups should be with/without names. cannot add param "
                    f"group {which} to the optimizer"
                )
        if not param_set.isdisjoint(tensors):
            raise ValueError("some parameters appear in more than one parameter group")
        self.param_groups.append(param_group)

    def zero_grad(self, set_to_none: bool = True) -> None:
        """Reset the gradients of all optimized tensors: to None (default), or zeros in place."""
        for group in self.param_groups:
            for param in group["params"]:
                reset_grad(param, set_to_none)

    def step(self, closure: Callable[[], Any] | None = None) -> Any:
        """Update the parameters once (each optimizer defines it)."""
        raise NotImplementedError

    # --- hooks --------------------------------------------------------------------------------

    def register_step_pre_hook(self, hook: Callable[..., Any]) -> RemovableHandle:
        """Call ``hook(optimizer, args, kwargs)`` before each ``step``."""
        return add_hook(self._optimizer_step_pre_hooks, hook)

    def register_step_post_hook(self, hook: Callable[..., Any]) -> RemovableHandle:
        """Call ``hook(optimizer, args, kwargs)`` after each ``step``."""
        return add_hook(self._optimizer_step_post_hooks, hook)

    def register_state_dict_pre_hook(self, hook: Callable[..., Any],
                                     prepend: bool = False) -> RemovableHandle:
        """Call ``hook(optimizer)`` before ``state_dict`` builds its dict (first: ``prepend``)."""
        return add_hook(self._optimizer_state_dict_pre_hooks, hook, prepend=prepend)

    def register_state_dict_post_hook(self, hook: Callable[..., Any],
                                      prepend: bool = False) -> RemovableHandle:
        """Call ``hook(optimizer, state_dict)`` on ``state_dict``'s result (first: ``prepend``).

        A dict the hook returns replaces the result.

        Example:
            >>> from minigrad import nn, optim
            >>> opt = optim.SGD(nn.Linear(2, 1).parameters(), lr=0.1)
            >>> handle = opt.register_state_dict_post_hook(lambda o, sd: {**sd, "epoch": 3})
            >>> sorted(opt.state_dict())
            ['epoch', 'param_groups', 'state']
            >>> handle.remove()
        """
        return add_hook(self._optimizer_state_dict_post_hooks, hook, prepend=prepend)

    def register_load_state_dict_pre_hook(self, hook: Callable[..., Any],
                                          prepend: bool = False) -> RemovableHandle:
        """Call ``hook(optimizer, state_dict)`` before ``load_state_dict`` (first: ``prepend``).

        The hook sees a shallow copy of the argument; a dict it returns is loaded instead.
        """
        return add_hook(self._optimizer_load_state_dict_pre_hooks, hook, prepend=prepend)

    def register_load_state_dict_post_hook(self, hook: Callable[..., Any],
                                           prepend: bool = False) -> RemovableHandle:
        """Call ``hook(optimizer)`` after ``load_state_dict`` loaded (first if ``prepend``)."""
        return add_hook(self._optimizer_load_state_dict_post_hooks, hook, prepend=prepend)

    # --- state dict ---------------------------------------------------------------------------

    def state_dict(self) -> dict[str, Any]:
        """``{"state": {index: {...}}, "param_groups": [{..., "params": [indices]}]}``.

        Parameters are replaced by their index in the order of the groups; the state tensors
        are the optimizer's own (not copies), as in PyTorch.

        Example:
            >>> import minigrad
            >>> from minigrad import nn, optim
            >>> opt = optim.SGD(nn.Linear(2, 1).parameters(), lr=0.1, momentum=0.9)
            >>> opt.state_dict()["param_groups"][0]["params"]
            [0, 1]
        """
        for pre_hook in self._optimizer_state_dict_pre_hooks.values():
            pre_hook(self)
        index_of: dict[int, int] = {}
        start = 0

        def pack_group(group: dict[str, Any]) -> dict[str, Any]:
            nonlocal start
            packed = {k: v for k, v in group.items() if k != "params"}
            for i, param in enumerate(group["params"], start):
                index_of.setdefault(id(param), i)
            packed["params"] = [index_of[id(p)] for p in group["params"]]
            start += len(packed["params"])
            return packed

        param_groups = [pack_group(group) for group in self.param_groups]
        packed_state = {
            (index_of[id(key)] if isinstance(key, TensorBase) else key): value
            for key, value in self.state.items()
        }
        state_dict = {"state": packed_state, "param_groups": param_groups}
        for post_hook in self._optimizer_state_dict_post_hooks.values():
            result = post_hook(self, state_dict)
            if result is not None:
                state_dict = result
        return state_dict

    def load_state_dict(self, state_dict: dict[str, Any]) -> None:
        """Load the state and settings of ``state_dict`` (from an optimizer of the same shape).

        State tensors are cast to their parameter's dtype (the step count excepted); the group
        structure is checked before anything changes.
        """
        state_dict = state_dict.copy()  # (shallow: the hooks may change its keys)
        for pre_hook in self._optimizer_load_state_dict_pre_hooks.values():
            result = pre_hook(self, state_dict)
            if result is not None:
                state_dict = result
        groups = self.param_groups
        saved_groups = deepcopy(state_dict["param_groups"])
        if len(groups) != len(saved_groups):
            raise ValueError("loaded state dict has a different number of parameter groups")
        if any(len(g["params"]) != len(s["params"]) for g, s in zip(groups, saved_groups)):
            raise ValueError(
                "loaded state dict contains a parameter group that doesn't match the size of "
                "optimizer's group"
            )
        id_map = dict(
            zip(
                chain.from_iterable(g["params"] for g in saved_groups),
                chain.from_iterable(g["params"] for g in groups),
            )
        )

        def cast(param: Tensor, value: Any, key: Any = None) -> Any:
            if isinstance(value, TensorBase):
                if key == "step" or not param.is_floating_point():
                    return value
                return value.to(param.dtype)
            if isinstance(value, dict):
                return {k: cast(param, v, k) for k, v in value.items()}
            if isinstance(value, (list, tuple)):
                return type(value)(cast(param, v) for v in value)
            return value

        state: defaultdict[Any, Any] = defaultdict(dict)
        for key, value in state_dict["state"].items():
            if key in id_map:
                state[id_map[key]] = cast(id_map[key], value)
            else:
                state[key] = value

        def update_group(group: dict[str, Any], new_group: dict[str, Any]) -> dict[str, Any]:
            new_group["params"] = group["params"]
            if "param_names" in group and "param_names" not in new_group:
                new_group["param_names"] = group["param_names"]
            return new_group

        self.state = state
        self.param_groups = [update_group(g, ng) for g, ng in zip(groups, saved_groups)]
        for post_hook in self._optimizer_load_state_dict_post_hooks.values():
            post_hook(self)



def step_count() -> Tensor:
    """A parameter's new ``step`` state, 0.0: float64 under a float64 default dtype, else float32.

    (PyTorch's ``_get_scalar_dtype``: a float16 default still counts steps in float32.)
    """
    dtype = _dtype.float64 if _dtype.get_default_dtype() is _dtype.float64 else _dtype.float32
    return tensor(0.0, dtype=dtype)


def gradients(group: dict[str, Any]) -> Iterator[tuple[Tensor, Tensor]]:
    """``(param, grad)`` for each parameter of ``group`` that has a gradient.

    Those are the ones a step updates; the gradient is negated if the group has
    ``maximize=True``.
    """
    for param in group["params"]:
        if param.grad is not None:
            yield param, (-param.grad if group["maximize"] else param.grad)


def evaluate_closure(closure: Callable[[], Any] | None) -> Any:
    """``closure()`` with grad mode on (it computes a loss and backwards it), or None."""
    if closure is None:
        return None
    with enable_grad():
        return closure()


# PyTorch's words for each setting in "Invalid ...: value".
_SETTING_NAMES = {
    "lr": "learning rate", "eps": "epsilon value", "momentum": "momentum value",
    "weight_decay": "weight_decay value", "alpha": "alpha value", "lr_decay": "lr_decay value",
    "initial_accumulator_value": "initial_accumulator_value value",
    "momentum_decay": "momentum_decay value",
}


def check_non_negative(**settings: float) -> None:
    """Raise PyTorch's ``ValueError`` for the first negative (or NaN) setting given.

    The message is PyTorch's, e.g. ``Invalid learning rate: -1.0``.
    """
    for name, value in settings.items():
        if not value >= 0.0:
            raise ValueError(f"Invalid {_SETTING_NAMES[name]}: {value}")


def check_adam_settings(
    lr: float, betas: tuple[float, float], eps: float, weight_decay: float
) -> None:
    """The checks every Adam-family constructor makes, in PyTorch's order and with its texts."""
    check_non_negative(lr=lr, eps=eps)
    for index, beta in enumerate(betas[:2]):
        if not 0.0 <= beta < 1.0:
            raise ValueError(f"Invalid beta parameter at index {index}: {beta}")
    check_non_negative(weight_decay=weight_decay)


def new_state(state: dict[str, Any], param: Tensor, *buffers: str) -> dict[str, Any]:
    """A parameter's ``state``, made on its first step: ``step`` 0 and zeros for ``buffers``."""
    if not state:
        state["step"] = step_count()
        for name in buffers:
            state[name] = zeros_like(param)
    return state
