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
# A custom Function's ``ctx.mark_dirty`` (checked after its forward). PyTorch's first text is
# cut short where it would name the argument and its type.
MARK_DIRTY_NOT_TENSOR = "mark_dirty can only accept variables, but argument "
DIRTY_NOT_RETURNED = (
    "Some elements marked as dirty during the forward method were not returned as output. The "
    "inputs that are modified inplace must all be outputs of the Function."
)
DIRTY_NOT_INPUT = (
    "ctx.mark_dirty() received a tensor that was not an input. Only input Tensors that have "
    "been mutated should be passed to ctx.mark_dirty()."
)
DIRTY_VIEW_SEVERAL_OUTPUTS = (
    "If your Function modifies inplace an input that is a view of another Tensor, your "
    "Function cannot return more than one Tensor. This is not supported by the current "
    "autograd engine. You should either make sure the input is not a view (using .clone() for "
    "example) or make your Function only return one Tensor (potentially splitting it into two "
    "Functions: one doing the inplace that returns a single Tensor and a second one that does "
    "the other operations). You can ask on the forum https://discuss.pytorch.org/ if you need "
    "help to do this change."
)

VIEW_OF_LEAF_INPLACE = (
    "a view of a leaf Variable that requires grad is being used in an in-place operation."
)
INTERNAL_OVERLAP = (
    "unsupported operation: more than one element of the written-to tensor refers to a single "
    "memory location. Please clone() the tensor before performing the operation."
)
# PyTorch's text has no space after "detach_()."
# Saved-tensor hooks (autograd/saved_hooks.py) and a saved value's own hooks (SavedTensor).
PACK_HOOK_MODIFIED_INPUT = (
    "A saved tensor pack hook is modifying its input in place. Tensors provided as input to "
    "pack hook cannot be modified by in-place operations as this can lead to unexpected "
    "side-effects. Please open an issue if you need to perform in-place operations on the input "
    "to a pack hook."
)
POST_ACCUMULATE_HOOK_RETURNED = "Tensor post accumulate grad hooks should return None."
POST_ACCUMULATE_HOOK_NON_LEAF = (
    "post accumulate grad hooks cannot be registered on non-leaf tensors"
)
SAVED_HOOKS_ALREADY_SET = (
    "Calling register_hooks on a saved tensor whose hooks have already been set. Hint: only one "
    "pair of hooks is allowed at a time."
)
SAVED_HOOKS_ON_NONE = "Calling register_hooks on a saved tensor with value None is forbidden"
SAVED_HOOKS_AFTER_FREE = (
    "Calling register_hooks on a saved tensor after it has been freed. Saved intermediate values "
    "of the graph are freed when you call .backward() or autograd.grad(). Specify "
    "retain_graph=True if you need to backward through the graph a second time or if you need to "
    "access saved variables after calling backward."
)


def unpack_hook_not_tensor(result: object) -> str:
    """An unpack hook returned something other than a tensor (a TypeError in PyTorch)."""
    return (
        "Output of saved tensor unpack_hook expected to be a Tensor but got result of type "
        f"{python_type_name(result)}"
    )


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
REQUIRES_GRAD_TO_SCALAR = (
    "Converting a tensor with requires_grad=True to a scalar may lead to unexpected behavior.\n"
    "Consider using tensor.detach() first."
)
STATE_DICT_POSITIONAL = (  # (the link is PyTorch's page)
    "Positional args are being deprecated, use kwargs instead. Refer to "
    "https://pytorch.org/docs/main/generated/torch.nn.Module.html#torch.nn.Module.state_dict"
    " for details."
)
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
NODE_CALL_KEYWORDS = "keyword arguments are not supported"  # ``grad_fn(grad=...)``


def node_call_count(expected: int, given: int) -> str:
    """PyTorch's text for calling a node with a gradient count other than its outputs'."""
    return f"expected {expected} arguments, got {given} instead"


def node_call_not_tensor(index: int) -> str:
    """PyTorch's text for calling a node with a gradient that is neither a tensor nor None."""
    return f"argument {index} is not a Variable"


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


def data_not_tensor(type_name: str) -> str:
    """``Variable(data)`` or ``t.data = data`` with something that is not a tensor."""
    return f"Variable data has to be a tensor, but got {type_name}"


DATA_NOT_DIFFERENTIABLE = (
    "data set to a tensor that requires gradients must be floating point or complex dtype"
)


def grad_size_mismatch(grad_shape: Sequence[int], shape: Sequence[int]) -> str:
    """``t.grad = g`` with a ``g`` of another shape than ``t``'s."""
    return (
        f"attempting to assign a gradient of size '{list(grad_shape)}' to a tensor of size "
        f"'{list(shape)}'. Please ensure that the gradient and the tensor are the same size"
    )


