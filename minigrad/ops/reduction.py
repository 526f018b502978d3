"""Reductions: sum, mean, prod, var/std, max/min, amax/amin, argmax, logsumexp, all, any.

Cumulative sums and products are in ``cumulative.py``, softmax in ``softmax.py``, norms in
``norms.py``.

What each saves is what PyTorch 2.13 saves. sum, mean and cumsum save nothing: their gradients
need only the input's shape, which is metadata, so writing the input in place after a ``sum``
is legal. prod, std, max(), amax, logsumexp, norm and cumprod save their input and result; var
saves its input; max(dim) only its indices; softmax and log_softmax only their result.
"""

from __future__ import annotations

import builtins
import math
from collections.abc import Callable
from typing import Any, ClassVar, NamedTuple

import numpy as np

from minigrad import _arguments, _warnings, errors
from minigrad._dtype import check_scalar_arguments, default_float, display_name, to_numpy_dtype
from minigrad._layout import contiguous_result
from minigrad.autograd import record
from minigrad.autograd.function import NO_GRAD_CTX, Op
from minigrad.autograd.saved_attributes import as_given, dims_as_given, numel
from minigrad.autograd.tensor_base import TensorBase
from minigrad.ops._helpers import (
    along,
    check_differentiable_result,
    float_input,
    normalize_dims,
    operand,
    raw,
    restore_reduced,
    run,
    sum_dtype,
    wrap_dim,
)
from minigrad.ops.arithmetic import DivScalar, MulScalar, maximum, minimum
from minigrad.ops.cumulative import Cumprod
from minigrad.ops.opmath import FLOAT16, FLOAT32, in_float32
from minigrad.ops.return_types import (
    return_types,
)
from minigrad.ops.shape import (
    Flip,
)
from minigrad.ops.sorting import (
    scatter_to_indices,
)


def reduced_dims(dim: Any, ndim: int) -> tuple[int, ...]:
    """``dim`` as sorted axes; an empty list of dims means every dim.

    That is PyTorch's rule for sum, mean, var, std and the vector norms (not for amax or all).
    """
    if type(dim) is int and -ndim <= dim < ndim:
        return (dim % ndim,)  # the common call, one dim in range: ~2 us less than the checks
    if isinstance(dim, (tuple, list)) and len(dim) == 0:
        dim = None
    return normalize_dims(dim, ndim)


def _spread(grad: Any, shape: tuple[int, ...], axes: tuple[int, ...], keepdim: bool) -> Any:
    """The gradient of a reduction over ``axes``: ``grad`` copied back along those axes."""
    if not keepdim and axes:
        grad = np.expand_dims(grad, axes)
    return np.broadcast_to(grad, shape)


def _array_out() -> Any:
    """``out=`` for a reduction to give a 0-d array rather than a numpy scalar.

    numpy >= 2.3 takes ``out=...`` for that: the result is then a tensor's buffer as it is, with
    no ``np.asarray`` call after it (about 0.2 µs on a small sum). Older numpy: None, a scalar
    (which recording turns into an array).
    """
    try:
        np.add.reduce(np.zeros(1), out=...)
    except TypeError:  # pragma: no cover - numpy < 2.3
        return None
    return ...


_ARRAY_OUT = _array_out()
# Bound once: ``np.add.reduce`` looks the ufunc's method up on every call (~0.08 µs of a small
# sum's ~0.9).
_add_reduce = np.add.reduce
_true_divide = np.true_divide


def _sum_all(x: np.ndarray, dtype: Any = None) -> np.ndarray:
    """The sum of all of ``x``'s elements (in ``dtype``): Sum's work, as a 0-d array.

    np.sum without its Python layers (axis and dtype positional: a cheaper call).
    """
    return _add_reduce(x, None, dtype, out=_ARRAY_OUT)


def _mean_all(
    x: np.ndarray, dtype: Any = None, axes: tuple[int, ...] | None = None, keepdim: bool = False
) -> np.ndarray:
    """The mean of ``x`` over ``axes`` (None: all), in ``dtype`` (None: x's), as an array.

    Mean's and MeanDim's work: np.mean's own steps without its Python layers (~3 us of a
    small mean): the sum, then its division by the count in float64 rounded once to the
    mean's dtype (np.mean's count is an np.intp). A count of at most 2048 is exact in every
    float dtype, and the division in the mean's own dtype is then the same value bit for bit
    (float64's quotient rounded again is the correctly rounded one for these significands),
    without the float64 detour. An empty slice gives 0 / 0: nan, as PyTorch (silently: in
    numpy's quiet state, and without np.mean's "Mean of empty slice" warning).
    """
    if dtype is None:
        dtype = x.dtype
    if dtype is FLOAT16:  # PyTorch's: the sum and the division in float32, rounded once
        return _mean_all(x, FLOAT32, axes, keepdim).astype(FLOAT16)
    if axes is None:  # (Mean's call, without the keyword and the count MeanDim's need)
        total = _add_reduce(x, None, dtype, out=_ARRAY_OUT)
        count = x.size
    else:
        total = _add_reduce(x, axes, dtype, out=_ARRAY_OUT, keepdims=keepdim)
        # elements per result element (an empty result divides nothing: any count will do)
        count = x.size // total.size if total.size else 1
    if count <= 2048:
        return _true_divide(total, count, out=_ARRAY_OUT)
    return _true_divide(total, count, dtype=np.float64, out=_ARRAY_OUT).astype(total.dtype)


class Sum(Op):
    """y = sum of all elements;  dx = grad broadcast to x's shape.  Saves nothing."""

    saves = ()  # (declared: its node has no slot for saved values, autograd/function.py)
    fields = ("shape",)
    saved_options = {"self_sym_sizes": "shape"}
    # Under no_grad the recording function calls the sum in numpy's quiet context without
    # forward's frame and the error state set and reset around it (benchmarks/README.md: ngsum)
    no_grad_kernel = _sum_all

    @staticmethod
    def forward(ctx: Any, x: np.ndarray, dtype: Any = None) -> np.ndarray:
        if ctx is not NO_GRAD_CTX:  # (the no-grad ctx drops notes through a Python call)
            ctx.shape = x.shape
        # (``_sum_all`` written out: a recorded ``x.sum()`` without its frame)
        return _add_reduce(x, None, dtype, out=_ARRAY_OUT)

    @staticmethod
    def backward(ctx: Any, grad: Any) -> tuple[Any, None]:
        return np.broadcast_to(grad, ctx.shape), None


