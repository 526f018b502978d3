"""View ops: outputs share the input's buffer and version counter (see autograd/views.py).

Each forward returns a numpy *view* with the strides PyTorch gives the same view (``stride()``
answers as in PyTorch); each backward puts the gradient back in the input's shape. None of them
saves a tensor: writing to the input or the output later never makes their backward raise.
The strides themselves are computed in ``strides.py``; the ops that cut a tensor into several
views (split, chunk, unbind) are in ``splitting.py``.
"""

from __future__ import annotations

import math
import operator
import warnings
from collections.abc import Iterable
from typing import Any

import numpy as np

from minigrad import _arguments, _dtype, _memory, errors
from minigrad._arguments import check_int64
from minigrad.autograd.function import NO_GRAD_CTX, Op
from minigrad.autograd.saved_attributes import as_given, shown_as_int64
from minigrad.autograd.tensor_base import TensorBase, set_array
from minigrad.autograd.views import ViewOp
from minigrad.ops._helpers import along, is_tensor, operand, run, wrap_dim
from minigrad.ops.strides import element_strides, expand_strides, is_plain, strided, view_strides
from minigrad.ops.unary import contiguous_copy


class _Embed(Op):
    """y = zeros of ``shape`` with ``grad`` at ``key``;  dgrad = gg[key].

    A view op's backward as an op of its own, so that ``create_graph`` records it.
    """

    fields = ("key",)

    @staticmethod
    def forward(ctx: Any, grad: np.ndarray, shape: tuple[int, ...], key: Any) -> np.ndarray:
        ctx.key = key
        result = np.zeros(shape, dtype=grad.dtype)
        result[key] = grad
        return result

    @staticmethod
    def backward(ctx: Any, grad: Any) -> tuple[Any, None, None]:
        return grad[ctx.key], None, None


class SelectBackward(_Embed):
    """The backward of select as an op (``create_graph``); its own backward selects again."""

    node_name = "SelectBackwardBackward0"


class SliceBackward(_Embed):
    """The backward of slicing as an op (``create_graph``); its own backward slices again."""

    node_name = "SliceBackwardBackward0"


class Alias(ViewOp):
    """y = x, a new view of all of it (``x[...]``);  dx = grad."""

    saves = ()  # (it saves nothing: its node has no slot for saved values)

    @staticmethod
    def forward(ctx: Any, x: np.ndarray) -> np.ndarray:
        return x[...]

    @staticmethod
    def backward(ctx: Any, grad: Any) -> Any:
        return grad


def alias(input: Any) -> Any:
    """A new view of all of ``input`` (what ``x[...]`` returns)."""
    return Alias.apply(input)


class Select(ViewOp):
    """y = x[..., index, ...] along ``dim``;  dx = grad placed at ``index``, 0 elsewhere.

    ``given``: the index as the user gave it, where it differs from ``index`` (-1 for the last):
    PyTorch's node shows it so. The view itself is the normalised ``index``'s, which it keeps
    even if its base later takes another size (``set_``).
    """

    saves = ()  # (it saves nothing: its node has no slot for saved values)
    fields = ("shape", "key", "dim", "given")  # (dim as given too: the node shows it so)
    saved_options = {
        "dim": as_given("dim"),
        "index": lambda node: shown_as_int64(node.key[-2] if node.given is None else node.given),
        "self_sym_sizes": "shape",
    }

    @staticmethod
    def forward(
        ctx: Any, x: np.ndarray, dim: int, index: int, given: int | None = None
    ) -> np.ndarray:
        key = along(dim % x.ndim, index)
        if ctx is not NO_GRAD_CTX:  # (what backward needs)
            ctx.shape, ctx.key, ctx.dim = x.shape, key, dim
        return x[key]

    @staticmethod
    def backward(ctx: Any, grad: Any) -> tuple[Any, None, None, None]:
        return run(SelectBackward, grad, ctx.shape, ctx.key), None, None, None


def selected(input: Any, dim: int, index: int, size: int) -> Any:
    """``Select`` of an index checked to be in ``[-size, size)``, shown as given."""
    if index < 0:
        return Select.apply(input, dim, index + size, index)
    return Select.apply(input, dim, index)


def select(input: Any, dim: int, index: int) -> Any:
    """The slice at ``index`` along ``dim`` (a view with one dimension fewer).

    Example:
        >>> import minigrad
        >>> minigrad.arange(6.).view(2, 3).select(1, -1)
        tensor([2., 5.])
    """
    array = operand(input)
    if array.ndim == 0:
        raise IndexError(errors.SELECT_0D)
    axis = wrap_dim(dim, array.ndim)
    index = operator.index(index)
    size = array.shape[axis]
    if not -size <= index < size:
        check_int64(index)  # (past int64, the parser's error comes first)
        raise IndexError(errors.select_out_of_range(index, array.shape, axis))
    return selected(input, dim, index, size)  # (dim as given: the node shows it so)


class Slice(ViewOp):
    """y = x[start:stop:step] along ``dim``;  dx = grad placed in that slice, 0 elsewhere.

    ``given``: the bounds ``(start, end)`` as the caller gave them, where they differ from the
    clamped ones (a negative bound, one past the size, None): PyTorch's node shows them so.
    The view itself is the clamped bounds', which it keeps even if its base later takes
    another size (``set_``).
    """

    saves = ()  # (it saves nothing: its node has no slot for saved values)
    fields = ("shape", "key", "dim", "given")  # (dim as given too: the node shows it so)
    saved_options = {
        "dim": as_given("dim"),
        "start": lambda node: shown_as_int64(
            node.key[-2].start if node.given is None else node.given[0]
        ),
        "end": lambda node: shown_as_int64(
            node.key[-2].stop if node.given is None else node.given[1]
        ),
        "step": lambda node: node.key[-2].step,
        "self_sym_sizes": "shape",
    }

    @staticmethod
    def forward(
        ctx: Any, x: np.ndarray, dim: int, start: int, stop: int, step: int,
        given: tuple[Any, Any] | None = None,
    ) -> np.ndarray:
        axis = dim % x.ndim
        key = along(axis, slice(start, stop, step))
        if ctx is not NO_GRAD_CTX:  # (what backward needs)
            ctx.shape, ctx.key, ctx.dim = x.shape, key, dim
        result = x[key]
        if not result.size:  # (numpy points an empty slice at the dimension's start)
            first = slice(start, stop, step).indices(x.shape[axis])[0]
            # and gives an empty dimension its old stride, where PyTorch's is ``step`` times it
            strides = list(result.strides)
            strides[axis] = x.strides[axis] * step
            result = np.lib.stride_tricks.as_strided(result, strides=tuple(strides))
            return _memory.empty_at(x, result, first * x.strides[axis])
        return result

    @staticmethod
    def backward(ctx: Any, grad: Any) -> tuple[Any, None, None, None, None, None]:
        return run(SliceBackward, grad, ctx.shape, ctx.key), None, None, None, None, None