def batched_grad_shape_mismatch(
    index: int, grad_shape: Sequence[int], shape: Sequence[int]
) -> str:
    """``grad(..., is_grads_batched=True)``: a gradient's rows do not have the output's shape.

    (PyTorch prints the shape of the first row without its first dimension.)
    """
    return (
        "If `is_grads_batched=True`, we interpret the first dimension of each grad_output as "
        "the batch dimension. The sizes of the remaining dimensions are expected to match the "
        "shape of corresponding output, but a mismatch was detected: "
        f"grad_output[{index}] has a shape of {format_torch_size(grad_shape)} and "
        f"output[{index}] has a shape of {format_torch_size(shape)}. If you only want some "
        "tensors in `grad_output` to be considered batched, consider using vmap."
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


FROM_NUMPY_NEGATIVE_STRIDES = (
    "At least one stride in the given numpy array is negative, and tensors with negative "
    "strides are not currently supported. (You can probably work around this by making a copy "
    "of your array  with array.copy().) "
)


def from_numpy_value_error(error: ValueError, shapes: Sequence[Sequence[int]]) -> str:
    """PyTorch's text for a numpy ValueError raised by an op on operands of these shapes.

    As PyTorch's TensorIterator, the shapes are broadcast one after the other: the first that
    does not fit the shape so far is named.
    """
    shape = tuple(shapes[0])
    for other in shapes[1:]:
        try:
            shape = np.broadcast_shapes(shape, tuple(other))
        except ValueError:
            return broadcast_mismatch(shape, other)
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


def mm_shapes(mat1: Sequence[int], mat2: Sequence[int]) -> str:
    """PyTorch's error for a matrix product of matrices that do not fit (mm, addmm, linear)."""
    return (f"mat1 and mat2 shapes cannot be multiplied ({mat1[0]}x{mat1[1]} and "
            f"{mat2[0]}x{mat2[1]})")


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


def inplace_dtype_differs(input_dtype: Any, output_dtype: Any) -> str:
    """An in-place op asked to compute in another dtype than its tensor's (numpy dtypes)."""
    return (
        f"Bad in-place call: input tensor dtype {CPP_TYPE_NAMES[str(input_dtype)]} and output "
        f"tensor dtype {CPP_TYPE_NAMES[str(output_dtype)]} should match"
    )


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


def grad_for_non_tensor(node_name: str, position: int) -> str:
    """A custom backward gave a gradient for an argument of forward that was not a tensor.

    ``position`` counts from 1, as PyTorch's message does.
    """
    return (
        f"function {node_name} returned a gradient different than None at position "
        f"{position}, but the corresponding forward input was not a Variable"
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
    if kind.__module__ == "minigrad.storage":  # (PyTorch's storages are C types: full names)
        return f"{kind.__module__}.{kind.__name__}"
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


def mismatched_argument_description(value: object) -> str:
    """How PyTorch's parser describes an argument that fits no overload (the ``!...!`` marks).

    A list or tuple is shown with its elements' types: ``list of [int, float]``,
    ``tuple of (int,)``, ``minigrad.Size of (int,)``; an element that is a tensor by its class's
    own name (``Parameter``), as CPython's ``tp_name`` gives it.
    """
    if not isinstance(value, (list, tuple)):
        return argument_type_name(value)
    items = [
        type(item).__name__ if argument_type_name(item) == "Tensor" else argument_type_name(item)
        for item in value
    ]
    if isinstance(value, list):
        return f"{argument_type_name(value)} of [{', '.join(items)}]"
    inner = ", ".join(items) + ("," if len(items) == 1 else "")
    return f"{argument_type_name(value)} of ({inner})"



def save_for_backward_not_tensor(index: int, value: object) -> str:
    """A custom Function saved a value that is neither a tensor nor None (PyTorch's text)."""
    return (f"save_for_backward can only save variables, but argument {index} is of type "
            f"{python_type_name(value)}")


# A custom Function marked a value that is not a tensor (PyTorch's text ends there, sic)
MARK_NON_DIFFERENTIABLE_NOT_TENSOR = (
    "mark_non_differentiable only accepts variable arguments, but got ")
# ``ctx.set_materialize_grads(value)`` with a value that is not a bool (PyTorch's text, sic)
SET_MATERIALIZE_GRADS_NOT_BOOL = (
    "set_materialize_grads received an invalid combination of arguments - got (), but "
    "expected (bool)")

def missing_arguments(function: str, names: list[str]) -> str:
    """The parser's text for required arguments not given (its plural for one, sic)."""
    plural = "s" if len(names) == 1 else ""
    listed = ", ".join(f'"{name}"' for name in names)
    return f"{function}() missing {len(names)} required positional argument{plural}: {listed}"


def too_many_positional(function: str, most: int, got: int, fewest: int | None = None) -> str:
    """Python's count of positional arguments, which PyTorch's parser words the same way.

    But for its "from ... to" form, whose count is always "were" (python_arg_parser.cpp's
    ``extra_args``: "takes from 1 to 0 positional arguments but 1 were given").
    """
    if fewest is not None:
        return (f"{function}() takes from {fewest} to {most} positional arguments but {got} "
                "were given")
    plural = "" if most == 1 else "s"
    return (f"{function}() takes {most} positional argument{plural} but {got} "
            f"{'was' if got == 1 else 'were'} given")


def invalid_arguments(
    function: str, args: Sequence[object], kwargs: dict[str, object], signatures: Sequence[str]
) -> str:
    """No signature of ``function`` fits the arguments (PyTorch's argument-parser message)."""
    got = [argument_type_name(a) for a in args]
    # Keywords in reverse order: PyTorch collects them in a std::unordered_map, whose
    # iteration gives the latest insertion first (libstdc++).
    named = [f"{key}={argument_type_name(kwargs[key])}" for key in reversed(kwargs)]
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


def singular_solve(batch: int | None, function: str = "linalg.solve") -> str:
    """LU found an exactly zero pivot while solving a linear system."""
    return (
        f"minigrad.{function}: {_batch_element(batch)}The solver failed because the input "
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
# TORCH_WARN_ONCE of ``device("mkldnn")``.
MKLDNN_DEVICE_DEPRECATED = (
    "'mkldnn' is no longer used as device type. So minigrad.device('mkldnn') will be "
    "deprecated and removed in the future. Please use other valid device types instead."
)
# TORCH_WARN_ONCE of the engine, when backward() (not autograd.grad) runs with create_graph=True.
BACKWARD_CREATE_GRAPH_CYCLE = (
    "Using backward() with create_graph=True will create a reference cycle between the parameter "
    "and its gradient which can cause a memory leak. We recommend using autograd.grad when "
    "creating the graph to avoid this. If you have to use this function, make sure to reset the "
    ".grad fields of your parameters to None after use to break the cycle and avoid the leak."
)
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


ADDCDIV_INTEGER_DIVISION = (
    "Integer division with addcdiv is no longer supported, and in a future  release "
    "addcdiv will perform a true division of tensor1 and tensor2. The historic addcdiv "
    "behavior can be implemented as (input + value * minigrad.trunc(tensor1 / tensor2))"
    ".to(input.dtype) for integer inputs and as (input + value * tensor1 / tensor2) for "
    "float inputs. The future addcdiv behavior is just the latter implementation: "
    "(input + value * tensor1 / tensor2), for all dtypes."
)

CLAMP_WITHOUT_BOUNDS = "torch.clamp: At least one of 'min' or 'max' must not be None"


def fill_value_not_0d(ndim: int) -> str:
    """``fill_`` with a tensor value that is not 0-d."""
    return (
        f"fill_ only supports 0-dimension value tensor but got tensor with {ndim} dimensions."
    )


def masked_fill_mask_dtype(dtype: Any) -> str:
    """``masked_fill`` with a mask that is not a bool tensor."""
    return f"masked_fill_ only supports boolean masks, but got mask with dtype {dtype}"


def masked_fill_value_dims(ndim: int) -> str:
    """``masked_fill`` with a value tensor that is not 0-dimensional."""
    return ("masked_fill_ only supports a 0-dimensional value tensor, but got tensor with "
            f"{ndim} dimension(s).")


def input_bias_type_mismatch(input_dtype: np.dtype, bias_dtype: np.dtype) -> str:
    """A convolution whose bias has another dtype than its input (numpy dtypes)."""
    names = [CPP_TYPE_NAMES.get(d.name, d.name) for d in (input_dtype, bias_dtype)]
    return f"Input type ({names[0]}) and bias type ({names[1]}) should be the same"


# --- linear algebra, reductions, losses and nn ops (ops/linalg.py ... ops/embedding.py) -----


def operand_not_tensor(parameter: str, got: str, method: str | None = None) -> str:
    """A binary op's operand that is neither a tensor nor a number.

    ``method``: the Tensor method it was given to as its first argument (named in the text).
    """
    if method is None:
        return f"argument '{parameter}' must be Tensor, not {got}"
    return f"{method}(): argument '{parameter}' (position 1) must be Tensor, not {got}"


def wrong_argument_type(
    function: str, parameter: str, expected: str, got: str, position: int | None = None
) -> str:
    """PyTorch's argument parser: ``exp(): argument 'input' (position 1) must be Tensor, not str``.

    ``got`` is the type's name as PyTorch prints it (usually ``python_type_name(value)``).
    """
    where = "" if position is None else f" (position {position})"
    return f"{function}(): argument '{parameter}'{where} must be {expected}, not {got}"


# --- arithmetic and unary ops ---------------------------------------------------------------

BOOL_ALPHA = "Boolean alpha only supported for Boolean results."
FLOAT_ALPHA_FOR_INTEGERS = (
    "For integral input tensors, argument alpha must not be a floating point number."
)
SUBTRACT_TWO_BOOLS = (
    "Subtraction, the `-` operator, with two bool tensors is not supported. Use the `^` "
    "or `logical_xor()` operator instead."
)
SUBTRACT_BOOL = (
    "Subtraction, the `-` operator, with a bool tensor is not supported. If you are "
    "trying to invert a mask, use the `~` or `logical_not()` operator instead."
)
POSITIVE_BOOL = "The `+` operator, on a bool tensor is not supported."
NEGATE_BOOL = (
    "Negation, the `-` operator, on a bool tensor is not supported. If you are trying "
    "to invert a mask, use the `~` or `logical_not()` operator instead."
)
NEGATIVE_INTEGER_POWER = "Integers to negative integer powers are not allowed."
# A random operation inside ``func.jacfwd(f, randomness="error")`` (PyTorch's vmap refuses it)
RANDOMNESS_ERROR_MODE = (
    "vmap: called random operation while in randomness error mode. Please either use the "
    "'same' or 'different' randomness flags on vmap or perform the randomness operation out of "
    "vmap"
)
INTEGER_DIVISION_BY_ZERO = "ZeroDivisionError"
INVERT_FLOAT = "~ (operator.invert) is only implemented on integer and Boolean-type tensors"
HEAVISIDE_DTYPES = "heaviside is not yet implemented for tensors with different dtypes."
# float_power's result is float64: its in-place base (role ``base``, ``float_power_``) or its
# out= (role ``output``) must be float64 too.
FLOAT_POWER_DTYPE = (
    "the {role} given to {function} has dtype {found} but the operation's result requires "
    "dtype Double"
)
# div's overloads, listed when ``rounding_mode`` is neither a str nor None.
DIV_SIGNATURES = (
    "Tensor input, Tensor other, *, Tensor out = None",
    "Tensor input, Tensor other, *, str rounding_mode, Tensor out = None",
    "Tensor input, Number other, *, str rounding_mode",
)
DIV_METHOD_SIGNATURES = (
    "Tensor other", "Tensor other, *, str rounding_mode", "Number other, *, str rounding_mode",
)


def autograd_dtype(dtype: str) -> str:
    """A result of an integer or bool dtype would have a history (``dtype``: ``Long``)."""
    return f"Autograd not support dtype: {dtype}"


def div_rounding_mode(found: object) -> str:
    """``div``'s ``rounding_mode`` is a str but not a mode."""
    return (
        "div expected rounding_mode to be one of None, 'trunc', or 'floor' but found "
        f"'{found}'"
    )
RELU_BOOL = "Boolean inputs not supported for relu"
CLAMP_MIXED_BOUNDS = (
    "clamp() received an invalid combination of arguments: the bounds must be both "
    "tensors or both numbers"
)
TOPK_K_OUT_OF_RANGE = "selected index k out of range"


def derivative_not_implemented(aten_name: str) -> str:
    """A backward PyTorch does not have (``aten::floor_divide``)."""
    return f"derivative for {aten_name} is not implemented"


def not_differentiable_argument(function: str, argument: str) -> str:
    """An ``argument`` that requires grad where PyTorch has no formula for it."""
    return (
        f"The function '{function}' is not differentiable with respect to argument "
        f"'{argument}'. This input cannot have requires_grad True."
    )


def expected_dtype_for(argument: str, expected: np.dtype, got: np.dtype) -> str:
    """An argument whose dtype must be the input's (``lerp``'s ``end`` and ``weight``)."""
    return (
        f"expected dtype {CPP_TYPE_NAMES[expected.name]} for `{argument}` but got dtype "
        f"{CPP_TYPE_NAMES[got.name]}"
    )


def dtypes_do_not_match(a: np.dtype, b: np.dtype) -> str:
    """``isclose`` of two tensors of different dtypes."""
    return f"{display_name(a)} did not match {display_name(b)}"


def negative_tolerance(name: str, value: float) -> str:
    """``isclose`` with a negative (or nan) ``rtol``/``atol``; C++ prints doubles as ``:g``."""
    return f"{name} must be greater than or equal to zero, but got {value:g}"


# --- Tensor methods -------------------------------------------------------------------------

CUDA_DEVICE_EXPECTED = "Invalid device, must be cuda device"
TYPE_ARGUMENT = "dtype must be a type, str, or dtype object"
DETACH_VIEW_INPLACE = (
    "Can't detach views in-place. Use detach() instead. If you are using "
    "DistributedDataParallel (DDP) for training, and gradient_as_bucket_view is "
    "set as True, gradients are views of DDP buckets, and hence detach_() cannot "
    "be called on these gradients. To fix this error, please refer to the "
    "Optimizer.zero_grad() function in torch/optim/optimizer.py as the solution."
)
DELETE_ITEMS = "Tensor does not support deleting items"
LEN_OF_0D = "len() of a 0-d tensor"
ITERATE_0D = "iteration over a 0-d tensor"
NOT_ONE_ELEMENT_FOR_PYTHON_SCALAR = "only one element tensors can be converted to Python scalars"


def invalid_type(name: str) -> str:
    """``Tensor.type(cls)`` with a class that is not a tensor type."""
    return f"invalid type: '{name}'"


def h_needs_matrix(ndim: int) -> str:
    """``tensor.H`` of a tensor that is not 2-D."""
    hint = " For batches of matrices, consider using tensor.mH" if ndim > 2 else ""
    return f"tensor.H is only supported on matrices (2-D tensors). Got {ndim}-D tensor.{hint}"


def not_one_element_for_item(size: int) -> str:
    """``item()`` of a tensor that does not hold exactly one element."""
    return f"a Tensor with {size} elements cannot be converted to Scalar"


def ambiguous_bool(size: int) -> str:
    """``bool(tensor)`` of a tensor with no or several elements."""
    what = "more than one value" if size else "no values"
    return f"Boolean value of Tensor with {what} is ambiguous"


def at_least_1d(function: str, dim1: int, dim2: int) -> str:
    """``matmul`` or ``linear`` with a 0-d argument."""
    return (
        f"both arguments to {function} need to be at least 1D, but they are {dim1}D and "
        f"{dim2}D"
    )


def not_a_matrix(name: str, ndim: int | None = None) -> str:
    """An ``mm``/``addmm`` argument that is not 2-D (``addmm`` says how many dims it has)."""
    got = "" if ndim is None else f", got {ndim}-D tensor"
    return f"{name} must be a matrix{got}"


def not_3d(name: str) -> str:
    """A ``bmm``/``baddbmm`` argument that is not 3-D."""
    return f"{name} must be a 3D tensor"


def m1_m2_dtype_mismatch(a: np.dtype, b: np.dtype) -> str:
    """``mm``/``addmm`` of matrices of different dtypes (C++ type names)."""
    return (
        "expected m1 and m2 to have the same dtype, but got: "
        f"{CPP_TYPE_NAMES[a.name]} != {CPP_TYPE_NAMES[b.name]}"
    )


def expected_scalar_type(expected: np.dtype, found: np.dtype) -> str:
    """A second operand whose dtype is not the first's (``bmm``, ``conv``)."""
    return f"expected scalar type {display_name(expected)} but found {display_name(found)}"


def bmm_shapes(a: Sequence[int], b: Sequence[int]) -> str:
    """``bmm`` of batches whose sizes or inner dimensions do not fit."""
    return (
        "Expected size for first two dimensions of batch2 tensor to be: "
        f"[{a[0]}, {a[2]}] but got: [{b[0]}, {b[1]}]."
    )


def baddbmm_dtypes(input: np.dtype, batch1: np.dtype, batch2: np.dtype) -> str:
    """``baddbmm`` whose three tensors do not share a dtype (C++ type names)."""
    names = [CPP_TYPE_NAMES[d.name] for d in (input, batch1, batch2)]
    return (
        f"Input dtypes must be the same, got: input {names[0]}, batch1: {names[1]}, batch2: "
        f"{names[2]}"
    )


def mv_dims(matrix_ndim: int, vector_ndim: int) -> str:
    """``mv`` of arguments that are not a matrix and a vector."""
    return f"vector + matrix @ vector expected, got 1, {matrix_ndim}, {vector_ndim}"


def mv_size_mismatch(matrix: Sequence[int], vector: Sequence[int]) -> str:
    """``mv`` of a matrix whose columns do not match the vector's length."""
    return (
        f"size mismatch, got input ({matrix[0]}), mat ({matrix[0]}x{matrix[1]}), vec "
        f"({vector[0]})"
    )


def addmv_dtypes(input: np.dtype, mat: np.dtype, vec: np.dtype) -> str:
    """``mv``/``addmv`` of tensors of different dtypes."""
    return (
        "addmv input tensors must have the same dtype, but got "
        f"{display_name(input)}, {display_name(mat)}, and {display_name(vec)}"
    )


def dot_dims(ndim_a: int, ndim_b: int) -> str:
    """``dot`` of tensors that are not both vectors."""
    return f"1D tensors expected, but got {ndim_a}D and {ndim_b}D tensors"


def dot_dtypes(a: np.dtype, b: np.dtype) -> str:
    """``dot`` of vectors of different dtypes."""
    return (
        "dot : expected both vectors to have same dtype, but found "
        f"{display_name(a)} and {display_name(b)}"
    )


def dot_sizes(size_a: int, size_b: int) -> str:
    """``dot`` of vectors of different lengths."""
    return (
        f"inconsistent tensor size, expected tensor [{size_a}] and src [{size_b}] to have the "
        f"same number of elements, but got {size_a} and {size_b} elements respectively"
    )


def outer_not_1d(name: str, ndim: int) -> str:
    """``outer`` of a tensor that is not a vector."""
    return f"outer: Expected 1-D argument {name}, but got {ndim}-D"


def tensordot_negative_dims(dims: int) -> str:
    """``tensordot`` with a negative number of contracted dims."""
    return f"tensordot expects dims >= 0, but got dims={dims}"


def tensordot_too_many_dims(dims: int) -> str:
    """``tensordot`` contracting more dims than an argument has."""
    return f"tensordot expects dims < ndim_a or ndim_b, but got dims={dims}"


def tensordot_dims_type(dims: Any) -> str:
    """``tensordot`` with ``dims`` of neither form."""
    return (
        "tensordot expects dims to be int or tuple[list[int], list[int]] or "
        f"list[list[int]] containing two lists, but got dims={dims}"
    )


TENSORDOT_DIM_LISTS_LENGTH = "both dimension lists should have same length"
TENSORDOT_DTYPES = "both inputs should have same dtype"


def tensordot_size_mismatch(size_a: int, dim_a: int, size_b: int, dim_b: int) -> str:
    """``tensordot`` contracting dimensions of different sizes."""
    return (
        f"contracted dimensions need to match, but first has size {size_a} in dim {dim_a} and "
        f"second has size {size_b} in dim {dim_b}"
    )


def operands_dtype_mismatch(first: str, second: str, a: np.dtype, b: np.dtype) -> str:
    """Two matrix-product arguments of different dtypes (``mat1 and mat2 must have ...``)."""
    return (
        f"{first} and {second} must have the same dtype, but got {display_name(a)} and "
        f"{display_name(b)}"
    )


def expand_too_few_sizes(type_name: str, shape: Sequence[int], sizes: Sequence[int]) -> str:
    """Broadcasting a tensor to fewer dimensions than it has (``expand``'s message)."""
    return (
        f"expand({type_name}{{{list(shape)}}}, size={list(sizes)}): the number of sizes "
        f"provided ({len(sizes)}) must be greater or equal to the number of dimensions in the "
        f"tensor ({len(shape)})"
    )


def expand_size_mismatch(
    size: int, existing: int, dim: int, sizes: Sequence[int], shape: Sequence[int]
) -> str:
    """Broadcasting a tensor to a size its non-singleton dimension ``dim`` does not fit."""
    return (
        f"The expanded size of the tensor ({size}) must match the existing size ({existing}) "
        f"at non-singleton dimension {dim}.  Target sizes: {list(sizes)}.  Tensor sizes: "
        f"{list(shape)}"
    )


def derivative_not_implemented_quoted(aten_name: str) -> str:
    """A backward PyTorch does not have, in its other wording (``unique``'s ops)."""
    return f"the derivative for '{aten_name}' is not implemented."


NOT_AN_INDEX = "only integer tensors of a single element can be converted to an index"


def dim_of_0d(dim: int) -> str:
    """A ``dim`` given for a 0-d tensor where PyTorch wants a dimension to exist."""
    return f"Dimension specified as {dim} but tensor has no dimensions"


UNIQUE_EMPTY_DIMS = (
    "There are 0 sized dimensions, and they aren't selected, so unique cannot be applied"
)


def identical_diagonal_dims(dim1: int, dim2: int) -> str:
    """``diagonal``/``diag_embed`` asked for the same dimension twice."""
    return f"diagonal dimensions cannot be identical {dim1}, {dim2}"


def diag_dims(ndim: int) -> str:
    """``diag`` of a tensor that is neither 1-D nor 2-D."""
    return f"diag(): Supports 1D or 2D tensors. Got {ndim}D"


def expect_1d_vector(shape: Sequence[int]) -> str:
    """``cartesian_prod`` of a tensor that is not a vector."""
    return f"Expect a 1D vector, but got shape {format_size(shape)}"


MESHGRID_EMPTY = "meshgrid expects a non-empty TensorList"
MESHGRID_DTYPES = "meshgrid expects all tensors to have the same dtype"

SPARSE_EMBEDDING = "minigrad has no sparse tensors: sparse=True is not supported"
PADDING_IDX_OUT_OF_RANGE = "Padding_idx must be within num_embeddings"
EMBEDDING_WEIGHT_NOT_2D = "'weight' must be 2-D"
INDEX_OUT_OF_RANGE = "index out of range in self"


def index_select_dim1_out_of_bounds(index: int, size: int) -> str:
    """``index_select`` along dim 1 of a tensor of 2 or more dims: the first bad ``index``."""
    return f"INDICES element is out of DATA bounds, id={index} axis_dim={size}"


def embedding_indices_dtype(type_name: str) -> str:
    """``embedding`` with indices that are not int64 or int32."""
    return (
        "Expected tensor for argument #1 'indices' to have one of the following scalar types: "
        f"Long, Int; but got {type_name} instead (while checking arguments for embedding)"
    )


def norm_input_dtype(dtype_name: str) -> str:
    """``norm`` (as ``embedding``'s ``max_norm`` runs it) of an integer tensor."""
    return (
        "norm(): input dtype should be either floating point or complex. Got "
        f"{dtype_name} instead."
    )


def invalid_reduction(reduction: str) -> str:
    """A loss's ``reduction`` that is not 'none', 'mean' or 'sum'."""
    return f"{reduction} is not a valid value for reduction"


def solve_dtypes(a: np.dtype, b: np.dtype) -> str:
    """``linalg.solve`` of A and B of different dtypes."""
    return (
        "linalg.solve: Expected A and B to have the same dtype, but found A of type "
        f"{display_name(a)} and B of type {display_name(b)} instead"
    )


def svd_too_few_dims(ndim: int) -> str:
    """``linalg.svd`` of a vector or scalar."""
    return (
        f"linalg.svd: input should have at least 2 dimensions, but has {ndim} dimensions "
        "instead"
    )


FLOAT_OR_DOUBLE_ONLY = "This function doesn't handle types other than float and double"


def mean_optional_dtype(dtype_name: str) -> str:
    """``mean(dtype=...)`` with an integer or bool ``dtype``."""
    return (
        "mean(): could not infer output dtype. Optional dtype must be either a floating point or "
        f"complex dtype. Got: {dtype_name}"
    )


def mean_dtype(dtype_name: str) -> str:
    """``mean`` of an integer or bool tensor."""
    return (
        "mean(): could not infer output dtype. Input dtype must be either a floating point or "
        f"complex dtype. Got: {dtype_name}"
    )


def moments_dtype(functions: str) -> str:
    """``var``/``std`` (``functions`` = "std and var"), ``var_mean``... of an integer tensor."""
    return f"{functions} only support floating point and complex dtypes"


def moments_arguments_fit_no_overload(function: str) -> str:
    """``var``/``std`` arguments none of PyTorch's overloads takes (``unbiased=None`` ...).

    The argument-check wrapper replaces it with the parser's listing.
    """
    return f"{function}() received an invalid combination of arguments"


def empty_reduction_dim(function: str, axis: int) -> str:
    """A reduction without identity over an empty dim."""
    return f"{function}(): Expected reduction dim {axis} to have non-zero size."


AMINMAX_EMPTY = (
    "aminmax(): cannot compute aminmax over an empty dimension as the operation has no identity."
)


def aminmax_empty_dim(axis: int) -> str:
    """``aminmax`` over an empty dim (its message names the function without parentheses)."""
    return f"aminmax: Expected reduction dim {axis} to have non-zero size."


def empty_reduction_needs_dim(function: str, hint: bool = True) -> str:
    """A reduction without identity over all of an empty tensor (``hint``: name the argument)."""
    text = f"{function}(): Expected reduction dim to be specified for input.numel() == 0."
    return text + (" Specify the reduction dim with the 'dim' argument." if hint else "")


def vector_norm_empty(ord_text: str, axis: int | None = None) -> str:
    """A ``vector_norm`` without identity (inf, negative ord) over an empty tensor or dim."""
    if axis is None:
        where = "an empty tensor because the operation does not have an identity"
    else:  # (PyTorch's text has no space after the dim.)
        where = (
            f"the dimension {axis}because this dimension is empty and the operation does not "
            "have an identity"
        )
    return f"linalg.vector_norm cannot compute the {ord_text} norm on {where}"


def matrix_norm_order(ord_text: str) -> str:
    """An ``ord`` that ``linalg.matrix_norm`` does not know."""
    return f"linalg.matrix_norm: Order {ord_text} not supported."


def matrix_norm_dim_length(dims: Sequence[int]) -> str:
    """``linalg.matrix_norm`` with a ``dim`` that is not two dimensions."""
    return f"linalg.matrix_norm: dim must be a 2-tuple. Got {' '.join(str(d) for d in dims)}"


def matrix_norm_same_dims(dim1: int, dim2: int) -> str:
    """``linalg.matrix_norm`` over one dimension named twice."""
    return f"linalg.matrix_norm: dims must be different. Got ({dim1}, {dim2})"


def norm_dim_length(dims: Any) -> str:
    """``linalg.norm`` with a ``dim`` of neither one nor two dimensions."""
    return f"linalg.norm: If dim is specified, it must be of length 1 or 2. Got {dims}"


def norm_ord_needs_1d_or_2d(ndim: int) -> str:
    """``linalg.norm`` with an ``ord`` but no ``dim`` on a tensor that is not 1-D or 2-D."""
    return (
        "linalg.norm: If dim is not specified but ord is, the input must be 1D or 2D. Got "
        f"{ndim}D."
    )


EINSUM_NO_ARGUMENTS = (
    "einsum(): must specify the equation string and at least one operand, or at least one "
    "operand and its subscripts list"
)
EINSUM_TOO_FEW_OPERANDS = (
    "einsum(): fewer operands were provided than specified in the equation"
)
EINSUM_TOO_MANY_OPERANDS = "einsum(): more operands were provided than specified in the equation"
EINSUM_SUBLIST_RANGE = (
    "einsum(): subscript in subscript list is not within the valid range [0, 52)"
)
EINSUM_NON_BROADCAST_DIMS = "non-broadcast dimensions must match"


def einsum_repeated_ellipsis(operand: int | None) -> str:
    """A second ellipsis in one operand's subscripts (``None``: in the output's)."""
    if operand is None:
        return "einsum(): found '.' for output but an ellipsis (...) was already found"
    return f"einsum(): found '.' for operand {operand} for which an ellipsis was already found"


def einsum_stray_dot(operand: int | None) -> str:
    """A '.' that does not start '...' in an operand's subscripts (``None``: the output's)."""
    if operand is None:
        return "einsum(): found '.' for output that is not part of any ellipsis (...)"
    return f"einsum(): found '.' for operand {operand} that is not part of any ellipsis"


def einsum_invalid_subscript(index: int) -> str:
    """A character of the equation that is not a letter."""
    return (
        f"einsum(): invalid subscript given at index {index} in the equation string, "
        "subscripts must be in [a-zA-Z]"
    )


def einsum_subscript_count(count: int, ndim: int, operand: int, has_ellipsis: bool) -> str:
    """An operand with more subscripts than dimensions (with an ellipsis), or not as many."""
    if has_ellipsis:
        return (f"einsum(): the number of subscripts in the equation ({count}) is more than the "
                f"number of dimensions ({ndim}) for operand {operand}")
    return (f"einsum(): the number of subscripts in the equation ({count}) does not match the "
            f"number of dimensions ({ndim}) for operand {operand} and no ellipsis was given")


def einsum_output_subscript(char: str, repeated: bool) -> str:
    """An output subscript given twice, or not among the inputs'."""
    where = (
        "appears more than once in the output" if repeated
        else "does not appear in the equation for any input operand"
    )
    return f"einsum(): output subscript {char} {where}"


def einsum_ellipsis_broadcast(dim: int, operand: int, size: int, previous: int) -> str:
    """Ellipsis dimensions of two operands that do not broadcast (no space after the operand)."""
    return (
        f"einsum(): dimension {dim} covered by ellipsis in operand {operand}has size {size} "
        f"which does not broadcast with previously seen ellipsis with size {previous} for the "
        "respective dimension"
    )


def einsum_subscript_broadcast(char: str, size: int, operand: int, previous: int) -> str:
    """One subscript with sizes in two operands that do not broadcast."""
    return (
        f"einsum(): subscript {char} has size {size} for operand {operand} which does not "
        f"broadcast with previously seen size {previous}"
    )


def einsum_repeated_subscript_sizes(char: str, operand: int, size: int, other: int) -> str:
    """A subscript repeated in one operand (a diagonal) over dimensions of different sizes."""
    return (
        f"einsum(): subscript {char} is repeated for operand {operand} but the sizes don't "
        f"match, {size} != {other}"
    )


# --- losses (ops/losses.py, ops/cross_entropy.py) ---------------------------------------------

WEIGHTS_INPUT_SIZE = "Weights and input must have the same size."
SMOOTH_L1_NEGATIVE_BETA = "smooth_l1_loss does not support negative values for beta."
HUBER_NONPOSITIVE_DELTA = "huber_loss does not support non-positive values for delta."
KL_DIV_INTEGRAL = "kl_div: Integral inputs not supported."
NLL_MULTI_TARGET = "0D or 1D target tensor expected, multi-target not supported"
NLL2D_WEIGHT_SIZE = "weight tensor should be defined either for all or no classes"
PROBABILITY_TARGET_IGNORE_INDEX = "ignore_index is not supported for floating point target"


def found_dtype(found: str, expected: str) -> str:
    """A loss target whose dtype is not the input's (``Float``, ``Double``, ...)."""
    return f"Found dtype {found} but expected {expected}"


def invalid_reduction_mode(reduction: str) -> str:
    """A ``reduction`` the weighted losses do not know."""
    return f"Invalid reduction mode: {reduction}. Expected one of 'none', 'mean', 'sum'."


def target_size_deprecated(target: str, input: str) -> str:
    """``binary_cross_entropy`` of a target of another size than the input (size texts)."""
    return (
        f"Using a target size ({target}) that is different to the input size ({input}) is "
        "deprecated. Please ensure they have the same size."
    )


def target_size_mismatch(target: str, input: str) -> str:
    """``binary_cross_entropy_with_logits`` of a target of another size (size texts)."""
    return f"Target size ({target}) must be the same as input size ({input})"


def not_between_0_and_1(name: str) -> str:
    """``binary_cross_entropy`` of an input or target outside [0, 1]."""
    return f"all elements of {name} should be between 0 and 1"


def broadcast_to_target(length: int, dim: int, other: str, result: Sequence[int]) -> str:
    """A weight that does not broadcast to the loss's shape (``other``: its size text)."""
    return (
        f"Attempting to broadcast a dimension of length {length} at {dim}! Mismatching argument "
        f"at index 1 had {other}; but expected shape should be broadcastable to "
        f"{format_size(result)}"
    )


def common_dtype_not_float(dtype_name: str) -> str:
    """A loss whose arguments promote to an integer dtype."""
    return f"expected common dtype to be floating point, yet common dtype is {dtype_name}"


def target_out_of_bounds(target: int) -> str:
    """A class index outside ``[0, classes)``."""
    return f"Target {target} is out of bounds."


def nll_size_mismatch(input: Sequence[int], target: Sequence[int], spatial: bool = False) -> str:
    """Input and target batch sizes that differ (``spatial``: nll_loss2d's own spacing)."""
    if spatial:  # (PyTorch's 2d text has a space before the comma and no closing parenthesis.)
        return f"size mismatch (got input: {format_size(input)} , target: {format_size(target)}"
    return f"size mismatch (got input: {format_size(input)}, target: {format_size(target)})"


def nll_target_dtype(dtype_name: str) -> str:
    """Class-index targets that are not integers."""
    return f"expected target dtype to be Long or Byte, but got {dtype_name}"


def nll_1d_target_size(size: int) -> str:
    """A 1-D input with a target of more than one class index."""
    return f"For 1D input, 1D target must have size 1, but got target size: {size}"


def weight_not_per_class(classes: int, shape: Sequence[int], function: str | None = None) -> str:
    """A class ``weight`` that is not one value per class."""
    prefix = "" if function is None else f"{function}: "
    return (
        f"{prefix}weight tensor should be defined either for all {classes} classes or no "
        f"classes but got weight tensor of shape: {format_size(shape)}"
    )


def nll2d_target_dims(ndim: int) -> str:
    """``nll_loss2d`` of a target that is not 3-D."""
    return (
        "only batches of spatial targets supported (3D tensors) but got targets of dimension: "
        f"{ndim}"
    )


def nll_input_dims(ndim: int) -> str:
    """``nll_loss`` of a 0-d input."""
    return f"Expected 1 or more dimensions (got {ndim})"


def batch_size_mismatch(input_batch: int, target_batch: int) -> str:
    """Input and target of different batch sizes."""
    return (
        f"Expected input batch_size ({input_batch}) to match target batch_size "
        f"({target_batch})."
    )


def expected_target_size(expected: Sequence[int], got: Sequence[int]) -> str:
    """A K-dimensional target whose shape is not the input's without the class dim."""
    return f"Expected target size {format_size(expected)}, got {format_size(got)}"


def probability_target_dtype(dtype_name: str) -> str:
    """Class-probability targets that are not floating point."""
    return (
        f"Expected floating point type for target with class probabilities, got {dtype_name}"
    )


def label_smoothing_range(value: str) -> str:
    """A ``label_smoothing`` outside [0, 1] (``value`` as C++ prints the double)."""
    return f"label_smoothing must be between 0.0 and 1.0. Got: {value}"


# --- activations, normalization, pooling, convolution, histograms -----------------------------

HARDTANH_BOUNDS = "min_val cannot be greater than max_val"
HARDTANH_BOOL = "Bool inputs not supported for hardtanh"
GELU_APPROXIMATE = "approximate argument must be either none or tanh."
MIXED_DTYPE_PARAMETER = "mixed dtype (CPU): expect parameter to have scalar type of Float"
MIXED_DTYPE_INPUTS = "mixed dtype (CPU): all inputs must share same datatype."
LAYER_NORM_EMPTY_SHAPE = (
    "Expected normalized_shape to be at least 1-dimensional, i.e., containing at least one "
    "element, but got normalized_shape = []"
)
RUNNING_STATS_PAIR = "running_mean and running_var must either both be None or neither be None"


def dropout_probability(p: float) -> str:
    """A dropout probability outside [0, 1]."""
    return f"dropout probability has to be between 0 and 1, but got {p}"


def normalized_shape_param(name: str, shape: Sequence[int], normalized: str) -> str:
    """A ``layer_norm`` weight or bias whose shape is not ``normalized_shape`` (its text)."""
    return (
        f"Expected {name} to be of same shape as normalized_shape, but got {name} of shape "
        f"{format_size(shape)} and normalized_shape = {normalized}"
    )


def layer_norm_input_shape(normalized: str, shape: Sequence[int], separator: str = ", ") -> str:
    """An input whose trailing dims are not ``normalized_shape`` (no space before the size).

    ``separator`` follows the ``*``: rms_norm's text has none.
    """
    return (
        f"Given normalized_shape={normalized}, expected input with shape "
        f"[*{separator}{normalized[1:-1]}], but got input of size{format_size(shape)}"
    )


def one_value_per_channel(size: str) -> str:
    """Training-mode batch norm with a single value per channel (``size``: its size text)."""
    return f"Expected more than 1 value per channel when training, got input size {size}"


def batch_norm_eps_training(eps: float) -> str:
    """A non-positive ``eps`` in training mode."""
    return f"batch_norm eps must be positive during training, but got {eps}"


def batch_norm_eps(eps: float) -> str:
    """A negative ``eps``."""
    return f"batch_norm eps must be non-negative, but got {eps}"


def undefined_in_eval(name: str) -> str:
    """Evaluation-mode batch norm without running statistics."""
    return f"{name} must be defined in evaluation mode"


def feature_count(name: str, features: int, size: int) -> str:
    """A batch-norm parameter with another number of elements than there are channels."""
    return f"{name} should contain {features} elements not {size}"


POOL_ZERO_STRIDE = "stride should not be zero"
POOL_EMPTY_INPUT = "non-empty 3D or 4D (batch mode) tensor expected for input"
ZERO_DIVISOR = "divisor must be not zero"


def pool_negative_pad(pad: int) -> str:
    """A negative pooling padding."""
    return f"pad must be non-negative, but got pad: {pad}"


def pool_pad_too_large(pad: int, kernel: int, dilation: int) -> str:
    """A pooling padding over half the effective kernel size."""
    return (
        f"pad should be at most half of effective kernel size, but got pad={pad}, "
        f"kernel_size={kernel} and dilation={dilation}"
    )


def pool_kernel_size(kernel: Sequence[int]) -> str:
    """A non-positive pooling kernel size."""
    return f"kernel size should be greater than zero, but got kH: {kernel[0]} kW: {kernel[1]}"


def pool_stride(stride: Sequence[int]) -> str:
    """A non-positive pooling stride."""
    return f"stride should be greater than zero, but got dH: {stride[0]} dW: {stride[1]}"


def pool_dilation(dilation: Sequence[int]) -> str:
    """A non-positive pooling dilation."""
    return (
        "dilation should be greater than zero, but got dilationH: "
        f"{dilation[0]} dilationW: {dilation[1]}"
    )


def pool_input_dims(shape: Sequence[int]) -> str:
    """A pooling input that is not 3-D or 4-D (or has empty planes)."""
    return (
        "Expected 3D or 4D (batch mode) tensor with optional 0 dim batch size for input, but "
        f"got:{format_size(shape)}"
    )


def pool_pad_over_half_kernel(padding: Sequence[int], kernel: Sequence[int]) -> str:
    """A pooling padding over half the kernel size (the shape check's wording)."""
    return (
        "pad should be smaller than or equal to half of kernel size, but got padW = "
        f"{padding[1]}, padH = {padding[0]}, kW = {kernel[1]}, kH = {kernel[0]}"
    )


def pool_output_too_small(planes: int, height: int, width: int, out: Sequence[int]) -> str:
    """A pooling whose output would have no elements."""
    return (
        f"Given input size: ({planes}x{height}x{width}). Calculated output size: "
        f"({planes}x{out[0]}x{out[1]}). Output size is too small"
    )


CONV_WEIGHT_DIMS = "weight should have at least three dimensions"
CONV_NONPOSITIVE_GROUPS = "non-positive groups is not supported"
CONV_NEGATIVE_PADDING = "negative padding is not supported"
CONV_NONPOSITIVE_STRIDE = "non-positive stride is not supported"
CONV_NONPOSITIVE_DILATION = "non-positive dilation is not supported"
CONV_SAME_STRIDED = "padding='same' is not supported for strided convolutions"


def conv_param_length(name: str, dims: int, values: Sequence[int]) -> str:
    """A stride/padding/dilation list whose length is not the number of spatial dims."""
    return (
        f"expected {name} to be a single integer value or a list of {dims} values to match the "
        f"convolution dimensions, but got {name}={list(values)}"
    )


def conv_input_dims(dims: int, function: str, shape: Sequence[int]) -> str:
    """A convolution input that is neither unbatched nor batched."""
    return (
        f"Expected {dims + 1}D (unbatched) or {dims + 2}D (batched) input to {function}, but got "
        f"input of size: {format_size(shape)}"
    )


def conv_padding_string(padding: str) -> str:
    """A ``padding`` string other than 'valid' or 'same'."""
    return f"Invalid padding string: '{padding}'"


def conv_input_weight_types(input_type: str, weight_type: str, parameter: str = "weight") -> str:
    """A float weight with a double input or the reverse (tensor type names).

    ``parameter``: "bias" for ATen's ``convolution`` of a float input with a bias of another
    dtype (the same check of the MKLDNN backend).
    """
    return (
        f"Input type ({input_type}) and {parameter} type ({weight_type}) should be the same or "
        f"input should be a MKLDNN tensor and {parameter} is a dense tensor"
    )


def conv_same_broadcast(name: str, dims: int) -> str:
    """``padding='same'`` with a stride or dilation list of the wrong length."""
    return f"{name} cannot broadcast to {dims} dimensions"


def conv_weight_input_dims(
    weight_ndim: int, weight_shape: Sequence[int], input_shape: Sequence[int]
) -> str:
    """A convolution input with another number of dimensions than its weight."""
    return (
        f"Expected {weight_ndim}-dimensional input for {weight_ndim}-dimensional weight "
        f"{format_size(weight_shape)}, but got {len(input_shape)}-dimensional input of size "
        f"{format_size(input_shape)} instead"
    )


def conv_groups_too_many(groups: int, weight_shape: Sequence[int]) -> str:
    """More groups than output channels."""
    return (
        f"Given groups={groups}, expected weight to be at least {groups} at dimension 0, but "
        f"got weight of size {format_size(weight_shape)} instead"
    )


def conv_groups_not_divisor(groups: int, weight_shape: Sequence[int]) -> str:
    """Output channels that do not split into the groups (PyTorch brackets the size twice)."""
    return (
        f"Given groups={groups}, expected weight to be divisible by {groups} at dimension 0, "
        f"but got weight of size [{format_size(weight_shape)}] instead"
    )


def conv_input_channels(groups: int, weight_shape: Sequence[int], input_shape: Sequence[int],
                        expected: int) -> str:
    """An input whose channels are not the weight's in-channels times the groups."""
    return (
        f"Given groups={groups}, weight of size {format_size(weight_shape)}, expected input"
        f"{format_size(input_shape)} to have {expected} channels, but got {input_shape[1]} "
        "channels instead"
    )


def conv_bias_shape(weight_shape: Sequence[int], bias_shape: Sequence[int]) -> str:
    """A bias that is not one value per output channel."""
    return (
        f"Given weight of size {format_size(weight_shape)}, expected bias to be 1-dimensional "
        f"with {weight_shape[0]} elements, but got bias of size {format_size(bias_shape)} instead"
    )


def conv_kernel_too_large(padded: Sequence[int], kernel: Sequence[int]) -> str:
    """A (dilated) kernel larger than the padded input."""
    return (
        "Calculated padded input size per channel: (" + " x ".join(map(str, padded))
        + "). Kernel size: (" + " x ".join(map(str, kernel))
        + "). Kernel size can't be greater than actual input size"
    )


BINCOUNT_NEGATIVE_MINLENGTH = "minlength should be >= 0"
BINCOUNT_INPUT = "bincount only supports 1-d non-negative integral inputs."
BINCOUNT_WEIGHTS = "weights should be 1-d and have the same length as input"
HISTC_MAX_NOT_LARGER = "torch.histc: max must be larger than min"


def histogram_bins(bins: int) -> str:
    """A non-positive number of bins."""
    return f"torch.histogram(): bins must be > 0, but got {bins} for dimension 0"


def histc_range_not_finite(low: str, high: str) -> str:
    """A ``histc`` range with an infinite or NaN end (the ends as C++ prints doubles)."""
    return f"torch.histc: range of [{low}, {high}] is not finite"


# The forms a pooling argument may take (``max_pool2d: kernel_size must either be ...``).
POOL_KERNEL_SIZE_FORM = "kernel_size must either be a single int, or a tuple of two ints"
POOL_STRIDE_FORM = "stride must either be omitted, a single int, or a tuple of two ints"
POOL_PADDING_FORM = "padding must either be a single int, or a tuple of two ints"
POOL_DILATION_FORM = "dilation must be either a single int, or a tuple of two ints"


def pool_argument(function: str, form: str) -> str:
    """A pooling argument of neither allowed form (``form``: one of the POOL_*_FORM texts)."""
    return f"{function}: {form}"


# --- warnings of the reductions, losses and convolutions --------------------------------------

KL_DIV_MEAN_REDUCTION = (
    "reduction: 'mean' divides the total loss by both the batch size and the support size."
    "'batchmean' divides only by the batch size, and aligns with the KL div math definition."
    "'mean' will be changed to behave the same as 'batchmean' in the next major release."
)
ELEMENTWISE_MEAN_DEPRECATED = (
    "reduction='elementwise_mean' is deprecated. Please use reduction='mean' instead."
)
SAME_PADDING_COPY = (
    "Using padding='same' with even kernel lengths and odd dilation may require a zero-padded "
    "copy of the input be created"
)


def degrees_of_freedom(function: str) -> str:
    """``var``/``std`` with a correction that leaves no degrees of freedom."""
    return (
        f"{function}(): degrees of freedom is <= 0. Correction should be strictly less than the "
        "reduction factor (input numel divided by output numel)."
    )


def size_average_deprecated(reduction: str) -> str:
    """A loss given the legacy ``size_average``/``reduce`` flags."""
    return (
        f"size_average and reduce args will be deprecated, please use reduction='{reduction}' "
        "instead."
    )


def target_size_broadcast(target: str, input: str) -> str:
    """A loss whose target and input sizes differ and will broadcast (size texts)."""
    return (
        f"Using a target size ({target}) that is different to the input size ({input}). This "
        "will likely lead to incorrect results due to broadcasting. Please ensure they have the "
        "same size."
    )


# --- misuse checks (issue 10) ---------------------------------------------------------------

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


# --- ops: views, splitting, shape, indexing, gather/scatter, index ops (issue 13) -------------
# views
SELECT_0D = "select() cannot be applied to a 0-dim tensor."
NARROW_0D = "narrow() cannot be applied to a 0-dim tensor."
NARROW_NEGATIVE_LENGTH = "narrow(): length must be non-negative."
STEP_NOT_POSITIVE = "step must be greater than zero"
VIEW_SPANS_SUBSPACES = (
    "view size is not compatible with input tensor's size and stride (at least one dimension "
    "spans across two contiguous subspaces). Use .reshape(...) instead."
)
PERMUTE_DUPLICATE_DIMS = "permute(): duplicate dims are not allowed."
NUMEL_OVERFLOW = "numel: integer multiplication overflow"
ONLY_ONE_INFERRED_DIM = "only one dimension can be inferred"
FLATTEN_START_AFTER_END = "flatten() has invalid args: start_dim cannot come after end_dim"
UNFLATTEN_EMPTY_SIZES = "unflatten: sizes must be non-empty"


SLICE_STEP_NOT_POSITIVE = "slice step must be positive"  # slice_scatter


def scatter_src_size(src: Sequence[int], region: Sequence[int]) -> str:
    """``slice_scatter``/``select_scatter``/``diagonal_scatter`` with a src of another shape."""
    return (
        f"expected src to have a size equal to the slice of self. src size = "
        f"{format_size(src)}, slice size = {format_size(region)}"
    )


def select_out_of_range(index: int, shape: Sequence[int], dim: int) -> str:
    """``select`` at an index outside the dimension."""
    return (
        f"select(): index {index} out of range for tensor of size {format_size(shape)} at "
        f"dimension {dim}"
    )


def narrow_start_out_of_range(start: int, size: int) -> str:
    """``narrow`` from a start outside ``[-size, size]``."""
    return f"start out of range (expected to be in range of [{-size}, {size}], but got {start})"


NARROW_COPY_DIM = (
    "Expected dim < static_cast<int64_t>(self_sizes.size()) to be true, but got false.  (Could "
    "this error message be improved?  If so, please report an enhancement request to PyTorch.)"
)


def narrow_exceeds_size(start: int, length: int, size: int) -> str:
    """``narrow`` past the end of the dimension."""
    return f"start ({start}) + length ({length}) exceeds dimension size ({size})."


def dim_not_int(type_name: str) -> str:
    """A ``dim`` argument that is not an integer (a float, a str, None...)."""
    return f"argument 'dim' must be int, not {type_name}"


def dims_not_int_tuple(type_name: str) -> str:
    """A ``dim`` argument that is neither an int nor a sequence of them."""
    return f"argument 'dim' must be tuple of ints, not {type_name}"


def dims_item_overflow(position: int, parameter: str = "dim") -> str:
    """An item of a ``dim`` list that no int64 holds (``position`` counts from 1).

    As ``int_list_overflow``, without the function's name: the argument checks add it.
    """
    return (
        f"argument '{parameter}' failed to unpack the object at pos {position} with error "
        '"Overflow when unpacking long long"'
    )


def dim_repeated(dim: int) -> str:
    """``squeeze`` given the same dimension twice."""
    return f"dim {dim} appears multiple times in the list of dims"


def t_too_many_dims(ndim: int, name: str = "t") -> str:
    """``t()`` (or ``t_()``) of a tensor with more than 2 dimensions."""
    return f"{name}() expects a tensor with <= 2 dimensions, but self is {ndim}D"


def permute_length(ndim: int, length: int) -> str:
    """``permute`` given an ordering of another length than the tensor's dimensions."""
    return (
        "permute(sparse_coo): number of dimensions in the tensor input does not match the "
        "length of the desired ordering of dimensions i.e. input.dim() = "
        f"{ndim} is not equal to len(dims) = {length}"
    )


def movedim_lengths(source: Sequence[int], destination: Sequence[int]) -> str:
    """``movedim`` with source and destination of different lengths."""
    return (
        f"movedim: Invalid source or destination dims: source ({list(source)} dims) should "
        f"contain the same number of dims as destination ({list(destination)} dims)"
    )


def movedim_repeated(name: str, given: Sequence[int]) -> str:
    """``movedim`` with a dimension twice in ``source`` or ``destination`` (``name``)."""
    return f"movedim: repeated dim in `{name}` ({list(given)})"


def expand_leading_minus_one(dim: int) -> str:
    """``expand`` given -1 for a new leading dimension (nothing to keep)."""
    return (
        f"The expanded size of the tensor (-1) isn't allowed in a leading, non-existing "
        f"dimension {dim}"
    )


def invalid_shape_dimension(size: int, index: int, shape: Sequence[int]) -> str:
    """A negative size other than -1 in a shape."""
    return f"invalid shape dimension {size} at index {index} of shape {format_size(shape)}"


def reshape_empty_ambiguous(shape: Sequence[int]) -> str:
    """-1 in a shape for a tensor of 0 elements: any size would fit."""
    return (
        f"cannot reshape tensor of 0 elements into shape {format_size(shape)} because the "
        "unspecified dimension size -1 can be any value and is ambiguous"
    )


def shape_invalid_for_size(shape: Sequence[int], numel: int) -> str:
    """A shape whose element count is not the tensor's."""
    return f"shape '{format_size(shape)}' is invalid for input of size {numel}"


def unflatten_unexpected(message: str) -> str:
    """``unflatten``'s wrapper around another check's message."""
    return f"unflatten got an unexpected error:\n{message}"


def unflatten_sizes_type(type_name: str, position: int, argument: int) -> str:
    """``unflatten`` with a size that is not an int (``sizes`` is argument ``argument``)."""
    return (
        f"unflatten(): argument 'sizes' (position {argument}) must be tuple of ints, but found "
        f"element of type {type_name} at pos {position}"
    )


def unflatten_sizes_not_tuple(type_name: str, argument: int) -> str:
    """``unflatten`` with ``sizes`` that are no sequence (``sizes`` is argument ``argument``)."""
    return (
        f"unflatten(): argument 'sizes' (position {argument}) must be tuple of ints, not "
        f"{type_name}"
    )


def unflatten_sizes_product(sizes: Sequence[int], dim: int, size: int) -> str:
    """``unflatten`` with sizes whose product is not the dimension's size."""
    return (
        f"unflatten: Provided sizes {format_size(sizes)} don't multiply up to the size of dim "
        f"{dim} ({size}) in the input tensor"
    )


def matrices_only(name: str, ndim: int) -> str:
    """``mT``/``mH``/``adjoint`` of a tensor with fewer than 2 dimensions."""
    return (
        f"tensor.{name} is only supported on matrices or batches of matrices. Got {ndim}-D "
        "tensor."
    )


# splitting
SPLIT_0D = "split expects at least a 1-dimensional tensor"
CHUNK_0D = "chunk expects at least a 1-dimensional tensor"
TENSOR_SPLIT_0D = (
    "tensor_split expected at least a 1-dimensional tensor, but got a tensor with 0 dims"
)


def split_size_negative(split_size: int) -> str:
    """``split`` with a negative ``split_size``."""
    return f"split expects split_size be non-negative, but got split_size={split_size}"


def split_size_zero(size: int) -> str:
    """``split`` with ``split_size=0`` along a non-empty dimension."""
    return (
        f"split_size can only be 0 if dimension size is 0, but got dimension size of {size}"
    )


def split_sizes_negative(sizes: Sequence[int]) -> str:
    """``split_with_sizes`` with a negative size."""
    return (
        "split_with_sizes expects split_sizes have only non-negative entries, but got "
        f"split_sizes={format_size(sizes)}"
    )


def split_sizes_sum(size: int, dim: int, sizes: Sequence[int]) -> str:
    """``split_with_sizes`` whose sizes do not add up to the dimension's size."""
    return (
        f"split_with_sizes expects split_sizes to sum exactly to {size} (input tensor's size at "
        f"dimension {dim}), but got split_sizes={format_size(sizes)}"
    )


def chunks_not_positive(chunks: int) -> str:
    """``chunk`` into 0 or fewer pieces."""
    return f"chunk expects `chunks` to be greater than 0, got: {chunks}"


def sections_not_positive(sections: int) -> str:
    """``tensor_split`` into 0 or fewer sections."""
    return f"number of sections must be larger than 0, got {sections}"


def dsplit_too_few_dims(name: str, min_dim: int, ndim: int) -> str:
    """``hsplit``/``vsplit``/``dsplit`` of a tensor without the dimension they split."""
    return (
        f"minigrad.{name} requires a tensor with at least {min_dim} dimension, but got a tensor "
        f"with {ndim} dimensions!"
    )


def dsplit_not_divisible(name: str, dim: int, size: int, sections: int) -> str:
    """``hsplit``/``vsplit``/``dsplit`` into sections that do not divide the dimension."""
    return (
        f"minigrad.{name} attempted to split along dimension {dim}, but the size of the "
        f"dimension {size} is not divisible by the split_size {sections}!"
    )


# shape
CAT_EMPTY = "minigrad.cat(): expected a non-empty list of Tensors"
STACK_EMPTY = "stack expects a non-empty TensorList"
REPEAT_TOO_FEW_DIMS = (
    "Number of dimensions of repeat dims can not be smaller than number of dimensions of tensor"
)
PAD_LENGTH_ODD = "Padding length must be divisible by 2"
ONE_HOT_NOT_LONG = "one_hot is only applicable to index tensor of type LongTensor."
ONE_HOT_EMPTY = "Can not infer total number of classes from empty tensor."
ONE_HOT_NEGATIVE = "Class values must be non-negative."
ONE_HOT_TOO_LARGE = "Class values must be smaller than num_classes."


def cat_zero_dim(position: int) -> str:
    """``cat`` of a 0-d tensor."""
    return f"zero-dimensional tensor (at position {position}) cannot be concatenated"


def cat_dims_mismatch(ndim: int, other: int) -> str:
    """``cat`` of tensors with different numbers of dimensions."""
    return f"Tensors must have same number of dimensions: got {ndim} and {other}"


def cat_sizes_mismatch(dim: int, expected: int, got: int, position: int) -> str:
    """``cat`` of tensors whose sizes differ outside the joined dimension."""
    return (
        f"Sizes of tensors must match except in dimension {dim}. Expected size {expected} but "
        f"got size {got} for tensor number {position} in the list."
    )


def tensors_not_tuple(function: str, type_name: str) -> str:
    """``cat``/``stack`` given something that is not a sequence of tensors."""
    return (
        f"{function}(): argument 'tensors' (position 1) must be tuple of Tensors, not {type_name}"
    )


def stack_sizes(first: Sequence[int], shape: Sequence[int], position: int) -> str:
    """``stack`` of tensors of different sizes."""
    return (
        f"stack expects each tensor to be equal size, but got {format_size(first)} at entry 0 "
        f"and {format_size(shape)} at entry {position}"
    )


def negative_dimension(size: int, shape: Sequence[int]) -> str:
    """A result shape with a negative size (``repeat``)."""
    return f"Trying to create tensor with negative dimension {size}: {format_size(shape)}"


def roll_shifts_dims(shifts: int, dims: int) -> str:
    """``roll`` with different numbers of shifts and dims."""
    return f"shifts and dimensions must align. shifts: {shifts}, dims:{dims}"


def needs_2_dims(function: str) -> str:
    """``triu``/``tril`` of a tensor with fewer than 2 dimensions."""
    return f"{function}: input tensor must have at least 2 dimensions"


def pad_size_unsupported(length: int, ndim: int) -> str:
    """A non-constant ``pad`` of a length that does not fit the input's number of dims."""
    return (
        f"Padding size {length} is not supported for {ndim}D input tensor.\n"
        "Supported combinations for non-constant padding:\n"
        "  - 2D or 3D input: padding size = 2 (pads last dimension)\n"
        "  - 3D or 4D input: padding size = 4 (pads last 2 dimensions)\n"
        "  - 4D or 5D input: padding size = 6 (pads last 3 dimensions)"
    )


def pad_too_long(length: int, ndim: int) -> str:
    """``pad`` given more pairs than the input has dimensions."""
    return (
        "Padding length should be less than or equal to two times the input dimension but got "
        f"padding length {length} and input of dimension {ndim}"
    )


# views: deprecation warnings
T_NOT_2D_DEPRECATED = (
    "The use of `x.T` on tensors of dimension other than 2 to reverse their shape is deprecated "
    "and it will throw an error in a future release. Consider `x.mT` to transpose batches of "
    "matrices or `x.permute(*minigrad.arange(x.ndim - 1, -1, -1))` to reverse the dimensions of "
    "a tensor."
)


def deprecated_on_0d(name: str) -> str:
    """``T``, ``mT`` or ``adjoint()`` of a 0-d tensor: the identity, with PyTorch's warning."""
    prefix = name if name == "adjoint()" else f"Tensor.{name}"
    hint = ("This function is the identity in these cases." if name in ("T", "mT")
            else "Consider using x.conj().")
    return f"{prefix} is deprecated on 0-D tensors. {hint}"


# indexing
SLICE_0D = "slice() cannot be applied to a 0-dim tensor."
SLICE_STEP_ZERO = "slice step cannot be zero"
INDEX_OF_EMPTY_DIM = "index is out of bounds for dimension with size 0"
INDEX_TENSOR_DTYPE = "tensors used as indices must be long, int, byte or bool tensors"
INDEX_OF_0D = (
    "invalid index of a 0-dim tensor. Use `tensor.item()` in Python or `tensor.item<T>()` in C++ "
    "to convert a 0-dim tensor to a number"
)
SEQUENCE_AS_TUPLE_DEPRECATED = (
    "Using a non-tuple sequence for multidimensional indexing is deprecated and will be changed "
    "in pytorch 2.9; use x[tuple(seq)] instead of x[seq]. In pytorch 2.9 this will be "
    "interpreted as tensor index, x[minigrad.tensor(seq)], which will result either in an error "
    "or a different result"
)
UINT8_INDEX_DEPRECATED = (
    "indexing with dtype minigrad.uint8 is now deprecated, please use a dtype minigrad.bool "
    "instead."
)


def index_out_of_bounds(index: int, dim: int, size: int) -> str:
    """An index outside its dimension (``[]``, ``gather``, ``index_fill``, ...)."""
    return f"index {index} is out of bounds for dimension {dim} with size {size}"


def invalid_data_type(type_name: str) -> str:
    """A tensor made of data of a type that holds no numbers (a string used as an index)."""
    return f"new(): invalid data type '{type_name}'"


def invalid_index(type_name: str) -> str:
    """``tensor[key]`` with a key of a type that cannot index."""
    return (
        "only integers, slices (`:`), ellipsis (`...`), None and long or byte Variables are valid "
        f"indices (got {type_name})"
    )


def too_many_indices(ndim: int) -> str:
    """``tensor[key]`` with more indices than dimensions."""
    return f"too many indices for tensor of dimension {ndim}"


def mask_shape_mismatch(
    mask: Sequence[int], position: int, shape: Sequence[int], dim: int
) -> str:
    """A bool mask index whose shape is not that of the dimensions it covers."""
    return (
        f"The shape of the mask {format_size(mask)} at index {position} does not match the shape "
        f"of the indexed tensor {format_size(shape)} at index {dim}"
    )


def index_broadcast_mismatch(shapes: str) -> str:
    """Index tensors that do not broadcast together (``shapes`` as PyTorch lists them)."""
    return f"shape mismatch: indexing tensors could not be broadcast together with shapes {shapes}"


def index_put_broadcast_mismatch(values: Sequence[int], result: Sequence[int]) -> str:
    """``tensor[indices] = values`` with values that do not broadcast to the indexed shape."""
    return (
        f"shape mismatch: value tensor of shape {format_size(values)} cannot be broadcast to "
        f"indexing result of shape {format_size(result)}"
    )


def index_put_dtypes(destination: str, source: str) -> str:
    """``tensor[indices] = values`` with values of another dtype."""
    return (
        f"Index put requires the source and destination dtypes match, got {destination} for the "
        f"destination and {source} for the source."
    )


def cannot_assign(value_type: str, tensor_type: str) -> str:
    """``tensor[key] = value`` with a value that is not a number or a tensor."""
    return f"can't assign a {value_type} to a {tensor_type}"


def expanded_write_deprecated(function: str, example: str) -> str:
    """A write through indices into an expanded tensor (PyTorch warns, then writes)."""
    return (
        f"Use of {function} on expanded tensors is deprecated. Please clone() the tensor before "
        f"performing this operation. This also applies to advanced indexing e.g. {example}"
    )


# gather, scatter
SCATTER_DTYPES = "scatter(): Expected self.dtype to be equal to src.dtype"
SCATTER_PROD_DOUBLE_BACKWARD = (
    "scatter_reduce(): Double backward is unsupported for src when >1 zeros in src are "
    "scattered to the same position in self"
)
SCATTER_LEGACY_REDUCE = "reduce argument must be either add or multiply."


def index_dims_mismatch(other: str) -> str:
    """``gather``/``scatter`` with an index of another dimensionality than ``other``."""
    return f"Index tensor must have the same number of dimensions as {other} tensor"


def gather_index_too_large(
    dim: int, index: Sequence[int], shape: Sequence[int], axis: int
) -> str:
    """``gather`` with an index larger than the input outside the gathered dimension."""
    return (
        f"Size does not match at dimension {dim} expected index {format_size(index)} to be no "
        f"larger than self {format_size(shape)} apart from dimension {axis}"
    )


def scatter_index_too_large(
    index: Sequence[int], shape: Sequence[int], axis: int, src: Sequence[int] | None
) -> str:
    """``scatter`` with an index larger than self (outside ``axis``) or than src."""
    message = (
        f"Expected index {format_size(index)} to be no larger than self {format_size(shape)} "
        f"apart from dimension {axis}"
    )
    if src is not None:
        message += f" and to be no larger size than src {format_size(src)}"
    return message


def index_dtype(function: str) -> str:
    """``gather``/``scatter`` with an index that is not int32/int64."""
    return f"{function}(): Expected dtype int32/int64 for index"


def take_along_dim_dims(ndim: int, index_ndim: int) -> str:
    """``take_along_dim`` with indices of another dimensionality than the input."""
    return (
        "minigrad.take_along_dim(): input and indices should have the same number of "
        f"dimensions, but got {ndim} dimensions for input, and {index_ndim} dimensions for "
        "indices"
    )


def take_along_dim_dtype(dtype_name: str) -> str:
    """``take_along_dim`` with indices that are not int64."""
    return f"minigrad.take_along_dim(): dtype of indices should be Long but got {dtype_name}"


def scatter_reduce_argument(reduce: str) -> str:
    """``scatter_reduce`` with an unknown reduction."""
    return f"reduce argument must be either sum, prod, mean, amax or amin, got {reduce}"


def scatter_reduce_backward_mode(reduce: str) -> str:
    """``scatter_reduce``'s backward for an unknown reduction."""
    return (
        f"Expected 'reduce' to be one of 'sum', 'prod', 'mean', 'amax', 'amin' but got {reduce}."
    )


def scatter_src_type(function: str, type_name: str) -> str:
    """``scatter`` with a ``src`` that is neither a tensor nor a number."""
    return f"{function}(): argument 'src' (position 3) must be Tensor or Number, not {type_name}"


# index_add, index_copy, index_fill, masked_scatter, take, index_select, masked_select
INDEX_FILL_DTYPE = "index_fill_(): Expected dtype int64 for index."
INDEX_NOT_VECTOR_OR_SCALAR = "Index has to be a vector/scalar"
MASKED_SCATTER_SOURCE_TOO_SMALL = "Number of elements of source < number of ones in mask"
INDEX_SELECT_NOT_VECTOR = "index_select(): Index is supposed to be a vector"
INDEX_SELECT_DTYPE = "index_select(): Expected dtype int32 or int64 for index"
MASKED_SELECT_MASK_DTYPE = "masked_select: expected BoolTensor for mask"


def index_not_vector(function: str, ndim: int, dtype_name: str, shape: Sequence[int]) -> str:
    """``index_add``/``index_reduce`` with an index of more than one dimension."""
    return (
        f"{function}_(): Index is supposed to be a vector, but got dim: {ndim} with type: "
        f"{dtype_name} and size: {format_size(shape)}"
    )


def index_dtype_got(function: str, dtype_name: str) -> str:
    """``index_add``/``index_reduce`` with an index that is not int32/int64."""
    return f"{function}_(): Expected dtype int32/int64 for index but got: {dtype_name}"


def index_source_dtype(function: str, self_dtype: str, source_dtype: str) -> str:
    """``index_add``/``index_reduce`` with a source of another dtype."""
    return (
        f"{function}_(): self ({self_dtype}) and source ({source_dtype}) must have the same "
        "scalar type"
    )


def index_dim_of_source(function: str, dim: int, ndim: int) -> str:
    """``index_add``/``index_reduce`` along a dimension the source does not have."""
    return (
        f"{function}_(): Indexing dim {dim} is out of bounds of the source tensor with dim {ndim}"
    )


def index_count(function: str, count: int, expected: int, dim: int) -> str:
    """``index_add``/``index_reduce`` with a number of indices other than the source's size."""
    return (
        f"{function}_(): Number of indices ({count}) should be equal to source.size(dim): "
        f"({expected}), for dim: {dim}"
    )


def index_source_shape(shape: Sequence[int], source: Sequence[int]) -> str:
    """``index_add``/``index_reduce`` with a source whose other dimensions differ from self's."""
    return (
        "source tensor shape must match self tensor shape, excluding the specified dimension. "
        f"Got self.shape = {format_size(shape)} source.shape = {format_size(source)}"
    )


def index_copy_index_dims(ndim: int) -> str:
    """``index_copy`` with an index of more than one dimension."""
    return f"index_copy_(): Index should have dimension 1 or 0 (got {ndim})"


def index_copy_scalar_source(count: int) -> str:
    """``index_copy`` of a 0-d source to more than one index."""
    return f"index_copy_(): When source is scalar, index should have one element (got {count})"


def index_copy_dims(source_ndim: int, ndim: int) -> str:
    """``index_copy`` with source and destination of different dimensionality."""
    return (
        "index_copy_(): When source and destination are not scalars, their dimensionality must "
        f"match. Source dimensionality ({source_ndim}), destination dimensionality ({ndim})"
    )


def long_index_expected(function: str, dtype_name: str) -> str:
    """``index_copy``/``take`` with an index that is not int64."""
    return f"{function}(): Expected a long tensor for index, but got {dtype_name}"


def index_copy_dtypes(self_dtype: str, source_dtype: str) -> str:
    """``index_copy`` with a source of another dtype."""
    return (
        "index_copy_(): self and source expected to have the same dtype, but got (self) "
        f"{self_dtype} and (source) {source_dtype}"
    )


def index_copy_slices(self_slice: Sequence[int], dim: int, source_slice: Sequence[int]) -> str:
    """``index_copy`` with source slices of another shape than the destination's."""
    return (
        "index_copy_(): Source/destination tensor must have same slice shapes. Destination "
        f"slice shape: {' '.join(map(str, self_slice))} at dimension {dim} and source slice "
        f"shape: {' '.join(map(str, source_slice))} at dimension 0."
    )


def index_copy_count(count: int, expected: int) -> str:
    """``index_copy`` with a number of indices other than the source's size."""
    return (
        f"index_copy_(): Number of indices ({count}) should be equal to source.size(dim) "
        f"({expected})"
    )


def index_copy_out_of_bounds(index: int, dim: int, size: int) -> str:
    """``index_copy`` at an index outside the dimension."""
    return f"index_copy_(): {index_out_of_bounds(index, dim, size)}"


def index_fill_value_dims(ndim: int) -> str:
    """``index_fill`` with a value tensor that is not 0-d."""
    return (
        "index_fill_ only supports a 0-dimensional value tensor, but got tensor with "
        f"{ndim} dimension(s)."
    )


def masked_scatter_mask_dtype(dtype_name: str) -> str:
    """``masked_scatter`` with a mask that is not bool."""
    return f"masked_scatter_ only supports boolean masks, but got mask with dtype {dtype_name}"


def masked_scatter_dtypes(self_dtype: str, source_dtype: str) -> str:
    """``masked_scatter`` with a source of another dtype (PyTorch's text has no space)."""
    return (
        f"masked_scatter: expected self and source to have same dtypes but got{self_dtype} and "
        f"{source_dtype}"
    )


def put_index_dtype(dtype_name: str) -> str:
    """``put`` with an index that is not int64."""
    return f"put_(): Expected a long tensor for index, but got {dtype_name}"


def put_dtypes(self_dtype: str, source_dtype: str) -> str:
    """``put`` with a source of another dtype."""
    return (
        f"put_(): self and source expected to have the same dtype, but got self.dtype = "
        f"{self_dtype} and source.dtype = {source_dtype}"
    )


def put_counts(source: int, index: int) -> str:
    """``put`` with a source and an index of different numbers of elements."""
    return (
        f"put_(): Expected source and index to have the same number of elements, but got "
        f"source.numel() = {source}, index.numel() = {index}"
    )


INDEX_REDUCE_BETA = "index_reduce() is in beta and the API may change at any time."


def index_reduce_mode(reduce: str) -> str:
    """``index_reduce`` with a reduction it does not have."""
    return (
        f"index_reduce(): Expected reduce to be one of prod, mean, amax or amin but got "
        f"{reduce}."
    )


FREXP_NOT_FLOAT = "minigrad.frexp() only supports floating-point dtypes"
RENORM_NORM_NOT_POSITIVE = "renorm: non-positive-norm not supported"


def ldexp_cast(dtype: Any) -> str:
    """``ldexp_`` into an integer tensor."""
    return f"ldexp can't be cast to the desired output type {display_name(dtype)}"


def renorm_maxnorm_negative(maxnorm: Any) -> str:
    """``renorm`` with a negative ``maxnorm``."""
    return f"renorm: expected maxnorm to be >= 0 but got {double_text(maxnorm)}"


def renorm_dims(ndim: int) -> str:
    """``renorm`` of a tensor of fewer than two dimensions."""
    return f"renorm: input needs at least 2 dimensions, got {ndim} dimensions"


def unravel_index_dtype(dtype_name: str) -> str:
    """``unravel_index`` of non-integer indices (``dtype_name``: ``minigrad.float32``)."""
    return f"expected 'indices' to be integer dtype, but got {dtype_name}"


def unravel_index_shape(kind: type) -> str:
    """``unravel_index`` with a shape that is neither an int nor a sequence."""
    return f"expected 'shape' to be int or sequence of ints, but got {kind}"


def unravel_index_shape_item(kind: type) -> str:
    """``unravel_index`` with a shape holding something else than ints."""
    return f"expected 'shape' sequence to only contain ints, but got {kind}"


def unravel_index_negative(shape: tuple[int, ...]) -> str:
    """``unravel_index`` with a negative size."""
    return f"'shape' cannot have negative values, but got {shape}"


GRADIENT_UINT8 = "minigrad.gradient does not support uint8 input."
GRADIENT_EDGE_ORDER = "minigrad.gradient only supports edge_order=1 and edge_order=2."
GRADIENT_DIM_TOO_SMALL = (
    "minigrad.gradient expected each dimension size to be at least edge_order+1"
)


def gradient_spacing_size(ndim: int, size: int) -> str:
    """``gradient`` without ``dim``, given a spacing list of another length than ``ndim``."""
    return (
        "minigrad.gradient expected spacing to be unspecified, a scalar, or a list of length "
        f"equal to 'self.dim() = {ndim}', since dim argument was not given, but got a list of "
        f"length {size}"
    )


def gradient_spacing_and_dims(spacing: int, dims: int) -> str:
    """``gradient`` given a spacing list and a dim list of different lengths."""
    return (
        "minigrad.gradient expected spacing to be unspecified, a scalar or it's spacing and dim "
        f"arguments to have the same length, but got a spacing argument of length {spacing} "
        f"and a dim argument of length {dims}."
    )


def gradient_spacing_dims(ndim: int) -> str:
    """``gradient`` given coordinates that are not 1-D."""
    return (
        "minigrad.gradient expected each element of spacing to have one dimension, but got an "
        f"element with {ndim} dimensions!"
    )


AS_STRIDED_LENGTHS = "mismatch in length of strides and shape"


def as_strided_negative_strides(strides: Sequence[int]) -> str:
    """``as_strided`` with a negative stride."""
    return (
        "as_strided: Negative strides are not supported at the moment, got strides: "
        f"{format_size(strides)}"
    )


def as_strided_overflow(sizes: Sequence[int], strides: Sequence[int]) -> str:
    """``as_strided`` with a negative size."""
    return (
        f"Storage size calculation overflowed with sizes={format_size(sizes)} and "
        f"strides={format_size(strides)}"
    )


def as_strided_negative_offset(offset: int) -> str:
    """``as_strided`` with a negative storage offset."""
    return f"Tensor: invalid storage offset {offset}"


def as_strided_out_of_bounds(sizes: Sequence[int], strides: Sequence[int], offset: int,
                             itemsize: int, needed: int, available: int) -> str:
    """``as_strided`` reaching past the end of the memory (sizes in bytes)."""
    return (
        f"setStorage: sizes {format_size(sizes)}, strides {format_size(strides)}, storage "
        f"offset {offset}, and itemsize {itemsize} requiring a storage size of {needed} are "
        f"out of bounds for storage of size {available}"
    )


def take_out_of_range(index: int, size: int) -> str:
    """``take`` at an index outside the flattened tensor."""
    return f"out of range: tried to access index {index} on a tensor of {size} elements."


def double_text(value: Any) -> str:
    """A double as PyTorch's C++ messages print it: ``-1``, ``1.5``, ``inf``, ``1.23457e+06``.

    (A C++ stream's default: six significant digits, as C's ``%g``.)
    """
    return format(float(value), "g")


def int_list_overflow(function: str, parameter: str, position: int) -> str:
    """The parser's text for an item of an int list past int64 (``position`` counts from 1)."""
    return (f"{function}(): argument '{parameter}' failed to unpack the object at pos {position} "
            'with error "Overflow when unpacking long long"')


# --- memory formats and factory options -----------------------------------------------------

PRESERVE_FORMAT_IN_CONTIGUOUS = "preserve memory format is unsupported by the contiguous operator"
PRESERVE_FORMAT_IN_EMPTY = "unsupported memory format Preserve"
PIN_MEMORY_WITHOUT_ACCELERATOR = (
    "pin_memory=True requires a CUDA or other accelerator backend; no pinned memory allocator "
    "is available on this system."
)


def required_rank(rank: int, format_name: str) -> str:
    """A channels-last memory format asked of a tensor of another rank."""
    return f"required rank {rank} tensor to use {format_name} format"


def no_arguments(method: str, count: int) -> str:
    """CPython's text for a C method of no arguments (``METH_NOARGS``) given ``count``."""
    return f"TensorBase.{method}() takes no arguments ({count} given)"
