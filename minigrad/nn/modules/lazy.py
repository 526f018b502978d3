"""Lazy modules: layers whose input size is read from the first input they see.

``LazyLinear(3)`` holds ``UninitializedParameter`` objects; a forward pre-hook calls
``initialize_parameters(input)`` on the first call, which materializes them (the same objects,
so an optimizer built before still holds them), initialises them as the ordinary layer does and
turns the module into its ordinary class (``Linear``). Loading a state_dict materializes them
with the stored shapes. PyTorch's ``torch.nn.modules.lazy`` and its ``Lazy*`` layers.
"""

from __future__ import annotations

import itertools
from typing import Any

from minigrad._size import Size
from minigrad.autograd.grad_mode import no_grad
from minigrad.creation import tensor
from minigrad.nn.modules.conv import (
    Conv1d,
    Conv2d,
    Conv3d,
    ConvTranspose1d,
    ConvTranspose2d,
    ConvTranspose3d,
)
from minigrad.nn.modules.instancenorm import InstanceNorm1d, InstanceNorm2d, InstanceNorm3d
from minigrad.nn.modules.linear import Linear
from minigrad.nn.modules.normalization import BatchNorm1d, BatchNorm2d, BatchNorm3d
from minigrad.nn.parameter import (
    UninitializedBuffer,
    UninitializedParameter,
    UninitializedTensorMixin,
)

__all__ = [
    "LazyBatchNorm1d",
    "LazyBatchNorm2d",
    "LazyBatchNorm3d",
    "LazyConv1d",
    "LazyConv2d",
    "LazyConv3d",
    "LazyConvTranspose1d",
    "LazyConvTranspose2d",
    "LazyConvTranspose3d",
    "LazyInstanceNorm1d",
    "LazyInstanceNorm2d",
    "LazyInstanceNorm3d",
    "LazyLinear",
    "LazyModuleMixin",
]


def is_lazy(value: Any) -> bool:
    """Whether ``value`` is a parameter or buffer without a shape yet."""
    return isinstance(value, UninitializedTensorMixin)


class LazyModuleMixin:
    """Mixin for modules whose parameters are shaped by their first input.

    A subclass defines ``initialize_parameters(*args, **kwargs)`` (which materializes the
    uninitialized parameters and buffers) and ``cls_to_become`` (the class the module takes
    once initialized, or None to keep its own).

    Example:
        >>> import minigrad
        >>> from minigrad import nn
        >>> layer = nn.LazyLinear(2)
        >>> layer.has_uninitialized_params()
        True
        >>> layer(minigrad.ones(3, 5)).shape, layer
        (minigrad.Size([3, 2]), Linear(in_features=5, out_features=2, bias=True))
    """

    cls_to_become: type | None = None

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._load_hook = self._register_load_state_dict_pre_hook(self._lazy_load_hook)
        self._initialize_hook = self.register_forward_pre_hook(
            self._infer_parameters, with_kwargs=True
        )

    def _save_to_state_dict(
        self, destination: dict[str, Any], prefix: str, keep_vars: bool
    ) -> None:
        """As ``Module``'s, but uninitialized entries are saved as they are (not detached)."""
        for name, param in self._parameters.items():
            if param is not None:
                destination[prefix + name] = (
                    param if is_lazy(param) or keep_vars else param.detach()
                )
        for name, buffer in self._buffers.items():
            if buffer is not None and name not in self._non_persistent_buffers_set:
                destination[prefix + name] = (
                    buffer if is_lazy(buffer) or keep_vars else buffer.detach()
                )

    def _lazy_load_hook(
        self,
        state_dict: dict[str, Any],
        prefix: str,
        local_metadata: dict[str, Any],
        strict: bool,
        missing_keys: list[str],
        unexpected_keys: list[str],
        error_msgs: list[str],
    ) -> None:
        """Materialize each uninitialized entry the state_dict has a value for, in its shape."""
        for name, param in itertools.chain(self._parameters.items(), self._buffers.items()):
            key = prefix + name
            if key in state_dict and param is not None:
                value = state_dict[key]
                if is_lazy(param) and not is_lazy(value):
                    with no_grad():
                        param.materialize(value.shape)

    def initialize_parameters(self, *args: Any, **kwargs: Any) -> None:
        """Shape and initialise the parameters from the first input (each layer defines it)."""
        raise NotImplementedError(
            f"initialize_parameters is not implemented for {self.__class__.__name__}"
        )

    def has_uninitialized_params(self) -> bool:
        """Whether some parameter or buffer of this module is still uninitialized."""
        return any(
            is_lazy(value)
            for value in itertools.chain(self._parameters.values(), self._buffers.values())
        )

    def _infer_parameters(self, module: Any, args: Any, kwargs: Any = None) -> None:
        """The forward pre-hook: initialize, then drop the hooks and take the final class."""
        module.initialize_parameters(*args, **(kwargs or {}))
        if module.has_uninitialized_params():
            raise RuntimeError(f"module {self._get_name()} has not been fully initialized")
        module._initialize_hook.remove()
        module._load_hook.remove()
        delattr(module, "_initialize_hook")
        delattr(module, "_load_hook")
        if module.cls_to_become is not None:
            module.__class__ = module.cls_to_become