def narrow(input: Any, dim: int, start: Any, length: int) -> Any:
    """Elements ``start`` to ``start + length`` along ``dim`` (a view).

    Example:
        >>> import minigrad
        >>> minigrad.arange(5.).narrow(0, 1, 3)
        tensor([1., 2., 3.])
    """
    array = operand(input)
    if array.ndim == 0:
        raise RuntimeError(errors.NARROW_0D)
    start = start.item() if isinstance(start, TensorBase) else operator.index(start)
    if length < 0:
        raise RuntimeError(errors.NARROW_NEGATIVE_LENGTH)
    size = array.shape[wrap_dim(dim, array.ndim)]
    if not -size <= start <= size:
        check_int64(start)  # (past int64, the parser's error comes first)
        raise IndexError(errors.narrow_start_out_of_range(start, size))
    start = start + size if start < 0 else start
    if start + length > size:
        check_int64(length)  # (past int64, the parser's error comes first)
        raise RuntimeError(errors.narrow_exceeds_size(start, length, size))
    return Slice.apply(input, dim, start, start + length, 1)  # (dim as given, as PyTorch's)


def slice_dim(input: Any, dim: int, start: int | None, stop: int | None, step: int | None) -> Any:
    """``input[start:stop:step]`` along ``dim`` (a view; the step must be positive).

    PyTorch's ``at::slice``: the bounds are clamped to the dimension, a negative one counted
    from its end; its node shows them as given.
    """
    step = 1 if step is None else step
    if step <= 0:
        raise ValueError(errors.STEP_NOT_POSITIVE)
    first, last, _ = slice(start, stop, step).indices(operand(input).shape[dim])
    last = max(last, first)
    if (first, last) == (start, stop):
        return Slice.apply(input, dim, first, last, step)
    return Slice.apply(input, dim, first, last, step, (start, stop))