class SumDim(Op):
    """y = sum over ``dim``;  dx = grad copied back along ``dim``.  Saves nothing.

    ``axes`` are the dims normalised (what backward uses); ``given_dim`` the dims as the user
    gave them, which PyTorch's ``_saved_dim`` shows.
    """

    saves = ()  # (declared: its node has no slot for saved values, autograd/function.py)
    result_layout = staticmethod(contiguous_result)  # (PyTorch's: contiguous)

    fields = ("shape", "axes", "keepdim", "given_dim")
    saved_options = {"dim": dims_as_given("given_dim"), "keepdim": "keepdim",
                     "self_sym_sizes": "shape"}

    node_name = "SumBackward1"

    @staticmethod
    def forward(ctx: Any, x: np.ndarray, axes: tuple[int, ...], keepdim: bool,
                dtype: Any, given_dim: Any) -> np.ndarray:
        if ctx is not NO_GRAD_CTX:  # (as Sum's)
            ctx.shape, ctx.axes, ctx.keepdim, ctx.given_dim = x.shape, axes, keepdim, given_dim
        return _add_reduce(x, axis=axes, keepdims=keepdim, dtype=dtype, out=_ARRAY_OUT)

    @staticmethod
    def backward(ctx: Any, grad: Any) -> tuple[Any, None, None, None, None]:
        return _spread(grad, ctx.shape, ctx.axes, ctx.keepdim), None, None, None, None


class Mean(Op):
    """y = mean of all elements;  dx = grad / n broadcast to x's shape.  Saves nothing."""

    saves = ()  # (declared: its node has no slot for saved values, autograd/function.py)
    fields = ("shape",)
    saved_options = {"self_sym_sizes": "shape", "self_sym_numel": numel("shape")}
    no_grad_kernel = _mean_all  # (as Sum's)

    @staticmethod
    def forward(ctx: Any, x: np.ndarray, dtype: Any = None) -> np.ndarray:
        ctx.shape = x.shape
        return _mean_all(x, dtype)  # mean(dtype=): computed in that dtype

    @staticmethod
    def backward(ctx: Any, grad: Any) -> tuple[Any, None]:
        # PyTorch's mean_backward: sum's gradient (the expand), then C++'s ``/ numel``, which
        # a double backward shows as DivBackward1 after ExpandBackward0
        return run(DivScalar, np.broadcast_to(grad, ctx.shape), math.prod(ctx.shape)), None


class MeanDim(Op):
    """y = mean over ``dim``;  dx = grad / n copied back along ``dim``.  Saves nothing.

    ``axes`` and ``given_dim`` as SumDim's.
    """

    saves = ()  # (declared: its node has no slot for saved values, autograd/function.py)
    result_layout = staticmethod(contiguous_result)  # (PyTorch's: contiguous)

    fields = ("shape", "axes", "keepdim", "given_dim")
    saved_options = {"dim": dims_as_given("given_dim"), "keepdim": "keepdim",
                     "self_sym_sizes": "shape", "self_sym_numel": numel("shape")}

    node_name = "MeanBackward1"

    @staticmethod
    def forward(ctx: Any, x: np.ndarray, axes: tuple[int, ...], keepdim: bool,
                dtype: Any, given_dim: Any) -> np.ndarray:
        if ctx is not NO_GRAD_CTX:  # (as Sum's)
            ctx.shape, ctx.axes, ctx.keepdim, ctx.given_dim = x.shape, axes, keepdim, given_dim
        return _mean_all(x, dtype, axes, keepdim)

    @staticmethod
    def backward(ctx: Any, grad: Any) -> tuple[Any, None, None, None, None]:
        return mean_grad(grad, ctx.shape, ctx.axes, ctx.keepdim), None, None, None, None


def mean_grad(grad: Any, shape: tuple[int, ...], axes: tuple[int, ...], keepdim: bool) -> Any:
    """A mean's input gradient: ``grad`` copied back along ``axes`` (as sum's), then ``/ n``.

    PyTorch's mean_backward: the ``/ n`` is C++'s scalar division, which a double backward
    shows as DivBackward1 (``DivScalar``). Also var_mean's and std_mean's mean part.
    """
    return run(DivScalar, _spread(grad, shape, axes, keepdim), _count(shape, axes))


_record_sum_dim = SumDim._record_options
_record_mean_dim = MeanDim._record_options


def sum(
    input: Any, dim: Any = _arguments.NOT_GIVEN, keepdim: bool = False, *, dtype: Any = None
) -> Any:
    """Sum of all elements, or over ``dim`` (int or tuple); integers and bools sum to int64.

    As PyTorch's two overloads: without a ``dim`` the sum records SumBackward0; with one, even
    ``dim=None`` (every dim), SumBackward1.

    Example:
        >>> import minigrad
        >>> minigrad.tensor([[1.0, 2.0], [3.0, 4.0]]).sum(dim=0)
        tensor([4., 6.])
    """
    array = operand(input)
    numpy_dtype = sum_dtype(array, dtype, "sum")
    if dim is _arguments.NOT_GIVEN:
        if numpy_dtype is None:
            return Sum._record(input)  # no options: the fast branch Sum.apply would take
        check_differentiable_result(numpy_dtype, input)  # (an integer dtype= of a float input)
        return Sum.apply(input, numpy_dtype)
    dims = reduced_dims(dim, array.ndim)
    if numpy_dtype is not None:
        check_differentiable_result(numpy_dtype, input)
    # (SumDim's recording function for options, which ``apply`` would call: one call less)
    return _record_sum_dim(input, dims, keepdim, numpy_dtype, dim)


