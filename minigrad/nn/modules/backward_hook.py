"""Module backward hooks (``register_full_backward_hook`` and its pre-hook), as PyTorch's.

PyTorch passes a module's tensor inputs, and then its tensor outputs, through an identity
custom Function (``BackwardHookFunction``): its node on the outputs sees the gradients of the
outputs (the pre-hooks run there and may replace them), its node on the inputs sees the
gradients of the inputs (the hooks run there with both and may replace the inputs'). The
tensors the module's forward and its caller see are that Function's outputs, whose ``grad_fn``
is ``BackwardHookFunctionBackward``, as in PyTorch.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable, Sequence
from typing import Any

from minigrad.autograd.function import Function
from minigrad.autograd.grad_mode import is_grad_enabled
from minigrad.autograd.tensor_base import TensorBase

Hook = Callable[..., Any]

NO_INPUT_REQUIRES_GRAD = (
    "Full backward hook is firing when gradients are computed with respect to module outputs "
    "since no inputs require gradients. See https://docs.pytorch.org/docs/main/generated/"
    "torch.nn.Module.html#torch.nn.Module.register_full_backward_hook for more details."
)


class BackwardHookFunction(Function):
    """The identity on tensors, whose node the module's backward hooks are attached to."""

    @staticmethod
    def forward(ctx: Any, *args: Any) -> Any:
        """Return the tensors as they are; those that need no gradient get none."""
        ctx.mark_non_differentiable(*[arg for arg in args if not arg.requires_grad])
        return args

    @staticmethod
    def backward(ctx: Any, *args: Any) -> Any:
        """The gradients pass through unchanged."""
        return args


class BackwardHook:
    """One call's backward hooks: the gradients of the outputs, then of the inputs, to the hooks.

    Non-tensor inputs and outputs take None in the tuples the hooks see.
    """

    def __init__(self, module: Any, user_hooks: Sequence[Hook], user_pre_hooks: Sequence[Hook]):
        self.user_hooks = user_hooks
        self.user_pre_hooks = user_pre_hooks
        self.module = module
        self.grad_outputs: tuple[Any, ...] | None = None
        self.n_outputs = -1
        self.output_tensors_index: list[int] | None = None
        self.n_inputs = -1
        self.input_tensors_index: list[int] | None = None

    @staticmethod
    def _pack_with_none(indices: Sequence[int], values: Sequence[Any], size: int) -> tuple:
        result: list[Any] = [None] * size
        for index, value in zip(indices, values, strict=True):
            result[index] = value
        return tuple(result)

    @staticmethod
    def _unpack_none(indices: Sequence[int], values: Sequence[Any]) -> tuple:
        return tuple(values[index] for index in indices)

    def _set_user_hook(self, grad_fn: Any) -> None:
        def hook(grad_input: tuple[Any, ...], _: Any) -> Any:
            if self.grad_outputs is None:
                # the gradient reached the inputs without passing the outputs (double backward)
                return None
            assert self.input_tensors_index is not None
            result = self._pack_with_none(self.input_tensors_index, grad_input, self.n_inputs)
            for user_hook in self.user_hooks:
                out = user_hook(self.module, result, self.grad_outputs)
                if out is None:
                    continue
                if len(out) != len(result):
                    raise RuntimeError(
                        "Backward hook returned an invalid number of grad_input, got "
                        f"{len(out)}, but expected {len(result)}")
                result = out
            self.grad_outputs = None
            return self._unpack_none(self.input_tensors_index, result)

        grad_fn.register_hook(hook)

    def _apply_on_tensors(self, fn: Callable[[Any], None], args: Any) -> tuple[Any, Any]:
        indices, tensors, requires_grad = [], [], False
        for index, arg in enumerate(args):
            if isinstance(arg, TensorBase):
                indices.append(index)
                tensors.append(arg)
                requires_grad |= arg.requires_grad
        if not (requires_grad and is_grad_enabled()):
            return args, None
        new_tensors = BackwardHookFunction.apply(*tensors)
        if len(new_tensors) == 0:
            raise RuntimeError(
                "Cannot set Module backward hook for a Module with no input Tensors.")
        grad_fns = [t.grad_fn for t in new_tensors
                    if t.grad_fn is not None and t.grad_fn.name() == "BackwardHookFunctionBackward"]
        fn(grad_fns[0])
        arg_list = list(args)
        for index, value in zip(indices, new_tensors, strict=True):
            arg_list[index] = value
        return (tuple(arg_list) if type(args) is tuple else type(args)(*arg_list)), indices

    def setup_input_hook(self, args: Any) -> Any:
        """The inputs through the identity whose node calls the hooks (if any needs a grad)."""
        result, indices = self._apply_on_tensors(self._set_user_hook, args)
        self.n_inputs = len(args)
        self.input_tensors_index = indices
        return result

    def setup_output_hook(self, args: Any) -> Any:
        """The outputs through the identity whose node sees their gradients first."""

        def fn(grad_fn: Any) -> None:
            def hook(_: Any, grad_output: tuple[Any, ...]) -> Any:
                assert self.output_tensors_index is not None
                self.grad_outputs = self._pack_with_none(
                    self.output_tensors_index, grad_output, self.n_outputs)
                expected = len(self.grad_outputs)
                for user_pre_hook in self.user_pre_hooks:
                    new = user_pre_hook(self.module, self.grad_outputs)
                    if new is None:
                        continue
                    if len(new) != expected:
                        raise RuntimeError(
                            "Backward pre hook returned an invalid number of grad_output, got "
                            f"{len(new)}, but expected {expected}")
                    self.grad_outputs = new
                local = self.grad_outputs
                if self.input_tensors_index is None:  # no input needs a gradient: call now
                    warnings.warn(NO_INPUT_REQUIRES_GRAD, stacklevel=5)
                    grad_inputs = self._pack_with_none([], [], self.n_inputs)
                    for user_hook in self.user_hooks:
                        out = user_hook(self.module, grad_inputs, self.grad_outputs)
                        if out is not None and not (
                            isinstance(out, tuple) and all(el is None for el in out)
                        ):
                            raise RuntimeError(
                                "Backward hook for Modules where no input requires gradient "
                                "should always return None or None for all gradients.")
                    self.grad_outputs = None
                if local is not None:
                    return tuple(local[i] for i in self.output_tensors_index)
                return None

            grad_fn.register_hook(hook)

        is_tuple = isinstance(args, tuple)
        if not is_tuple:
            args = (args,)
        result, indices = self._apply_on_tensors(fn, args)
        self.n_outputs = len(args)
        self.output_tensors_index = indices
        return result if is_tuple else result[0]
