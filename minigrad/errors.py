"""PyTorch's error texts, in one place.

Each text is PyTorch 2.13's own, with ``torch`` replaced by ``minigrad`` in type names, so that a
user who searches for a message finds PyTorch's explanations of it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from minigrad._dtype import display_name

LEAF_INPLACE = "a leaf Variable that requires grad is being used in an in-place operation."
# What a custom Function's mark_dirty on a leaf says (checked after its forward ran).
LEAF_USED_INPLACE = "a leaf Variable that requires grad has been used in an in-place operation."

BACKWARD_TWICE = (
    "Trying to backward through the graph a second time (or directly access saved tensors after "
    "they have already been freed). Saved intermediate values of the graph are freed when you "
    "call .backward() or autograd.grad(). Specify retain_graph=True if you need to backward "
    "through the graph a second time or if you need to access saved tensors after calling "
    "backward."
)

IMPLICIT_GRAD_NOT_SCALAR = "grad can be implicitly created only for scalar outputs"

NON_LEAF_REQUIRES_GRAD = "you can only change requires_grad flags of leaf variables."
NON_LEAF_REQUIRES_GRAD_FALSE = (
    NON_LEAF_REQUIRES_GRAD + " If you want to use a computed variable in a subgraph that doesn't "
    "require differentiation use var_no_grad = var.detach()."
)
VIEW_OF_LEAF_INPLACE = (
    "a view of a leaf Variable that requires grad is being used in an in-place operation."
)
INTERNAL_OVERLAP = (
    "unsupported operation: more than one element of the written-to tensor refers to a single "
    "memory location. Please clone() the tensor before performing the operation."
)
# PyTorch's text has no space after "detach_()."
SAVED_TENSOR_DETACHED_INPLACE = (
    "Trying to use a saved tensor that has been detached in-place, i.e. with .detach_()."
    "This is not supported, please use out-of-place `.detach()` instead"
)
PARTIAL_OVERLAP = (
    "unsupported operation: some elements of the input tensor and the written-to tensor refer "
    "to a single memory location. Please clone() the tensor before performing the operation."
)
# requires_grad_() and the requires_grad setter say it differently in PyTorch 2.13.
ONLY_FLOAT_REQUIRES_GRAD = "only Tensors of floating point dtype can require gradients"
ONLY_FLOAT_OR_COMPLEX_REQUIRES_GRAD = (
    "only Tensors of floating point and complex dtype can require gradients"
)
ONLY_FLOAT_FACTORY_REQUIRES_GRAD = (
    "Only Tensors of floating point and complex dtype can require gradients"
)
NUMPY_REQUIRES_GRAD = (
    "Can't call numpy() on Tensor that requires grad. Use tensor.detach().numpy() instead."
)
NON_LEAF_GRAD_ACCESS = (
    "The .grad attribute of a Tensor that is not a leaf Tensor is being accessed. Its .grad "
    "attribute won't be populated during autograd.backward(). If you indeed want the .grad "
    "field to be populated for a non-leaf Tensor, use .retain_grad() on the non-leaf Tensor. If "
    "you access the non-leaf Tensor by mistake, make sure you access the leaf Tensor instead. "
    "See github.com/pytorch/pytorch/pull/30531 for more information."
)
INFERENCE_TENSOR_SAVED = (
    "Inference tensors cannot be saved for backward. Please do not use Tensors created in "
    "inference mode in computation tracked by autograd. To work around this, you can make a "
    "clone to get a normal tensor and use it in autograd, or use `minigrad.no_grad()` instead "
    "of `minigrad.inference_mode()`."
)
DEEPCOPY_NON_LEAF = (
    "Only Tensors created explicitly by the user (graph leaves) support the deepcopy protocol at "
    "the moment.  If you were attempting to deepcopy a module, this may be because of a "
    "minigrad.nn.utils.weight_norm usage, see https://github.com/pytorch/pytorch/pull/103001"
)
OUTPUT_NOT_TENSOR = "Expected output to be a minigrad.Tensor"
RETAIN_GRAD_NO_GRAD = "can't retain_grad on Tensor that has requires_grad=False"
HOOK_NO_GRAD = "cannot register a hook on a tensor that doesn't require gradient"

_VERSION_HINT = (
    "Hint: enable anomaly detection to find the operation that failed to compute its gradient, "
    "with minigrad.autograd.set_detect_anomaly(True, check_nan=False)."
)
_VERSION_HINT_ANOMALY = (
    "Hint: the backtrace further above shows the operation that failed to compute its gradient. "
    "The variable in question was changed in there or anywhere later. Good luck!"
)


def format_size(shape: Sequence[int]) -> str:
    """``[2, 3]``: a shape as PyTorch's C++ side prints it in messages."""
    return "[" + ", ".join(str(n) for n in shape) + "]"