def mean(
    input: Any, dim: Any = _arguments.NOT_GIVEN, keepdim: bool = False, *, dtype: Any = None
) -> Any:
    """Mean of all elements, or over ``dim``; floating-point tensors only (as in PyTorch).

    Without a ``dim`` the mean records MeanBackward0; with one (``dim=None`` too),
    MeanBackward1, as PyTorch's two overloads.

    ``dtype`` (a floating-point dtype) is the dtype the mean is computed in and returned as.

    Example:
        >>> import minigrad
        >>> minigrad.tensor([1.0, 2.0, 4.0]).mean()
        tensor(2.3333)
    """
    array = operand(input)
    if dtype is not None:
        numpy_dtype = to_numpy_dtype(dtype, "mean")
        if numpy_dtype.kind != "f":
            raise RuntimeError(errors.mean_optional_dtype(display_name(numpy_dtype)))
        if dim is _arguments.NOT_GIVEN:
            return Mean.apply(input, numpy_dtype)
        return MeanDim.apply(input, reduced_dims(dim, array.ndim), keepdim, numpy_dtype, dim)
    if array.dtype.kind != "f":
        raise RuntimeError(errors.mean_dtype(display_name(array.dtype)))
    if dim is _arguments.NOT_GIVEN:
        return Mean._record(input)  # no options: the fast branch Mean.apply would take
    return _record_mean_dim(input, reduced_dims(dim, array.ndim), keepdim, None, dim)  # (as sum)


# --- more reductions: prod, var/std, max/min, amax/amin, argmax, logsumexp, norm, cumulative,
# --- softmax, all/any -------------------------------------------------------------------------
#
# Several backward formulas keep a reduced gradient next to the input: ``restore_reduced`` puts
# reduced axes back (size 1) so it broadcasts. Masks and indices that only select (ties of
# max, zeros of prod) are computed on the arrays behind the tensors (``raw``): they are not
# differentiable, so they need no graph.


def _count(shape: tuple[int, ...], axes: tuple[int, ...]) -> int:
    return int(np.prod([shape[a] for a in axes]))


class Prod(Op):
    """y = product of all elements;  dx_i = grad * product of the other elements.

    Saves its input and its result (PyTorch's ProdBackward0): without zeros, dx = grad * y / x;
    with zeros, products of the elements before and after each one (no division); with two
    zeros or more (off create_graph), zeros.
    """

    @staticmethod
    def forward(ctx: Any, x: np.ndarray, dtype: Any) -> np.ndarray:
        y = np.asarray(np.prod(x, dtype=dtype))
        ctx.save_for_backward(x, y)
        return y

    @staticmethod
    def backward(ctx: Any, grad: Any) -> tuple[Any, None]:
        x, y = ctx.saved_tensors
        if np.ndim(x) == 0:
            return grad, None
        zeros = int(np.count_nonzero(raw(x) == 0))
        if not zeros:
            return grad * (y / x), None
        if zeros > 1 and isinstance(grad, np.ndarray):
            # PyTorch's shortcut off create_graph: two zeros make every product of the others
            # 0, given as zeros (not grad * 0: no -0.0, and nan or inf elements give 0 too)
            return np.zeros(np.shape(x), dtype=grad.dtype), None
        flat = np.reshape(x, (-1,))
        return np.reshape(grad * _products_of_others(flat, 0), np.shape(x)), None


class ProdDim(Op):
    """y = product over ``dim``;  dx_i = grad * product of the other elements of its slice.

    Saves its input and its result.
    """

    result_layout = staticmethod(contiguous_result)  # (PyTorch's: contiguous)

    fields = ("dim", "keepdim", "given_dim")
    saved_options = {"dim": as_given("given_dim"), "keepdim": "keepdim"}

    node_name = "ProdBackward1"

    @staticmethod
    def forward(ctx: Any, x: np.ndarray, dim: int, keepdim: bool, dtype: Any,
                given_dim: int) -> np.ndarray:
        axis = dim if x.ndim else None
        y = np.asarray(np.prod(x, axis=axis, keepdims=keepdim, dtype=dtype))
        ctx.save_for_backward(x, y)
        ctx.dim, ctx.keepdim, ctx.given_dim = dim, keepdim, given_dim
        return y

    @staticmethod
    def backward(ctx: Any, grad: Any) -> tuple[Any, None, None, None, None]:
        x, y = ctx.saved_tensors
        if np.ndim(x) == 0:
            return grad, None, None, None, None
        axes = (ctx.dim,)
        grad, y = restore_reduced(grad, axes, ctx.keepdim), restore_reduced(y, axes, ctx.keepdim)
        if not (raw(x) == 0).any():
            return grad * (y / x), None, None, None, None
        return grad * _products_of_others(x, ctx.dim), None, None, None, None


def _products_of_others(x: Any, dim: int) -> Any:
    """For each element, the product of the other elements along ``dim`` (zeros allowed).

    The product of those before it (an exclusive cumprod) times those after it (the same,
    on the reversed slice), as PyTorch's prod_safe_zeros_backward.
    """
    size = np.shape(x)[dim]
    if size == 0:
        return x
    ones_shape = list(np.shape(x))
    ones_shape[dim] = 1
    ones = np.ones(ones_shape, dtype=raw(x).dtype)
    before = np.concatenate([ones, x[along(dim, slice(0, size - 1))]], axis=dim)
    after = np.concatenate([ones, run(Flip, x[along(dim, slice(1, size))], (dim,))], axis=dim)
    exclusive_before = run(Cumprod, before, dim, None)
    exclusive_after = run(Flip, run(Cumprod, after, dim, None), (dim,))
    return exclusive_before * exclusive_after


class _EveryDim:
    """The default ``dim`` of ``prod``: every dim.

    PyTorch's prod takes one int dim or none at all, so an explicit None is an error there
    (unlike sum's dim=None), and None cannot be the default.
    """

    def __repr__(self) -> str:
        return "<every dim>"


EVERY_DIM: Any = _EveryDim()


