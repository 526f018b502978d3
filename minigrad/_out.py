"""``out=``: writing a function's result into a tensor the caller gives.

``minigrad.add(a, b, out=c)`` computes ``a + b`` and writes it into ``c`` in place (one version
bump, through the in-place machinery, so views of ``c`` see it), then returns ``c`` itself. As
in PyTorch:

- out= variants are not differentiable: with grad mode on, an input or ``out`` that requires
  grad is refused before anything runs ("add(): functions with out=... arguments don't support
  automatic differentiation, ..."). Under ``no_grad`` the write is allowed even into a leaf that
  requires grad. Functions whose result has no gradient (``eq``, ``argmax``, ...) never refuse.
- ``out`` must be able to hold the result's dtype. Each function has PyTorch's rule and
  message (``DtypeRule``): most cast like in-place ops, many demand the exact dtype, and
  reductions (``sum``, ``mean``, ``cumsum``, ...) and factories compute in ``out``'s dtype.
- an ``out`` of another shape is resized (with PyTorch's deprecation warning if it held
  elements). minigrad cannot resize a view in place (numpy memory cannot grow): it refuses.
- functions with several results take a tuple and return a named tuple of it
  (``minigrad.return_types.sort_out(values=..., indices=...)``).

Which functions take ``out=`` is PyTorch's Python binding's choice, not a rule: the table
``ACCEPTS_OUT`` below lists them (``REFUSES_OUT``: those without it whose TypeError lists
PyTorch's overloads), and ``install`` wraps exactly those, in one place (minigrad/__init__.py and
minigrad/linalg.py call it). The ops themselves know nothing of ``out``.
"""

from __future__ import annotations

import contextlib
import functools
import inspect
import warnings
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

import numpy as np

from minigrad import _warnings, errors
from minigrad._dtype import (
    backend_type_name,
    can_cast,
    display_name,
    from_numpy_dtype,
    to_numpy_dtype,
)
from minigrad._published import publish
from minigrad._signatures import SignaturePlus
from minigrad._wrapped_numbers import NUMBERS_AS_TENSORS, is_number, wrapped_number
from minigrad.autograd import grad_mode, inference
from minigrad.autograd.inplace import apply_inplace, has_internal_overlap
from minigrad.autograd.overlap import refuse_partial_overlap
from minigrad.autograd.tensor_base import TensorBase, set_array
from minigrad.ops import fill
from minigrad.ops.return_types import (
    return_types,
)

# The C++ names some of PyTorch's out= messages use ("Expected out tensor to have dtype float").
_C_NAMES = errors.CPP_TYPE_NAMES

NOT_DIFFERENTIABLE = (
    "{name}(): functions with out=... arguments don't support automatic differentiation, but "
    "one of the arguments requires grad."
)
RESIZED = (
    "An output with one or more elements was resized since it had shape {old}, which does not "
    "match the required output shape {new}. This behavior is deprecated, and in a future "
    "PyTorch release outputs will not be resized unless they have zero elements. You can "
    "explicitly reuse an out tensor t by resizing it, inplace, to zero elements with "
    "t.resize_(0)."
)
# arange's own warning, when out has elements but not as many as the range.
RANGE_RESIZED = (
    "The number of elements in the out tensor of shape {old} is {old_numel} which does not "
    "match the computed number of elements {new_numel}. Note that this may occur as a result "
    "of rounding error. The out tensor will be resized to a tensor of shape {new_tuple}."
)
CANNOT_RESIZE_VIEW = (
    "{name}(): the out= tensor has shape {old} but the result has shape {new}, and minigrad "
    "cannot resize a view of another tensor. Pass an out tensor of shape {new}, or one that is "
    "not a view."
)


# --- dtype rules ------------------------------------------------------------------------------


@dataclass(frozen=True)
class DtypeRule:
    """Which ``out`` dtypes a function takes, and how its result gets there.

    Attributes:
        check: ``"cast"``: the result must cast to out's dtype by PyTorch's rule (no float into
            an integer, nothing but bool into bool); ``"same"``: out's dtype must be the
            result's; ``"float"``: out must be floating point; ``"bool"``: bool or uint8
            (``all``, ``any``); ``"any"``: no check.
        message: the error, with ``{result}``/``{out}`` (``Float``), ``{result_c}``/``{out_c}``
            (C++ names: ``float``, ``long int``) and ``{result_type}``/``{out_type}`` (tensor
            types: ``minigrad.FloatTensor``, ``CPUBoolType``) filled in.
        compute_in: ``"input"``: the function computes in out's dtype (PyTorch's reductions):
            the input is converted to it first, so ``sum(x, 0, out=int_tensor)`` adds
            integers; ``"dtype"``: a factory, called with ``dtype=`` out's dtype.
        overlap: PyTorch's elementwise kernels refuse an out that partly overlaps an input.
        error: the exception class.
        then: a second rule checked when this one passes (``matrix_power`` checks that the
            result casts to out, then that out has its dtype, with another message).
    """

    check: str
    message: str = ""
    compute_in: str = ""
    overlap: bool = False
    error: type[Exception] = RuntimeError
    then: DtypeRule | None = None

    def refusal(self, result: np.dtype, out: np.dtype) -> Exception | None:
        """The error for writing a ``result`` dtype into an ``out`` dtype, or None if fine."""
        fine = {
            "cast": can_cast(result, out),
            "same": result == out,
            "float": out.kind == "f",
            "bool": out.name in ("bool", "uint8"),
            "any": True,
        }[self.check]
        if fine:
            return None if self.then is None else self.then.refusal(result, out)
        return self.error(self.message.format(
            result=display_name(result), out=display_name(out),
            result_c=_C_NAMES[result.name], out_c=_C_NAMES[out.name],
            result_type=backend_type_name(result), out_type=backend_type_name(out)))


CAST = DtypeRule("cast", "result type {result} can't be cast to the desired output type {out}",
                 overlap=True)