def format_torch_size(shape: Sequence[int]) -> str:
    """``minigrad.Size([2, 3])``: a shape as ``repr(tensor.shape)`` prints it."""
    return f"minigrad.Size({list(shape)})"


def no_grad_fn(index: int) -> str:
    """Backward was asked of a tensor that has no history and does not require grad."""
    return f"element {index} of tensors does not require grad and does not have a grad_fn"


def grad_shape_mismatch(index: int, grad_shape: Sequence[int], shape: Sequence[int]) -> str:
    """An explicit gradient whose shape differs from its output's."""
    return (
        f"Mismatch in shape: grad_output[{index}] has a shape of {format_torch_size(grad_shape)} "
        f"and output[{index}] has a shape of {format_torch_size(shape)}."
    )


def node_short_name(name: str) -> str:
    """The name PyTorch uses for a node inside the version-mismatch message.

    ``SigmoidBackward0`` -> ``Sigmoid``, ``MaxBackward1`` -> ``Max1``, ``MyFnBackward`` -> ``MyFn``;
    names that do not end in ``Backward`` plus digits (``torch::autograd::CopySlices``) stay whole.
    """
    head, sep, digits = name.rpartition("Backward")
    if not sep or not (digits == "" or digits.isdigit()):
        return name
    return head + ("" if digits == "0" else digits)


def version_mismatch(
    type_name: str,
    shape: Sequence[int],
    producer: str | None,
    output_nr: int,
    version: int,
    expected: int,
    anomaly: bool,
) -> str:
    """A saved tensor was modified in place after it was saved."""
    which = "" if producer is None else f", which is output {output_nr} of {producer},"
    hint = _VERSION_HINT_ANOMALY if anomaly else _VERSION_HINT
    return (
        "one of the variables needed for gradient computation has been modified by an inplace "
        f"operation: [{type_name} {format_size(shape)}]{which} is at version {version}; "
        f"expected version {expected} instead. {hint}"
    )


def broadcast_mismatch(shape_a: Sequence[int], shape_b: Sequence[int]) -> str:
    """Two shapes that cannot be broadcast together (PyTorch names the first clashing dim)."""
    a, b = list(shape_a), list(shape_b)
    for offset in range(1, min(len(a), len(b)) + 1):
        size_a, size_b = a[-offset], b[-offset]
        if size_a != size_b and size_a != 1 and size_b != 1:
            dim = max(len(a), len(b)) - offset
            return (
                f"The size of tensor a ({size_a}) must match the size of tensor b ({size_b}) "
                f"at non-singleton dimension {dim}"
            )
    return f"shapes {format_size(a)} and {format_size(b)} cannot be broadcast"


def from_numpy_value_error(
    error: ValueError, shape_a: Sequence[int], shape_b: Sequence[int]
) -> str:
    """PyTorch's text for a numpy ValueError raised by an op on operands of these shapes."""
    try:
        np.broadcast_shapes(tuple(shape_a), tuple(shape_b))
    except ValueError:
        return broadcast_mismatch(shape_a, shape_b)
    return str(error)


def inplace_shape_mismatch(shape: Sequence[int], broadcast_shape: Sequence[int]) -> str:
    """An in-place op whose result would not fit the tensor written to."""
    return (
        f"output with shape {format_size(shape)} doesn't match the broadcast shape "
        f"{format_size(broadcast_shape)}"
    )