def prod(input: Any, dim: Any = EVERY_DIM, keepdim: bool = False, *, dtype: Any = None) -> Any:
    """Product of all elements, or over one ``dim``; integers and bools multiply to int64.

    Example:
        >>> import minigrad
        >>> minigrad.tensor([[1.0, 2.0], [3.0, 4.0]]).prod(1)
        tensor([ 2., 12.])
    """
    array = operand(input)
    numpy_dtype = sum_dtype(array, dtype, "prod")
    if dim is EVERY_DIM:
        check_differentiable_result(array.dtype if numpy_dtype is None else numpy_dtype, input)
        return Prod.apply(input, numpy_dtype)
    if not isinstance(dim, int) or isinstance(dim, bool):
        raise TypeError(
            errors.wrong_argument_type("prod", "dim", "int", errors.python_type_name(dim))
        )
    wrapped = wrap_dim(dim, array.ndim)
    check_differentiable_result(array.dtype if numpy_dtype is None else numpy_dtype, input)
    return ProdDim.apply(input, wrapped, keepdim, numpy_dtype, dim)


class Var(Op):
    """y = sum((x - mean)**2) / (n - correction) over ``dim`` (all elements if None).

    dx = 2 / (n - correction) * grad * (x - mean).  Saves its input (PyTorch's VarBackward0).
    ``given_correction``: the correction as PyTorch's node shows it (None if not given).
    """

    result_layout = staticmethod(contiguous_result)  # (PyTorch's: contiguous)

    fields = ("axes", "correction", "keepdim", "grad_rule", "given_dim", "given_correction")
    saved_options = {"dim": dims_as_given("given_dim"), "correction": "given_correction",
                     "keepdim": "keepdim"}

    @staticmethod
    def forward(ctx: Any, x: np.ndarray, moments: Moments) -> np.ndarray:
        ctx.save_for_backward(x)
        moments.keep_on(ctx)
        return _variance(x, moments.axes, moments.correction, moments.keepdim)

    @staticmethod
    def backward(ctx: Any, grad: Any) -> tuple[Any, None]:
        (x,) = ctx.saved_tensors
        return _var_grad(grad, x, ctx.axes, ctx.correction, ctx.keepdim, ctx.grad_rule), None


class Std(Op):
    """y = sqrt(var(x));  dx = var's gradient for grad / (2 y) (0 where y == 0).

    Saves its input and its result (PyTorch's StdBackward0).
    """

    result_layout = staticmethod(contiguous_result)  # (PyTorch's: contiguous)

    fields = Var.fields
    saved_options = Var.saved_options

    @staticmethod
    def forward(ctx: Any, x: np.ndarray, moments: Moments) -> np.ndarray:
        y = standard_deviation(x, moments.axes, moments.correction, moments.keepdim)
        ctx.save_for_backward(x, y)
        moments.keep_on(ctx)
        return y

    @staticmethod
    def backward(ctx: Any, grad: Any) -> tuple[Any, None]:
        x, y = ctx.saved_tensors
        return std_grad(ctx, grad, x, y), None


def std_grad(ctx: Any, grad: Any, x: Any, y: Any) -> Any:
    """PyTorch's std_backward: var's gradient for grad / (2 y), 0 where y == 0.

    ``ctx`` holds ``Moments``' fields (``Std``'s and ``StdMean``'s nodes).
    """
    grad_var = np.where(y == 0, 0, grad / (y * 2))
    return _var_grad(grad_var, x, ctx.axes, ctx.correction, ctx.keepdim, ctx.grad_rule)


def standard_deviation(x: np.ndarray, axes: tuple[int, ...], correction: float,
                       keepdim: bool) -> np.ndarray:
    """``sqrt(var)`` over ``axes``; float16 in float32, float32 in float64, rounded once.

    (PyTorch's kernel takes the root of its double moments before it rounds: ``_variance``.)
    """
    if x.dtype is FLOAT16:  # (its variance may pass 65504 where the deviation does not)
        return in_float32(standard_deviation, x, axes, correction, keepdim)
    if x.dtype is FLOAT32:
        return np.sqrt(_variance(x.astype(np.float64), axes, correction, keepdim)).astype(FLOAT32)
    return np.sqrt(_variance(x, axes, correction, keepdim))


def _variance(x: np.ndarray, axes: tuple[int, ...], correction: float,
              keepdim: bool) -> np.ndarray:
    """The variance over ``axes``: float16 in float32, float32 in float64, rounded once.

    PyTorch's CPU kernel accumulates float32 moments in double (Welford's update with ``dim``,
    two passes over everything without): in float32, the mean of a slice numpy sums along a
    strided axis (one element at a time, not pairwise) drifts, and the variance of 1e5
    values near 1e4 came out 55 times too large.
    """
    if x.dtype is FLOAT16:
        return in_float32(_variance, x, axes, correction, keepdim)
    if x.dtype is FLOAT32:
        return _variance(x.astype(np.float64), axes, correction, keepdim).astype(FLOAT32)
    count = _count(x.shape, axes)
    mean = np.sum(x, axis=axes, keepdims=True) / count
    centered = x - mean
    squares = np.sum(centered * centered, axis=axes, keepdims=keepdim)
    return np.asarray(squares / builtins.max(count - correction, 0), dtype=x.dtype)


def _var_grad(grad: Any, x: Any, axes: tuple[int, ...], correction: float, keepdim: bool,
              grad_rule: tuple[bool, int]) -> Any:
    """PyTorch's var_backward: 2 / (n - correction) * grad * (x - mean).

    ``grad_rule`` is (reduced over everything without a dim, the n PyTorch's backward uses): an
    empty list of dims reduces everything forward but counts as n = 1 in PyTorch's backward.
    """
    full, count = grad_rule
    if type(x) is np.ndarray:  # (PyTorch's ``self.mean(dim, true)``: float16 in float32)
        mean = _mean_all(x, None, axes, True)
    else:
        mean = np.sum(x, axis=axes, keepdims=True) / _count(np.shape(x), axes)
    dof = count - correction
    if full and dof <= 0:
        # 2 / 0 is infinite: the gradient is inf, or nan where x equals the mean. (PyTorch's
        # ``where`` of two numbers is in the default dtype, and its product with the
        # gradient as it came, 0-d without keepdim, takes that dtype: a float64 x's gradient
        # is then cast back, ToCopyBackward0 under create_graph.)
        nan, inf = np.array([np.nan, np.inf], default_float())
        return grad * np.where(raw(x) == raw(mean), nan, inf)
    grad = restore_reduced(grad, axes, keepdim)
    factor = math.inf if dof == 0 else 2.0 / dof
    # (C++'s ``double * grad``: MulScalar, a float16 gradient times a float32 number)
    return run(MulScalar, grad, factor) * (x - mean)