FOUND = DtypeRule("same", "Found dtype {out} but expected {result}", overlap=True)
EXACT = DtypeRule("same", "Expected out tensor to have dtype {result_c}, but got {out_c} instead")
ANY = DtypeRule("any", overlap=True)
REDUCE = DtypeRule("any", compute_in="input")
# cumsum and cumprod compute in out's dtype given as their dtype= (so a bool out meets the
# kernel's refusal, as in PyTorch).
CUMULATIVE = DtypeRule("any", compute_in="dtype")
REDUCE_CAST = DtypeRule("cast", CAST.message, compute_in="input")
FACTORY = DtypeRule("any", compute_in="dtype")


def same(message: str) -> DtypeRule:
    """Out's dtype must be the result's, with this function's own message."""
    return DtypeRule("same", message)


# --- which functions take out= ----------------------------------------------------------------


@dataclass(frozen=True)
class TakesOut:
    """How one public function takes ``out=``.

    Attributes:
        dtype: the dtype rule (one per result for functions with several results; a callable
            ``(args, kwargs) -> rule`` where the overload decides).
        grad_name: the name PyTorch's "don't support automatic differentiation" error gives
            ("" for the function's own; a callable where the overload decides); None for
            functions whose result has no gradient (nothing to refuse).
        accepts: ``(args, kwargs) -> bool`` for functions whose out= overload needs some
            argument (``sum`` needs ``dim``); ``signatures`` then lists PyTorch's overloads for
            the TypeError otherwise (each `` * (...)`` line, and what PyTorch adds under it).
        resize_warning: the warning when an out with elements is resized (None: silent, as
            PyTorch's factories); ``RANGE_RESIZED`` warns only if the element count differs.
        check_order: the order in which the outs' dtypes are checked, by position, where
            PyTorch's kernel checks a later one first (median checks its indices first).
        differentiable: PyTorch's out= variant is a composition ending in ``out.copy_(result)``
            (quantile): nothing is refused, and the write records ``CopyBackwards`` in grad
            mode.
        warning: a UserWarning PyTorch's out= variant gives on every call (``ger``'s
            deprecation: its out= variant, unlike ``ger`` itself, warns).
        writes: how many times PyTorch's out= variant bumps out's version: nanmean's sums
            into out, then divides it in place (2); kron's multiplies into an unsafe view of
            out, which has a counter of its own (0).
        warned_shape: ``(args, kwargs, shape) -> shape`` for kthvalue and mode, which give
            out and result the reduced dim back before resizing (then squeeze it): the
            shapes the resize warning names, and whether it warns at all.
    """

    dtype: DtypeRule | tuple[DtypeRule, ...] | Callable[..., Any]
    grad_name: str | Callable[..., str] | None = ""
    accepts: Callable[[tuple[Any, ...], dict[str, Any]], bool] | None = None
    signatures: tuple[str, ...] = ()
    resize_warning: str | None = RESIZED
    warned_shape: Callable[..., tuple[int, ...]] | None = None
    check_order: tuple[int, ...] = ()
    differentiable: bool = False
    warning: str | None = None
    writes: int = 1


def each(names: str, dtype: Any, grad_name: str | None = "", **options: Any
         ) -> dict[str, TakesOut]:
    """The same entry for each of the space-separated ``names``.

    ``{name}`` in ``grad_name`` stands for each name.
    """
    return {name: TakesOut(dtype, None if grad_name is None else grad_name.format(name=name),
                           **options)
            for name in names.split()}


def _normal_of_tensors(args: tuple[Any, ...], kwargs: dict[str, Any]) -> bool:
    """Whether a normal() call is of tensors (a kernel), not of numbers and a size (a factory)."""
    parameters = (*args[:2], kwargs.get("mean"), kwargs.get("std"))
    return any(isinstance(value, TensorBase) for value in parameters)


def _normal_rule(args: tuple[Any, ...], kwargs: dict[str, Any]) -> DtypeRule:
    """The dtype rule of the normal() overload called."""
    if _normal_of_tensors(args, kwargs):
        return DtypeRule("float", "\"normal_kernel_cpu\" not implemented for '{out}'")
    return FACTORY


def _normal_grad_name(args: tuple[Any, ...], kwargs: dict[str, Any]) -> str:
    """The name the normal() overload called gives in the refusal of inputs requiring grad."""
    return "" if _normal_of_tensors(args, kwargs) else "aten::normal"


def _has_dim(args: tuple[Any, ...], kwargs: dict[str, Any]) -> bool:
    return len(args) > 1 or "dim" in kwargs


def _binary(args: tuple[Any, ...], kwargs: dict[str, Any]) -> bool:
    """``max(x, other)`` (rather than ``max(x)`` or ``max(x, dim)``)."""
    return len(args) > 1 and isinstance(args[1], TensorBase) or "other" in kwargs