def inplace_dtype_mismatch(result_type: str, target_type: str) -> str:
    """An in-place op whose result dtype cannot be cast to the tensor written to."""
    return f"result type {result_type} can't be cast to the desired output type {target_type}"


def dim_out_of_range(dim: int, ndim: int) -> str:
    """A ``dim`` argument outside ``[-ndim, ndim - 1]``."""
    low, high = (-1, 0) if ndim == 0 else (-ndim, ndim - 1)
    return f"Dimension out of range (expected to be in range of [{low}, {high}], but got {dim})"


# The C++ type names some of PyTorch's messages print for each element type ("double").
CPP_TYPE_NAMES = {
    "float16": "c10::Half",
    "float32": "float",
    "float64": "double",
    "uint8": "unsigned char",
    "int8": "signed char",
    "int16": "short int",
    "int32": "int",
    "int64": "long int",
    "bool": "bool",
}


def grad_dtype_mismatch(grad_dtype: Any, tensor_dtype: Any) -> str:
    """An assigned ``.grad`` whose dtype is not the tensor's (numpy dtypes)."""
    return (
        f"attempting to assign a gradient with dtype '{CPP_TYPE_NAMES[str(grad_dtype)]}' to a "
        f"tensor with grad_dtype '{display_name(tensor_dtype)}'. The gradient must match the "
        "tensor's grad_dtype (defaults to the tensor's dtype). You can set the tensor's "
        "grad_dtype attribute with a specific dtype, or None to allow any dtype. Set grad_dtype "
        "with caution. Diverging the dtypes of a tensor and its gradient may break downstream "
        "systems that assume they match."
    )


def hook_changed_size(hook_name: str) -> str:
    """A tensor hook returned a gradient of another shape."""
    return f"hook '{hook_name}' has changed the size of value"


def nan_in_backward(node_name: str, index: int) -> str:
    """Anomaly mode's NaN check failed for a node's output."""
    return f"Function '{node_name}' returned nan values in its {index}th output."


def wrong_grad_count(node_name: str, expected: int, got: int) -> str:
    """A backward returned as many gradients as it had inputs? Not this one."""
    return (
        f"function {node_name} returned an incorrect number of gradients "
        f"(expected {expected}, got {got})"
    )


def invalid_grad_shape(node_name: str, index: int, got: Sequence[int], shape: Sequence[int]) -> str:
    """A backward returned a gradient that does not fit its input's shape."""
    return (
        f"Function {node_name} returned an invalid gradient at index {index} - got "
        f"{format_size(got)} but expected shape compatible with {format_size(shape)}"
    )


_HEAP_TYPE = 1 << 9  # Py_TPFLAGS_HEAPTYPE: a class defined in Python


def python_type_name(value: object) -> str:
    """A value's type as CPython's ``tp_name`` names it, which is what PyTorch prints.

    ``float``, ``numpy.float64`` (a C type keeps its module), ``MyClass`` (a Python class
    does not).
    """
    kind = type(value)
    if kind.__module__ == "builtins" or kind.__flags__ & _HEAP_TYPE:
        return kind.__name__
    return f"{kind.__module__}.{kind.__name__}"


def argument_type_name(value: object) -> str:
    """How PyTorch's argument parser names a value's type: ``Tensor``, ``minigrad.dtype``, ..."""
    kind = type(value)
    if kind.__module__.startswith("minigrad") and kind.__name__ in ("dtype", "device", "Size"):
        return f"minigrad.{kind.__name__}"
    if any(base.__name__ == "Tensor" for base in kind.__mro__):
        return "Tensor"
    return python_type_name(value)