class Moments(NamedTuple):
    """What var, std, var_mean and std_mean were asked for, checked (``moments_arguments``).

    ``grad_rule`` is (reduced over everything without a dim, the n PyTorch's backward uses);
    ``given_dim`` and ``given_correction`` are the options as PyTorch's nodes show them.
    """

    axes: tuple[int, ...]
    correction: float
    keepdim: bool
    grad_rule: tuple[bool, int]
    given_dim: Any
    given_correction: Any

    def keep_on(self, ctx: Any) -> None:
        """Keep the options on the node (its ``fields``) for backward and ``_saved_*``."""
        ctx.axes, ctx.correction, ctx.keepdim = self.axes, self.correction, self.keepdim
        ctx.grad_rule, ctx.given_dim = self.grad_rule, self.given_dim
        ctx.given_correction = self.given_correction


def moments_arguments(input: Any, dim: Any, unbiased: Any, keepdim: Any, correction: Any,
                      name: str, dtype_names: str) -> Moments:
    """The checked arguments of var, std, var_mean or std_mean (``name``).

    ``dtype_names``: the functions PyTorch's message for an integer input names.
    """
    check_scalar_arguments(correction)  # (the parser's error comes first)
    if isinstance(dim, bool):  # var(False): the (unbiased) overload, by position
        if unbiased is not _arguments.NOT_GIVEN:
            raise TypeError(errors.moments_arguments_fit_no_overload(name))
        dim, unbiased = _arguments.NOT_GIVEN, dim
    given_correction = _correction_shown(dim, unbiased, keepdim, correction, name)
    # (PyTorch's kernel checks the dtype and warns of the degrees of freedom after its
    # autograd layer read the input's history: a view's error comes first)
    record.sync_views(input)
    array = operand(input)
    if array.dtype.kind != "f":
        raise RuntimeError(errors.moments_dtype(dtype_names))
    dim = None if dim is _arguments.NOT_GIVEN else dim
    keepdim = False if keepdim is _arguments.NOT_GIVEN else keepdim
    if correction is _arguments.NOT_GIVEN or correction is None:
        correction = 0 if unbiased is False else 1
    axes = reduced_dims(dim, array.ndim)
    count = _count(array.shape, axes)
    # PyTorch's reduction factor: input numel / output numel (at least 1), which is 0 for an
    # empty input where ``count`` is not (``zeros(3, 0).var(0)``)
    kept = math.prod(n for axis, n in enumerate(array.shape) if axis not in axes)
    if array.size / builtins.max(kept, 1) - correction <= 0:
        _warnings.warn(errors.degrees_of_freedom(name), UserWarning, stacklevel=3)
    empty_list = dim is not None and not isinstance(dim, int) and len(dim) == 0
    grad_rule = (dim is None or array.ndim == 0, 1 if empty_list else count)
    return Moments(axes, correction, bool(keepdim), grad_rule, dim, given_correction)


def _correction_shown(dim: Any, unbiased: Any, keepdim: Any, correction: Any, name: str) -> Any:
    """The correction as PyTorch's node shows it, from the overload the arguments select.

    PyTorch binds var and std to ``(dim, unbiased=True, keepdim=False)``, ``(dim=None, *,
    correction=None, keepdim=False)`` or ``(unbiased=True)``, the first that fits: a ``dim``
    without ``correction`` takes the first (correction 1, even for ``dim=None``), a call with
    neither ``dim`` nor ``unbiased`` the second (the correction as given, None if not). A call
    that fits none is a TypeError (its argument-check wrapper gives the parser's listing).
    """
    not_given = _arguments.NOT_GIVEN
    if unbiased is not_given:
        if correction is not_given:
            return None if dim is not_given else 1
        return correction
    if unbiased is None or correction is not not_given or (
            dim is not_given and keepdim is not not_given):
        raise TypeError(errors.moments_arguments_fit_no_overload(name))
    return int(unbiased)


def var(input: Any, dim: Any = _arguments.NOT_GIVEN, unbiased: bool = _arguments.NOT_GIVEN,
        keepdim: bool = _arguments.NOT_GIVEN, *,
        correction: float | None = _arguments.NOT_GIVEN) -> Any:
    """Variance over ``dim`` (all elements if None), dividing by ``n - correction``.

    ``correction`` defaults to 1 (Bessel's correction); ``unbiased=False`` means 0.

    Example:
        >>> import minigrad
        >>> minigrad.tensor([1.0, 2.0, 3.0, 4.0]).var()
        tensor(1.6667)
    """
    _arguments.check_tensor(input, "var", "input", 1)
    moments = moments_arguments(input, dim, unbiased, keepdim, correction, "var", "std and var")
    return Var.apply(input, moments)


def std(input: Any, dim: Any = _arguments.NOT_GIVEN, unbiased: bool = _arguments.NOT_GIVEN,
        keepdim: bool = _arguments.NOT_GIVEN, *,
        correction: float | None = _arguments.NOT_GIVEN) -> Any:
    """Standard deviation: the square root of ``var`` with the same arguments.

    Example:
        >>> import minigrad
        >>> minigrad.tensor([1.0, 2.0, 3.0, 4.0]).std(unbiased=False)
        tensor(1.1180)
    """
    _arguments.check_tensor(input, "std", "input", 1)
    moments = moments_arguments(input, dim, unbiased, keepdim, correction, "std", "std and var")
    return Std.apply(input, moments)


