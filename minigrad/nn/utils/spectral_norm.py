"""The legacy ``nn.utils.spectral_norm``: a forward pre-hook divides ``weight`` by sigma.

PyTorch keeps it (without a deprecation warning) next to
``nn.utils.parametrizations.spectral_norm``. The module holds ``weight_orig`` (a parameter)
and the buffers ``weight_u``, ``weight_v``; the state_dict's metadata records the hook's
version, and loading a version-0 state_dict (which had ``weight`` instead of ``weight_v``)
recovers v, as PyTorch does.
"""

from __future__ import annotations

from typing import Any, TypeVar

from minigrad.autograd.grad_mode import no_grad
from minigrad.linalg import multi_dot
from minigrad.nn import functional as F
from minigrad.nn.modules.module import Module
from minigrad.nn.parameter import Parameter
from minigrad.nn.utils.parametrizations import _default_spectral_dim
from minigrad.nn.utils.weight_norm import _refuse_uninitialized
from minigrad.tensor import Tensor

__all__ = [
    "SpectralNorm",
    "SpectralNormLoadStateDictPreHook",
    "SpectralNormStateDictHook",
    "remove_spectral_norm",
    "spectral_norm",
]

ModuleT = TypeVar("ModuleT", bound=Module)


class SpectralNorm:
    """The forward pre-hook: ``module.<name> = <name>_orig / sigma`` before every forward.

    In training mode it first runs ``n_power_iterations`` steps on the buffers ``<name>_u``
    and ``<name>_v`` (in place, under ``no_grad``).

    Example:
        >>> from minigrad.nn.utils.spectral_norm import SpectralNorm
        >>> SpectralNorm("weight").n_power_iterations
        1
    """

    _version: int = 1
    name: str
    dim: int
    n_power_iterations: int
    eps: float

    def __init__(
        self, name: str = "weight", n_power_iterations: int = 1, dim: int = 0, eps: float = 1e-12
    ) -> None:
        self.name = name
        self.dim = dim
        if n_power_iterations <= 0:
            raise ValueError(
                "Expected n_power_iterations to be positive, but "
                f"got n_power_iterations={n_power_iterations}"
            )
        self.n_power_iterations = n_power_iterations
        self.eps = eps

    def reshape_weight_to_matrix(self, weight: Tensor) -> Tensor:
        """``dim`` first, the other dims flattened."""
        if self.dim != 0:
            weight = weight.permute(self.dim, *[d for d in range(weight.dim()) if d != self.dim])
        return weight.reshape(weight.shape[0], -1)

    def compute_weight(self, module: Module, do_power_iteration: bool) -> Tensor:
        """``weight_orig / (u . W v)``, after the power-iteration steps if asked."""
        weight = getattr(module, self.name + "_orig")
        u = getattr(module, self.name + "_u")
        v = getattr(module, self.name + "_v")
        weight_mat = self.reshape_weight_to_matrix(weight)
        if do_power_iteration:
            with no_grad():
                for _ in range(self.n_power_iterations):
                    v = F.normalize(weight_mat.t().mv(u), dim=0, eps=self.eps, out=v)
                    u = F.normalize(weight_mat.mv(v), dim=0, eps=self.eps, out=u)
                # clones: the buffers change in place at the next step, backward needs these
                u, v = u.clone(), v.clone()
        sigma = u.dot(weight_mat.mv(v))
        return weight / sigma

    def remove(self, module: Module) -> None:
        """Make ``name`` a parameter again, with the current normalised value."""
        with no_grad():
            weight = self.compute_weight(module, do_power_iteration=False)
        delattr(module, self.name)
        delattr(module, self.name + "_u")
        delattr(module, self.name + "_v")
        delattr(module, self.name + "_orig")
        module.register_parameter(self.name, Parameter(weight.detach()))

    def __call__(self, module: Module, inputs: Any) -> None:
        """Run as a forward pre-hook: set the weight before ``forward``."""
        setattr(module, self.name, self.compute_weight(module, module.training))

    def _solve_v_and_rescale(self, weight_mat: Tensor, u: Tensor, target_sigma: Any) -> Tensor:
        """The v with ``u = normalize(W v)`` scaled so that ``u . W v = target_sigma``."""
        v = multi_dot(
            [weight_mat.t().mm(weight_mat).pinverse(), weight_mat.t(), u.unsqueeze(1)]
        ).squeeze(1)
        return v.mul_(target_sigma / u.dot(weight_mat.mv(v)))

    @staticmethod
    def apply(
        module: Module, name: str, n_power_iterations: int, dim: int, eps: float
    ) -> SpectralNorm:
        """Move ``name`` to ``name_orig``, add the buffers and register the hooks."""
        for hook in module._forward_pre_hooks.values():
            if isinstance(hook, SpectralNorm) and hook.name == name:
                raise RuntimeError(
                    f"Cannot register two spectral_norm hooks on the same parameter {name}"
                )
        fn = SpectralNorm(name, n_power_iterations, dim, eps)
        weight = module._parameters[name]
        if weight is None:
            raise ValueError(f"`SpectralNorm` cannot be applied as parameter `{name}` is None")
        _refuse_uninitialized(weight, "SpectralNorm", "spectral normalization")
        with no_grad():
            weight_mat = fn.reshape_weight_to_matrix(weight)
            h, w = weight_mat.shape
            u = F.normalize(weight.new_empty(h).normal_(0, 1), dim=0, eps=fn.eps)
            v = F.normalize(weight.new_empty(w).normal_(0, 1), dim=0, eps=fn.eps)
        delattr(module, fn.name)
        module.register_parameter(fn.name + "_orig", weight)
        setattr(module, fn.name, weight.data)
        module.register_buffer(fn.name + "_u", u)
        module.register_buffer(fn.name + "_v", v)
        module.register_forward_pre_hook(fn)
        module._register_state_dict_hook(SpectralNormStateDictHook(fn))
        module._register_load_state_dict_pre_hook(SpectralNormLoadStateDictPreHook(fn))
        return fn