def invalid_arguments(
    function: str, args: Sequence[object], kwargs: dict[str, object], signatures: Sequence[str]
) -> str:
    """No signature of ``function`` fits the arguments (PyTorch's argument-parser message)."""
    got = [argument_type_name(a) for a in args]
    named = [f"{key}={argument_type_name(kwargs[key])}" for key in sorted(kwargs)]
    # (PyTorch ends a list of keyword arguments only with a separator.)
    text = ", ".join(got + named) if got else "".join(f"{item}, " for item in named)
    expected = "".join(f" * ({signature})\n" for signature in signatures)
    return (
        f"{function}() received an invalid combination of arguments - got ({text}), but "
        f"expected one of:\n{expected}"
    )


class OutOfScopeError(NotImplementedError, AttributeError):
    """A PyTorch name minigrad leaves out (``minigrad.fft``, ``minigrad.cuda.synchronize``).

    It is an AttributeError too, so ``hasattr`` and ``getattr(module, name, default)`` keep
    working on code that probes for optional features.
    """


# --- linear algebra (ops/solvers.py, ops/decompositions.py) -----------------------------------


class _LinAlgError(RuntimeError):  # noqa: N801 - PyTorch's class name (torch._C._LinAlgError)
    """A matrix routine could not complete: a singular or not positive-definite input.

    ``minigrad.linalg.LinAlgError``, as PyTorch's ``torch.linalg.LinAlgError`` (whose class is
    named ``_LinAlgError``); it is a RuntimeError, so code that catches that keeps working.
    """


def not_implemented_for(kernel: str, dtype_name: str) -> str:
    """A kernel that has no implementation for a dtype (PyTorch's dispatch message)."""
    return f"\"{kernel}\" not implemented for '{dtype_name}'"


def linalg_too_few_dims(function: str, argument: str = "A") -> str:
    """A matrix argument with fewer than two dimensions."""
    return f"{function}: The input tensor {argument} must have at least 2 dimensions."


def linalg_not_square(function: str, rows: int, columns: int, argument: str = "A") -> str:
    """A matrix argument that has to be square and is not."""
    return (
        f"{function}: {argument} must be batches of square matrices, but they are {rows} by "
        f"{columns} matrices"
    )


def linalg_not_float(function: str, dtype_name: str) -> str:
    """An integer or bool input to a routine that needs floating point."""
    return f"{function}: Expected a floating point or complex tensor as input. Got {dtype_name}"


def linalg_low_precision(function: str, dtype_name: str) -> str:
    """A half-precision input to a routine that refuses it."""
    return f"{function}: Low precision dtypes not supported. Got {dtype_name}"


def _batch_element(batch: int | None) -> str:
    return "" if batch is None else f"(Batch element {batch}): "


def singular_inverse(function: str, batch: int | None, info: int) -> str:
    """LU found an exactly zero pivot (``info``, 1-based) while inverting."""
    return (
        f"{function}: {_batch_element(batch)}The diagonal element {info} is zero, the inversion "
        "could not be completed because the input matrix is singular."
    )


def singular_solve(batch: int | None) -> str:
    """LU found an exactly zero pivot while solving a linear system."""
    return (
        f"minigrad.linalg.solve: {_batch_element(batch)}The solver failed because the input "
        "matrix is singular."
    )


def not_positive_definite(function: str, batch: int | None, order: int) -> str:
    """Cholesky found a leading minor (of ``order``, 1-based) that is not positive-definite."""
    return (
        f"{function}: {_batch_element(batch)}The factorization could not be completed because "
        f"the input is not positive-definite (the leading minor of order {order} is not "
        "positive-definite)."
    )


def solve_shapes(function: str, a: Sequence[int], b: Sequence[int], left: bool) -> str:
    """The matrices of ``AX = B`` (or ``XA = B``) do not fit together."""
    equation = "AX = B" if left else "XA = B"
    return (
        f"{function}: Incompatible shapes of A and B for the equation {equation} "
        f"({a[-2]}x{a[-1]} and {b[-2]}x{b[-1]})"
    )