# max and min: over everything (saves input and result: ties share the gradient evenly),
# over one dim (returns values and indices, saves the indices: the gradient goes to the index),
# amax/amin over dims (saves input and result: ties share evenly, per slice).


def _share_among_ties(grad: Any, x: Any, value: Any) -> Any:
    """The gradient spread evenly over the elements equal to ``value`` (NaN: the NaNs)."""
    x_array, value_array = raw(x), raw(value)
    mask = np.isnan(x_array) if np.isnan(value_array) else x_array == value_array
    return np.where(mask, grad / int(mask.sum()), 0)


def _max_all(x: np.ndarray) -> Any:
    """``np.max(x)``: the ufunc's reduce, without np.max's Python layers (~0.3 us).

    A 0-d array, as ``_sum_all`` gives it (a numpy scalar with numpy < 2.3).
    """
    return _maximum_reduce(x, None, out=_ARRAY_OUT)


def _min_all(x: np.ndarray) -> Any:
    """``np.min(x)``, as ``_max_all``."""
    return _minimum_reduce(x, None, out=_ARRAY_OUT)


_maximum_reduce, _minimum_reduce = np.maximum.reduce, np.minimum.reduce


class Extreme(Op):
    """y = the largest (``Max``) or smallest (``Min``) element;  dx = grad shared by its ties.

    The elements equal to y share the gradient evenly. Saves its input and its result:
    writing either in place makes backward raise.
    """

    pick: ClassVar[Callable[..., Any]]  # np.max or np.min (as the ufuncs' reduce: _max_all)

    @classmethod
    def forward(cls, ctx: Any, x: np.ndarray) -> np.ndarray:
        y = np.asarray(cls.pick(x))
        ctx._saved = (x, y)  # (save_for_backward without its call, as unary.UnaryOp's)
        return y

    @staticmethod
    def backward(ctx: Any, grad: Any) -> Any:
        x, y = ctx.saved_tensors
        return _share_among_ties(grad, x, y)


class Max(Extreme):
    """y = the largest element;  dx = grad shared evenly by the elements equal to y."""

    node_name = "MaxBackward1"
    pick = staticmethod(_max_all)
    no_grad_kernel = _max_all  # (its work when nothing is recorded: no forward, no saving)


class Min(Extreme):
    """y = the smallest element;  dx = grad shared evenly by the elements equal to y."""

    node_name = "MinBackward1"
    pick = staticmethod(_min_all)
    no_grad_kernel = _min_all  # (as Max's)


class ExtremeDim(Op):
    """(values, indices) = max (``MaxDim``) or min (``MinDim``) over ``dim``.

    dx = grad at the index of each extreme, 0 else. Saves only the indices: writing the values
    output later is legal, the indices not.
    """

    result_layout = staticmethod(contiguous_result)  # (PyTorch's: contiguous)

    fields = ("dim", "keepdim", "shape", "given_dim")
    saves = "indices"
    saved_options = {"dim": as_given("given_dim"), "keepdim": "keepdim",
                     "self_sym_sizes": "shape"}

    pick: ClassVar[Callable[..., Any]]  # np.argmax or np.argmin

    @classmethod
    def forward(cls, ctx: Any, x: np.ndarray, dim: int, keepdim: bool,
                given_dim: int) -> tuple[Any, Any]:
        ctx.given_dim = given_dim
        return _select_over_dim(ctx, x, dim, keepdim, cls.pick)

    @staticmethod
    def backward(ctx: Any, grad: Any, _: Any) -> tuple[Any, None, None, None]:
        return _selected_grad(ctx, grad), None, None, None


class MaxDim(ExtremeDim):
    """(values, indices) = max over ``dim``;  dx = grad at the index of each maximum, 0 else."""

    node_name = "MaxBackward0"
    pick = staticmethod(np.argmax)


class MinDim(ExtremeDim):
    """(values, indices) = min over ``dim``;  dx = grad at the index of each minimum, 0 else."""

    node_name = "MinBackward0"
    pick = staticmethod(np.argmin)


def _select_over_dim(ctx: Any, x: np.ndarray, dim: int, keepdim: bool,
                     arg: Any) -> tuple[Any, Any]:
    if x.ndim == 0:
        indices = np.zeros((), dtype=np.int64)
        values = x.copy()
    else:
        indices = np.asarray(arg(x, axis=dim, keepdims=True))  # the first one on ties and NaN
        values = np.take_along_axis(x, indices, axis=dim)
        if not keepdim:
            indices, values = np.squeeze(indices, dim), np.squeeze(values, dim)
    ctx.save_for_backward(indices)
    ctx.shape, ctx.dim, ctx.keepdim = x.shape, dim, keepdim
    return values, indices


def _selected_grad(ctx: Any, grad: Any) -> Any:
    (indices,) = ctx.saved_tensors
    if not ctx.shape:
        return grad
    axes = (ctx.dim,)
    grad = restore_reduced(grad, axes, ctx.keepdim)
    indices = restore_reduced(raw(indices), axes, ctx.keepdim)
    return scatter_to_indices(grad, ctx.dim, indices, ctx.shape)


class ExtremeOverDims(Op):
    """y = max (``Amax``) or min (``Amin``) over ``dim`` (several dims allowed).

    dx = grad shared by each slice's extremes: ties share it evenly. Saves input and result.
    """

    result_layout = staticmethod(contiguous_result)  # (PyTorch's: contiguous)

    fields = ("axes", "keepdim", "given_dim")
    saved_options = {"dim": dims_as_given("given_dim"), "keepdim": "keepdim"}

    pick: ClassVar[Callable[..., Any]]  # np.max or np.min

    @classmethod
    def forward(cls, ctx: Any, x: np.ndarray, axes: tuple[int, ...], keepdim: bool,
                given_dim: Any) -> Any:
        y = first_zero_kept(x, np.asarray(cls.pick(x, axis=axes, keepdims=keepdim)), axes,
                            keepdim)
        ctx.save_for_backward(x, y)
        ctx.axes, ctx.keepdim, ctx.given_dim = axes, keepdim, given_dim
        return y

    @staticmethod
    def backward(ctx: Any, grad: Any) -> tuple[Any, None, None, None]:
        x, y = ctx.saved_tensors
        return _share_per_slice(grad, x, y, ctx.axes, ctx.keepdim), None, None, None


