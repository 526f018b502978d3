"""The legacy ``nn.utils.weight_norm``: a forward pre-hook recomputes ``weight`` from g and v.

Deprecated in PyTorch in favour of ``nn.utils.parametrizations.weight_norm`` (same maths,
state_dict keys ``parametrizations.weight.original0/1`` instead of ``weight_g`` / ``weight_v``);
it warns with PyTorch's FutureWarning.
"""

from __future__ import annotations

import warnings
from typing import Any, TypeVar

from minigrad.nn.modules.module import Module
from minigrad.nn.parameter import Parameter
from minigrad.ops.weight_norm import norm_except_dim
from minigrad.ops.weight_norm import weight_norm as _weight_norm

__all__ = ["WeightNorm", "remove_weight_norm", "weight_norm"]

ModuleT = TypeVar("ModuleT", bound=Module)


class WeightNorm:
    """The forward pre-hook: ``module.<name> = g * v / ||v||`` before every forward.

    Example:
        >>> from minigrad.nn.utils.weight_norm import WeightNorm
        >>> WeightNorm("weight", None).dim
        -1
    """

    name: str
    dim: int

    def __init__(self, name: str, dim: int | None) -> None:
        self.name = name
        self.dim = -1 if dim is None else dim

    def compute_weight(self, module: Module) -> Any:
        """The weight from the module's ``<name>_g`` and ``<name>_v``."""
        g = getattr(module, self.name + "_g")
        v = getattr(module, self.name + "_v")
        return _weight_norm(v, g, self.dim)

    @staticmethod
    def apply(module: Module, name: str, dim: int | None) -> WeightNorm:
        """Replace parameter ``name`` by ``name_g`` and ``name_v`` and register the hook."""
        warnings.warn(
            "`minigrad.nn.utils.weight_norm` is deprecated in favor of "
            "`minigrad.nn.utils.parametrizations.weight_norm`.",
            FutureWarning,
            stacklevel=3,
        )
        for hook in module._forward_pre_hooks.values():
            if isinstance(hook, WeightNorm) and hook.name == name:
                raise RuntimeError(
                    f"Cannot register two weight_norm hooks on the same parameter {name}"
                )
        fn = WeightNorm(name, dim)
        weight = getattr(module, name)
        _refuse_uninitialized(weight, "WeightNorm", "weight normalization")
        del module._parameters[name]
        module.register_parameter(name + "_g", Parameter(norm_except_dim(weight, 2, fn.dim).data))
        module.register_parameter(name + "_v", Parameter(weight.data))
        setattr(module, name, fn.compute_weight(module))
        module.register_forward_pre_hook(fn)
        return fn

    def remove(self, module: Module) -> None:
        """Make ``name`` a parameter again, with the current weight's value."""
        weight = self.compute_weight(module)
        delattr(module, self.name)
        del module._parameters[self.name + "_g"]
        del module._parameters[self.name + "_v"]
        setattr(module, self.name, Parameter(weight.data))

    def __call__(self, module: Module, inputs: Any) -> None:
        """Run as a forward pre-hook: set the weight before ``forward``."""
        setattr(module, self.name, self.compute_weight(module))


def _refuse_uninitialized(weight: Any, what: str, doing: str) -> None:
    """A lazy module's parameter has no value yet: PyTorch's error."""
    from minigrad.nn.parameter import UninitializedParameter

    if isinstance(weight, UninitializedParameter):
        raise ValueError(
            f"The module passed to `{what}` can't have uninitialized parameters. "
            f"Make sure to run the dummy forward before applying {doing}"
        )


def weight_norm(module: ModuleT, name: str = "weight", dim: int | None = 0) -> ModuleT:
    """Deprecated: reparametrize ``module.<name>`` as ``g * v / ||v||`` with a pre-hook.

    Use ``nn.utils.parametrizations.weight_norm``. This one keeps the parameters
    ``<name>_g`` and ``<name>_v`` and recomputes ``<name>`` before every forward.

    Example:
        >>> import warnings
        >>> from minigrad import nn
        >>> with warnings.catch_warnings():
        ...     warnings.simplefilter("ignore")
        ...     layer = nn.utils.weight_norm(nn.Linear(2, 3))
        >>> list(layer.state_dict())
        ['bias', 'weight_g', 'weight_v']
    """
    WeightNorm.apply(module, name, dim)
    return module


def remove_weight_norm(module: ModuleT, name: str = "weight") -> ModuleT:
    """Undo the legacy ``weight_norm``: ``<name>`` is a plain parameter again.

    Example:
        >>> import warnings
        >>> from minigrad import nn
        >>> with warnings.catch_warnings():
        ...     warnings.simplefilter("ignore")
        ...     layer = nn.utils.weight_norm(nn.Linear(2, 3))
        >>> list(nn.utils.remove_weight_norm(layer).state_dict())
        ['bias', 'weight']
    """
    for key, hook in module._forward_pre_hooks.items():
        if isinstance(hook, WeightNorm) and hook.name == name:
            hook.remove(module)
            del module._forward_pre_hooks[key]
            return module
    raise ValueError(f"weight_norm of '{name}' not found in {module}")