SOLVE_VECTOR_RIGHT = (
    "linalg.solve: Vector broadcasting of the left hand side is not supported for left=False. "
    "In this case linalg.solve is equivalent to B / A.squeeze(-1)"
)
QR_R_NOT_DIFFERENTIABLE = (
    "The derivative of linalg.qr depends on Q, which is not computed when mode='r'. Please use "
    "linalg.qr(A, mode='reduced') if you are going to differentiate through linalg.qr."
)
QR_COMPLETE_NOT_DIFFERENTIABLE = (
    "The QR decomposition is not differentiable when mode='complete' and nrows > ncols."
)
SVD_DRIVER = (
    "minigrad.linalg.svd: keyword argument `driver=` is only supported on CUDA inputs with "
    "cuSOLVER backend."
)


def qr_mode(mode: str) -> str:
    """An unknown ``mode`` for ``linalg.qr``."""
    return (
        f"qr received unrecognized mode '{mode}' but expected one of 'reduced' (default), 'r', "
        "or 'complete'"
    )


def uplo(value: str) -> str:
    """An ``UPLO`` argument other than 'L' or 'U'."""
    return f"Expected UPLO argument to be 'L' or 'U', but got {value}"


def pinv_input(dtype_name: str, shape: Sequence[int]) -> str:
    """``linalg.pinv`` of a vector, or of a tensor that is not float32/float64."""
    return (
        f"linalg.pinv({dtype_name}{{{format_size(shape)}}}): expected a tensor with 2 or more "
        "dimensions of float, double, cfloat or cdouble types"
    )


# The once-per-process warnings of the deprecated minigrad.cholesky and minigrad.qr.
CHOLESKY_DEPRECATED = (
    "minigrad.cholesky is deprecated in favor of minigrad.linalg.cholesky and will be removed "
    "in a future PyTorch release.\nL = minigrad.cholesky(A)\nshould be replaced with\n"
    "L = minigrad.linalg.cholesky(A)\nand\nU = minigrad.cholesky(A, upper=True)\nshould be "
    "replaced with\nU = minigrad.linalg.cholesky(A).mH\nThis transform will produce equivalent "
    "results for all valid (symmetric positive definite) inputs."
)
QR_DEPRECATED = (
    "minigrad.qr is deprecated in favor of minigrad.linalg.qr and will be removed in a future "
    "PyTorch release.\nThe boolean parameter 'some' has been replaced with a string parameter "
    "'mode'.\nQ, R = minigrad.qr(A, some)\nshould be replaced with\nQ, R = "
    "minigrad.linalg.qr(A, 'reduced' if some else 'complete')"
)
SCATTER_REDUCE_DEPRECATED = (
    "The reduce argument of minigrad.scatter with Tensor src is deprecated and will be removed "
    "in a future PyTorch release. Use minigrad.scatter_reduce instead for more reduction "
    "options."
)


RUNNING_STATS_BOTH_OR_NEITHER = (
    "running_mean and running_var must either both be None or neither be None"
)


def not_same_dtype(dtype_names: dict[str, str]) -> str:
    """Several tensors of one op in different dtypes (``bilinear``): ``{argument: dtype}``."""
    got = ", ".join(f"{name}: {CPP_TYPE_NAMES[dtype]}" for name, dtype in dtype_names.items())
    return f"All tensors must have the same dtype, got {got}"


def where_condition_not_bool(dtype_name: str) -> str:
    """``where`` with a condition that is neither bool nor (deprecated) uint8."""
    return (f"where expected condition to be a boolean tensor, but got a tensor with dtype "
            f"{dtype_name}")


WHERE_UINT8_CONDITION = (
    "where received a uint8 condition tensor. This behavior is deprecated and will be removed in "
    "a future version of PyTorch. Use a boolean condition instead."
)


def does_not_support_bool(function: str) -> str:
    """``argmax``/``argmin`` on a bool tensor."""
    return f"{function}(): does not support bool input"


TOPK_BOOL = "topk does not support bool dtypes on CPU"


def input_not_tensor(type_name: str) -> str:
    """``grad``/``backward`` asked for the gradient of something that is not a tensor."""
    return f"all inputs have to be Tensors or GradientEdges, but got {type_name}"


VIEW_SIGNATURES = ("minigrad.dtype dtype", "tuple of ints size")  # Tensor.view's overloads
