"""Three-input arithmetic: lerp, addcmul, addcdiv.

Each op is one class (forward, backward, what it saves) followed by its public function and its
in-place variant. What each saves is what PyTorch 2.13 saves, some of it only when another input
needs a gradient; ``call_ternary`` gives PyTorch's message when the three shapes do not broadcast.
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np

from minigrad import errors
from minigrad._dtype import check_python_int, check_scalar_arguments, display_name
from minigrad._layout import elementwise_result
from minigrad.autograd.function import Op
from minigrad.autograd.inplace import apply_inplace, cast_refused
from minigrad.autograd.tensor_base import TensorBase
from minigrad.ops._helpers import check_float_kernel, compute_dtype, operand, times
from minigrad.ops.fused import fused_dtype, fused_multiply_add
from minigrad.ops.opmath import FLOAT16, in_float32


class Lerp(Op):
    """z = start + w * (end - start), w a number;  dstart = grad * (1 - w),  dend = grad * w.

    Saves nothing but the number.
    """

    saves = ()  # (it saves nothing: its node has no slot for saved values)
    result_layout = staticmethod(elementwise_result)  # (TensorIterator's)

    fields = ("weight",)
    saved_options = ("weight",)

    node_name = "LerpBackward0"
    unsummed_when_called = True  # grad_fn(grad): a broadcast input's gradient unsummed
    num_inputs = 2

    @staticmethod
    def forward(ctx: Any, start: Any, end: Any, weight: Any) -> np.ndarray:
        ctx.weight = weight
        values = in_float32(_lerp_values, start, end, weight)  # (float16: in float32, PyTorch)
        return np.asarray(values, dtype=np.result_type(start, end))

    @staticmethod
    def backward(ctx: Any, grad: Any) -> tuple[Any, Any, None]:
        w = ctx.weight
        return grad * (1 - w), grad * w, None


def lerp(input: Any, end: Any, weight: Any) -> Any:
    """Linear interpolation ``input + weight * (end - input)`` (weight a number or a tensor)."""
    if _check_lerp(input, end, weight):
        return call_ternary(LerpTensor.apply, (input, end, weight))
    return call_ternary(Lerp.apply, (input, end, weight))


def lerp_(input: Any, end: Any, weight: Any) -> Any:
    """``input + weight * (end - input)``, in place."""
    _check_lerp(input, end, weight)
    _check_broadcast((input, end, weight))
    if isinstance(weight, TensorBase):
        return apply_inplace(LerpTensor, input, end, weight)
    return apply_inplace(Lerp, input, end, weight)


def _check_lerp(input: Any, end: Any, weight: Any) -> bool:
    """PyTorch's dtype checks for lerp; True if ``weight`` is a tensor."""
    check_scalar_arguments(weight)  # (the parser's error comes first)
    _check_same_dtype("lerp", input, end, "end")
    if isinstance(operand(weight), np.ndarray):
        _check_same_dtype("lerp", input, weight, "weight")
        check_float_kernel("lerp_kernel_tensor", input)
        return True
    check_float_kernel("lerp_kernel_scalar", input)
    return False


def call_ternary(apply: Any, args: tuple[Any, ...], *options: Any) -> Any:
    """Run a three-input op, with PyTorch's message when the shapes do not broadcast."""
    try:
        return apply(*args, *options)
    except ValueError as error:
        _check_broadcast(args)
        raise RuntimeError(str(error)) from None


def _check_broadcast(args: tuple[Any, ...]) -> None:
    """PyTorch's message if the tensors among ``args`` do not broadcast together."""
    tensors = [a for a in args if a is not None and not isinstance(a, (int, float))]
    shape = np.shape(operand(tensors[0]))
    for value in tensors[1:]:
        try:
            shape = np.broadcast_shapes(shape, np.shape(operand(value)))
        except ValueError:
            raise RuntimeError(errors.broadcast_mismatch(shape, np.shape(operand(value)))) from None


def _check_same_dtype(name: str, input: Any, other: Any, argname: str) -> None:
    a, b = operand(input).dtype, operand(other).dtype
    if a != b:
        raise RuntimeError(errors.expected_dtype_for(argname, a, b))


