"""``nn.utils.parametrize``: a tensor of a module computed from other tensors on every access.

``register_parametrization(module, "weight", P)`` moves ``module.weight`` to
``module.parametrizations.weight.original`` and makes ``weight`` a property of the module's
class that returns ``P(original)``. Each parametrized module gets a class of its own, made on
the fly (``ParametrizedLinear``, a subclass of ``Linear``), so the property touches no other
instance; removing the last parametrization gives the module its class back. The state_dict
keys become PyTorch's: ``parametrizations.weight.original`` (or ``original0``, ``original1``
... when ``right_inverse`` returns several tensors).
"""

from __future__ import annotations

import contextlib
import copy
import copyreg
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from minigrad.autograd.grad_mode import no_grad
from minigrad.autograd.tensor_base import TensorBase
from minigrad.nn.modules.container import ModuleDict, ModuleList
from minigrad.nn.modules.module import Module
from minigrad.nn.parameter import Parameter

__all__ = [
    "ParametrizationList",
    "cached",
    "is_parametrized",
    "register_parametrization",
    "remove_parametrizations",
    "transfer_parametrizations_and_params",
    "type_before_parametrizations",
]

# Inside ``cached()``: each parametrized tensor is computed once, keyed by (module id, name).
_cache_enabled = 0
_cache: dict[tuple[int, str], Any] = {}


@contextmanager
def cached() -> Iterator[None]:
    """Compute each parametrized tensor once inside the block and reuse it.

    Useful when a parametrized weight is read many times in one forward (a recurrent layer):
    the parametrization runs once per block instead of once per read.

    Example:
        >>> import minigrad
        >>> from minigrad import nn
        >>> from minigrad.nn.utils import parametrize
        >>> class Double(nn.Module):
        ...     def forward(self, x):
        ...         return 2 * x
        >>> layer = parametrize.register_parametrization(nn.Linear(2, 2), "bias", Double())
        >>> with parametrize.cached():
        ...     layer.bias is layer.bias
        True
    """
    global _cache, _cache_enabled
    _cache_enabled += 1
    try:
        yield
    finally:
        _cache_enabled -= 1
        if not _cache_enabled:
            _cache = {}


def _register_parameter_or_buffer(module: Module, name: str, value: Any) -> None:
    if isinstance(value, Parameter):
        module.register_parameter(name, value)
    else:
        module.register_buffer(name, value)


def _set(dest: Any, src: Any) -> None:
    """PyTorch's ``_maybe_set``: ``dest.set_(src)`` (src's memory and shape, one version bump)."""
    dest.set_(src)


def _type_name(value: Any) -> str:
    return type(value).__name__