class SpectralNormLoadStateDictPreHook:
    """Load a state_dict of version 0: recover v from the stored weight and sigma.

    Version 0 stored ``weight`` and ``weight_u`` but no ``weight_v``.

    Example:
        >>> from minigrad.nn.utils.spectral_norm import SpectralNorm
        >>> from minigrad.nn.utils.spectral_norm import SpectralNormLoadStateDictPreHook
        >>> fn = SpectralNorm()
        >>> SpectralNormLoadStateDictPreHook(fn).fn is fn
        True
    """

    def __init__(self, fn: SpectralNorm) -> None:
        self.fn = fn

    def __call__(
        self,
        state_dict: dict[str, Any],
        prefix: str,
        local_metadata: dict[str, Any],
        strict: bool,
        missing_keys: list[str],
        unexpected_keys: list[str],
        error_msgs: list[str],
    ) -> None:
        """Run before this module's entries are checked; may add ``weight_v``."""
        fn = self.fn
        version = local_metadata.get("spectral_norm", {}).get(fn.name + ".version", None)
        if version is not None and version >= 1:
            return
        weight_key = prefix + fn.name
        if (
            version is None
            and all(weight_key + s in state_dict for s in ("_orig", "_u", "_v"))
            and weight_key not in state_dict
        ):
            return
        has_missing_keys = False
        for suffix in ("_orig", "", "_u"):
            key = weight_key + suffix
            if key not in state_dict:
                has_missing_keys = True
                if strict:
                    missing_keys.append(key)
        if has_missing_keys:
            return
        with no_grad():
            weight_orig = state_dict[weight_key + "_orig"]
            weight = state_dict.pop(weight_key)
            sigma = (weight_orig / weight).mean()
            weight_mat = fn.reshape_weight_to_matrix(weight_orig)
            u = state_dict[weight_key + "_u"]
            state_dict[weight_key + "_v"] = fn._solve_v_and_rescale(weight_mat, u, sigma)


class SpectralNormStateDictHook:
    """Record the hook's version in the state_dict's metadata (``spectral_norm``).

    Example:
        >>> from minigrad.nn.utils.spectral_norm import SpectralNorm, SpectralNormStateDictHook
        >>> metadata = {}
        >>> hook = SpectralNormStateDictHook(SpectralNorm())
        >>> hook(None, {}, "", metadata)
        >>> metadata
        {'spectral_norm': {'weight.version': 1}}
    """

    def __init__(self, fn: SpectralNorm) -> None:
        self.fn = fn

    def __call__(
        self, module: Any, state_dict: dict[str, Any], prefix: str, local_metadata: dict[str, Any]
    ) -> None:
        """Run after ``state_dict``: write the version into the module's metadata."""
        if "spectral_norm" not in local_metadata:
            local_metadata["spectral_norm"] = {}
        key = self.fn.name + ".version"
        if key in local_metadata["spectral_norm"]:
            raise RuntimeError(f"Unexpected key in metadata['spectral_norm']: {key}")
        local_metadata["spectral_norm"][key] = self.fn._version


def spectral_norm(
    module: ModuleT,
    name: str = "weight",
    n_power_iterations: int = 1,
    eps: float = 1e-12,
    dim: int | None = None,
) -> ModuleT:
    """Divide ``module.<name>`` by its spectral norm (power iteration) before every forward.

    The module gets the parameter ``<name>_orig`` and the buffers ``<name>_u``, ``<name>_v``;
    ``dim`` defaults to 0 (1 for transposed convolutions). See also
    ``nn.utils.parametrizations.spectral_norm``.

    Example:
        >>> from minigrad import nn
        >>> list(nn.utils.spectral_norm(nn.Linear(2, 3)).state_dict())
        ['bias', 'weight_orig', 'weight_u', 'weight_v']
    """
    if dim is None:
        dim = _default_spectral_dim(module)
    SpectralNorm.apply(module, name, n_power_iterations, dim, eps)
    return module


def remove_spectral_norm(module: ModuleT, name: str = "weight") -> ModuleT:
    """Undo ``spectral_norm``: ``<name>`` is a plain parameter with its normalised value.

    Example:
        >>> from minigrad import nn
        >>> layer = nn.utils.remove_spectral_norm(nn.utils.spectral_norm(nn.Linear(2, 3)))
        >>> list(layer.state_dict())
        ['bias', 'weight']
    """
    for key, hook in module._forward_pre_hooks.items():
        if isinstance(hook, SpectralNorm) and hook.name == name:
            hook.remove(module)
            del module._forward_pre_hooks[key]
            break
    else:
        raise ValueError(f"spectral_norm of '{name}' not found in {module}")
    for key, hook in module._state_dict_hooks.items():
        if isinstance(hook, SpectralNormStateDictHook) and hook.fn.name == name:
            del module._state_dict_hooks[key]
            break
    for key, hook in module._load_state_dict_pre_hooks.items():
        if isinstance(hook, SpectralNormLoadStateDictPreHook) and hook.fn.name == name:
            del module._load_state_dict_pre_hooks[key]
            break
    return module
