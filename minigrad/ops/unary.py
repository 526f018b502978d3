"""Unary elementwise math: neg, abs, exp, log, sqrt, sigmoid, tanh, relu, erf, sign, ...

Trigonometric and hyperbolic ops live in ``trigonometric.py``, rounding in ``rounding.py``.

Each op saves what PyTorch's derivatives.yaml saves: the input where the derivative is written
with it (sin, log2, ...), the result where it is cheaper that way (exp, tan, rsqrt, ...); that
decides which later in-place writes make backward raise. The uniform ones (y = kernel(x), one
saved value) derive from ``SavesInput`` or ``SavesResult``, which declare it in ``saves``
(PyTorch's ``grad_fn._saved_self`` / ``_saved_result``) and run the forward for them;
``tests/test_unary_saves.py`` checks that forward saves exactly what is declared.

The public functions call an op's recording function (``Exp._record``: what ``Exp.apply``
calls for one input and no options, autograd/record.py) with their input made floating: one
frame fewer per call (~2,000 of a no-grad ``minigrad.exp(a)``'s ~22,000 instructions).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any, ClassVar

import numpy as np

from minigrad import errors
from minigrad._layout import (
    copy_in_format,
    copy_preserving_layout,
    elementwise_result,
    format_strides,
    preserved_result,
)
from minigrad._memory_formats import (
    channels_last,
    channels_last_3d,
    contiguous_format,
    preserve_format,
)
from minigrad.autograd.function import NO_GRAD_CTX, Op
from minigrad.autograd.inplace import apply_inplace, cast_refused
from minigrad.autograd.tensor_base import TensorBase
from minigrad.ops import _scipy_ufuncs
from minigrad.ops._helpers import (
    Constants,
    cast,
    check_float_kernel,
    float_input,
    is_bool,
    is_tensor,
    operand,
    run,
    zero_where,
    zeros_like_grad,
)
from minigrad.ops.arithmetic import MulScalar, mul
from minigrad.ops.opmath import FLOAT16, in_float32, scalar_loop_mask, times_number
from minigrad.ops.power import pow, pow_


class UnaryOp(Op):
    """A one-input op y = kernel(x) that saves one value, named in ``saves``.

    ``saves`` holds PyTorch's name of the value, one per ``save_for_backward`` position:
    ``("self",)`` for the input, ``("result",)`` for the output. A subclass sets ``kernel`` (a
    numpy function of one array) and its backward; the family's forward does the rest.

    The family's forwards save with ``ctx._saved = (value,)``, ``ctx.save_for_backward``'s
    one line without its call (~0.13 us of a recorded ``a.exp()``'s ~2.3, as
    ``save_for_the_other``): ``ctx`` is a built-in op's node, whose recording function packs
    ``_saved`` once forward returns, or a no-grad ctx, which drops the attribute.
    """

    saves: ClassVar[tuple[str, ...]]
    kernel: ClassVar[Callable[[np.ndarray], np.ndarray]]
    # The result has the input's shape: recording keeps no shape for backward without
    # comparing the two (autograd/record.py, ``_unary_recorder``).
    elementwise: ClassVar[bool] = True
    result_layout = staticmethod(elementwise_result)  # (PyTorch's TensorIterator)

    def __init_subclass__(cls, **kwargs: Any) -> None:
        # Where the family's forward is the op's forward, ``kernel`` is its whole work and
        # ``saves`` says what it saves: the op declares the kernel as ``forward_kernel``, which
        # its recording function calls in numpy's quiet context (quiet.run_quietly) without
        # forward's frame or an error state set and reset (2.41 -> 2.28 us for a recorded
        # sigmoid, benchmarks/README.md: unaryq), and saves the declared value itself. A kernel
        # runs numpy's functions on arrays and reads no context variable, so it may run in a
        # context holding numpy's error state alone.
        forward_owner = next(klass for klass in cls.__mro__ if "forward" in vars(klass))
        if vars(forward_owner).get("_forward_runs_kernel") and hasattr(cls, "kernel"):
            cls.forward_kernel = cls.kernel
        super().__init_subclass__(**kwargs)


class SavesInput(UnaryOp):
    """A uniform unary op whose backward is written with its input: y = kernel(x), saves x."""

    saves = ("self",)

    _forward_runs_kernel = True  # (its forward is the kernel and the saving: UnaryOp)

    @classmethod
    def forward(cls, ctx: Any, x: np.ndarray) -> np.ndarray:
        ctx._saved = (x,)  # (save_for_backward without its call: UnaryOp)
        return cls.kernel(x)


class SavesResult(UnaryOp):
    """A uniform unary op whose backward is written with its result: y = kernel(x), saves y."""

    saves = ("result",)

    _forward_runs_kernel = True  # (its forward is the kernel and the saving: UnaryOp)

    @classmethod
    def forward(cls, ctx: Any, x: np.ndarray) -> np.ndarray:
        y = cls.kernel(x)
        ctx._saved = (y,)  # (save_for_backward without its call: UnaryOp)
        return y


class Neg(Op):
    """y = -x;  dx = -grad.  Saves nothing."""

    saves = ()  # (declared: its node has no slot for saved values, autograd/function.py)
    result_layout = staticmethod(elementwise_result)  # (TensorIterator's)

    @staticmethod
    def forward(ctx: Any, x: np.ndarray) -> np.ndarray:
        return -x

    @staticmethod
    def backward(ctx: Any, grad: Any) -> Any:
        return -grad


def neg(input: Any) -> Any:
    """``-input``."""
    _check_negation(input)
    return Neg.apply(input)


def neg_(input: Any) -> Any:
    """``input = -input``, in place."""
    _check_negation(input)
    return apply_inplace(Neg, input)


def positive(input: Any) -> Any:
    """``+input``: ``input`` itself (PyTorch's alias: no copy, no node)."""
    if is_bool(input):
        raise RuntimeError(errors.POSITIVE_BOOL)
    return input


def _check_negation(input: Any) -> None:
    """PyTorch's refusal of ``-`` on a bool tensor (in place too; numpy's text is another)."""
    if is_bool(input):
        raise RuntimeError(errors.NEGATE_BOOL)


class Abs(SavesInput):
    """y = |x|;  dx = grad * sign(x)  (0 at 0 and at nan, as PyTorch's).  Saves its input."""

    kernel = np.abs

    @staticmethod
    def backward(ctx: Any, grad: Any) -> Any:
        (x,) = ctx.saved_tensors
        return grad * sign_of(x)  # (0 at nan, as PyTorch's sgn)


def abs(input: Any) -> Any:
    """``|input|``."""
    _check_abs(input)
    return Abs.apply(input)


def abs_(input: Any) -> Any:
    """``input = |input|``, in place."""
    _check_abs(input)
    return apply_inplace(Abs, input)


def _check_abs(input: Any) -> None:
    """PyTorch has no abs kernel for bool tensors (in place either)."""
    if is_bool(input):
        check_float_kernel("abs_cpu", input)


_FLOAT32, _FLOAT64 = np.dtype(np.float32), np.dtype(np.float64)


def exp_array(x: np.ndarray) -> np.ndarray:
    """``e ** x`` of an array, as PyTorch computes it: Exp's kernel."""
    # float32: computed in float64 and rounded to the nearest float32. numpy's float32 exp
    # is off by an ulp for about a third of inputs (``exp(2)``); PyTorch's is (almost
    # always) the nearest float32, and chains such as ``exp(exp(x))`` magnify the difference.
    # SciPy's ``inv_boxcox(x, 0)`` is exactly that in one call: the inverse Box-Cox transform
    # with lambda 0 is ``exp(x)``, and its float32 loop runs the double one (the bits of
    # ``np.exp(x, dtype=float64).astype(float32)``, tests_torch/test_kernels_torch.py) in
    # 0.25 us on (8,) where numpy's two calls take 0.69.
    if x.dtype is _FLOAT32 or x.dtype == _FLOAT32:  # (``is``: no comparison call, usually)
        return _inv_boxcox(x, _ZERO_FLOAT32)
    return _exp(x)


_ZERO_FLOAT32 = np.zeros((), _FLOAT32)  # (a 0-d array: numpy converts no Python number)


def _inv_boxcox(x: np.ndarray, lmbda: np.ndarray) -> np.ndarray:
    """SciPy's ``inv_boxcox``: at its first call this stub puts the ufunc in its place."""
    global _inv_boxcox
    _inv_boxcox = _scipy_ufuncs.ufunc("inv_boxcox")
    return _inv_boxcox(x, lmbda)


class Exp(SavesResult):
    """y = exp(x);  dx = grad * y.  Saves its result: writing x later is legal, y is not."""

    kernel = staticmethod(exp_array)
    # ``a.exp()`` of the dtypes exp_array hands to numpy's exp: numpy's exp without its frame
    dtype_kernels = dict.fromkeys(
        (np.dtypes.Float64DType, np.dtypes.Float16DType, np.dtypes.LongDoubleDType), np.exp
    )

    saved_as_arguments = True  # backward(ctx, grad, y): the runner hands y over (Op)

    @staticmethod
    def backward(ctx: Any, grad: Any, y: Any) -> Any:
        return grad * y


def exp(input: Any) -> Any:
    """``e ** input``.

    Example:
        >>> import minigrad
        >>> minigrad.exp(minigrad.tensor([0.0, 1.0]))
        tensor([1.0000, 2.7183])
    """
    return Exp._record(float_input(input))


def exp_(input: Any) -> Any:
    """``input = exp(input)`` in place (saves the result: a later in-place write breaks it)."""
    return float_inplace(input, Exp)


def float_inplace(input: Any, op: type[Op], *options: Any) -> Any:
    """An in-place op with a floating-point result: integer tensors cannot hold it."""
    if input._array.dtype.kind != "f":
        raise cast_refused(input, (), "Float")
    return apply_inplace(op, input, *options)


class Log(SavesInput):
    """y = log(x);  dx = grad / x.  Saves its input."""

    kernel = np.log

    @staticmethod
    def backward(ctx: Any, grad: Any) -> Any:
        (x,) = ctx.saved_tensors
        return grad / x


def log(input: Any) -> Any:
    """Natural logarithm (nan below 0, -inf at 0, as in PyTorch)."""
    return Log._record(float_input(input))


def log_(input: Any) -> Any:
    """``input = log(input)``, in place."""
    return float_inplace(input, Log)


class Sqrt(SavesResult):
    """y = sqrt(x);  dx = grad / (2 y).  Saves its result."""

    kernel = np.sqrt

    @staticmethod
    def backward(ctx: Any, grad: Any) -> Any:
        (y,) = ctx.saved_tensors
        return grad / (2 * y)


def sqrt(input: Any) -> Any:
    """Square root (nan below 0)."""
    return Sqrt._record(float_input(input))


def sqrt_(input: Any) -> Any:
    """``input = sqrt(input)``, in place."""
    return float_inplace(input, Sqrt)


_ONE = Constants(1.0)
_ZERO = Constants(0.0)


def sigmoid_array(x: np.ndarray) -> np.ndarray:
    """``1 / (1 + exp(-x))`` of an array, as PyTorch computes it: Sigmoid's kernel."""
    # SciPy's ``expit`` is that formula (PyTorch's, in its order) as one ufunc: one numpy call
    # where numpy's own ufuncs take four (negative, exp, add, reciprocal; 0.90 -> 0.22 us on
    # (8,) float32), and its exp is the C library's, nearer PyTorch's than numpy's float32
    # exp (1 ulp apart on 4 % of 2^20 normal inputs, against 17 %). It keeps the tiny tail
    # (sigmoid(-20) = 2.1e-9) and gives 0 below about -88.7 (float32), without a warning.
    if x.itemsize == 2:
        # float16: in float32, rounded once (PyTorch; expit has no float16 loop).
        return _expit(x.astype(_FLOAT32)).astype(x.dtype)
    return _expit(x)


_exp, _less, _less_equal = np.exp, np.less, np.less_equal


def _expit(x: np.ndarray) -> np.ndarray:
    """SciPy's ``expit``: at its first call this stub puts the ufunc in its place.

    (Here and in ``Sigmoid.dtype_kernels``, which holds this stub until then.)
    """
    global _expit
    _expit = _scipy_ufuncs.ufunc("expit")
    kernels = Sigmoid.dtype_kernels
    for dtype_class in _EXPIT_DTYPES:
        kernels[dtype_class] = _expit
    return _expit(x)


# The dtypes whose sigmoid is ``expit`` itself (float16 takes float32's loop, and rounds)
_EXPIT_DTYPES = (np.dtypes.Float32DType, np.dtypes.Float64DType)


class Sigmoid(SavesResult):
    """y = 1 / (1 + exp(-x));  dx = grad * (1 - y) * y.  Saves its result."""

    kernel = staticmethod(sigmoid_array)
    # ``a.sigmoid()`` of float32 and float64: the ufunc without sigmoid_array's frame and
    # dtype test (~880 of a no-grad call's ~10,900 instructions); the stub until it is loaded
    dtype_kernels = dict.fromkeys(_EXPIT_DTYPES, _expit)

    saved_as_arguments = True  # backward(ctx, grad, y): the runner hands y over (Op)

    @staticmethod
    def backward(ctx: Any, grad: Any, y: Any) -> Any:
        if type(y) is np.ndarray and type(grad) is np.ndarray:
            # Without create_graph: SigmoidBackward's formula on the arrays (``run``'s array
            # branch, without its argument loop nor a ctx: this is the chain's hottest node).
            return _sigmoid_grad(grad, y)
        return run(SigmoidBackward, grad, y)


def sigmoid_of(v: Any) -> Any:
    """PyTorch's sigmoid ``1 / (1 + exp(-v))`` for other ops' formulas: arrays or tensors.

    An array gets Sigmoid's own kernel (the one formula, float16 through float32); a tensor
    (a backward under create_graph) gets the differentiable op.
    """
    if is_tensor(v):
        return Sigmoid.apply(v)
    return sigmoid_array(v)


def sigmoid(input: Any) -> Any:
    """``1 / (1 + exp(-input))``.

    Example:
        >>> import minigrad
        >>> minigrad.sigmoid(minigrad.tensor([1.0, 2.0, 3.0]))
        tensor([0.7311, 0.8808, 0.9526])
    """
    return Sigmoid.apply(float_input(input))


def sigmoid_(input: Any) -> Any:
    """``input = sigmoid(input)``, in place."""
    return float_inplace(input, Sigmoid)


class SigmoidBackward(Op):
    """z = grad * (1 - y) * y, sigmoid's backward as an op of its own.

    Sigmoid's backward under create_graph records this node (PyTorch's
    ``SigmoidBackwardBackward0``);  dgrad = gz * y * (1 - y),  dy = gz * grad * (1 - 2y).
    Saves ``y`` if ``grad`` needs a gradient, both if ``y`` does (PyTorch).
    """

    num_inputs = 2

    @staticmethod
    def forward(ctx: Any, grad: Any, y: Any) -> np.ndarray:
        needs = ctx.needs_input_grad
        ctx.save_for_backward(grad if needs[1] else None, y if needs[0] or needs[1] else None)
        return _sigmoid_grad(grad, y)

    @staticmethod
    def backward(ctx: Any, gz: Any) -> tuple[Any, Any]:
        grad, y = ctx.saved_tensors
        needs = ctx.needs_input_grad
        return (
            run(SigmoidBackward, gz, y) if needs[0] else None,
            gz * grad * (1 - 2 * y) if needs[1] else None,
        )


# (module names read once: sigmoid's backward runs at every node of a chain)
_multiply = np.multiply
_subtract = np.subtract
_ndarray = np.ndarray


def _sigmoid_grad(grad: np.ndarray, y: np.ndarray) -> np.ndarray:
    """SigmoidBackward's formula on arrays: grad * (1 - y) * y.

    In PyTorch's order (its sigmoid_backward kernel): the same roundings, bit for bit. The
    ufuncs are called directly (no operator dispatch), and the last product goes into the
    second one's fresh array, which has its dtype and shape already (a ``y`` whose dtype it
    has, broadcast into it): one array made less. (A 0-d product is a numpy scalar.)
    """
    (one,) = _ONE.arrays[y.dtype]
    product = _multiply(grad, _subtract(one, y))
    if type(product) is _ndarray:
        return _multiply(product, y, product)  # (out positional: ufunc keywords cost more)
    return product * y


class Tanh(SavesResult):
    """y = tanh(x);  dx = grad * (1 - y**2).  Saves its result."""

    kernel = np.tanh
    saved_as_arguments = True  # backward(ctx, grad, y): the runner hands y over (Op)

    @staticmethod
    def backward(ctx: Any, grad: Any, y: Any) -> Any:
        return run(TanhBackward, grad, y)


def tanh(input: Any) -> Any:
    """Hyperbolic tangent."""
    return Tanh._record(float_input(input))


def tanh_(input: Any) -> Any:
    """``input = tanh(input)``, in place."""
    return float_inplace(input, Tanh)


class TanhBackward(Op):
    """z = grad * (1 - y**2), tanh's backward as an op of its own.

    Tanh's backward under create_graph records this node (PyTorch's ``TanhBackwardBackward0``);
    dgrad = gz * (1 - y**2),  dy = -2 * gz * grad * y.  Saves ``y`` if ``grad`` needs a gradient,
    both if ``y`` does (PyTorch).
    """

    num_inputs = 2

    @staticmethod
    def forward(ctx: Any, grad: Any, y: Any) -> np.ndarray:
        needs = ctx.needs_input_grad
        ctx.save_for_backward(grad if needs[1] else None, y if needs[0] or needs[1] else None)
        if y.dtype is FLOAT16:  # (PyTorch's kernel: in float32, rounded once)
            return in_float32(_tanh_gradient, grad, y)
        return _tanh_gradient(grad, y)

    @staticmethod
    def backward(ctx: Any, gz: Any) -> tuple[Any, Any]:
        grad, y = ctx.saved_tensors
        needs = ctx.needs_input_grad
        return (
            run(TanhBackward, gz, y) if needs[0] else None,
            gz * (-2 * y * grad) if needs[1] else None,
        )


def _tanh_gradient(grad: np.ndarray, y: np.ndarray) -> np.ndarray:
    """``grad * (1 - y**2)`` on arrays: TanhBackward's formula."""
    (one,) = _ONE.of(y)
    return grad * (one - y * y)


def relu_array(x: np.ndarray) -> np.ndarray:
    """``max(x, 0)`` of an array as PyTorch's: -0.0 and nan kept (np.maximum gives 0.0)."""
    # Compared with a 0-d zero of x's dtype: numpy converts a Python 0 on every call.
    (zero,) = _ZERO.of(x)
    return zero_where(_less(x, zero), x)


class Relu(SavesResult):
    """y = max(x, 0);  dx = grad where y > 0.  Saves its result."""

    kernel = staticmethod(relu_array)

    saved_as_arguments = True  # backward(ctx, grad, y): the runner hands y over (Op)

    @staticmethod
    def backward(ctx: Any, grad: Any, y: Any) -> Any:
        if type(y) is np.ndarray and type(grad) is np.ndarray:
            # Without create_graph: ThresholdBackward's formula on the arrays (``run``'s array
            # branch without its argument loop, as Sigmoid's backward).
            return _threshold_grad(grad, y)
        return run(ThresholdBackward, grad, y)


def relu(input: Any) -> Any:
    """``max(input, 0)``."""
    if isinstance(input, TensorBase) and input._array.dtype.kind == "f":
        return _record_relu(input)  # nothing to check: straight to recording (Relu._record)
    _check_relu(input)
    return Relu.apply(input)


def relu_(input: Any) -> Any:
    """``input = max(input, 0)``, in place."""
    _check_relu(input)
    return apply_inplace(Relu, input)


_record_relu = Relu._record


def _check_relu(input: Any) -> None:
    """PyTorch refuses relu of a bool tensor (in place too) with a text of its own."""
    if is_bool(input):
        raise RuntimeError(errors.RELU_BOOL)


class ThresholdBackward(Op):
    """z = grad where y > 0, else 0: relu's backward as an op of its own.

    Relu's backward under create_graph records this node (PyTorch's
    ``ThresholdBackwardBackward0``);  dgrad = gz where y > 0, else 0;  dy = 0.  Saves ``y``.
    PyTorch's threshold_backward: 0 where y <= 0 (an infinite grad too), else grad (nan too).
    """

    num_inputs = 2

    @staticmethod
    def forward(ctx: Any, grad: Any, y: Any) -> np.ndarray:
        if ctx is not NO_GRAD_CTX:
            ctx.save_for_backward(y)
        return _threshold_grad(grad, y)

    @staticmethod
    def backward(ctx: Any, gz: Any) -> tuple[Any, Any]:
        (y,) = ctx.saved_tensors
        needs = ctx.needs_input_grad
        return (
            run(ThresholdBackward, gz, y) if needs[0] else None,
            zeros_like_grad(gz) if needs[1] else None,
        )


def _threshold_grad(grad: np.ndarray, y: np.ndarray) -> np.ndarray:
    """ThresholdBackward's formula on arrays: 0 where y <= 0, else grad.

    PyTorch's threshold_backward: an infinite grad is zeroed too, a nan grad kept where y > 0.
    """
    (zero,) = _ZERO.of(y)
    return zero_where(_less_equal(y, zero), grad)


class Reciprocal(SavesResult):
    """y = 1 / x;  dx = -grad * y**2.  Saves its result."""

    kernel = np.reciprocal

    @staticmethod
    def backward(ctx: Any, grad: Any) -> Any:
        (y,) = ctx.saved_tensors
        return -grad * (y * y)  # (PyTorch's order: float16 rounds each step)


def reciprocal(input: Any) -> Any:
    """``1 / input``."""
    return Reciprocal._record(float_input(input))


def reciprocal_(input: Any) -> Any:
    """``1 / input`` in place (a floating-point tensor only: the result cannot be an integer)."""
    return float_inplace(input, Reciprocal)


class Clone(Op):
    """y = a copy of x, laid out in memory as x (PyTorch's preserve_format);  dx = grad.

    Saves nothing.
    """

    saves = ()  # (declared: its node has no slot for saved values, autograd/function.py)

    @staticmethod
    def forward(ctx: Any, x: np.ndarray) -> np.ndarray:
        return copy_preserving_layout(x)

    @staticmethod
    def backward(ctx: Any, grad: Any) -> Any:
        return grad


class ContiguousClone(Clone):
    """y = a row-major copy of x (``contiguous()``, ``reshape``'s copy);  dx = grad.

    PyTorch's ``clone(memory_format=torch.contiguous_format)``: the same node as ``clone()``.
    """

    node_name = "CloneBackward0"

    @staticmethod
    def forward(ctx: Any, x: np.ndarray) -> np.ndarray:
        return x.copy()


class ChannelsLastClone(Clone):
    """y = a copy of x laid out channels-last (NHWC, or NDHWC for 5-d);  dx = grad.

    PyTorch's ``clone(memory_format=torch.channels_last)``: the same node as ``clone()``.
    """

    node_name = "CloneBackward0"

    @staticmethod
    def forward(ctx: Any, x: np.ndarray) -> np.ndarray:
        return copy_in_format(x, channels_last if x.ndim == 4 else channels_last_3d)


def clone(input: Any, *, memory_format: Any = preserve_format) -> Any:
    """A copy of ``input`` that gradients flow through (a fresh buffer and version counter).

    Laid out as ``input`` (``preserve_format``, or None), row-major (``contiguous_format``) or
    channels-last (PyTorch's error for a tensor of another rank than the format's).

    Example:
        >>> import minigrad
        >>> x = minigrad.zeros(2, 3, 4, 5)
        >>> minigrad.clone(x, memory_format=minigrad.channels_last).stride()
        (60, 1, 15, 3)
    """
    if memory_format is None or memory_format is preserve_format:
        return Clone.apply(input)
    format_strides(operand(input).shape, memory_format)  # (the rank's error, up front)
    if memory_format is contiguous_format:
        return ContiguousClone.apply(input)
    return ChannelsLastClone.apply(input)


def contiguous_copy(input: Any) -> Any:
    """A row-major copy of ``input`` that gradients flow through (``CloneBackward0``)."""
    return ContiguousClone.apply(input)


def rdiv(input: Any, other: Any) -> Any:
    """``other / input`` for a number ``other``: recorded as ``reciprocal(input) * other``."""
    return mul(reciprocal(input), other)


class Sign(Op):
    """y = sign(x), 0 for nan (PyTorch's);  dx = 0 (the gradient of a step function).

    Saves nothing.
    """

    saves = ()  # (it saves nothing: its node has no slot for saved values)
    result_layout = staticmethod(elementwise_result)  # (TensorIterator's)

    @staticmethod
    def forward(ctx: Any, x: np.ndarray) -> np.ndarray:
        return sign_of(x)

    @staticmethod
    def backward(ctx: Any, grad: Any) -> Any:
        return zeros_like_grad(grad)


def sign(input: Any) -> Any:
    """-1, 0 or 1 by the sign of each element (a bool tensor: itself, copied)."""
    if operand(input).dtype == np.bool_:
        return Clone.apply(input)
    return Sign.apply(input)


def sign_(input: Any) -> Any:
    """-1, 0 or 1 by the sign of each element, in place (a bool tensor keeps its values)."""
    return apply_inplace(Clone if input._array.dtype == np.bool_ else Sign, input)


def sign_of(x: Any) -> Any:
    """-1, 0 or 1 in ``x``'s dtype, computed as PyTorch does: ``(0 < x) - (x < 0)``.

    So nan has sign 0 (numpy's ``sign`` gives nan), and so does -0.0.
    """
    if not isinstance(x, np.ndarray):
        return x.sign()  # a tensor (create_graph): the op itself
    if x.dtype.kind == "b":
        return x.copy()
    return np.subtract(x > 0, x < 0, dtype=x.dtype)


_LN2 = math.log(2.0)


_LN10 = math.log(10.0)


_TWO_OVER_SQRT_PI = 2.0 / math.sqrt(math.pi)


class Exp2(SavesResult):
    """y = 2 ** x;  dx = grad * y * ln 2.  Saves its result: writing x later is legal."""

    kernel = np.exp2

    @staticmethod
    def backward(ctx: Any, grad: Any) -> Any:
        (y,) = ctx.saved_tensors
        return run(MulScalar, grad * y, _LN2)  # (C++'s ``* M_LN2``: MulBackward1)


def exp2(input: Any) -> Any:
    """``2 ** input``."""
    return Exp2._record(float_input(input))


def exp2_(input: Any) -> Any:
    """``exp2`` in place (a floating-point tensor only: the result cannot be an integer)."""
    return float_inplace(input, Exp2)


class Expm1(SavesResult):
    """y = exp(x) - 1 (accurate near 0);  dx = grad * (y + 1).  Saves its result."""

    kernel = np.expm1

    @staticmethod
    def backward(ctx: Any, grad: Any) -> Any:
        (y,) = ctx.saved_tensors
        return grad * (y + 1)


def expm1(input: Any) -> Any:
    """``exp(input) - 1``, accurate for small inputs."""
    return Expm1._record(float_input(input))


def expm1_(input: Any) -> Any:
    """``expm1`` in place (a floating-point tensor only: the result cannot be an integer)."""
    return float_inplace(input, Expm1)


class LogBase(SavesInput):
    """y = log_b(x) for a fixed base b;  dx = grad / (x ln b).  Saves its input."""

    ln_base: ClassVar[float]

    @classmethod
    def backward(cls, ctx: Any, grad: Any) -> Any:
        (x,) = ctx.saved_tensors
        return grad / times_number(x, cls.ln_base)


class Log2(LogBase):
    """y = log2(x);  dx = grad / (x ln 2).  Saves its input."""

    kernel = np.log2
    ln_base = _LN2


def log2(input: Any) -> Any:
    """Base-2 logarithm."""
    return Log2._record(float_input(input))


def log2_(input: Any) -> Any:
    """``log2`` in place (a floating-point tensor only: the result cannot be an integer)."""
    return float_inplace(input, Log2)


class Log10(LogBase):
    """y = log10(x);  dx = grad / (x ln 10).  Saves its input."""

    kernel = np.log10
    ln_base = _LN10


def log10(input: Any) -> Any:
    """Base-10 logarithm."""
    return Log10._record(float_input(input))


def log10_(input: Any) -> Any:
    """``log10`` in place (a floating-point tensor only: the result cannot be an integer)."""
    return float_inplace(input, Log10)


class Log1p(SavesInput):
    """y = log(1 + x) (accurate near 0);  dx = grad / (1 + x).  Saves its input."""

    node_name = "Log1PBackward0"

    kernel = np.log1p

    @staticmethod
    def backward(ctx: Any, grad: Any) -> Any:
        (x,) = ctx.saved_tensors
        return grad / (x + 1)


def log1p(input: Any) -> Any:
    """``log(1 + input)``, accurate for small inputs."""
    return Log1p._record(float_input(input))


def log1p_(input: Any) -> Any:
    """``log1p`` in place (a floating-point tensor only: the result cannot be an integer)."""
    return float_inplace(input, Log1p)


def _rsqrt(x: np.ndarray) -> np.ndarray:
    """``1 / sqrt(x)``: Rsqrt's formula."""
    return np.reciprocal(np.sqrt(x))


class Rsqrt(SavesResult):
    """y = 1 / sqrt(x);  dx = -grad * y**3 / 2.  Saves its result.

    A float16 x: in float32, rounded once (PyTorch's vectorised loop); but where PyTorch's
    scalar loop computes it (a 0-d or strided x, a tail shorter than a vector step:
    opmath.scalar_loop_mask), c10::Half's sqrt is rounded to float16 before the division.
    """

    @staticmethod
    def kernel(x: np.ndarray) -> np.ndarray:
        y = in_float32(_rsqrt, x)
        if type(x) is np.ndarray and x.dtype is FLOAT16:
            scalar = scalar_loop_mask(x, None)
            if scalar is not None:
                y = np.where(scalar, in_float32(np.reciprocal, in_float32(np.sqrt, x)), y)
        return y

    @staticmethod
    def backward(ctx: Any, grad: Any) -> Any:
        (y,) = ctx.saved_tensors
        return times_number(grad, -0.5) * y**3  # (PyTorch's steps: -0.5 * grad * y.pow(3))


def rsqrt(input: Any) -> Any:
    """``1 / sqrt(input)``."""
    return Rsqrt._record(float_input(input))


def rsqrt_(input: Any) -> Any:
    """``rsqrt`` in place (a floating-point tensor only: the result cannot be an integer)."""
    return float_inplace(input, Rsqrt)


def per_element(
    function: Callable[[float], float], single: str
) -> Callable[[np.ndarray], np.ndarray]:
    """A kernel computing ``function`` (a ``math`` one) of each element, in the array's dtype.

    For functions numpy lacks. ``single`` names the same function among SciPy's ufuncs, which
    compute in double and round: for float32 and float16 its results are ``function``'s
    bits (checked over every float16 and 2^20 float32 values) at ~6x the speed of a Python
    call per element. float64 keeps ``function``: the C library's, nearer PyTorch's than
    SciPy's Cephes (``math.erf`` is correctly rounded nearly always).
    """
    scalar = np.frompyfunc(function, 1, 1)

    def kernel(x: np.ndarray) -> np.ndarray:
        """``function`` of each element of ``x``."""
        if x.dtype != _FLOAT64:  # (float16 runs SciPy's float32 loop)
            return _scipy_ufuncs.ufunc(single)(x).astype(x.dtype, copy=False)
        return np.asarray(scalar(x), dtype=np.float64)

    return kernel


# the error function of an array, in its float dtype
erf_array = per_element(math.erf, "erf")


class Erf(SavesInput):
    """y = erf(x);  dx = grad * 2 / sqrt(pi) * exp(-x**2).  Saves its input."""

    kernel = staticmethod(erf_array)

    @staticmethod
    def backward(ctx: Any, grad: Any) -> Any:
        (x,) = ctx.saved_tensors
        return times_number(np.exp(-(x * x)), _TWO_OVER_SQRT_PI) * grad  # (PyTorch's steps)


def erf(input: Any) -> Any:
    """The error function ``2 / sqrt(pi) * integral of exp(-t**2) from 0 to input``."""
    return Erf._record(float_input(input))


def erf_(input: Any) -> Any:
    """``erf`` in place (a floating-point tensor only: the result cannot be an integer)."""
    return float_inplace(input, Erf)


class NanToNum(Op):
    """y = x with nan, +inf, -inf replaced;  dx = grad where x is finite.  Saves its input."""

    @staticmethod
    def forward(ctx: Any, x: np.ndarray, nan: Any, posinf: Any, neginf: Any) -> np.ndarray:
        ctx.save_for_backward(x)
        result = np.nan_to_num(x, copy=True, nan=nan, posinf=posinf, neginf=neginf)
        return preserved_result(result, (x,))  # (vectors too: PyTorch's preserve_format)

    @staticmethod
    def backward(ctx: Any, grad: Any) -> tuple[Any, None, None, None]:
        (x,) = ctx.saved_tensors
        return grad * np.isfinite(x), None, None, None


def nan_to_num(
    input: Any, nan: float = 0.0, posinf: float | None = None, neginf: float | None = None
) -> Any:
    """Replace nan by ``nan``, +inf by ``posinf``, -inf by ``neginf``.

    By default, infinities become the dtype's largest and smallest finite values.
    """
    if operand(input).dtype.kind != "f":
        return Clone.apply(input)  # an integer tensor has no nan or inf: a copy
    return NanToNum.apply(input, nan, posinf, neginf)


def nan_to_num_(
    input: Any, nan: float = 0.0, posinf: float | None = None, neginf: float | None = None
) -> Any:
    """nan, +inf and -inf replaced by finite values, in place (integer tensors: unchanged)."""
    if input._array.dtype.kind != "f":
        return apply_inplace(Clone, input)
    return apply_inplace(NanToNum, input, nan, posinf, neginf)


def square(input: Any) -> Any:
    """``input ** 2`` (recorded as ``pow``, as in PyTorch; bool input gives int64)."""
    if operand(input).dtype == np.bool_:
        input = cast(input, np.dtype(np.int64))
    return pow(input, 2)


def square_(input: Any) -> Any:
    """``input ** 2`` in place (recorded as ``pow_``, as in PyTorch)."""
    return pow_(input, 2)


# NumPy's names, which PyTorch takes too (the same functions: the same nodes and messages)
absolute, absolute_ = abs, abs_
negative, negative_ = neg, neg_