class Amax(ExtremeOverDims):
    """y = max over ``dim``;  dx = grad shared by each slice's maxima."""

    pick = staticmethod(np.max)


class Amin(ExtremeOverDims):
    """y = min over ``dim``;  dx = grad shared by each slice's minima."""

    pick = staticmethod(np.min)


def first_zero_kept(x: np.ndarray, y: np.ndarray, axes: tuple[int, ...],
                    keepdim: bool) -> np.ndarray:
    """``y`` (a max or min of ``x`` over ``axes``) with each zero signed as its slice's first zero.

    PyTorch's amax/amin (and aminmax over a dim) keep the first of equal elements, where numpy
    keeps the last: the two differ only on a slice whose extreme is a zero of both signs.
    (PyTorch's vector loop over slices of 4 vectors or more, 32 float32s, combines partial
    results in another order: not reproduced.)
    """
    if y.dtype.kind != "f" or not y.size or not (y == 0).any():
        return y
    moved = np.moveaxis(x, axes, range(x.ndim - len(axes), x.ndim))
    moved = moved.reshape(*moved.shape[:x.ndim - len(axes)], -1)
    first = np.argmax(moved == 0, axis=-1)[..., None]  # (a zero extreme: one is there)
    zeros = np.copysign(np.zeros((), y.dtype), np.take_along_axis(moved, first, -1)[..., 0])
    if keepdim:
        zeros = np.expand_dims(zeros, axes)
    return np.where(y == 0, zeros, y)


def _share_per_slice(grad: Any, x: Any, y: Any, axes: tuple[int, ...], keepdim: bool) -> Any:
    # PyTorch's scale_grad_by_count: (grad / count) * mask, with mask = (x == y) (so a NaN
    # maximum gives nan gradients, as there).
    mask = raw(x) == restore_reduced(raw(y), axes, keepdim)
    count = np.sum(mask, axis=axes, keepdims=True)
    return (restore_reduced(grad, axes, keepdim) / count) * mask


def _check_nonempty(array: np.ndarray, axes: tuple[int, ...] | None, name: str,
                    error: type[Exception] = IndexError) -> None:
    if axes is None:
        if array.size == 0:
            raise RuntimeError(errors.empty_reduction_needs_dim(name))
        return
    for axis in axes:
        if array.ndim and array.shape[axis] == 0:
            raise error(errors.empty_reduction_dim(name, axis))


def _max_or_min(input: Any, dim: Any, keepdim: bool, name: str) -> Any:
    array = operand(input)
    if isinstance(dim, TensorBase):  # max(input, other): the elementwise maximum
        return (maximum if name == "max" else minimum)(input, dim)
    if dim is _arguments.NOT_GIVEN:
        _check_nonempty(array, None, name)
        # (the op's recording function, which ``apply`` would call: one call less)
        return (Max if name == "max" else Min)._record(input)
    _arguments.check_value(dim, "int", name, "dim", 1)  # None too: PyTorch has no such overload
    axis = wrap_dim(dim, array.ndim)
    _check_nonempty(array, (axis,), name)
    values, indices = (MaxDim if name == "max" else MinDim).apply(input, axis, keepdim, dim)
    return getattr(return_types, name)(values, indices)


def max(input: Any, dim: Any = _arguments.NOT_GIVEN, keepdim: bool = False) -> Any:
    """The largest element; ``(values, indices)`` over ``dim``; or ``maximum(input, other)``.

    Ties: the full maximum shares the gradient evenly among equal elements; over ``dim`` the
    gradient goes to the (first) index returned.

    Example:
        >>> import minigrad
        >>> minigrad.tensor([[1.0, 5.0], [7.0, 2.0]]).max(dim=1).indices
        tensor([1, 0])
    """
    return _max_or_min(input, dim, keepdim, "max")


def min(input: Any, dim: Any = _arguments.NOT_GIVEN, keepdim: bool = False) -> Any:
    """The smallest element; ``(values, indices)`` over ``dim``; or ``minimum(input, other)``.

    Example:
        >>> import minigrad
        >>> minigrad.tensor([3.0, 1.0, 2.0]).min()
        tensor(1.)
    """
    return _max_or_min(input, dim, keepdim, "min")


def _amax_or_amin(input: Any, dim: Any, keepdim: bool, name: str) -> Any:
    array = operand(input)
    try:
        axes = normalize_dims(None if dim == () or dim == [] else dim, array.ndim)
    except RuntimeError:  # (a repeated dim: an empty one is PyTorch's error first)
        _check_amax_dims(array, dim, name)
        raise
    _check_amax_dims(array, dim, name)
    given = () if dim is None else dim  # (amax's dim is an int[], not optional: None is [])
    return (Amax if name == "amax" else Amin).apply(input, axes, keepdim, given)


def _check_amax_dims(array: np.ndarray, dim: Any, name: str) -> None:
    """The error of amax and amin for a reduction over an empty dim (or all, of an empty input)."""
    if dim is None or dim == () or dim == []:  # (None is amax's [], as PyTorch parses it)
        _check_nonempty(array, None, name)
    elif array.ndim:
        # (amax and amin name an empty dim as given, -1 for the last; max(dim) names it wrapped)
        for shown in dim if isinstance(dim, (tuple, list)) else (dim,):
            if array.shape[wrap_dim(shown, array.ndim)] == 0:
                raise IndexError(errors.empty_reduction_dim(name, shown))


def amax(input: Any, dim: Any = (), keepdim: bool = False) -> Any:
    """The maximum over ``dim`` (an int or tuple; all dims by default), values only.

    Example:
        >>> import minigrad
        >>> minigrad.tensor([[1.0, 5.0], [7.0, 2.0]]).amax(0)
        tensor([7., 5.])
    """
    return _amax_or_amin(input, dim, keepdim, "amax")