class LerpTensor(Op):
    """z = start + w * (end - start), w a tensor;  dw = grad * (end - start).

    dstart = grad * (1 - w),  dend = grad * w.

    Saves weight always (two formulas use it), start and end only if weight needs a
    gradient (PyTorch saves a value conditionally only when a single formula uses it).
    """

    result_layout = staticmethod(elementwise_result)  # (TensorIterator's)

    saves = ("self", "end", "weight")
    node_name = "LerpBackward1"
    unsummed_when_called = True  # grad_fn(grad): a broadcast input's gradient unsummed
    num_inputs = 3

    @staticmethod
    def forward(ctx: Any, start: Any, end: Any, weight: Any) -> np.ndarray:
        needs = ctx.needs_input_grad
        ctx.save_for_backward(start if needs[2] else None, end if needs[2] else None, weight)
        return in_float32(_lerp_values, start, end, weight).astype(start.dtype, copy=False)

    @staticmethod
    def backward(ctx: Any, grad: Any) -> tuple[Any, Any, Any]:
        start, end, weight = ctx.saved_tensors
        needs = ctx.needs_input_grad
        return (
            grad * (1 - weight) if needs[0] else None,
            grad * weight if needs[1] else None,
            grad * (end - start) if needs[2] else None,
        )


class AddcOp(Op):
    """z = x + value * combine(t1, t2): ``Addcmul`` (t1 * t2) and ``Addcdiv`` (t1 / t2).

    Each factor is saved only if the other one needs a gradient, as PyTorch does; a divisor
    always (its own gradient needs it too).
    """

    unsummed_when_called = True  # grad_fn(grad): a broadcast input's gradient unsummed

    result_layout = staticmethod(elementwise_result)  # (TensorIterator's)

    fields = ("value",)
    saves = ("tensor1", "tensor2")
    saved_options = ("value",)

    num_inputs = 3
    combine: ClassVar[np.ufunc]  # np.multiply or np.true_divide
    divides: ClassVar[bool]

    @classmethod
    def opmath_kernel(cls, x: Any, t1: Any, t2: Any, value: Any) -> np.ndarray:
        """PyTorch's float16 formula on float32 arrays: ``x + value * t1 (*, /) t2``, in order."""
        return np.add(x, cls.combine(np.multiply(value, t1, dtype=t1.dtype), t2))

    @classmethod
    def forward(cls, ctx: Any, x: Any, t1: Any, t2: Any, value: Any, dtype: Any) -> np.ndarray:
        needs = ctx.needs_input_grad
        ctx.save_for_backward(t1 if needs[2] else None, t2 if needs[1] or cls.divides else None)
        ctx.value = value
        if (operand(x).dtype if dtype is None else dtype) is FLOAT16:
            # PyTorch's float16 kernel: x + value * t1 (*, /) t2 in float32, value in float32
            return in_float32(cls.opmath_kernel, x, t1, t2, value)
        return cls.kernel(x, t1, t2, value, dtype)

    @classmethod
    def kernel(cls, x: Any, t1: Any, t2: Any, value: Any, dtype: Any) -> Any:
        """``x + value * t1 (*, /) t2`` in PyTorch's order: ``(value * t1) (*, /) t2``."""
        scaled = t1 if value == 1 else np.multiply(value, t1, dtype=dtype)
        return np.add(x, cls.combine(scaled, t2, dtype=dtype), dtype=dtype)


class Addcmul(AddcOp):
    """z = x + value * t1 * t2;  dx = grad,  dt1 = grad * t2 * value,  dt2 = grad * t1 * value.

    Saves t2 only if t1 needs a gradient and t1 only if t2 does (PyTorch).
    """

    combine = np.multiply
    divides = False

    @classmethod
    def kernel(cls, x: Any, t1: Any, t2: Any, value: Any, dtype: Any) -> Any:
        """``x + (value * t1) * t2``; in float32 and float64 one fused multiply-add."""
        fused = fused_dtype(x, t1, t2, dtype=dtype)
        if fused is None:
            return super().kernel(x, t1, t2, value, dtype)
        scaled = t1 if value == 1 else np.multiply(value, t1, dtype=fused)
        return fused_multiply_add(scaled, t2, x, fused)

    @staticmethod
    def backward(ctx: Any, grad: Any) -> tuple[Any, ...]:
        t1, t2 = ctx.saved_tensors
        needs, scaled = ctx.needs_input_grad, times(grad, ctx.value)
        return (
            grad,
            scaled * t2 if needs[1] else None,
            scaled * t1 if needs[2] else None,
            None,
            None,
        )