class ParametrizationList(ModuleList):
    """The parametrizations of one tensor, and the tensor(s) they start from.

    ``original`` (or ``original0``, ``original1`` ... when the first ``right_inverse`` returns a
    sequence) is registered here as a parameter or buffer, as the tensor was on the module.
    Calling the list runs ``self[0](original)``, then each next parametrization on the result.
    Assigning to the parametrized tensor runs the ``right_inverse`` methods backwards.

    Args:
        modules: The parametrizations (at least one).
        original: The tensor being parametrized; it takes the value ``right_inverse`` gives.
        unsafe: Skip the checks that the parametrization keeps the dtype and the shape.

    Example:
        >>> import minigrad
        >>> from minigrad import nn
        >>> class Double(nn.Module):
        ...     def forward(self, x):
        ...         return 2 * x
        >>> plist = nn.utils.parametrize.ParametrizationList([Double()], minigrad.ones(2))
        >>> plist()
        tensor([2., 2.])
    """

    original: Any
    unsafe: bool

    def __init__(self, modules: Sequence[Module], original: Any, unsafe: bool = False) -> None:
        if len(modules) == 0:
            raise ValueError("ParametrizationList requires one or more modules.")
        super().__init__(modules)
        self.unsafe = unsafe
        original_shape, original_dtype = original.shape, original.dtype
        with no_grad():
            new = original
            for module in reversed(list(self)):
                if hasattr(module, "right_inverse"):
                    with contextlib.suppress(NotImplementedError):
                        new = module.right_inverse(new)
        if not isinstance(new, (TensorBase, Sequence)):
            raise ValueError(
                "'right_inverse' must return a Tensor or a Sequence of tensors (list, tuple...). "
                f"Got {_type_name(new)}"
            )
        self.is_tensor = isinstance(new, TensorBase)
        self.ntensors = 1 if self.is_tensor else len(new)
        if self.is_tensor:
            if original.dtype != new.dtype:
                raise ValueError(
                    "When `right_inverse` outputs one tensor, it may not change the dtype.\n"
                    f"original.dtype: {original.dtype}\n"
                    f"right_inverse(original).dtype: {new.dtype}"
                )
            with no_grad():
                _set(original, new)
            _register_parameter_or_buffer(self, "original", original)
        else:
            for i, original_i in enumerate(new):
                if not isinstance(original_i, TensorBase):
                    raise ValueError(
                        "'right_inverse' must return a Tensor or a Sequence of tensors "
                        "(list, tuple...). "
                        f"Got element {i} of the sequence with type {_type_name(original_i)}."
                    )
                if isinstance(original, Parameter):
                    original_i = Parameter(original_i, original.requires_grad)
                original_i.requires_grad_(original.requires_grad)
                _register_parameter_or_buffer(self, f"original{i}", original_i)
        if not self.unsafe:
            value = self()
            if not isinstance(value, TensorBase):
                raise ValueError(
                    f"A parametrization must return a tensor. Got {_type_name(value)}."
                )
            if value.dtype != original_dtype:
                raise ValueError(
                    "Registering a parametrization may not change the dtype of the tensor, "
                    "unless `unsafe` flag is enabled.\n"
                    f"unparametrized dtype: {original_dtype}\n"
                    f"parametrized dtype: {value.dtype}"
                )
            if value.shape != original_shape:
                raise ValueError(
                    "Registering a parametrization may not change the shape of the tensor, "
                    "unless `unsafe` flag is enabled.\n"
                    f"unparametrized shape: {original_shape}\n"
                    f"parametrized shape: {value.shape}"
                )

    def right_inverse(self, value: Any) -> None:
        """Set the original tensor(s) so that the parametrization gives ``value``.

        Runs each parametrization's ``right_inverse``, last to first, under ``no_grad``.
        """
        with no_grad():
            for module in reversed(list(self)):
                if not hasattr(module, "right_inverse"):
                    raise RuntimeError(
                        f"parametrization {_type_name(module)} does not implement right_inverse."
                    )
                value = module.right_inverse(value)
            if self.is_tensor:
                if not isinstance(value, TensorBase):
                    raise ValueError(
                        f"`right_inverse` should return a tensor. Got {_type_name(value)}"
                    )
                if value.dtype != self.original.dtype:
                    raise ValueError(
                        f"The tensor returned by `right_inverse` has dtype {value.dtype} "
                        f"while `original` has dtype {self.original.dtype}"
                    )
                _set(self.original, value)
                return
            if not isinstance(value, Sequence):
                raise ValueError(
                    f"'right_inverse' must return a sequence of tensors. Got {_type_name(value)}."
                )
            if len(value) != self.ntensors:
                raise ValueError(
                    "'right_inverse' must return a sequence of tensors of length "
                    f"{self.ntensors}. Got a sequence of length {len(value)}."
                )
            for i, tensor in enumerate(value):
                original_i = getattr(self, f"original{i}")
                if not isinstance(tensor, TensorBase):
                    raise ValueError(
                        "'right_inverse' must return a sequence of tensors or reference-type "
                        f"opaques. Got element {i} of type {_type_name(tensor)}."
                    )
                if original_i.dtype != tensor.dtype:
                    raise ValueError(
                        f"Tensor {i} returned by `right_inverse` has dtype {tensor.dtype} "
                        f"while `original{i}` has dtype {original_i.dtype}"
                    )
                _set(original_i, tensor)

    def forward(self) -> Any:
        """The parametrized tensor: the parametrizations applied in order to the original."""
        if self.is_tensor:
            x = self[0](self.original)
        else:
            x = self[0](*(getattr(self, f"original{i}") for i in range(self.ntensors)))
        for module in list(self)[1:]:
            x = module(x)
        return x


def _deepcopy_module(self: Module, memo: dict[int, Any]) -> Module:
    """Deep copy that keeps the parametrized class (pickling it is refused, see below)."""
    replica = memo.get(id(self))
    if replica is not None:
        return replica
    replica = self.__new__(self.__class__)
    memo[id(self)] = replica
    replica.__dict__ = copy.deepcopy(self.__dict__, memo)
    for slot in copyreg._slotnames(self.__class__):  # type: ignore[attr-defined]
        if hasattr(self, slot):
            setattr(replica, slot, copy.deepcopy(getattr(self, slot), memo))
    return replica


def _refuse_pickling(self: Module) -> Any:
    raise RuntimeError(
        "Serialization of parametrized modules is only supported through state_dict(). See:\n"
        "https://pytorch.org/tutorials/beginner/saving_loading_models.html"
        "#saving-loading-a-general-checkpoint-for-inference-and-or-resuming-training"
    )