def amin(input: Any, dim: Any = (), keepdim: bool = False) -> Any:
    """The minimum over ``dim`` (an int or tuple; all dims by default), values only.

    Example:
        >>> import minigrad
        >>> minigrad.tensor([[1.0, 5.0], [7.0, 2.0]]).amin(1)
        tensor([1., 2.])
    """
    return _amax_or_amin(input, dim, keepdim, "amin")


def _arg_extreme(input: Any, dim: int | None, keepdim: bool, name: str) -> Any:
    array = operand(input)
    if array.dtype == np.bool_:
        raise RuntimeError(errors.does_not_support_bool(name))
    make = TensorBase.output_class._make
    if dim is None:
        if array.size == 0:
            raise IndexError(errors.empty_reduction_needs_dim(name, hint=False))
        flat = getattr(np, name)(array)
        shape = (1,) * array.ndim if keepdim else ()
        return make(np.full(shape, flat, dtype=np.int64))
    axis = wrap_dim(dim, array.ndim)
    _check_nonempty(array, (axis,), name)
    if array.ndim == 0:
        return make(np.zeros((), dtype=np.int64))
    return make(np.asarray(getattr(np, name)(array, axis=axis, keepdims=keepdim),
                           dtype=np.int64))


def argmax(input: Any, dim: int | None = None, keepdim: bool = False) -> Any:
    """The index of the largest element (of the flattened tensor, or along ``dim``).

    Not differentiable (int64 indices); ties and NaN give the first index.

    Example:
        >>> import minigrad
        >>> minigrad.tensor([1.0, 3.0, 3.0]).argmax()
        tensor(1)
    """
    return _arg_extreme(input, dim, keepdim, "argmax")


def argmin(input: Any, dim: int | None = None, keepdim: bool = False) -> Any:
    """The index of the smallest element (of the flattened tensor, or along ``dim``).

    Example:
        >>> import minigrad
        >>> minigrad.tensor([[1.0, 0.0], [3.0, 4.0]]).argmin(dim=1)
        tensor([1, 0])
    """
    return _arg_extreme(input, dim, keepdim, "argmin")


class Logsumexp(Op):
    """y = log(sum(exp(x))) over ``dim``;  dx = grad * exp(x - y).

    Computed as m + log(sum(exp(x - m))) with m the (finite) maximum, so nothing overflows.
    Saves its input and its result.
    """

    result_layout = staticmethod(contiguous_result)  # (PyTorch's: contiguous)

    fields = ("axes", "keepdim", "given_dim")
    saved_options = {"dim": dims_as_given("given_dim"), "keepdim": "keepdim"}

    @staticmethod
    def forward(ctx: Any, x: np.ndarray, axes: tuple[int, ...], keepdim: bool,
                given_dim: Any) -> np.ndarray:
        if x.size:
            shift = np.max(x, axis=axes, keepdims=True)
            shift = np.where(np.isinf(shift), 0, shift)
        else:
            shift = np.zeros((1,) * x.ndim, dtype=x.dtype)
        total = np.sum(np.exp(x - shift), axis=axes, keepdims=True)
        y = np.log(total) + shift
        if not keepdim and axes:
            y = np.squeeze(y, axes)
        y = np.asarray(y, dtype=x.dtype)
        ctx.save_for_backward(x, y)
        ctx.axes, ctx.keepdim, ctx.given_dim = axes, keepdim, given_dim
        return y

    @staticmethod
    def backward(ctx: Any, grad: Any) -> tuple[Any, None, None, None]:
        x, y = ctx.saved_tensors
        axes, keepdim = ctx.axes, ctx.keepdim
        shift = restore_reduced(y, axes, keepdim)
        return restore_reduced(grad, axes, keepdim) * np.exp(x - shift), None, None, None


def logsumexp(input: Any, dim: Any, keepdim: bool = False) -> Any:
    """``log(sum(exp(input)))`` over ``dim``, without overflow; integers become float32.

    Example:
        >>> import minigrad
        >>> minigrad.tensor([0.0, 0.0]).logsumexp(0)
        tensor(0.6931)
    """
    _arguments.check_int_sequence(dim, "logsumexp", "dim", 1)  # (the wrapper's position)
    array = operand(input)
    ndim = array.ndim
    if not isinstance(dim, int) and len(dim) == 0 and ndim and not keepdim and array.size:
        # PyTorch 2.13 fails this way for an empty list of dims without keepdim (its output
        # is 0-d); kept, or of an empty input, every dim is reduced.
        raise RuntimeError(errors.inplace_shape_mismatch((), [1] * ndim))
    input = float_input(input)
    return Logsumexp.apply(input, reduced_dims(dim, ndim), keepdim, dim)



def _logical_reduction(input: Any, dim: Any, keepdim: bool, reduce: Any) -> Any:
    array = operand(input)
    axes = normalize_dims(dim, array.ndim)
    result = np.asarray(reduce(array, axis=axes, keepdims=keepdim))
    # uint8 stays uint8 (PyTorch's legacy rule); everything else gives bool.
    dtype = np.uint8 if array.dtype == np.uint8 else np.bool_
    # (not recorded: laid out here as the recorded reductions are, ``contiguous_result``)
    return TensorBase.output_class._make(contiguous_result(result.astype(dtype), (array,)))


def all(input: Any, dim: Any = None, keepdim: bool = False) -> Any:
    """True where every element (over ``dim``, or all) is nonzero. Not differentiable.

    Example:
        >>> import minigrad
        >>> minigrad.tensor([[1, 0], [1, 1]]).all(dim=1)
        tensor([False,  True])
    """
    return _logical_reduction(input, dim, keepdim, np.all)


def any(input: Any, dim: Any = None, keepdim: bool = False) -> Any:
    """True where some element (over ``dim``, or all) is nonzero. Not differentiable.

    Example:
        >>> import minigrad
        >>> minigrad.tensor([[1, 0], [0, 0]]).any(dim=1)
        tensor([ True, False])
    """
    return _logical_reduction(input, dim, keepdim, np.any)