def _unary_or_binary(unary: DtypeRule, binary: DtypeRule, reduced: tuple[DtypeRule, ...]) -> Any:
    """``max(x)``, ``max(x, other)`` and ``max(x, dim)`` differ in their out= rules."""

    def pick(args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
        if _binary(args, kwargs):
            return binary
        return reduced if _has_dim(args, kwargs) else unary

    return pick


_CAN_CAST_MESSAGE = (
    "Expected canCast( typeMetaToScalarType(self.dtype()), typeMetaToScalarType(out.dtype())) "
    "to be true, but got false.  (Could this error message be improved?  If so, please report "
    "an enhancement request to PyTorch.)"
)
_MAX_MIN = _unary_or_binary(DtypeRule("cast", _CAN_CAST_MESSAGE), CAST, (EXACT, EXACT))
# median(dim)'s values and indices (PyTorch's checkSameType and checkScalarType messages)
_MEDIAN = (
    same("Expected tensor for 'values' to have the same type as tensor for argument #2 'self'; "
         "but type {out_type} does not equal {result_type} (while checking arguments for "
         "median)"),
    same("Expected tensor for argument #1 'indices' to have scalar type Long; but got "
         "{out_type} instead (while checking arguments for median)"),
)
_SUM_SIGNATURES = (
    " * (Tensor input, *, minigrad.dtype dtype = None)\n",
    " * (Tensor input, {dims} dim, bool keepdim = False, *, minigrad.dtype dtype = None, "
    "Tensor out = None)\n",
)

def _with_dim_kept(dim_position: int) -> Callable[..., tuple[int, ...]]:
    """The result's shape with its reduced dim kept (argument ``dim_position``, default -1)."""

    def shape(args: tuple[Any, ...], kwargs: dict[str, Any], result: tuple[int, ...]
              ) -> tuple[int, ...]:
        """``result`` (a shape) with the call's reduced dim put back as size 1."""
        given = dict(zip(("dim", "keepdim"), args[dim_position:]), **kwargs)
        if given.get("keepdim", False) or not args[0].dim():
            return result
        dim = given.get("dim", -1)
        dim = dim % args[0].dim()
        return (*result[:dim], 1, *result[dim:])

    return shape


_CAT = DtypeRule("cast", "torch.cat(): input types can't be cast to the desired output type {out}",
                 error=TypeError)

_MVLGAMMA = DtypeRule("cast", "mvlgamma: result type {result} can't be cast to the desired output "
                     "type {result}")

ACCEPTS_OUT: dict[str, TakesOut] = {
    # elementwise: cast the result into out (PyTorch's TensorIterator)
    **each("acos add addcdiv addcmul asin atan cos cosh div erf exp exp2 expm1 lerp log log10 "
           "log1p log2 maximum minimum mul pow reciprocal remainder rsqrt sigmoid sin sinh sqrt "
           "sub tan tanh", CAST),
    **each("square", CAST, "pow"),
    **each("true_divide", CAST, "div"),
    **each("atan2", CAST),
    **each("arctan2", CAST, "atan2"),
    **each("outer", CAST, "mul"),
    **each("floor_divide", CAST, "aten::floor_divide"),
    **each("abs ceil clamp clamp_max clamp_min floor frac neg round sign trunc", FOUND),
    **each("clip", FOUND, "clamp"),
    **each("fix", FOUND, "trunc"),
    **each("acosh asinh atanh hypot logaddexp logaddexp2 logit xlogy", CAST),
    **each("deg2rad erfc rad2deg sinc", CAST),
    **each("digamma erfinv i0 igamma igammac lgamma polygamma", CAST),
    **each("special.gammainc", CAST, "igamma"),
    **each("special.gammaincc", CAST, "igammac"),
    # (PyTorch's check names the input's dtype, then the result's: the same for a float input)
    **each("mvlgamma special.multigammaln", _MVLGAMMA, "mvlgamma"),
    # minigrad.special: aliases (their errors name the op behind them) and its own functions
    **{f"special.{name}": TakesOut(CAST, name)
       for name in ("digamma", "erf", "erfc", "erfinv", "exp2", "expm1", "i0", "log1p",
                    "logit", "polygamma", "sinc", "xlogy")},
    **each("special.chebyshev_polynomial_t special.chebyshev_polynomial_u "
           "special.chebyshev_polynomial_v special.chebyshev_polynomial_w "
           "special.shifted_chebyshev_polynomial_t special.shifted_chebyshev_polynomial_u "
           "special.shifted_chebyshev_polynomial_v special.shifted_chebyshev_polynomial_w "
           "special.hermite_polynomial_h special.hermite_polynomial_he "
           "special.laguerre_polynomial_l special.legendre_polynomial_p", CAST, None),
    **each("special.airy_ai special.bessel_j0 special.bessel_j1 special.bessel_y0 "
           "special.bessel_y1 "
           "special.modified_bessel_i0 special.modified_bessel_i1 special.modified_bessel_k0 "
           "special.modified_bessel_k1 special.scaled_modified_bessel_k0 "
           "special.scaled_modified_bessel_k1 special.spherical_bessel_j0", CAST, None),
    **each("special.expit", CAST, "sigmoid"),
    **each("special.round", FOUND, "round"),
    **each("special.gammaln", CAST, "lgamma"),
    **each("special.psi", CAST, "digamma"),
    **{f"special.{name}": TakesOut(CAST, f"special_{name}")
       for name in ["entr", "erfcx", "i0e", "i1", "i1e", "log_ndtr", "ndtri", "xlog1py", "zeta"]},
    # (PyTorch's ndtr is a composition of ops, copied into out: nothing to refuse)
    "special.ndtr": TakesOut(CAST, None, differentiable=True),
    **each("diff", CAST, "sub"),
    **each("copysign fmax fmin fmod gcd lcm nextafter", CAST),
    **each("bitwise_and bitwise_or bitwise_xor bitwise_left_shift bitwise_right_shift", CAST),
    "bitwise_not": TakesOut(FOUND),
    "float_power": TakesOut(same(errors.FLOAT_POWER_DTYPE.format(
        role="output", function="float_power", found="{out}")), "pow"),
    "heaviside": TakesOut(same(errors.HEAVISIDE_DTYPES), "aten::heaviside"),
    "sgn": TakesOut(FOUND),
    "angle": TakesOut(CAST),
    **{name: TakesOut(same(f"{name} does not support non-boolean outputs."), None)
       for name in ("signbit", "isneginf", "isposinf")},
    # NumPy's names, which PyTorch takes too: their errors name the op behind them
    **{alias: TakesOut(CAST, op) for alias, op in (
        ("arcsin", "asin"), ("arccos", "acos"), ("arctan", "atan"), ("arcsinh", "asinh"),
        ("arccosh", "acosh"), ("arctanh", "atanh"), ("divide", "div"), ("multiply", "mul"),
        ("subtract", "sub"))},
    **each("absolute", FOUND, "abs"),
    **each("negative", FOUND, "neg"),
    **each("eq ne lt le gt ge not_equal less less_equal greater greater_equal logical_and "
           "logical_or logical_xor logical_not", ANY, None),
    "nan_to_num": TakesOut(same("nan_to_num: dtype of out: {out} should be same as input: "
                                "{result}")),
    "where": TakesOut(same("Expected out type to be {result} but got {out}")),
    # reductions
    **each("cumsum cumprod", CUMULATIVE),
    "logcumsumexp": TakesOut(same("expected scalar_type {result} but found {out}")),
    **each("std var", REDUCE_CAST),
    "sum": TakesOut(REDUCE, accepts=_has_dim,
                    signatures=tuple(s.format(dims="tuple of ints") for s in _SUM_SIGNATURES)),
    # with or without a dim (unlike sum); its kernel exists for floating out dtypes only
    "nansum": TakesOut(DtypeRule("float", "\"nansum_cpu\" not implemented for '{out}'",
                                 compute_in="input", error=NotImplementedError)),
    "nanmean": TakesOut(DtypeRule("float", "\"nansum_cpu\" not implemented for '{out}'",
                                  compute_in="input", error=NotImplementedError), "nansum",
                        writes=2),
    **each("quantile nanquantile",
           same("quantile() out tensor must be same dtype as the input tensor"), None,
           differentiable=True),
    "prod": TakesOut(REDUCE, accepts=_has_dim,
                     signatures=tuple(s.format(dims="int") for s in _SUM_SIGNATURES)),
    "mean": TakesOut(lambda args, kwargs: REDUCE_CAST if _has_dim(args, kwargs) else DtypeRule(
        "cast", "mean.dtype_out(): input types can't be cast to the desired output type {out}",
        compute_in="input")),
    "logsumexp": TakesOut(DtypeRule("float", "logsumexp(): Expected floating point type for "
                                    "result tensor, but got: {out}", compute_in="input")),
    "special.logsumexp": TakesOut(DtypeRule("float", "logsumexp(): Expected floating point type "
                                            "for result tensor, but got: {out}",
                                            compute_in="input"), "logsumexp"),
    **each("amax amin", same("Expected the dtype for input and out to match, but got {result} "
                             "for input's dtype and {out} for out's dtype.")),
    "max": TakesOut(_MAX_MIN, lambda args, kwargs: "maximum" if _binary(args, kwargs) else "max"),
    "min": TakesOut(_MAX_MIN, lambda args, kwargs: "minimum" if _binary(args, kwargs) else "min"),
    **each("argmax argmin", EXACT, None),
    # (into uint8, PyTorch converts the input first: all(0.5) is 0)
    "all": TakesOut(DtypeRule("bool", "all only supports bool tensor for result, got: {out}",
                              compute_in="input"), None),
    "any": TakesOut(DtypeRule("bool", "any only supports bool tensor for result, got: {out}",
                              compute_in="input"), None),
    "norm": TakesOut(EXACT, "linalg_vector_norm"),
    **each("softmax log_softmax", EXACT, "aten::{name}"),
    "aminmax": TakesOut((EXACT, EXACT)),
    **each("median nanmedian", _MEDIAN, check_order=(1, 0)),
    "kthvalue": TakesOut((same("output values must be of same type as input"),
                          same("output indices must be of scalar type Long")),
                         warned_shape=_with_dim_kept(2)),
    "mode": TakesOut((
        same("expected scalar type '{result}' but got '{out}' for values output"),
        same("expected scalar type '{result}' but got '{out}' for indices output")),
        warned_shape=_with_dim_kept(1)),
    **each("cummax cummin", (same("expected scalar_type {result} but found {out}"),) * 2),
    # sorting, searching, indexing
    **each("sort topk", (EXACT, EXACT)),
    "argsort": TakesOut(EXACT, "sort", accepts=lambda args, kwargs: "stable" in kwargs, signatures=(
        " * (Tensor input, *, bool stable, int dim = -1, bool descending = False, Tensor out = "
        "None)\n",
        " * (Tensor input, int dim = -1, bool descending = False)\n      didn't match because "
        "some of the keywords were incorrect: out\n",
    )),
    "nonzero": TakesOut(same("nonzero: Expected out tensor to have scalar type Long but got "
                             "scalar type{out}"), None),
    # (the dtype that out_int32 asks for, with PyTorch's message naming the flag)
    **each("searchsorted bucketize", lambda args, kwargs: same(
        "minigrad.searchsorted(): output tensor's dtype is wrong, it can only be Int(int32) or "
        "Long(int64) depending on whether out_int32 flag is True, but we got output tensor's "
        "dtype {out} and out_int32 flag is " + str(bool(kwargs.get("out_int32", False)))),
        None),
    "isin": TakesOut(EXACT, None),
    "histc": TakesOut(same("torch.histogram: input tensor and hist tensor should have the same "
                           "dtype, but got input {result_c} and hist {out_c}"), None),
    "histogram": TakesOut((
        same("torch.histogram: input tensor and hist tensor should have the same dtype, but got "
             "input {result_c} and hist {out_c}"),
        same("torch.histogram: input tensor and bin_edges tensor should have the same dtype, "
             "but got input {result_c} and bin_edges {out_c} for dimension 0")), "aten::histogram"),
    **each("gather index_add index_copy scatter scatter_add scatter_reduce tril triu", EXACT),
    "take_along_dim": TakesOut(EXACT, "gather"),
    "index_reduce": TakesOut(EXACT),
    "frexp": TakesOut((
        same("minigrad.frexp() expects mantissa to have dtype {result_c} but got {out_c}"),
        same("minigrad.frexp() expects exponent to have {result_c} dtype but got {out_c}"))),
    # (PyTorch's ldexp is mul_out(out, input, 2 ** other): an out that is castable but of
    # another dtype meets an internal assert of its elementwise loop)
    "ldexp": TakesOut(DtypeRule(
        "cast", "ldexp can't be cast to the desired output type {out}",
        then=same("!needs_dynamic_casting<func_t>::check(iter) INTERNAL ASSERT FAILED at "
                  "\"/__w/pytorch/pytorch/aten/src/ATen/native/cpu/Loops.h\":311, please "
                  "report a bug to PyTorch. "))),
    "renorm": TakesOut(EXACT),
    "narrow_copy": TakesOut(same(
        "Expected self.dtype() == output.dtype() to be true, but got false.  (Could this error "
        "message be improved?  If so, please report an enhancement request to PyTorch.)"),
        resize_warning=None),
    "hardshrink": TakesOut(FOUND),
    "threshold": TakesOut(CAST),
    "native_batch_norm": TakesOut((same("expected scalar type {result} but found {out}"),) * 3),
    # the *_copy functions of single-output views (ops/view_copies.py); PyTorch lets inputs
    # that require grad through (minigrad refuses them, as with every differentiable op)
    **each("alias_copy as_strided_copy detach_copy diagonal_copy expand_copy permute_copy "
           "select_copy slice_copy squeeze_copy t_copy transpose_copy unfold_copy "
           "unsqueeze_copy view_copy", EXACT, "aten::{name}"),
    "frobenius_norm": TakesOut(EXACT, "norm"),
    "nonzero_static": TakesOut(
        same("nonzero_static: Expected out tensor to have scalar type Long but got scalar "
             "type{out}"),
        None,
    ),
    "range": TakesOut(FACTORY, "aten::range", resize_warning=None),
    "nuclear_norm": TakesOut(
        same("linalg.matrix_norm expected out tensor dtype {result} but got: {out}"),
        "linalg_matrix_norm",
    ),
    "slice_scatter": TakesOut(EXACT, "aten::slice_scatter"),
    "diag": TakesOut(EXACT, "aten::diagonal_copy"),
    "index_select": TakesOut(same("index_select(): self and result must have the same scalar "
                                  "type")),
    "masked_select": TakesOut(same("masked_select(): self and result must have the same scalar "
                                   "type")),
    "take": TakesOut(same("take(): self and out expected to have the same dtype, but got "
                          "self.dtype = {result} and out.dtype = {out}")),
    **each("cat stack", _CAT),
    **each("concat concatenate hstack vstack row_stack dstack column_stack", _CAT, "cat"),
    # linear algebra
    **each("addmm baddbmm bmm mm mv matmul", EXACT),
    "addmv": TakesOut(EXACT),
    "linalg.matmul": TakesOut(EXACT, "matmul"),
    "addr": TakesOut(CAST),
    "ger": TakesOut(CAST, "mul", warning="minigrad.ger is deprecated and will be removed in a "
                    "future PyTorch release. Use minigrad.outer instead."),
    # (its kernel resizes out silently: ``resize_as_``)
    "addbmm": TakesOut(same("self and mat2 must have the same dtype, but got {out} and "
                            "{result}"), resize_warning=None),
    **each("chain_matmul linalg.multi_dot",
           same("multi_dot(): expected out tensor to have dtype {result_c} but got {out_c}"),
           "mm"),
    **each("matrix_power linalg.matrix_power",
           DtypeRule("cast", "matrix_power: Expected result to be safely castable from {result} "
                     "dtype, but got result with dtype {out}", then=EXACT),
           "matmul"),
    "linalg.solve_triangular": TakesOut(same("expected scalar type {result} but found {out}"),
                                        "linalg_solve_triangular"),
    "triangular_solve": TakesOut((EXACT, EXACT)),
    **{name: TakesOut(DtypeRule("cast", f"{name}: Expected result to be safely castable from "
                                "{result} dtype, but got result with dtype {out}"))
       for name in ("cholesky_solve", "cholesky_inverse")},
    "linalg.matrix_rank": TakesOut(DtypeRule(
        "cast", "minigrad.linalg.matrix_rank: Expected result to be safely castable from "
        "{result} dtype, but got result with dtype {out}"), None),
    # (a composition ending in a copy into out: PyTorch refuses nothing)
    "linalg.cond": TakesOut(DtypeRule(
        "cast", "linalg.cond: Expected result to be safely castable from {result} dtype, but "
        "got result with dtype {out}"), None, differentiable=True),
    "linalg.lstsq": TakesOut(tuple(
        DtypeRule("cast", f"minigrad.linalg.lstsq: Expected {name} to be safely castable from "
                  "{result} dtype, but got " + name + " with dtype {out}")
        for name in ("solution", "residuals", "rank", "singular_values")), "linalg_lstsq"),
    # (compositions ending in ``out.copy_(result)``, as quantile's)
    **{f"linalg.{name}": TakesOut(DtypeRule("cast", f"{name}: Expected result to be safely "
                                            "castable from {result} dtype, but got result with "
                                            "dtype {out}"), None, differentiable=True)
       for name in ("tensorinv", "tensorsolve")},
    "geqrf": TakesOut(tuple(
        DtypeRule("cast", f"minigrad.geqrf: Expected {name} to be safely castable from {{result}} "
                  f"dtype, but got {name} with dtype {{out}}") for name in ("a", "tau"))),
    **{name: TakesOut(DtypeRule("cast", "minigrad.linalg.householder_product: Expected result to "
                                "be safely castable from {result} dtype, but got result with "
                                "dtype {out}"), "linalg_householder_product")
       for name in ("linalg.householder_product", "orgqr")},
    "ormqr": TakesOut(same("minigrad.ormqr: Expected input and result to have the same dtype, but "
                           "input has dtype{result} and result has dtype {out}")),
    "linalg.ldl_factor": TakesOut((EXACT, EXACT), "aten::linalg_ldl_factor_ex"),
    "linalg.ldl_factor_ex": TakesOut((EXACT, EXACT, EXACT), "aten::linalg_ldl_factor_ex"),
    "linalg.ldl_solve": TakesOut(EXACT, "aten::linalg_ldl_solve"),
    "linalg.lu_factor": TakesOut((EXACT, EXACT), "linalg_lu_factor_ex"),
    "linalg.lu_factor_ex": TakesOut((EXACT, EXACT, EXACT), "linalg_lu_factor_ex"),
    "linalg.lu": TakesOut((EXACT, EXACT, EXACT), "linalg_lu"),
    "lu_unpack": TakesOut((EXACT, EXACT, EXACT)),
    # (Python in PyTorch: ``out[i].resize_as_(result[i]).copy_(result[i])``: any dtype, two
    # writes; it lets inputs that require grad through, recording the copy)
    "lu": TakesOut((DtypeRule("any"), DtypeRule("any")), "lu", resize_warning=None, writes=2),
    **each("linalg.lu_solve lu_solve", EXACT, "linalg_lu_solve"),
    "msort": TakesOut(EXACT, "sort"),
    "linalg.vecdot": TakesOut(same("linalg.vecdot: Expected out of dtype{result} but found {out}"),
                              "sum"),
    "dot": TakesOut(same("result dtype {out} does not match input dtype {result}")),
    "vdot": TakesOut(same("result dtype {out} does not match input dtype {result}")),
    "cross": TakesOut(EXACT, "linalg_cross"),
    "linalg.cross": TakesOut(EXACT, "linalg_cross"),
    "kron": TakesOut(CAST, "mul", writes=0),
    # (PyTorch's inner of two non-0-d tensors writes tensordot's result into out with copy_)
    "inner": TakesOut(same("tensordot: Expected the output tensor to have dtype {result}, but "
                           "got an output tensor with dtype {out}"), None, differentiable=True),
    "tensordot": TakesOut(same("tensordot: Expected the output tensor to have dtype {result}, "
                               "but got an output tensor with dtype {out}")),
    "cholesky": TakesOut(DtypeRule("cast", "cholesky: Expected result to be safely castable "
                                   "from {result} dtype, but got result with dtype {out}")),
    "inverse": TakesOut(EXACT, "linalg_inv_ex"),
    "qr": TakesOut((EXACT, EXACT), "linalg_qr"),
    "svd": TakesOut((EXACT, EXACT, EXACT), "_linalg_svd"),
    "slogdet": TakesOut((EXACT, EXACT), "_linalg_slogdet"),
    "linalg.cholesky": TakesOut(EXACT, "linalg_cholesky_ex"),
    "linalg.cholesky_ex": TakesOut((EXACT, EXACT), "linalg_cholesky_ex"),
    "linalg.det": TakesOut(EXACT, "_linalg_det"),
    "linalg.eigh": TakesOut((EXACT, EXACT), "_linalg_eigh"),
    "linalg.eigvalsh": TakesOut(EXACT, "_linalg_eigh"),
    "linalg.inv": TakesOut(EXACT, "linalg_inv_ex"),
    "linalg.inv_ex": TakesOut((EXACT, EXACT), "linalg_inv_ex"),
    "linalg.matrix_norm": TakesOut(same("linalg.matrix_norm expected out tensor dtype {result} "
                                        "but got: {out}"), "linalg_matrix_norm"),
    "linalg.norm": TakesOut(same("linalg.norm expected out tensor dtype {result} but got: "
                                 "{out}"), "linalg_norm"),
    "linalg.pinv": TakesOut(DtypeRule("cast", "linalg.pinv: Expected result to be safely "
                                      "castable from {result} dtype, but got result with dtype "
                                      "{out}"), "linalg_pinv"),
    "linalg.qr": TakesOut((EXACT, EXACT), "linalg_qr"),
    "linalg.slogdet": TakesOut((EXACT, EXACT), "_linalg_slogdet"),
    "linalg.solve": TakesOut(EXACT, "_linalg_solve_ex"),
    "linalg.solve_ex": TakesOut((EXACT, EXACT), "_linalg_solve_ex"),
    "linalg.svd": TakesOut((EXACT, EXACT, EXACT), "_linalg_svd"),
    "linalg.svdvals": TakesOut(EXACT, "_linalg_svd"),
    "linalg.vector_norm": TakesOut(EXACT, "linalg_vector_norm"),
    # factories: made in out's dtype
    # random samples: bernoulli casts into any out, normal's kernel needs a floating one
    "bernoulli": TakesOut(ANY, resize_warning=None),
    "normal": TakesOut(_normal_rule, _normal_grad_name, resize_warning=None),
    "multinomial": TakesOut(same("multinomial expects Long tensor out, got: {out}"), None,
                            resize_warning=None),
    **each("empty eye full linspace logspace ones rand randint randn randperm zeros", FACTORY,
           "aten::{name}", resize_warning=None),
    "arange": TakesOut(FACTORY, "aten::arange", resize_warning=RANGE_RESIZED),
}


_NO_OUT = "      didn't match because some of the keywords were incorrect: out\n"
_SECTIONS = (" * (Tensor input, int sections)\n", " * (Tensor input, tuple of ints indices)\n")
_MOVE = (" * (Tensor input, int source, int destination)\n",
         " * (Tensor input, tuple of ints source, tuple of ints destination)\n")
_LIKE = " * (Tensor input, *, {}minigrad.memory_format memory_format = None, minigrad.dtype " \
    "dtype = None, minigrad.layout layout = None, minigrad.device device = None, bool " \
    "pin_memory = False, bool requires_grad = False)\n"

_MOMENTS_SIGNATURES = (
    " * (Tensor input, tuple of ints dim, bool unbiased = True, bool keepdim = False)\n",
    " * (Tensor input, tuple of ints dim = None, *, Number correction = None, bool keepdim = "
    "False)\n",
    " * (Tensor input, bool unbiased = True)\n", _NO_OUT,
)

# Functions without out= whose PyTorch binding, given one, lists its overloads in the TypeError
# (the other functions without out= raise Python's "unexpected keyword argument 'out'").
REFUSES_OUT: dict[str, tuple[str, ...]] = {
    "dsplit": _SECTIONS, "hsplit": _SECTIONS, "vsplit": _SECTIONS,
    "tensor_split": (" * (Tensor input, tuple of ints indices, int dim = 0)\n", _NO_OUT,
                     " * (Tensor input, Tensor tensor_indices_or_sections, int dim = 0)\n",
                     _NO_OUT, " * (Tensor input, int sections, int dim = 0)\n", _NO_OUT),
    "index_fill": (" * (Tensor input, int dim, Tensor index, Tensor value)\n",
                   " * (Tensor input, int dim, Tensor index, Number value)\n"),
    "masked_fill": (" * (Tensor input, Tensor mask, Tensor value)\n",
                    " * (Tensor input, Tensor mask, Number value)\n"),
    "moveaxis": _MOVE, "movedim": _MOVE,
    "narrow": (" * (Tensor input, int dim, Tensor start, int length)\n",
               " * (Tensor input, int dim, int start, int length)\n"),
    "rand_like": (_LIKE.format("minigrad.Generator generator, "), _LIKE.format("")),
    "randn_like": (_LIKE.format("minigrad.Generator generator, "), _LIKE.format("")),
    "rsub": (" * (Tensor input, Tensor other, *, Number alpha = 1)\n",
             " * (Tensor input, Number other, Number alpha = 1)\n", _NO_OUT),
    "std_mean": _MOMENTS_SIGNATURES, "var_mean": _MOMENTS_SIGNATURES,
    "squeeze": (" * (Tensor input)\n", " * (Tensor input, int dim)\n", _NO_OUT,
                " * (Tensor input, tuple of ints dim)\n", _NO_OUT),
}


# --- the call -----------------------------------------------------------------------------------


def install(namespace: dict[str, Any], prefix: str = "") -> None:
    """Let the functions of ``namespace`` that PyTorch lets take ``out=`` take it.

    ``prefix`` is how ``ACCEPTS_OUT`` names the namespace's functions (``"linalg."``).
    """
    for key, spec in ACCEPTS_OUT.items():
        if key.startswith(prefix) and "." not in key[len(prefix):]:
            name = key[len(prefix):]
            _layer(namespace, name, _taking_out(namespace[name], name, spec))
    if not prefix:
        for name, signatures in REFUSES_OUT.items():
            _layer(namespace, name, _refusing_out(namespace[name], name, signatures))


def _layer(namespace: dict[str, Any], name: str, layer: Callable[..., Any]) -> None:
    """Put the out= ``layer`` around ``namespace[name]``.

    A function with argument checks (``_arguments.checking_arguments``) routes the calls that
    give ``out`` to the layer itself, which takes ``out`` off and calls it again: the others,
    nearly all, pass one wrapper instead of two (~0.3 us of a ``minigrad.exp(a)``).
    """
    function = namespace[name]
    binding = getattr(function, "binding", None)  # (the checks' ``_arguments._Binding``)
    if binding is None:
        namespace[name] = layer
        publish(layer, namespace, name)  # (pickle finds the layer, not the function)
        return
    binding.route_out(layer)
    function.__signature__ = inspect.signature(layer)  # (help() shows ``out`` too)


# (the parameter ``_taking_out`` adds to a function's signature, before any ``**kwargs``)
_OUT = inspect.Parameter("out", inspect.Parameter.KEYWORD_ONLY, default=None,
                         annotation="Tensor | None")


def _taking_out(function: Callable[..., Any], name: str, spec: TakesOut) -> Callable[..., Any]:
    @functools.wraps(function)
    def with_out(*args: Any, out: Any = None, **kwargs: Any) -> Any:
        if out is None:
            return function(*args, **kwargs)
        return call_with_out(function, name, spec, args, kwargs, out)

    # help() and inspect show the function's own signature plus ``out`` (built when read).
    with_out.__signature__ = SignaturePlus(  # type: ignore[attr-defined]
        function, _OUT, inspect.Parameter.VAR_KEYWORD)
    _warnings.register_wrapper(with_out.__code__)  # (warnings point past it, at the caller)
    return with_out


def _refusing_out(
    function: Callable[..., Any], name: str, signatures: tuple[str, ...]
) -> Callable[..., Any]:
    @functools.wraps(function)  # (inspect still shows the function's own signature)
    def without_out(*args: Any, **kwargs: Any) -> Any:
        if "out" in kwargs:
            message = errors.invalid_arguments(name, args, kwargs, ())
            raise TypeError(message + "".join(signatures))
        return function(*args, **kwargs)

    _warnings.register_wrapper(without_out.__code__)  # (warnings point past it, at the caller)
    return without_out


def call_with_out(
    function: Callable[..., Any], name: str, spec: TakesOut, args: tuple[Any, ...],
    kwargs: dict[str, Any], out: Any,
) -> Any:
    """``function(*args, **kwargs)`` written into ``out``; returns ``out``."""
    if spec.warning is not None:
        _warnings.warn(spec.warning)
    if spec.accepts is not None and not spec.accepts(args, kwargs):
        given = errors.invalid_arguments(name, args, {**kwargs, "out": out}, ())
        raise TypeError(given + "".join(spec.signatures))
    rules = spec.dtype(args, kwargs) if callable(spec.dtype) else spec.dtype
    if name in NUMBERS_AS_TENSORS and is_number(out):  # (``out=3``: a 0-d tensor, written)
        out = wrapped_number(out)
    outs = _check_out_argument(name, out, rules)
    inputs = list(_tensors((*args, *kwargs.values())))
    if spec.grad_name is not None and grad_mode.is_grad_enabled() and any(
        t.requires_grad for t in (*inputs, *outs)
    ):
        grad_name = spec.grad_name(args, kwargs) if callable(spec.grad_name) else spec.grad_name
        raise RuntimeError(NOT_DIFFERENTIABLE.format(name=grad_name or name))
    rules = rules if isinstance(rules, tuple) else (rules,)
    # A factory leaves out with the requires_grad it was asked for (PyTorch's binding sets it).
    requires_grad = kwargs.pop("requires_grad", False) if rules[0] is FACTORY else None
    if rules[0].compute_in:
        args, kwargs = _in_dtype(function, outs[0], args, kwargs, rules[0], name)
    with _grad_mode_for(spec):
        result = function(*args, **kwargs)
    results = tuple(result) if len(outs) > 1 else (result,)
    for index in spec.check_order or range(len(outs)):
        target, value, rule = outs[index], results[index], rules[index]
        refusal = rule.refusal(value._array.dtype, target._array.dtype)
        if refusal is not None:
            # (an elementwise kernel finds an expanded out, then an input partially
            # overlapping it, before the dtypes, as in place)
            if rule.overlap:
                if target._array.shape == value._array.shape and \
                        has_internal_overlap(target._array):
                    raise RuntimeError(errors.INTERNAL_OVERLAP)
                refuse_partial_overlap(target, tuple(inputs))
            raise refusal
    for target, value, rule in zip(outs, results, rules):
        _check_writable(target, value, inputs if rule.overlap else (), name)
    for target, value in zip(outs, results):
        shape = value._array.shape
        if spec.warned_shape is None or not target._array.ndim:
            _resize(target, shape, spec.resize_warning)
        else:
            kept = spec.warned_shape
            _resize(target, shape, spec.resize_warning,
                    (kept(args, kwargs, target._array.shape), kept(args, kwargs, shape)))
    with _grad_mode_for(spec):
        for target, value in zip(outs, results):
            # (arange keeps out's shape when the element count fits)
            # (written through an alias with a counter of its own where PyTorch writes
            # through an unsafe view: out's version stays)
            written = target if spec.writes else TensorBase.output_class._make(target._array)
            apply_inplace(fill.Copy, written, value.reshape(target.shape))
            for _ in range(spec.writes - 1):
                target._version_counter().bump()
    if requires_grad is not None:
        outs[0].requires_grad_(requires_grad)
    if len(outs) == 1:
        return outs[0]
    if type(result) is tuple:  # (a plain tuple, as PyTorch's Python-level lu returns)
        return tuple(outs)
    return getattr(return_types, type(result).__name__ + "_out")(*outs)


def _grad_mode_for(spec: TakesOut) -> Any:
    """No grad around an out= call, but for the differentiable ones (grad mode as it is)."""
    return contextlib.nullcontext() if spec.differentiable else grad_mode.no_grad()


def _check_out_argument(name: str, out: Any, rules: Any) -> tuple[TensorBase, ...]:
    """``out`` as a tuple of tensors, checked against how many results there are."""
    if not isinstance(rules, tuple):
        if not isinstance(out, TensorBase):
            raise TypeError(
                f"{name}(): argument 'out' must be Tensor, not {errors.python_type_name(out)}")
        return (out,)
    if not isinstance(out, (tuple, list)) or not all(isinstance(t, TensorBase) for t in out):
        raise TypeError(f"{name}(): argument 'out' must be tuple of Tensors, not "
                        f"{errors.python_type_name(out)}")
    if len(out) != len(rules):
        raise TypeError(f"expected tuple of {len(rules)} elements but got {len(out)}")
    return tuple(out)


def _tensors(values: Iterable[Any]) -> Iterable[TensorBase]:
    """The tensors among ``values``, and inside the lists among them (``cat``'s inputs)."""
    for value in values:
        if isinstance(value, TensorBase):
            yield value
        elif isinstance(value, (list, tuple)):
            yield from _tensors(value)


def _in_dtype(
    function: Callable[..., Any], out: TensorBase, args: tuple[Any, ...],
    kwargs: dict[str, Any], rule: DtypeRule, name: str,
) -> tuple[tuple[Any, ...], dict[str, Any]]:
    """The call made in ``out``'s dtype: a factory's ``dtype=``, a reduction's converted input.

    A ``dtype=`` the caller gave must be out's own (PyTorch's messages).
    """
    wanted = out._array.dtype
    if kwargs.get("dtype") is not None:
        given = to_numpy_dtype(kwargs["dtype"], name)
        if given == wanted:
            return args, kwargs
        if rule is FACTORY:
            raise RuntimeError(f"dtype {display_name(given)} does not match dtype of out "
                               f"parameter ({display_name(wanted)})")
        raise RuntimeError(EXACT.message.format(result_c=_C_NAMES[given.name],
                                                out_c=_C_NAMES[wanted.name]))
    if rule.compute_in == "dtype":
        return args, {**kwargs, "dtype": from_numpy_dtype(wanted)}
    if rule.check != "any":  # checked on the dtype the function gives on its own
        natural = function(*args, **kwargs)
        refusal = rule.refusal(natural._array.dtype, wanted)
        if refusal is not None:
            raise refusal
    dtype = from_numpy_dtype(wanted)
    if args:
        return (args[0].to(dtype), *args[1:]), kwargs
    return args, {**kwargs, "input": kwargs["input"].to(dtype)}


def _check_writable(target: TensorBase, value: TensorBase, inputs: Any, name: str) -> None:
    """Refuse, before anything is written, what PyTorch refuses about the out tensor."""
    if target._version_counter().is_inference and not inference.is_inference_mode_enabled():
        raise RuntimeError(inference.INPLACE_OUTSIDE)
    shape = value._array.shape
    if target._array.shape != shape and target._base is not None:
        raise RuntimeError(CANNOT_RESIZE_VIEW.format(
            name=name, old=list(target._array.shape), new=list(shape)))
    if target._array.shape == shape and has_internal_overlap(target._array):
        raise RuntimeError(errors.INTERNAL_OVERLAP)
    refuse_partial_overlap(target, tuple(inputs))  # (PyTorch's TensorIterator rule)


def _resize(target: TensorBase, shape: tuple[int, ...], warning: str | None,
            warned: tuple[tuple[int, ...], tuple[int, ...]] | None = None) -> None:
    """Give ``target`` the result's shape, as PyTorch's ``resize_`` does (not a view).

    ``warned``: the shapes, out's and the result's, as PyTorch resizes them where it first
    gives both a dim the result does not keep (see TakesOut's ``warned_shape``).

    Shrinking a contiguous tensor keeps its memory (its views see the result, as in PyTorch);
    growing it takes new memory, which views made of it earlier do not share (PyTorch grows
    the memory they share: a difference docs/api.md states).
    """
    array = target._array
    if array.shape == shape:
        return
    size = int(np.prod(shape))
    if warning is RANGE_RESIZED and size == array.size:
        return  # arange writes the range in out's shape
    old, new = (array.shape, shape) if warned is None else warned
    if warning is not None and array.size and old != new:
        message = warning.format(old=list(old), new=list(new), old_numel=array.size,
                                 new_numel=size, new_tuple=tuple(new))
        warnings.warn(message, UserWarning, stacklevel=4)
    if array.flags.c_contiguous and size <= array.size:
        set_array(target, array.reshape(-1)[:size].reshape(shape))
    else:
        set_array(target, np.empty(shape, dtype=array.dtype))