def _inject_new_class(module: Module) -> None:
    """Give ``module`` a class of its own (``Parametrized<Class>``) to hold the properties."""
    cls = module.__class__
    namespace: dict[str, Any] = {"__getstate__": _refuse_pickling}
    if not hasattr(cls, "__deepcopy__"):
        namespace["__deepcopy__"] = _deepcopy_module
    module.__class__ = type(f"Parametrized{cls.__name__}", (cls,), namespace)


def _inject_property(module: Module, tensor_name: str) -> None:
    """Make ``tensor_name`` a property of the module's own class.

    Reading it runs the parametrization list, writing runs its ``right_inverse``.
    """
    if hasattr(module, tensor_name):
        raise AssertionError(f"Module already has an attribute named '{tensor_name}'")
    key = (id(module), tensor_name)

    def get_parametrized(self: Module) -> Any:
        parametrization = self.parametrizations[tensor_name]
        if not _cache_enabled:
            return parametrization()
        tensor = _cache.get(key)
        if tensor is None:
            tensor = _cache[key] = parametrization()
        return tensor

    def set_original(self: Module, value: Any) -> None:
        self.parametrizations[tensor_name].right_inverse(value)

    setattr(module.__class__, tensor_name, property(get_parametrized, set_original))


def register_parametrization(
    module: Module, tensor_name: str, parametrization: Module, *, unsafe: bool = False
) -> Module:
    """Make ``module.<tensor_name>`` be ``parametrization(original)`` on every access.

    The first registration on a tensor moves the parameter (or buffer) to
    ``module.parametrizations[tensor_name].original``; if ``parametrization`` has a
    ``right_inverse``, ``original`` is set to ``right_inverse(tensor)`` so that the module's
    value does not change. A second registration on the same name chains after the first.
    Unless ``unsafe=True``, the parametrized tensor must keep its dtype and shape.

    Example:
        >>> import minigrad
        >>> from minigrad import nn
        >>> from minigrad.nn.utils import parametrize
        >>> class Symmetric(nn.Module):
        ...     def forward(self, x):
        ...         return x.triu() + x.triu(1).transpose(-1, -2)
        >>> layer = parametrize.register_parametrization(nn.Linear(3, 3), "weight", Symmetric())
        >>> type(layer).__name__, list(layer.state_dict())
        ('ParametrizedLinear', ['bias', 'parametrizations.weight.original'])
        >>> bool((layer.weight == layer.weight.T).all())
        True
    """
    parametrization.train(module.training)
    if is_parametrized(module, tensor_name):
        if not unsafe:
            _check_added_parametrization(module, tensor_name, parametrization)
        plist = module.parametrizations[tensor_name]
        plist.append(parametrization)
        plist.unsafe |= unsafe
    elif tensor_name in module._buffers or tensor_name in module._parameters:
        original = getattr(module, tensor_name)
        plist = ParametrizationList([parametrization], original, unsafe=unsafe)
        delattr(module, tensor_name)
        if not is_parametrized(module):
            _inject_new_class(module)
            module.parametrizations = ModuleDict()
        _inject_property(module, tensor_name)
        module.parametrizations[tensor_name] = plist
    else:
        raise ValueError(
            f"Module '{module}' does not have a parameter, a buffer, or a "
            f"parametrized element with name '{tensor_name}'"
        )
    return module


def _check_added_parametrization(module: Module, tensor_name: str, parametrization: Module) -> None:
    """Check a parametrization chained after others: it keeps the tensor's dtype and shape.

    So must its ``right_inverse``, if it has one.
    """
    current = getattr(module, tensor_name)
    result = parametrization(current)
    if not isinstance(result, TensorBase):
        raise ValueError(f"A parametrization must return a tensor. Got {_type_name(result)}.")
    for what, attribute in (("dtype", "dtype"), ("shape", "shape")):
        if getattr(result, attribute) != getattr(current, attribute):
            raise ValueError(
                f"Registering a parametrization may not change the {what} of the tensor, "
                "unless the `unsafe` flag is enabled.\n"
                f"module.{tensor_name}.{what}: {getattr(current, attribute)}\n"
                f"parametrization(module.{tensor_name}).{what}: {getattr(result, attribute)}"
            )
    if not hasattr(parametrization, "right_inverse"):
        return
    try:
        inverse = parametrization.right_inverse(result)
    except NotImplementedError:
        return
    if not isinstance(inverse, TensorBase):
        raise ValueError(
            f"parametrization.right_inverse must return a tensor. Got: {_type_name(inverse)}"
        )
    for what in ("dtype", "shape"):
        if getattr(inverse, what) != getattr(current, what):
            raise ValueError(
                f"The tensor returned by parametrization.right_inverse must have the same {what} "
                f"as module.{tensor_name}, unless the `unsafe` flag is enabled.\n"
                f"module.{tensor_name}.{what}: {getattr(current, what)}\n"
                f"returned {what}: {getattr(inverse, what)}"
            )