class Unsqueeze(ViewOp):
    """y = x with a new size-1 dimension at ``dim``;  dx = grad without it."""

    saves = ()  # (it saves nothing: its node has no slot for saved values)
    fields = ("dim",)  # as given (-1: a new last dim): PyTorch's node shows it so
    saved_options = {"dim": as_given("dim")}

    @staticmethod
    def forward(ctx: Any, x: np.ndarray, dim: int) -> np.ndarray:
        if ctx is not NO_GRAD_CTX:  # (what backward needs)
            ctx.dim = dim
        dim %= x.ndim + 1
        if x.size and is_plain(x):  # numpy's reshape gives PyTorch's strides, the new dim's too
            shape = x.shape
            return x.reshape((*shape[:dim], 1, *shape[dim:]))
        shape, strides = list(x.shape), list(x.strides)
        # PyTorch's stride for the new dimension; numpy may choose other strides for size-1
        # dimensions, so its own result is used only where they agree (the fast path).
        new_stride = x.itemsize if dim >= x.ndim else shape[dim] * strides[dim]
        shape.insert(dim, 1)
        strides.insert(dim, new_stride)
        result = np.expand_dims(x, dim)
        if result.strides == tuple(strides):
            return result
        return strided(x, tuple(shape), tuple(s // x.itemsize for s in strides))

    @staticmethod
    def backward(ctx: Any, grad: Any) -> tuple[Any, None]:
        return np.squeeze(grad, ctx.dim), None


def unsqueeze(input: Any, dim: int) -> Any:
    """A view with a new size-1 dimension at ``dim``.

    Example:
        >>> import minigrad
        >>> minigrad.zeros(2, 3).unsqueeze(1).shape
        minigrad.Size([2, 1, 3])
    """
    check_unsqueeze_dim(input, dim)
    return Unsqueeze.apply(input, dim)


def check_unsqueeze_dim(input: Any, dim: int) -> None:
    """PyTorch's IndexError for a new dimension's position outside ``[-ndim - 1, ndim]``."""
    ndim = operand(input).ndim
    if not -ndim - 1 <= dim <= ndim:
        check_int64(dim)  # (past int64, the parser's error comes first)
        raise IndexError(errors.dim_out_of_range(dim, ndim + 1))


class Squeeze(ViewOp):
    """y = x without its size-1 dimensions;  dx = grad with them put back (``unsqueeze_to``)."""

    saves = ()  # (it saves nothing: its node has no slot for saved values)
    fields = ("shape",)
    saved_options = {"self_sym_sizes": "shape"}

    @staticmethod
    def forward(ctx: Any, x: np.ndarray) -> np.ndarray:
        if ctx is not NO_GRAD_CTX:  # (what backward needs)
            ctx.shape = x.shape
        return x.squeeze()  # (the method: np.squeeze's dispatch costs more than the view)

    @staticmethod
    def backward(ctx: Any, grad: Any) -> Any:
        return unsqueeze_to(grad, ctx.shape, range(len(ctx.shape)))


class SqueezeDim(ViewOp):
    """y = x without dimension ``dim`` if its size is 1;  dx = grad with it put back.

    ``dim`` is kept as given (checked, maybe negative): PyTorch's ``_saved_dim`` shows it so.
    """

    saves = ()  # (it saves nothing: its node has no slot for saved values)
    fields = ("shape", "dim")
    saved_options = {"dim": as_given("dim"), "self_sym_sizes": "shape"}

    node_name = "SqueezeBackward1"

    @staticmethod
    def forward(ctx: Any, x: np.ndarray, dim: int) -> np.ndarray:
        if ctx is not NO_GRAD_CTX:  # (what backward needs)
            ctx.shape, ctx.dim = x.shape, dim
        return x.squeeze(dim) if x.ndim and x.shape[dim] == 1 else x[...]

    @staticmethod
    def backward(ctx: Any, grad: Any) -> tuple[Any, None]:
        return unsqueeze_to(grad, ctx.shape, (ctx.dim,)), None


def unsqueeze_to(grad: Any, shape: tuple[int, ...], dims: Iterable[int]) -> Any:
    """A squeeze's gradient: ``grad`` unsqueezed at those of ``dims`` that are 1 in ``shape``.

    PyTorch's ``unsqueeze_to``: one ``unsqueeze`` per dim, in increasing order (a double
    backward shows UnsqueezeBackward0 nodes), and ``grad`` itself if no dim was squeezed.
    ``dims`` may be negative; a 0-d ``shape`` has nothing to put back.
    """
    ndim = len(shape)
    axes = sorted({d % ndim for d in dims if shape[d] == 1}) if ndim else ()
    return np.expand_dims(grad, tuple(axes)) if axes else grad


def squeeze(input: Any, dim: Any = _arguments.NOT_GIVEN) -> Any:
    """A view without size-1 dimensions: all, or those among ``dim`` (an int or a tuple).

    Example:
        >>> import minigrad
        >>> minigrad.zeros(1, 3, 1).squeeze((0, 1)).shape
        minigrad.Size([3, 1])
    """
    if dim is _arguments.NOT_GIVEN:
        return Squeeze.apply(input)
    op, dim = squeeze_op(input, dim, SqueezeDim, SqueezeDims)
    return op.apply(input, dim)


def squeeze_op(
    input: Any, dim: Any, one: type[ViewOp], several: type[ViewOp]
) -> tuple[type[ViewOp], Any]:
    """The squeeze op for ``dim`` (``one`` for an int, ``several`` for a tuple), dims checked."""
    ndim = operand(input).ndim
    if type(dim) is int:  # (the common call: an int needs only its range checked)
        wrap_dim(dim, ndim)
        return one, dim
    if not isinstance(dim, (tuple, list)):  # (None too: x.squeeze() squeezes every dim)
        _arguments.check_value(dim, "int", "squeeze", "dim", 1)
    if isinstance(dim, (tuple, list)):
        _arguments.check_dim_items(dim)  # (the parser unpacks them first)
        seen = set()
        for d in dim:
            wrapped = wrap_dim(d, ndim)
            if wrapped in seen:
                raise RuntimeError(errors.dim_repeated(wrapped))
            seen.add(wrapped)
        return several, tuple(dim)
    wrap_dim(dim, ndim)  # (checked only: the node keeps it as given)
    return one, dim


class SqueezeDims(ViewOp):
    """y = x without those of ``dims`` whose size is 1;  dx = grad with them put back.

    ``dims`` are kept as given (checked, maybe negative): PyTorch's ``_saved_dim`` shows them so.
    """

    saves = ()  # (it saves nothing: its node has no slot for saved values)
    fields = ("shape", "dims")
    saved_options = {"dim": as_given("dims"), "self_sym_sizes": "shape"}

    node_name = "SqueezeBackward2"

    @staticmethod
    def forward(ctx: Any, x: np.ndarray, dims: tuple[int, ...]) -> np.ndarray:
        if ctx is not NO_GRAD_CTX:  # (what backward needs)
            ctx.shape, ctx.dims = x.shape, dims
        squeezed = tuple(d for d in dims if x.ndim and x.shape[d] == 1)
        return x.squeeze(squeezed) if squeezed else x[...]

    @staticmethod
    def backward(ctx: Any, grad: Any) -> tuple[Any, None]:
        return unsqueeze_to(grad, ctx.shape, ctx.dims), None


class View(ViewOp):
    """y = x with another shape, same elements in the same order;  dx = grad reshaped back."""

    saves = ()  # (it saves nothing: its node has no slot for saved values)
    fields = ("shape",)
    saved_options = {"self_sym_sizes": "shape"}

    @staticmethod
    def forward(ctx: Any, x: np.ndarray, shape: tuple[int, ...]) -> np.ndarray:
        if ctx is not NO_GRAD_CTX:  # (what backward needs)
            ctx.shape = x.shape
        # The sizes are checked here, in the kernel, as PyTorch's view checks them: after a
        # view input's history caught up with its base's (which may raise first)
        numel = x.size
        plain = numel and is_plain(x)
        if plain:
            # numpy's reshape infers a -1 and checks the sizes itself; it answers as PyTorch's
            # infer_size when the sizes hold ``numel`` (all positive then: numpy refuses two
            # unknown sizes) or one size is -1 (numpy takes any one negative size for it).
            # Else, or if numpy refuses, ``infer_shape`` below gives PyTorch's answer or text.
            known = math.prod(shape)
            if known == numel or (known < 0 and -1 in shape):
                try:
                    return x.reshape(shape)
                except (ValueError, OverflowError):
                    pass
        shape = infer_shape(shape, numel)
        if plain:
            return x.reshape(shape)
        strides = view_strides(x.shape, element_strides(x), shape)
        if strides is None:
            raise RuntimeError(errors.VIEW_SPANS_SUBSPACES)
        return strided(x, shape, strides)

    @staticmethod
    def backward(ctx: Any, grad: Any) -> tuple[Any, None]:
        return np.reshape(grad, ctx.shape), None


def view(input: Any, *shape: Any) -> Any:
    """A view with another shape; raises if the memory layout does not allow one.

    One size may be -1 (inferred).

    Example:
        >>> import minigrad
        >>> minigrad.arange(6.).view(2, -1)
        tensor([[0., 1., 2.],
                [3., 4., 5.]])
    """
    if not shape:  # (a 0-d view is view(()))
        raise TypeError(errors.invalid_arguments("view", (), {}, errors.VIEW_SIGNATURES))
    try:
        sizes = _sizes(shape)
    except TypeError:  # not sizes: the dtype overload, or the parser's text
        if len(shape) == 1 and isinstance(shape[0], _dtype.dtype):
            return view_dtype(input, shape[0])
        items = shape[0] if len(shape) == 1 and isinstance(shape[0], (tuple, list)) else shape
        if items and _is_int(items[0]):  # (the sizes overload fits: a later size fails)
            _arguments.check_int_sequence(items, "view", "size", 1)
        raise TypeError(_arguments.method_call_fits_none("view", shape)) from None
    try:
        return View.apply(input, sizes)  # (checked by its forward)
    except RuntimeError:
        _arguments.check_int64_items(sizes, "view", "size")  # (the parser's error first)
        raise


def view_named(input: Any, shape: tuple[Any, ...], named: dict[str, Any]) -> Any:
    """``x.view(dtype=...)`` or ``x.view(size=...)``: either overload by its parameter's name."""
    if not shape and len(named) == 1:
        ((key, value),) = named.items()
        if key == "dtype" and isinstance(value, _dtype.dtype):
            return view_dtype(input, value)
        if key == "size" and isinstance(value, (tuple, list)) and all(map(_is_int, value)):
            return view(input, value)  # (by name, a lone int is refused)
    raise TypeError(_arguments.method_call_fits_none("view", shape, named))


def view_dtype(input: Any, dtype: _dtype.dtype) -> Any:
    """The same memory read as elements of ``dtype``: ``x.view(minigrad.int32)``.

    PyTorch's ``view.dtype``: a view that shares the buffer and the version counter but is
    not differentiable, so, like ``detach()``, it has no ``grad_fn``, does not require grad
    and has no ``_base``. An element size that differs scales the last dimension (which must
    have stride 1) and the other strides and the storage offset by the ratio of the sizes;
    growing it, they must divide by the ratio (PyTorch's checks and texts, in its order).

    Example:
        >>> import minigrad
        >>> minigrad.tensor([1.0, -2.0]).view(minigrad.int32)
        tensor([ 1065353216, -1073741824], dtype=minigrad.int32)
        >>> minigrad.zeros(2, 3).view(minigrad.uint8).shape
        minigrad.Size([2, 12])
    """
    array = input._array
    new = dtype.numpy
    size, new_size = array.itemsize, new.itemsize
    if size != new_size:
        what = (
            f"to view {_dtype.display_name(array.dtype)} as {dtype._display} "
            "(different element sizes)"
        )
        if array.ndim == 0:
            raise RuntimeError(f"self.dim() cannot be 0 {what}")
        strides = input.stride()
        if strides[-1] != 1:
            raise RuntimeError(f"self.stride(-1) must be 1 {what}, but got {strides[-1]}")
        if new_size > size:  # (growing: what is divided must divide)
            ratio = new_size // size
            if array.shape[-1] % ratio:
                raise RuntimeError(
                    f"self.size(-1) must be divisible by {ratio} {what}, but got {array.shape[-1]}"
                )
            offset = input.storage_offset()
            if offset % ratio:
                raise RuntimeError(
                    f"self.storage_offset() must be divisible by {ratio} {what}, but got {offset}"
                )
            for dim, stride in enumerate(strides[:-1]):
                if stride % ratio:
                    raise RuntimeError(
                        f"self.stride({dim}) must be divisible by {ratio} {what}, but got {stride}"
                    )
    # numpy's view keeps the byte strides of all but a contiguous last axis, whose size it
    # scales: PyTorch's sizes and strides once the checks above passed
    viewed = array.view(new)
    if size != new_size and not viewed.size:
        # (numpy gives an empty array strides of its own: PyTorch's are the input's, scaled)
        scaled = [s * size // new_size for s in strides[:-1]]
        viewed = strided(viewed, viewed.shape, (*scaled, 1))
    result = input.detach()  # (the same counter, no history: a non-differentiable view)
    set_array(result, viewed)
    return result


def _sizes(args: tuple[Any, ...]) -> tuple[int, ...]:
    """Sizes given as ``f(2, 3)`` or ``f((2, 3))``, as Python ints."""
    if len(args) == 1 and isinstance(args[0], (tuple, list)):
        args = args[0]
    return tuple(map(operator.index, args))


def ravel(input: Any) -> Any:
    """All elements in one dimension: a view of a contiguous tensor, else of a contiguous copy."""
    array = operand(input)
    source = input if array.flags.c_contiguous else contiguous_copy(input)
    return View.apply(source, (array.size,))


class ReshapeAlias(View):
    """y = x reshaped as a view, where x is not contiguous (what ``reshape`` records then).

    Same formulas as View; PyTorch gives it its own node name.
    """

    node_name = "ReshapeAliasBackward0"


def reshape(input: Any, shape: Any) -> Any:
    """``input`` with another shape: a view when the layout allows, else a copy (as PyTorch).

    ``shape`` is a sequence of sizes, one of which may be -1 (``Tensor.reshape`` also takes
    them one by one).

    Example:
        >>> import minigrad
        >>> x = minigrad.ones(2, 3)
        >>> x.reshape(3, 2)._base is x, x.t().reshape(6)._is_view()
        (True, False)
    """
    return _reshape(input, shape, 2)


def reshape_method(input: Any, shape: tuple[Any, ...]) -> Any:
    """``x.reshape(2, 3)`` or ``x.reshape((2, 3))``."""
    return _reshape(input, method_int_list(shape, "reshape", "shape"), 1)


def method_int_list(args: tuple[Any, ...], function: str, parameter: str) -> Any:
    """A method's int list given whole (``x.reshape((2, 3))``) or unpacked (``x.reshape(2, 3)``).

    As PyTorch's parser reads it: one argument is the list (a lone int too); several are its
    items, the first an int (else Python's count of the arguments is the message).
    """
    first = args[0] if args else None
    if type(first) is not int and not _is_int(first):  # (a plain int: no call)
        if len(args) > 1:
            raise TypeError(errors.too_many_positional(function, 1, len(args)))
        if not args:
            raise TypeError(errors.missing_arguments(function, [parameter]))
        return first
    return (first,) if len(args) == 1 else args


def _is_int(value: Any) -> bool:
    """An int as PyTorch's parser takes one: what has ``__index__``, but a bool."""
    return hasattr(value, "__index__") and not isinstance(value, bool)


def _int_list(value: Any, function: str, parameter: str, position: int) -> tuple[int, ...]:
    """``value``, a sequence of ints, as a tuple; else the TypeError of PyTorch's parser.

    (Checked only where converting fails, or its first item is a bool, which converts.)
    """
    if not isinstance(value, (tuple, list)) or (value and type(value[0]) is bool):
        _arguments.check_int_sequence(value, function, parameter, position, lone_int=False)
    try:
        return tuple(map(operator.index, value))
    except TypeError:
        _arguments.check_int_sequence(value, function, parameter, position, lone_int=False)
        raise


def _reshape(input: Any, shape: Any, position: int) -> Any:
    """``reshape``, with ``shape`` checked as PyTorch's parser does (its ``position``)."""
    sizes = _int_list(shape, "reshape", "shape", position)
    try:
        target = infer_shape(sizes, operand(input).size)
    except RuntimeError:
        _arguments.check_int64_items(sizes, "reshape", "shape")  # (the parser's error first)
        raise
    return _reshape_to(input, target)


def _reshape_to(input: Any, target: tuple[int, ...]) -> Any:
    """``input`` with the shape ``target`` (its sizes checked): a view if the layout allows."""
    array = input._array
    if array.flags.c_contiguous:
        return View.apply(input, target)
    if view_strides(array.shape, element_strides(array), target) is None:

        return UnsafeView.apply(contiguous_copy(input), target)
    return ReshapeAlias.apply(input, target)


class Transpose(ViewOp):
    """y = x with dimensions ``dim0`` and ``dim1`` swapped;  dx = grad swapped back."""

    saves = ()  # (it saves nothing: its node has no slot for saved values)
    fields = ("dims",)  # as given (-1 for the last): PyTorch's node shows them so
    saved_options = {"dim0": as_given("dims", 0), "dim1": as_given("dims", 1)}

    @staticmethod
    def forward(ctx: Any, x: np.ndarray, dim0: int, dim1: int) -> np.ndarray:
        if ctx is not NO_GRAD_CTX:  # (what backward needs)
            ctx.dims = dim0, dim1
        # (the method: np.swapaxes's dispatch layer costs more than the view itself)
        return x.swapaxes(dim0, dim1) if x.ndim else x[...]  # numpy: no axes in 0-d

    @staticmethod
    def backward(ctx: Any, grad: Any) -> tuple[Any, None, None]:
        return (np.swapaxes(grad, *ctx.dims) if np.ndim(grad) else grad), None, None


def transpose(input: Any, dim0: int, dim1: int) -> Any:
    """A view with dimensions ``dim0`` and ``dim1`` swapped.

    Example:
        >>> import minigrad
        >>> minigrad.zeros(2, 3, 4).transpose(0, 2).shape
        minigrad.Size([4, 3, 2])
    """
    ndim = operand(input).ndim
    # (the common call, two ints in range, without wrap_dim's calls; a 0-d tensor's 0 and -1
    # take them too)
    if not (type(dim0) is int and type(dim1) is int and -ndim <= dim0 < ndim
            and -ndim <= dim1 < ndim):
        wrap_dim(dim0, ndim), wrap_dim(dim1, ndim)  # (checked; kept as given)
    return Transpose.apply(input, dim0, dim1)


class T(Transpose):
    """y = x.t() (a matrix transposed; vectors unchanged);  dx = grad transposed back."""

    saved_options = ()
    @staticmethod
    def backward(ctx: Any, grad: Any) -> tuple[Any, None, None]:
        return run(T, grad, *ctx.dims), None, None  # recorded: TBackward0, as PyTorch does


def t(input: Any) -> Any:
    """A 2-D tensor transposed (a view); 0-D and 1-D tensors are returned as they are (as views).

    Example:
        >>> import minigrad
        >>> minigrad.zeros(2, 3).t().shape
        minigrad.Size([3, 2])
    """
    return T.apply(input, *t_dims(input))


def t_dims(input: Any, name: str = "t") -> tuple[int, int]:
    """The dims ``t()`` swaps: (0, 1) of a matrix, (0, 0) of a vector; more than 2 dims raise."""
    ndim = operand(input).ndim
    if ndim > 2:
        raise RuntimeError(errors.t_too_many_dims(ndim, name))
    return 0, 1 if ndim == 2 else 0


class Permute(ViewOp):
    """y = x with its dimensions reordered;  dx = grad with the inverse order."""

    saves = ()  # (it saves nothing: its node has no slot for saved values)
    fields = ("dims",)  # as given (-1 for the last): PyTorch's node shows them so
    saved_options = {"dims": as_given("dims")}

    @staticmethod
    def forward(ctx: Any, x: np.ndarray, dims: tuple[int, ...]) -> np.ndarray:
        if ctx is not NO_GRAD_CTX:  # (what backward needs)
            ctx.dims = dims
        return x.transpose(dims)  # (the method: np.transpose's dispatch costs more)

    @staticmethod
    def backward(ctx: Any, grad: Any) -> tuple[Any, None]:
        ndim = len(ctx.dims)
        return np.transpose(grad, np.argsort([d % ndim for d in ctx.dims])), None


def permute(input: Any, dims: Any) -> Any:
    """A view with the dimensions in the order ``dims`` (a sequence of dims).

    Example:
        >>> import minigrad
        >>> minigrad.zeros(2, 3, 4).permute(2, 0, 1).shape
        minigrad.Size([4, 2, 3])
    """
    return _permute(input, dims, 2)


def permute_method(input: Any, dims: tuple[Any, ...]) -> Any:
    """``x.permute(2, 0, 1)`` or ``x.permute((2, 0, 1))``."""
    return _permute(input, method_int_list(dims, "permute", "dims"), 1)


def _permute(input: Any, dims: Any, position: int) -> Any:
    """``permute``, with ``dims`` checked as PyTorch's parser does (its ``position``)."""
    dims = _int_list(dims, "permute", "dims", position)
    ndim = operand(input).ndim
    try:
        if len(dims) != ndim:
            raise RuntimeError(errors.permute_length(ndim, len(dims)))
        wrapped = {wrap_dim(d, ndim) for d in dims}
    except (RuntimeError, IndexError, ValueError):
        _arguments.check_int64_items(dims, "permute", "dims")  # (the parser's error first)
        raise
    if len(wrapped) != len(dims):
        raise RuntimeError(errors.PERMUTE_DUPLICATE_DIMS)
    return Permute.apply(input, dims)  # (as given: the node shows them so)


def reversed_dims(input: Any) -> Any:
    """``input.T``: all dimensions reversed (PyTorch warns unless the tensor is 2-D)."""
    ndim = operand(input).ndim
    if ndim == 0:
        warnings.warn(errors.deprecated_on_0d("T"), UserWarning, stacklevel=3)
    elif ndim != 2:
        warnings.warn(errors.T_NOT_2D_DEPRECATED, UserWarning, stacklevel=3)
    return Permute.apply(input, tuple(range(ndim - 1, -1, -1)))


def movedim(input: Any, source: Any, destination: Any) -> Any:
    """A view with dimensions ``source`` moved to positions ``destination``; others keep order.

    ``source`` and ``destination`` are ints or sequences of ints.

    Example:
        >>> import minigrad
        >>> minigrad.zeros(2, 3, 4).movedim(0, -1).shape
        minigrad.Size([3, 4, 2])
    """
    ndim = operand(input).ndim
    # (PyTorch's overloads: two ints, where a 0-d integer tensor is an int, or two int lists,
    # whose items the parser unpacks first, the last argument first)
    for name, given in (("destination", destination), ("source", source)):
        if isinstance(given, (tuple, list)):
            _arguments.check_dim_items(given, name)
    source = (source,) if _is_one_int(source) else tuple(source)
    destination = (destination,) if _is_one_int(destination) else tuple(destination)
    if len(source) != len(destination):
        raise RuntimeError(errors.movedim_lengths(source, destination))
    src = [wrap_dim(d, ndim) for d in source]
    dst = [wrap_dim(d, ndim) for d in destination]
    for name, dims, given in (("source", src, source), ("destination", dst, destination)):
        if len(set(dims)) != len(dims):
            raise RuntimeError(errors.movedim_repeated(name, given))
    order = [-1] * ndim
    for s, d in zip(src, dst):
        order[d] = s
    rest = iter(d for d in range(ndim) if d not in src)
    order = [next(rest) if o == -1 else o for o in order]
    return Permute.apply(input, tuple(order))


def _is_one_int(value: Any) -> bool:
    return isinstance(value, int) or _arguments.index_tensor(value)


class Expand(ViewOp):
    """y = x repeated along size-1 dims without copying;  dx = grad summed back (by the node)."""

    saves = ()  # (it saves nothing: its node has no slot for saved values)
    fields = ("shape",)
    saved_options = {"self_sym_sizes": "shape"}

    @staticmethod
    def forward(ctx: Any, x: np.ndarray, shape: tuple[int, ...]) -> np.ndarray:
        if ctx is not NO_GRAD_CTX:  # (what backward needs)
            ctx.shape = x.shape
        return strided(x, shape, expand_strides(x.shape, element_strides(x), shape))

    @staticmethod
    def backward(ctx: Any, grad: Any) -> tuple[Any, None]:
        return grad, None


def expand(input: Any, *sizes: Any) -> Any:
    """A view repeating size-1 dimensions to ``sizes`` (-1 keeps a size) without copying.

    Example:
        >>> import minigrad
        >>> minigrad.tensor([[1.], [2.]]).expand(2, 3)
        tensor([[1., 1., 1.],
                [2., 2., 2.]])
    """
    try:
        sizes = _sizes(sizes)
    except TypeError:  # the parser's text
        _arguments.check_int_sequence(
            method_int_list(sizes, "expand", "size"), "expand", "size", 1)
        raise
    shape = operand(input).shape
    try:
        return _expand(input, shape, sizes)
    except (RuntimeError, OverflowError):  # (numpy's, for a new size past int64)
        _arguments.check_int64_items(sizes, "expand", "size")  # (the parser's error first)
        raise


def _expand(input: Any, shape: tuple[int, ...], sizes: tuple[int, ...]) -> Any:
    """``expand`` of ``input`` (of ``shape``) to ``sizes``, which are checked here."""
    lead = len(sizes) - len(shape)
    if lead < 0:
        raise RuntimeError(errors.expand_too_few_sizes(_expand_error_type(input), shape, sizes))
    # From the last dimension, as PyTorch's inferExpandGeometry (the first mismatch it meets).
    target = [0] * len(sizes)
    for i in range(len(sizes) - 1, -1, -1):
        n = sizes[i]
        size = shape[i - lead] if i >= lead else 1
        if n == -1 and i >= lead:
            n = size
        elif n == -1 and shape:  # (a 0-d tensor's -1 fails the numel check below instead)
            raise RuntimeError(errors.expand_leading_minus_one(i))
        if size != n and size != 1:
            raise RuntimeError(errors.expand_size_mismatch(n, size, i, sizes, shape))
        target[i] = n
    if min(target, default=0) < 0 or (  # (a new or size-1 dimension: the result's numel, after)
            math.prod(target) > _INT64_MAX or 0 in target and numel_overflows(target)):
        raise RuntimeError(errors.NUMEL_OVERFLOW)
    return Expand.apply(input, tuple(target))


_INT64_MAX = (1 << 63) - 1


def numel_overflows(sizes: Iterable[int]) -> bool:
    """Whether PyTorch's numel of ``sizes`` overflows ("numel: integer multiplication overflow").

    It multiplies the sizes in uint64, and an overflow on the way counts even if a later size
    is 0 (``(2**62, 2**62, 0)``); the product must also fit an int64.
    """
    product = 1
    for size in sizes:
        product *= size
        if product >= 1 << 64:
            return True
    return product > _INT64_MAX


def _expand_error_type(input: Any) -> str:
    # (PyTorch's C++ text: ``CPUBoolType`` for a bool tensor)
    if isinstance(input, TensorBase):
        return _dtype.backend_type_name(input._array.dtype)
    return "minigrad.FloatTensor"


class Diagonal(ViewOp):
    """y = diagonal ``offset`` of the matrices in ``dim1``, ``dim2``;  dx = grad on it, 0 elsewhere.

    The diagonal becomes the last dimension of the view.
    """

    saves = ()  # (it saves nothing: its node has no slot for saved values)
    fields = ("shape", "options")
    saved_options = {"offset": as_given("options", 0), "dim1": as_given("options", 1),
                     "dim2": as_given("options", 2), "self_sym_sizes": "shape"}

    @staticmethod
    def forward(ctx: Any, x: np.ndarray, offset: int, dim1: int, dim2: int) -> np.ndarray:
        ctx.shape, ctx.options = x.shape, (offset, dim1, dim2)  # (dims as given, as PyTorch's)
        dim1, dim2 = dim1 % x.ndim, dim2 % x.ndim
        # Not np.diagonal: its result is read-only, and a diagonal can be written in place.
        start = x[along(dim2, slice(offset, None))] if offset >= 0 else x[
            along(dim1, slice(-offset, None))]
        length = max(min(start.shape[dim1], start.shape[dim2]), 0)
        others = [d for d in range(x.ndim) if d not in (dim1, dim2)]
        strides = element_strides(start)
        return strided(
            start,
            (*(start.shape[d] for d in others), length),
            (*(strides[d] for d in others), strides[dim1] + strides[dim2]),
        )

    @staticmethod
    def backward(ctx: Any, grad: Any) -> tuple[Any, None, None, None]:
        return run(DiagonalBackward, grad, ctx.shape, ctx.options), None, None, None


def diagonal(input: Any, offset: int = 0, dim1: int = 0, dim2: int = 1) -> Any:
    """The diagonal ``offset`` of the matrices in ``dim1``, ``dim2``, as a view's last dimension.

    A positive ``offset`` is above the main diagonal, a negative one below.

    Example:
        >>> import minigrad
        >>> minigrad.arange(9.).view(3, 3).diagonal(1)
        tensor([1., 5.])
    """
    ndim = operand(input).ndim
    if wrap_dim(dim1, ndim) == wrap_dim(dim2, ndim):
        raise RuntimeError(errors.identical_diagonal_dims(dim1, dim2))
    return Diagonal.apply(input, check_int64(operator.index(offset)), dim1, dim2)  # (dims as given)


def linalg_diagonal(A: Any, *, offset: int = 0, dim1: int = -2, dim2: int = -1) -> Any:
    """``minigrad.linalg.diagonal``: ``diagonal`` with the last two dims as the default.

    Example:
        >>> import minigrad
        >>> minigrad.linalg.diagonal(minigrad.arange(8.).view(2, 2, 2))
        tensor([[0., 3.],
                [4., 7.]])
    """
    return diagonal(A, offset, dim1, dim2)


class DiagonalBackward(Op):
    """The backward of diagonal as an op (``create_graph``);  dgrad = diagonal of gg."""

    fields = ("options", "shape")  # Diagonal.forward, replayed here, notes the shape too

    node_name = "DiagonalBackwardBackward0"

    @staticmethod
    def forward(
        ctx: Any, grad: np.ndarray, shape: tuple[int, ...], options: tuple[int, int, int]
    ) -> np.ndarray:
        ctx.options = options
        result = np.zeros(shape, dtype=grad.dtype)
        Diagonal.forward(ctx, result, *options)[...] = grad
        return result

    @staticmethod
    def backward(ctx: Any, grad: Any) -> tuple[Any, None, None]:
        offset, dim1, dim2 = ctx.options
        if is_tensor(grad):  # create_graph: the view, recorded
            return diagonal(grad, offset, dim1, dim2), None, None
        return Diagonal.forward(ctx, grad, offset, dim1, dim2).copy(), None, None


class UnsafeView(Op):
    """y = a fresh copy reshaped (what reshape records when it must copy): not a view.

    Same formulas as View.
    """

    saves = ()  # (it saves nothing: its node has no slot for saved values)
    fields = ("shape",)
    saved_options = {"self_sym_sizes": "shape"}
    forward = View.forward
    backward = View.backward


def unsafe_view(input: Any, shape: tuple[int, ...]) -> Any:
    """PyTorch's ``_unsafe_view``: ``input`` reshaped, recorded as UnsafeViewBackward0.

    Not a view for autograd, but it aliases its input's memory: an inference tensor's is an
    inference tensor too (sharing its counter), which autograd then refuses to save.
    """
    result = UnsafeView.apply(input, shape)
    counter = input._version_counter()
    if counter.is_inference:
        result._counter = counter
    return result


def infer_shape(shape: tuple[int, ...], numel: int) -> tuple[int, ...]:
    """``shape`` with its -1 (if any) replaced so that it holds ``numel`` elements.

    PyTorch's ``infer_size``, with its messages.
    """
    # The common calls at C speed: every size given (they hold ``numel``), or one -1 among
    # positive sizes that divide it. The loop below finds the same answer and the errors.
    # (``min`` without ``default=``: a keyword makes the builtin's call several times slower)
    known = math.prod(shape)
    if known == numel and (not shape or min(shape) >= 0):
        return tuple(shape)
    if known < 0 and shape.count(-1) == 1 and numel % known == 0 and min(shape) == -1:
        sizes = list(shape)
        sizes[sizes.index(-1)] = numel // -known
        return tuple(sizes)
    infer_dim, known = None, 1
    for index, size in enumerate(shape):
        if size == -1:
            if infer_dim is not None:
                raise RuntimeError(errors.ONLY_ONE_INFERRED_DIM)
            infer_dim = index
        elif size >= 0:
            known *= size
        else:
            raise RuntimeError(errors.invalid_shape_dimension(size, index, shape))
    if numel == known or (infer_dim is not None and known > 0 and numel % known == 0):
        if infer_dim is None:
            return tuple(shape)
        if known == 0:
            raise RuntimeError(errors.reshape_empty_ambiguous(shape))
        return tuple(numel // known if i == infer_dim else n for i, n in enumerate(shape))
    raise RuntimeError(errors.shape_invalid_for_size(shape, numel))


def view_as(input: Any, other: Any) -> Any:
    """A view of ``input`` with ``other``'s shape."""
    return view(input, operand(other).shape)


def flatten(input: Any, start_dim: int = 0, end_dim: int = -1) -> Any:
    """Dimensions ``start_dim`` to ``end_dim`` merged into one (a view when possible).

    As in PyTorch, a 0-d tensor becomes 1-d and ``start_dim == end_dim`` returns ``input``
    itself.

    Example:
        >>> import minigrad
        >>> minigrad.zeros(2, 3, 4).flatten(1).shape
        minigrad.Size([2, 12])
    """
    shape = operand(input).shape
    ndim = len(shape)
    if type(start_dim) is int and type(end_dim) is int and -ndim <= start_dim < ndim and (
            -ndim <= end_dim < ndim):  # (the common call, without wrap_dim's two calls)
        start, end = start_dim % ndim, end_dim % ndim
    else:
        start, end = wrap_dim(start_dim, ndim), wrap_dim(end_dim, ndim)
    if start > end:
        raise RuntimeError(errors.FLATTEN_START_AFTER_END)
    if not shape:
        return reshape(input, (1,))
    if start == end:
        return input
    merged = math.prod(shape[start : end + 1])
    return _reshape_to(input, (*shape[:start], merged, *shape[end + 1 :]))


def unflatten(input: Any, dim: int, sizes: Any) -> Any:
    """Dimension ``dim`` split into ``sizes`` (one of them may be -1); a view.

    Example:
        >>> import minigrad
        >>> minigrad.zeros(2, 12).unflatten(1, (3, -1)).shape
        minigrad.Size([2, 3, 4])
    """
    return _unflatten(input, dim, sizes, argument=3)


def unflatten_method(input: Any, dim: int, sizes: Any) -> Any:
    """``Tensor.unflatten``: PyTorch's method parser reads ``sizes=None`` as no sizes."""
    return _unflatten(input, dim, () if sizes is None else sizes, argument=2)


def _unflatten(input: Any, dim: int, sizes: Any, argument: int) -> Any:
    """``unflatten``; ``argument`` is the position of ``sizes`` that PyTorch's messages give."""
    shape = operand(input).shape
    if not shape:
        raise RuntimeError(errors.unflatten_unexpected(errors.dim_of_0d(0)))
    dim = wrap_dim(dim, len(shape))
    if not isinstance(sizes, (tuple, list)):  # (minigrad.Size is a tuple)
        raise TypeError(errors.unflatten_sizes_not_tuple(type(sizes).__name__, argument))
    for position, size in enumerate(sizes):
        if not _arguments.is_int(size):
            raise TypeError(errors.unflatten_sizes_type(type(size).__name__, position, argument))
    sizes = tuple(operator.index(size) for size in sizes)
    _arguments.check_int64_items(sizes, "unflatten", "sizes")  # (the parser's error first)
    if not sizes:
        raise RuntimeError(errors.UNFLATTEN_EMPTY_SIZES)
    try:
        inferred = infer_shape(sizes, shape[dim])
    except RuntimeError as error:
        if "invalid for input" in str(error):
            raise RuntimeError(errors.unflatten_sizes_product(sizes, dim, shape[dim])) from None
        raise RuntimeError(errors.unflatten_unexpected(str(error))) from None
    return view(input, (*shape[:dim], *inferred, *shape[dim + 1 :]))


swapdims = transpose


def swapaxes(input: Any, axis0: int, axis1: int) -> Any:
    """``transpose(input, axis0, axis1)`` under numpy's names (a view; ``TransposeBackward0``).

    Example:
        >>> import minigrad
        >>> minigrad.swapaxes(minigrad.zeros(2, 3), 0, 1).shape
        minigrad.Size([3, 2])
    """
    return transpose(input, axis0, axis1)


def matrix_transpose(input: Any) -> Any:
    """``input.mT``: the last two dimensions swapped (a view)."""
    return _matrix_transpose(input, "mT")


def _matrix_transpose(input: Any, name: str) -> Any:
    ndim = operand(input).ndim
    if ndim == 0:
        # PyTorch: identity on 0-d tensors (the tensor itself), with a deprecation warning.
        warnings.warn(errors.deprecated_on_0d(name), UserWarning, stacklevel=4)
        return input
    if ndim < 2:
        raise RuntimeError(errors.matrices_only(name, ndim))
    return Transpose.apply(input, -2, -1)  # (PyTorch's node shows these)


def adjoint(input: Any) -> Any:
    """The conjugate transpose of the last two dimensions; for real tensors, ``mT`` (a view)."""
    _arguments.check_tensor(input, "adjoint", "input", 1)
    return _matrix_transpose(input, "adjoint()")


moveaxis = movedim


def expand_as(input: Any, other: Any) -> Any:
    """``expand`` to ``other``'s shape."""
    return expand(input, operand(other).shape)