def addcmul(input: Any, tensor1: Any, tensor2: Any, *, value: Any = 1) -> Any:
    """``input + value * tensor1 * tensor2``."""
    dtype = compute_dtype(input, tensor1, tensor2)
    if (dtype if dtype is not None else operand(input).dtype) == np.bool_:
        check_float_kernel("addcmul_cpu_out", input)
    return call_ternary(Addcmul.apply, (input, tensor1, tensor2), _value_for(value, dtype, input),
                         dtype)


def addcmul_(input: Any, tensor1: Any, tensor2: Any, *, value: Any = 1) -> Any:
    """``input += value * tensor1 * tensor2`` in place."""
    _check_result_fits(input, tensor1, tensor2)
    if input._array.dtype == np.bool_:
        check_float_kernel("addcmul_cpu_out", input)
    value = _value_for(value, None, input)
    return apply_inplace(Addcmul, input, tensor1, tensor2, value, None)


def _value_for(value: Any, dtype: Any, input: Any) -> Any:
    """Addcmul's ``value`` in the result's dtype: an integer result truncates it (PyTorch)."""
    if type(value) is int:  # (inline: optimizers' addcmul_ calls pass here every step)
        check_python_int(value)  # (the parser's error comes first)
    kind = np.dtype(dtype).kind if dtype is not None else operand(input).dtype.kind
    return int(value) if kind in "iu" and isinstance(value, float) else value


class Addcdiv(AddcOp):
    """z = x + value * t1 / t2;  dx = grad,  dt1 = grad * (value / t2).

    dt2 = -grad * (value * t1 / t2**2), in PyTorch's steps (MulBackward0 under create_graph).

    Saves t2 always (two formulas use it), t1 only if t2 needs a gradient (PyTorch).
    """

    combine = np.true_divide
    divides = True

    @staticmethod
    def backward(ctx: Any, grad: Any) -> tuple[Any, ...]:
        t1, t2 = ctx.saved_tensors
        needs, value = ctx.needs_input_grad, ctx.value
        return (
            grad,
            grad * (value / t2) if needs[1] else None,
            -grad * (value * t1 / (t2 * t2)) if needs[2] else None,
            None,
            None,
        )


def addcdiv(input: Any, tensor1: Any, tensor2: Any, *, value: Any = 1) -> Any:
    """``input + value * tensor1 / tensor2``."""
    _check_addcdiv_divisor(tensor1, tensor2)
    dtype = compute_dtype(input, tensor1, tensor2)
    return call_ternary(Addcdiv.apply, (input, tensor1, tensor2), _value_for(value, dtype, input),
                        dtype)


def addcdiv_(input: Any, tensor1: Any, tensor2: Any, *, value: Any = 1) -> Any:
    """``input += value * tensor1 / tensor2`` in place."""
    _check_addcdiv_divisor(tensor1, tensor2)
    _check_broadcast((input, tensor1, tensor2))
    _check_result_fits(input, tensor1, tensor2)
    value = _value_for(value, None, input)
    return apply_inplace(Addcdiv, input, tensor1, tensor2, value, None)


def _check_result_fits(input: Any, tensor1: Any, tensor2: Any) -> None:
    """PyTorch's error if the three tensors' result type cannot be written into ``input``.

    Checked before the kernel: a bool ``input`` with float tensors is a cast error, not the
    missing bool kernel.
    """
    target = input._array.dtype
    dtype = compute_dtype(input, tensor1, tensor2)
    if dtype is not None and not np.can_cast(dtype, target, casting="same_kind"):
        raise cast_refused(input, (tensor1, tensor2), display_name(dtype))


def _check_addcdiv_divisor(tensor1: Any, tensor2: Any) -> None:
    if operand(tensor1).dtype.kind != "f" and operand(tensor2).dtype.kind != "f":
        raise RuntimeError(errors.ADDCDIV_INTEGER_DIVISION)


def _lerp_values(start: Any, end: Any, weight: Any) -> np.ndarray:
    # PyTorch's formula, exact at both ends: from start for |w| < 0.5, else from end; in
    # float32 and float64 each branch one fused multiply-add (its kernels' fmadd).
    small = np.abs(weight) < 0.5
    dtype = fused_dtype(start, end, weight)
    if dtype is None:
        return np.where(small, start + weight * (end - start), end - (end - start) * (1 - weight))
    weight = np.asarray(weight, dtype)
    diff = end - start
    return np.where(small, fused_multiply_add(weight, diff, start, dtype),
                    fused_multiply_add(-diff, 1 - weight, end, dtype))