def is_parametrized(module: Module, tensor_name: str | None = None) -> bool:
    """Whether ``module`` has a parametrization (on ``tensor_name``, if given).

    Example:
        >>> from minigrad import nn
        >>> nn.utils.parametrize.is_parametrized(nn.Linear(2, 2))
        False
    """
    parametrizations = getattr(module, "parametrizations", None)
    if parametrizations is None or not isinstance(parametrizations, ModuleDict):
        return False
    if tensor_name is None:
        return len(parametrizations) > 0
    return tensor_name in parametrizations


def remove_parametrizations(
    module: Module, tensor_name: str, leave_parametrized: bool = True
) -> Module:
    """Undo ``register_parametrization`` on ``tensor_name``: it becomes a plain tensor again.

    With ``leave_parametrized=True`` the tensor keeps its current parametrized value (written
    into the original parameter object); otherwise it gets the original's value back. The
    module gets its own class back when no parametrization is left.

    Example:
        >>> from minigrad import nn
        >>> from minigrad.nn.utils import parametrizations, parametrize
        >>> layer = parametrizations.weight_norm(nn.Linear(2, 2))
        >>> layer = parametrize.remove_parametrizations(layer, "weight")
        >>> type(layer).__name__, list(layer.state_dict())
        ('Linear', ['bias', 'weight'])
    """
    if not is_parametrized(module, tensor_name):
        raise ValueError(f"Module {module} does not have a parametrization on {tensor_name}")
    plist = module.parametrizations[tensor_name]
    if plist.is_tensor:
        original = plist.original
        if leave_parametrized:
            with no_grad():
                value = getattr(module, tensor_name)
                _set(original, value)
    elif leave_parametrized:
        value = getattr(module, tensor_name)
        original = Parameter(value) if value.requires_grad else value
    else:
        raise ValueError(
            "Cannot leave unparametrized (`leave_parametrized=False`) a tensor that is "
            "parametrized in terms of a sequence of tensors."
        )
    delattr(module.__class__, tensor_name)
    del module.parametrizations[tensor_name]
    _register_parameter_or_buffer(module, tensor_name, original)
    if not is_parametrized(module):
        delattr(module, "parametrizations")
        module.__class__ = module.__class__.__bases__[0]
    return module


def type_before_parametrizations(module: Module) -> type:
    """The module's class before ``register_parametrization`` gave it one of its own.

    Example:
        >>> from minigrad import nn
        >>> from minigrad.nn.utils import parametrizations, parametrize
        >>> parametrize.type_before_parametrizations(parametrizations.weight_norm(nn.Linear(2, 2)))
        <class 'minigrad.nn.modules.linear.Linear'>
    """
    if is_parametrized(module):
        return module.__class__.__bases__[0]
    return type(module)


def transfer_parametrizations_and_params(
    from_module: Module, to_module: Module, tensor_name: str | None = None
) -> Module:
    """Register ``from_module``'s parametrizations on ``to_module`` too.

    All of them, or those of ``tensor_name``; the original tensors are shared.

    Example:
        >>> from minigrad import nn
        >>> from minigrad.nn.utils import parametrizations, parametrize
        >>> source = parametrizations.weight_norm(nn.Linear(2, 2))
        >>> target = parametrize.transfer_parametrizations_and_params(source, nn.Linear(2, 2))
        >>> target.parametrizations.weight.original0 is source.parametrizations.weight.original0
        True
    """
    if not is_parametrized(from_module):
        return to_module
    names = list(from_module.parametrizations) if tensor_name is None else [tensor_name]
    for name in names:
        if not hasattr(to_module, name):
            setattr(to_module, name, Parameter(getattr(from_module, name)))
        for parametrization in from_module.parametrizations[name]:
            register_parametrization(to_module, name, parametrization)
        source = from_module.parametrizations[name]
        target = to_module.parametrizations[name]
        if hasattr(source, "original"):
            target.original = source.original
        else:
            i = 0
            while hasattr(source, f"original{i}"):
                setattr(target, f"original{i}", getattr(source, f"original{i}"))
                i += 1
    return to_module