class LazyLinear(LazyModuleMixin, Linear):
    """A ``Linear`` whose ``in_features`` is the last dim of its first input.

    Example:
        >>> import minigrad
        >>> from minigrad import nn
        >>> layer = nn.LazyLinear(2)
        >>> layer
        LazyLinear(in_features=0, out_features=2, bias=True)
        >>> layer(minigrad.ones(4)).shape
        minigrad.Size([2])
    """

    cls_to_become = Linear

    def __init__(
        self, out_features: int, bias: bool = True, device: Any = None, dtype: Any = None
    ) -> None:
        super().__init__(0, 0, False, device=device)
        self.weight = UninitializedParameter(dtype=dtype)
        self.out_features = out_features
        if bias:
            self.bias = UninitializedParameter(dtype=dtype)

    def reset_parameters(self) -> None:
        """Initialise as ``Linear`` does, once the parameters have their shapes."""
        if not self.has_uninitialized_params() and self.in_features != 0:
            super().reset_parameters()

    def initialize_parameters(self, input: Any) -> None:
        """``in_features = input.shape[-1]``: materialize and initialise the parameters."""
        if self.has_uninitialized_params():
            with no_grad():
                self.in_features = input.shape[-1]
                self.weight.materialize((self.out_features, self.in_features))
                if self.bias is not None:
                    self.bias.materialize((self.out_features,))
                self.reset_parameters()
        if self.in_features == 0:  # loaded from a state_dict: take the size from the weight
            if input.shape[-1] != self.weight.shape[-1]:
                raise AssertionError(
                    f"The in_features inferred from input: {input.shape[-1]} is not equal to "
                    f"in_features from self.weight: {self.weight.shape[-1]}"
                )
            self.in_features = input.shape[-1]


class _LazyConvMixin(LazyModuleMixin):
    """The lazy convolutions: ``in_channels`` is the channel dim of the first input."""

    groups: int
    in_channels: int
    out_channels: int
    kernel_size: tuple[int, ...]
    transposed: bool
    _dims: int

    def _make_lazy(self, out_channels: int, bias: bool, dtype: Any) -> None:
        self.weight = UninitializedParameter(dtype=dtype)
        self.out_channels = out_channels
        if bias:
            self.bias = UninitializedParameter(dtype=dtype)

    def reset_parameters(self) -> None:
        """Initialise as the convolution does, once the parameters have their shapes."""
        if not self.has_uninitialized_params() and self.in_channels != 0:
            super().reset_parameters()  # type: ignore[misc]

    def initialize_parameters(self, input: Any, *args: Any, **kwargs: Any) -> None:
        """Read ``in_channels`` from the input; materialize and initialise the parameters."""
        if not self.has_uninitialized_params():
            return
        self.in_channels = self._get_in_channels(input)
        if self.in_channels % self.groups != 0:
            raise ValueError("in_channels must be divisible by groups")
        if self.transposed:
            shape = (self.in_channels, self.out_channels // self.groups, *self.kernel_size)
        else:
            shape = (self.out_channels, self.in_channels // self.groups, *self.kernel_size)
        self.weight.materialize(shape)
        if self.bias is not None:
            self.bias.materialize((self.out_channels,))
        self.reset_parameters()

    def _get_in_channels(self, input: Any) -> int:
        unbatched = self._dims + 1
        if input.dim() not in (unbatched, unbatched + 1):
            raise RuntimeError(
                f"Expected {unbatched}D (unbatched) or {unbatched + 1}D (batched) input to "
                f"{self.__class__.__name__}, but got input of size: {Size(input.shape)}"
            )
        return input.shape[1] if input.dim() == unbatched + 1 else input.shape[0]


class _LazyConv(_LazyConvMixin):
    """The constructor of ``LazyConv1d``/``2d``/``3d``: the convolution's, minus in_channels."""

    def __init__(
        self, out_channels: int, kernel_size: Any, stride: Any = 1, padding: Any = 0,
        dilation: Any = 1, groups: int = 1, bias: bool = True, padding_mode: str = "zeros",
        device: Any = None, dtype: Any = None,
    ) -> None:  # fmt: skip
        super().__init__(
            0, 0, kernel_size, stride, padding, dilation, groups, False, padding_mode, device
        )
        self._make_lazy(out_channels, bias, dtype)


class _LazyConvTranspose(_LazyConvMixin):
    """The constructor of ``LazyConvTranspose1d``/``2d``/``3d`` (PyTorch's argument order)."""

    def __init__(
        self, out_channels: int, kernel_size: Any, stride: Any = 1, padding: Any = 0,
        output_padding: Any = 0, groups: int = 1, bias: bool = True, dilation: Any = 1,
        padding_mode: str = "zeros", device: Any = None, dtype: Any = None,
    ) -> None:  # fmt: skip
        super().__init__(
            0, 0, kernel_size, stride, padding, output_padding, groups, False, dilation,
            padding_mode, device,
        )  # fmt: skip
        self._make_lazy(out_channels, bias, dtype)


class LazyConv1d(_LazyConv, Conv1d):
    """A ``Conv1d`` whose ``in_channels`` is read from its first input.

    Example:
        >>> import minigrad
        >>> from minigrad import nn
        >>> layer = nn.LazyConv1d(4, 3)
        >>> layer(minigrad.ones(1, 2, 5)).shape, layer
        (minigrad.Size([1, 4, 3]), Conv1d(2, 4, kernel_size=(3,), stride=(1,)))
    """

    cls_to_become = Conv1d


class LazyConv2d(_LazyConv, Conv2d):
    """A ``Conv2d`` whose ``in_channels`` is read from its first input.

    Example:
        >>> import minigrad
        >>> from minigrad import nn
        >>> nn.LazyConv2d(4, 3)
        LazyConv2d(0, 4, kernel_size=(3, 3), stride=(1, 1))
    """

    cls_to_become = Conv2d


class LazyConv3d(_LazyConv, Conv3d):
    """A ``Conv3d`` whose ``in_channels`` is read from its first input.

    Example:
        >>> import minigrad
        >>> from minigrad import nn
        >>> layer = nn.LazyConv3d(4, 2)
        >>> layer(minigrad.ones(1, 3, 2, 3, 3)).shape, layer
        (minigrad.Size([1, 4, 1, 2, 2]), Conv3d(3, 4, kernel_size=(2, 2, 2), stride=(1, 1, 1)))
    """

    cls_to_become = Conv3d


class LazyConvTranspose1d(_LazyConvTranspose, ConvTranspose1d):
    """A ``ConvTranspose1d`` whose ``in_channels`` is read from its first input.

    Example:
        >>> import minigrad
        >>> from minigrad import nn
        >>> nn.LazyConvTranspose1d(4, 3)(minigrad.ones(1, 2, 5)).shape
        minigrad.Size([1, 4, 7])
    """

    cls_to_become = ConvTranspose1d


class LazyConvTranspose2d(_LazyConvTranspose, ConvTranspose2d):
    """A ``ConvTranspose2d`` whose ``in_channels`` is read from its first input.

    Example:
        >>> import minigrad
        >>> from minigrad import nn
        >>> nn.LazyConvTranspose2d(4, 3)(minigrad.ones(1, 2, 5, 5)).shape
        minigrad.Size([1, 4, 7, 7])
    """

    cls_to_become = ConvTranspose2d


class LazyConvTranspose3d(_LazyConvTranspose, ConvTranspose3d):
    """A ``ConvTranspose3d`` whose ``in_channels`` is read from its first input.

    Example:
        >>> import minigrad
        >>> from minigrad import nn
        >>> nn.LazyConvTranspose3d(4, 2)(minigrad.ones(1, 2, 2, 3, 3)).shape
        minigrad.Size([1, 4, 3, 4, 4])
    """

    cls_to_become = ConvTranspose3d


class _LazyNormMixin(LazyModuleMixin):
    """The lazy batch and instance norms: ``num_features`` is ``input.shape[1]``."""

    num_features: int
    affine: bool
    track_running_stats: bool

    def __init__(
        self, eps: float = 1e-5, momentum: float | None = 0.1, affine: bool = True,
        track_running_stats: bool = True, device: Any = None, dtype: Any = None, *,
        bias: bool = True,
    ) -> None:  # fmt: skip
        # affine and running statistics off: no tensors that would be replaced at once
        super().__init__(0, eps, momentum, False, False, device, dtype, bias=False)
        self.affine = affine
        self.track_running_stats = track_running_stats
        if affine:
            self.weight = UninitializedParameter(dtype=dtype)
            if bias:
                self.bias = UninitializedParameter(dtype=dtype)
        if track_running_stats:
            self.running_mean = UninitializedBuffer(dtype=dtype)
            self.running_var = UninitializedBuffer(dtype=dtype)
            self.num_batches_tracked = tensor(0)

    def reset_parameters(self) -> None:
        """Reset as the ordinary layer does, once the tensors have their shapes."""
        if not self.has_uninitialized_params() and self.num_features != 0:
            super().reset_parameters()  # type: ignore[misc]

    def initialize_parameters(self, input: Any) -> None:
        """``num_features = input.shape[1]``: materialize and reset the tensors."""
        if not self.has_uninitialized_params():
            return
        self.num_features = input.shape[1]
        shape = (self.num_features,)
        if self.affine:
            self.weight.materialize(shape)
            if self.bias is not None:
                self.bias.materialize(shape)
        if self.track_running_stats:
            self.running_mean.materialize(shape)
            self.running_var.materialize(shape)
        self.reset_parameters()


class LazyBatchNorm1d(_LazyNormMixin, BatchNorm1d):
    """A ``BatchNorm1d`` whose ``num_features`` is read from its first input.

    Example:
        >>> import minigrad
        >>> from minigrad import nn
        >>> layer = nn.LazyBatchNorm1d()
        >>> _ = layer(minigrad.randn(4, 3))
        >>> layer
        BatchNorm1d(3, eps=1e-05, momentum=0.1, affine=True, bias=True, track_running_stats=True)
    """

    cls_to_become = BatchNorm1d


class LazyBatchNorm2d(_LazyNormMixin, BatchNorm2d):
    """A ``BatchNorm2d`` whose ``num_features`` is read from its first input.

    Example:
        >>> from minigrad import nn
        >>> nn.LazyBatchNorm2d(affine=False).affine
        False
    """

    cls_to_become = BatchNorm2d


class LazyBatchNorm3d(_LazyNormMixin, BatchNorm3d):
    """A ``BatchNorm3d`` whose ``num_features`` is read from its first input.

    Example:
        >>> import minigrad
        >>> from minigrad import nn
        >>> layer = nn.LazyBatchNorm3d()
        >>> layer(minigrad.randn(2, 3, 2, 2, 2)).shape, layer.running_mean.shape
        (minigrad.Size([2, 3, 2, 2, 2]), minigrad.Size([3]))
    """

    cls_to_become = BatchNorm3d


class LazyInstanceNorm1d(_LazyNormMixin, InstanceNorm1d):
    """An ``InstanceNorm1d`` whose ``num_features`` is read from its first input.

    (PyTorch's defaults here are ``affine=True, track_running_stats=True``, unlike
    ``InstanceNorm1d``'s.)

    Example:
        >>> import minigrad
        >>> from minigrad import nn
        >>> layer = nn.LazyInstanceNorm1d()
        >>> layer(minigrad.randn(2, 3, 4)).shape, layer.num_features
        (minigrad.Size([2, 3, 4]), 3)
    """

    cls_to_become = InstanceNorm1d


class LazyInstanceNorm2d(_LazyNormMixin, InstanceNorm2d):
    """An ``InstanceNorm2d`` whose ``num_features`` is read from its first input.

    Example:
        >>> import minigrad
        >>> from minigrad import nn
        >>> nn.LazyInstanceNorm2d(affine=False)(minigrad.randn(1, 2, 3, 3)).shape
        minigrad.Size([1, 2, 3, 3])
    """

    cls_to_become = InstanceNorm2d


class LazyInstanceNorm3d(_LazyNormMixin, InstanceNorm3d):
    """An ``InstanceNorm3d`` whose ``num_features`` is read from its first input.

    Example:
        >>> import minigrad
        >>> from minigrad import nn
        >>> layer = nn.LazyInstanceNorm3d()
        >>> layer(minigrad.randn(1, 2, 2, 3, 3)).shape, type(layer).__name__, layer.num_features
        (minigrad.Size([1, 2, 2, 3, 3]), 'InstanceNorm3d', 2)
    """

    cls_to_become = InstanceNorm3d
