"""``minigrad.Tensor``: the user-facing tensor. Each method is thin: it calls an op.

The autograd state (buffer, version counter, ``grad_fn``, ``grad``) lives in
``autograd/variable.py``; in-place methods go through ``autograd/inplace.py``, the only code that
writes into a buffer.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import numpy as np

from minigrad import _dtype, _numpy_protocol, _printing, errors
from minigrad._size import Size
from minigrad.autograd import engine
from minigrad.autograd.inplace import apply_inplace
from minigrad.autograd.variable import TensorBase
from minigrad.ops import elementwise as ew
from minigrad.ops import fill, indexing, linalg, reduction, views
from minigrad.ops._helpers import normalize_dims, promote_inplace


class RemovableHandle:
    """Returned by ``register_hook``: ``handle.remove()`` unregisters the hook."""

    def __init__(self, hooks: list[Any], hook: Any) -> None:
        self._hooks, self._hook = hooks, hook

    def remove(self) -> None:
        """Unregister the hook (a second call does nothing)."""
        if self._hook in self._hooks:
            self._hooks.remove(self._hook)


class Tensor(TensorBase):
    """A multi-dimensional array that records operations for automatic differentiation.

    Make one with ``minigrad.tensor(...)`` or a factory (``zeros``, ``randn``, ...).

    Example:
        >>> import minigrad
        >>> a = minigrad.tensor([1.0, 2.0, 3.0], requires_grad=True)
        >>> out = a.sigmoid()
        >>> out.sum().backward()
        >>> a.grad
        tensor([0.1966, 0.1050, 0.0452])
    """

    __slots__ = ()
    __hash__ = object.__hash__  # hashable by identity although == is elementwise

    # --- shape and type ----------------------------------------------------------------------

    @property
    def shape(self) -> Size:
        """The tensor's shape, e.g. ``minigrad.Size([2, 3])``."""
        return Size(self._array.shape)

    def size(self, dim: int | None = None) -> Any:
        """The shape, or the length of dimension ``dim``."""
        if dim is None:
            return Size(self._array.shape)
        return self._array.shape[normalize_dims(dim, self._array.ndim)[0]]

    @property
    def dtype(self) -> _dtype.dtype:
        """The element type, e.g. ``minigrad.float32``."""
        return _dtype.from_numpy_dtype(self._array.dtype)

    @property
    def ndim(self) -> int:
        """The number of dimensions."""
        return self._array.ndim

    def dim(self) -> int:
        """The number of dimensions."""
        return self._array.ndim

    def numel(self) -> int:
        """The number of elements."""
        return self._array.size

    def is_floating_point(self) -> bool:
        """True for float16/32/64 tensors."""
        return self._array.dtype.kind == "f"

    def to(self, dtype: _dtype.dtype) -> Tensor:
        """This tensor as ``dtype`` (itself if it already is; differentiable)."""
        numpy_dtype = _dtype.to_numpy_dtype(dtype, "to")
        if numpy_dtype == self._array.dtype:
            return self
        from minigrad.ops._helpers import cast

        return cast(self, numpy_dtype)

    def float(self) -> Tensor:
        """This tensor as float32."""
        return self.to(_dtype.float32)

    def double(self) -> Tensor:
        """This tensor as float64."""
        return self.to(_dtype.float64)

    def long(self) -> Tensor:
        """This tensor as int64."""
        return self.to(_dtype.int64)

    def int(self) -> Tensor:
        """This tensor as int32."""
        return self.to(_dtype.int32)

    def bool(self) -> Tensor:
        """This tensor as bool."""
        return self.to(_dtype.bool_)

    # --- autograd: data, detach, backward ------------------------------------------------------

    @property
    def data(self) -> Tensor:
        """The same buffer with a *fresh* version counter and no history.

        Writes through it are invisible to autograd: the unsafe way to change values (use
        ``detach()``, whose writes autograd does see).
        """
        return Tensor._make(self._array)

    @data.setter
    def data(self, other: Tensor) -> None:
        # Take the other tensor's buffer; keep our own counter; bump nothing (as PyTorch).
        self._array = other._array

    def detach(self) -> Tensor:
        """A new tensor on the same buffer *and the same version counter*, without history.

        In-place writes through it are seen by autograd, so backward raises if they changed a
        value it saved.
        """
        return Tensor._make(self._array, counter=self._counter)

    def detach_(self) -> Tensor:
        """Make this tensor a leaf without history that does not require grad (in place)."""
        if self._base is not None:
            raise RuntimeError(
                "Can't detach views in-place. Use detach() instead. If you are using "
                "DistributedDataParallel (DDP) for training, and gradient_as_bucket_view is "
                "set as True, gradients are views of DDP buckets, and hence detach_() cannot "
                "be called on these gradients. To fix this error, please refer to the "
                "Optimizer.zero_grad() function in torch/optim/optimizer.py as the solution."
            )
        self._grad_fn = None
        self._output_nr = 0
        self._requires_grad = False
        return self

    def requires_grad_(self, requires_grad: bool = True) -> Tensor:
        """Set ``requires_grad`` in place and return the tensor."""
        if self.grad_fn is not None and requires_grad:
            return self  # already requires grad through its history: a no-op in PyTorch
        if requires_grad and self._array.dtype.kind != "f":
            raise RuntimeError(errors.ONLY_FLOAT_REQUIRES_GRAD)
        self._set_requires_grad(bool(requires_grad))
        return self

    def clone(self) -> Tensor:
        """A copy with its own buffer and counter; gradients flow back to this tensor."""
        return ew.clone(self)

    def backward(
        self,
        gradient: Tensor | None = None,
        retain_graph: bool | None = None,
        create_graph: bool = False,
        inputs: Any = None,
    ) -> None:
        """Accumulate the gradient of this tensor into the leaves' ``.grad``.

        ``gradient`` may be omitted only for a single-element tensor.
        """
        engine.backward(self, gradient, retain_graph, create_graph, inputs)

    def retain_grad(self) -> None:
        """Keep this non-leaf tensor's gradient in ``.grad`` during backward."""
        if not self.requires_grad:
            raise RuntimeError(errors.RETAIN_GRAD_NO_GRAD)
        if self._grad_fn is None or self.retains_grad:
            return
        self._autograd_meta().retains_grad = True
        engine.register_retain(self)

    @property
    def retains_grad(self) -> bool:
        """True if ``retain_grad()`` was called on this non-leaf tensor."""
        return self._meta is not None and self._meta.retains_grad

    def register_hook(self, hook: Callable[[Tensor], Tensor | None]) -> RemovableHandle:
        """Call ``hook(grad)`` when this tensor's gradient is computed; it may return a new one."""
        if not self.requires_grad:
            raise RuntimeError(errors.HOOK_NO_GRAD)
        if self._grad_fn is None:
            hooks = self._autograd_meta().hooks
        else:
            self._grad_fn._register_tensor_hook(self._output_nr, hook)
            hooks = self._grad_fn._pre_hooks[self._output_nr]
        if hook not in hooks:
            hooks.append(hook)
        return RemovableHandle(hooks, hook)

    # --- views and indexing -------------------------------------------------------------------

    def _is_view(self) -> bool:
        """True if this tensor is a view of another (``self._base``)."""
        return self._base is not None

    def __getitem__(self, key: Any) -> Tensor:
        return indexing.getitem(self, key)

    def __setitem__(self, key: Any, value: Any) -> None:
        indexing.setitem(self, key, value)

    def view(self, *shape: Any) -> Tensor:
        """A view with another shape (raises if the memory layout does not allow one)."""
        return views.view(self, *shape)

    def view_as(self, other: Tensor) -> Tensor:
        """A view with ``other``'s shape."""
        return views.view(self, other._array.shape)

    def reshape(self, *shape: Any) -> Tensor:
        """Another shape: a view when the layout allows, else a copy."""
        return views.reshape(self, *shape)

    def flatten(self, start_dim: int = 0, end_dim: int = -1) -> Tensor:
        """Dimensions ``start_dim`` to ``end_dim`` merged into one."""
        shape = self._array.shape
        if not shape:
            return views.reshape(self, 1)
        start, end = (normalize_dims(d, len(shape))[0] for d in (start_dim, end_dim))
        merged = int(np.prod(shape[start : end + 1]))
        return views.reshape(self, (*shape[:start], merged, *shape[end + 1 :]))

    def t(self) -> Tensor:
        """A matrix transposed (a view)."""
        return views.t(self)

    @property
    def T(self) -> Tensor:  # noqa: N802 - PyTorch's name
        """All dimensions reversed (a view)."""
        return views.permute(self, tuple(range(self._array.ndim - 1, -1, -1)))

    def transpose(self, dim0: int, dim1: int) -> Tensor:
        """A view with two dimensions swapped."""
        return views.transpose(self, dim0, dim1)

    def permute(self, *dims: Any) -> Tensor:
        """A view with the dimensions reordered."""
        return views.permute(self, *dims)

    def squeeze(self, dim: int | None = None) -> Tensor:
        """A view without size-1 dimensions."""
        return views.squeeze(self, dim)

    def unsqueeze(self, dim: int) -> Tensor:
        """A view with a new size-1 dimension at ``dim``."""
        return views.unsqueeze(self, dim)

    def expand(self, *sizes: Any) -> Tensor:
        """A view repeating size-1 dimensions without copying."""
        return views.expand(self, *sizes)

    def expand_as(self, other: Tensor) -> Tensor:
        """``expand`` to ``other``'s shape."""
        return views.expand(self, other._array.shape)

    def narrow(self, dim: int, start: int, length: int) -> Tensor:
        """A view of ``length`` elements from ``start`` along ``dim``."""
        return views.narrow(self, dim, start, length)

    def select(self, dim: int, index: int) -> Tensor:
        """A view of the slice at ``index`` along ``dim``."""
        return views.select(self, dim, index)

    def is_contiguous(self) -> bool:
        """True if the elements are laid out in row-major order without gaps."""
        return bool(self._array.flags.c_contiguous)

    def contiguous(self) -> Tensor:
        """Itself if contiguous, else a contiguous copy."""
        return self if self._array.flags.c_contiguous else ew.clone(self)

    def stride(self, dim: int | None = None) -> Any:
        """Steps in elements between neighbours along each dimension."""
        itemsize = self._array.itemsize
        strides = tuple(s // itemsize for s in self._array.strides)
        return strides if dim is None else strides[normalize_dims(dim, self._array.ndim)[0]]

    # --- conversion ---------------------------------------------------------------------------

    def numpy(self) -> np.ndarray:
        """The numpy array behind this tensor (shared memory; writes bump no version)."""
        if self.requires_grad:
            raise RuntimeError(errors.NUMPY_REQUIRES_GRAD)
        return self._array

    def __array__(self, dtype: Any = None, copy: Any = None) -> np.ndarray:
        array = self.numpy()
        return array if dtype is None else array.astype(dtype)

    # numpy functions on tensors run as minigrad ops (how backward formulas run on tensors).
    def __array_ufunc__(self, ufunc: np.ufunc, method: str, *inputs: Any, **kwargs: Any) -> Any:
        return _numpy_protocol.array_ufunc(ufunc, method, *inputs, **kwargs)

    def __array_function__(self, func: Any, types: Any, args: Any, kwargs: Any) -> Any:
        return _numpy_protocol.array_function(func, args, kwargs)

    def item(self) -> Any:
        """The value of a one-element tensor as a Python number."""
        if self._array.size != 1:
            raise RuntimeError(
                f"a Tensor with {self._array.size} elements cannot be converted to Scalar"
            )
        return self._array.reshape(()).item()

    def tolist(self) -> Any:
        """The values as (nested) Python lists."""
        return self._array.tolist()

    def __len__(self) -> int:
        if self._array.ndim == 0:
            raise TypeError("len() of a 0-d tensor")
        return self._array.shape[0]

    def __bool__(self) -> bool:
        if self._array.size != 1:
            raise RuntimeError(
                f"Boolean value of Tensor with {'more than one' if self._array.size else 'no'} "
                "value is ambiguous"
            )
        return bool(self._array.reshape(()))

    def __float__(self) -> float:
        return float(self.item())

    def __int__(self) -> int:
        return int(self.item())

    def __iter__(self) -> Iterator[Any]:
        if self._array.ndim == 0:
            raise TypeError("iteration over a 0-d tensor")
        return iter([views.select(self, 0, i) for i in range(self._array.shape[0])])

    def __repr__(self) -> str:
        grad_fn = self._grad_fn
        return _printing.tensor_repr(
            self._array,
            dtype_name=_dtype.from_numpy_dtype(self._array.dtype).name,
            requires_grad=self._requires_grad and grad_fn is None,
            grad_fn_name=None if grad_fn is None else grad_fn.name(),
        )

    __str__ = __repr__

    # --- arithmetic ---------------------------------------------------------------------------

    def add(self, other: Any, *, alpha: Any = 1) -> Tensor:
        """``self + alpha * other``."""
        return ew.add(self, other, alpha=alpha)

    def sub(self, other: Any, *, alpha: Any = 1) -> Tensor:
        """``self - alpha * other``."""
        return ew.sub(self, other, alpha=alpha)

    def mul(self, other: Any) -> Tensor:
        """``self * other``."""
        return ew.mul(self, other)

    def div(self, other: Any) -> Tensor:
        """``self / other``."""
        return ew.div(self, other)

    def pow(self, exponent: Any) -> Tensor:
        """``self ** exponent``."""
        return ew.pow(self, exponent)

    def __add__(self, other: Any) -> Tensor:
        return ew.add(self, other)

    __radd__ = __add__

    def __sub__(self, other: Any) -> Tensor:
        return ew.sub(self, other)

    def __rsub__(self, other: Any) -> Tensor:
        return ew.rsub(self, other)

    def __mul__(self, other: Any) -> Tensor:
        return ew.mul(self, other)

    __rmul__ = __mul__

    def __truediv__(self, other: Any) -> Tensor:
        return ew.div(self, other)

    def __rtruediv__(self, other: Any) -> Tensor:
        return ew.rdiv(self, other)

    def __floordiv__(self, other: Any) -> Tensor:
        return ew.floor_divide(self, other)

    def __rfloordiv__(self, other: Any) -> Tensor:
        return ew.floor_divide(other, self)

    def __pow__(self, exponent: Any) -> Tensor:
        return ew.pow(self, exponent)

    def __rpow__(self, base: Any) -> Tensor:
        return ew.pow(base, self)

    def __matmul__(self, other: Any) -> Tensor:
        return linalg.matmul(self, other)

    def __rmatmul__(self, other: Any) -> Tensor:
        return linalg.matmul(other, self)

    def __neg__(self) -> Tensor:
        return ew.neg(self)

    def __pos__(self) -> Tensor:
        return self

    def __abs__(self) -> Tensor:
        return ew.abs(self)

    def __iadd__(self, other: Any) -> Tensor:
        return self.add_(other)

    def __isub__(self, other: Any) -> Tensor:
        return self.sub_(other)

    def __imul__(self, other: Any) -> Tensor:
        return self.mul_(other)

    def __itruediv__(self, other: Any) -> Tensor:
        return self.div_(other)

    # --- comparisons (not differentiable: bool results) ----------------------------------------

    def _compare(self, other: Any, ufunc: np.ufunc) -> Tensor:
        other_array = other._array if isinstance(other, TensorBase) else other
        return Tensor._make(np.asarray(ufunc(self._array, other_array)))

    def __and__(self, other: Any) -> Tensor:
        return self._compare(other, np.bitwise_and)

    def __or__(self, other: Any) -> Tensor:
        return self._compare(other, np.bitwise_or)

    def __xor__(self, other: Any) -> Tensor:
        return self._compare(other, np.bitwise_xor)

    def __invert__(self) -> Tensor:
        return Tensor._make(np.invert(self._array))

    def __eq__(self, other: Any) -> Tensor:  # type: ignore[override]
        return self._compare(other, np.equal)

    def __ne__(self, other: Any) -> Tensor:  # type: ignore[override]
        return self._compare(other, np.not_equal)

    def __lt__(self, other: Any) -> Tensor:
        return self._compare(other, np.less)

    def __le__(self, other: Any) -> Tensor:
        return self._compare(other, np.less_equal)

    def __gt__(self, other: Any) -> Tensor:
        return self._compare(other, np.greater)

    def __ge__(self, other: Any) -> Tensor:
        return self._compare(other, np.greater_equal)

    def eq(self, other: Any) -> Tensor:
        """Elementwise ``==`` (a bool tensor)."""
        return self._compare(other, np.equal)

    def all(self) -> Tensor:
        """True if every element is nonzero (a 0-d bool tensor)."""
        return Tensor._make(np.asarray(self._array.all()))

    def any(self) -> Tensor:
        """True if some element is nonzero (a 0-d bool tensor)."""
        return Tensor._make(np.asarray(self._array.any()))

    # --- math ---------------------------------------------------------------------------------

    def neg(self) -> Tensor:
        """``-self``."""
        return ew.neg(self)

    def abs(self) -> Tensor:
        """``|self|``."""
        return ew.abs(self)

    def exp(self) -> Tensor:
        """``e ** self``."""
        return ew.exp(self)

    def log(self) -> Tensor:
        """Natural logarithm."""
        return ew.log(self)

    def sqrt(self) -> Tensor:
        """Square root."""
        return ew.sqrt(self)

    def sigmoid(self) -> Tensor:
        """``1 / (1 + exp(-self))``."""
        return ew.sigmoid(self)

    def tanh(self) -> Tensor:
        """Hyperbolic tangent."""
        return ew.tanh(self)

    def relu(self) -> Tensor:
        """``max(self, 0)``."""
        return ew.relu(self)

    def reciprocal(self) -> Tensor:
        """``1 / self``."""
        return ew.reciprocal(self)

    def clamp(self, min: Any = None, max: Any = None) -> Tensor:
        """Limit every element to ``[min, max]``."""
        return ew.clamp(self, min, max)

    clip = clamp

    def sum(self, dim: Any = None, keepdim: bool = False, *, dtype: Any = None) -> Tensor:
        """Sum of all elements, or over ``dim``."""
        return reduction.sum(self, dim, keepdim, dtype=dtype)

    def mean(self, dim: Any = None, keepdim: bool = False) -> Tensor:
        """Mean of all elements, or over ``dim``."""
        return reduction.mean(self, dim, keepdim)

    def matmul(self, other: Any) -> Tensor:
        """Matrix product."""
        return linalg.matmul(self, other)

    def mm(self, mat2: Any) -> Tensor:
        """Product of two matrices."""
        return linalg.mm(self, mat2)

    def mv(self, vec: Any) -> Tensor:
        """Matrix-vector product."""
        return linalg.mv(self, vec)

    def dot(self, other: Any) -> Tensor:
        """Dot product of two vectors."""
        return linalg.dot(self, other)

    # --- elementwise math (more) ------------------------------------------------------------

    # --- reductions (more) -------------------------------------------------------------------

    # --- linear algebra (more) ---------------------------------------------------------------

    # --- shape and indexing (copies) ---------------------------------------------------------

    # --- in-place: every one goes through autograd/inplace.py --------------------------------

    def add_(self, other: Any, *, alpha: Any = 1) -> Tensor:
        """``self += alpha * other`` in place."""
        other, dtype = promote_inplace(self, other)
        return apply_inplace(ew.Add, self, other, alpha, dtype)

    def sub_(self, other: Any, *, alpha: Any = 1) -> Tensor:
        """``self -= alpha * other`` in place."""
        other, dtype = promote_inplace(self, other)
        return apply_inplace(ew.Sub, self, other, alpha, dtype)

    def mul_(self, other: Any) -> Tensor:
        """``self *= other`` in place."""
        other, dtype = promote_inplace(self, other)
        return apply_inplace(ew.Mul, self, other, dtype)

    def div_(self, other: Any) -> Tensor:
        """``self /= other`` in place."""
        other, dtype = promote_inplace(self, other, true_divide=True)
        return apply_inplace(ew.Div, self, other, dtype)

    def pow_(self, exponent: Any) -> Tensor:
        """``self **= exponent`` in place."""
        exponent, dtype = promote_inplace(self, exponent)
        if isinstance(exponent, TensorBase):
            return apply_inplace(ew.Pow, self, exponent, dtype)
        return apply_inplace(ew.PowScalar, self, exponent, dtype)

    def clamp_(self, min: Any = None, max: Any = None) -> Tensor:
        """Limit every element to ``[min, max]`` in place."""
        if min is None and max is None:
            raise RuntimeError("torch.clamp: At least one of 'min' or 'max' must not be None")
        return apply_inplace(ew.Clamp, self, min, max)

    clip_ = clamp_

    def neg_(self) -> Tensor:
        """``self = -self`` in place."""
        return apply_inplace(ew.Neg, self)

    def abs_(self) -> Tensor:
        """``self = |self|`` in place."""
        return apply_inplace(ew.Abs, self)

    def exp_(self) -> Tensor:
        """``self = exp(self)`` in place (saves the result: a later in-place write breaks it)."""
        return apply_inplace(ew.Exp, self)

    def log_(self) -> Tensor:
        """``self = log(self)`` in place."""
        return apply_inplace(ew.Log, self)

    def sqrt_(self) -> Tensor:
        """``self = sqrt(self)`` in place."""
        return apply_inplace(ew.Sqrt, self)

    def sigmoid_(self) -> Tensor:
        """``self = sigmoid(self)`` in place."""
        return apply_inplace(ew.Sigmoid, self)

    def tanh_(self) -> Tensor:
        """``self = tanh(self)`` in place."""
        return apply_inplace(ew.Tanh, self)

    def relu_(self) -> Tensor:
        """``self = max(self, 0)`` in place."""
        return apply_inplace(ew.Relu, self)

    def zero_(self) -> Tensor:
        """Fill with zeros in place."""
        return apply_inplace(fill.Zero, self)

    def fill_(self, value: Any) -> Tensor:
        """Fill with ``value`` (a number or a 0-d tensor) in place."""
        if isinstance(value, TensorBase):
            if value._array.ndim:
                raise RuntimeError(
                    "fill_ only supports 0-dimension value tensor but got tensor with "
                    f"{value._array.ndim} dimensions."
                )
            return apply_inplace(fill.FillTensor, self, value)
        return apply_inplace(fill.Fill, self, value)

    def copy_(self, src: Any) -> Tensor:
        """Copy ``src``'s values (broadcast to this shape) into this tensor."""
        return apply_inplace(fill.Copy, self, src)

    def normal_(self, mean: float = 0.0, std: float = 1.0) -> Tensor:
        """Fill with samples from Normal(mean, std) in place."""
        return apply_inplace(fill.Normal, self, mean, std)

    def uniform_(self, from_: float = 0.0, to: float = 1.0) -> Tensor:
        """Fill with samples from Uniform[from_, to) in place."""
        return apply_inplace(fill.Uniform, self, from_, to)

    def masked_fill_(self, mask: Tensor, value: Any) -> Tensor:
        """Write ``value`` where ``mask`` is True, in place."""
        _check_mask(mask)
        return apply_inplace(fill.MaskedFill, self, mask, _scalar(value))

    def masked_fill(self, mask: Tensor, value: Any) -> Tensor:
        """A copy with ``value`` written where ``mask`` is True."""
        _check_mask(mask)
        return fill.MaskedFill.apply(self, mask, _scalar(value))

    def scatter_(self, dim: int, index: Tensor, src: Any = None, *, value: Any = None) -> Tensor:
        """Write ``src`` (a tensor or number) at ``index`` along ``dim``, in place."""
        src = value if src is None else src
        axis = normalize_dims(dim, self._array.ndim)[0]
        if isinstance(src, TensorBase):
            return apply_inplace(fill.Scatter, self, src, axis, index)
        return apply_inplace(fill.ScatterValue, self, axis, index, src)


def _check_mask(mask: Any) -> None:
    if not isinstance(mask, TensorBase) or mask._array.dtype != np.bool_:
        raise RuntimeError("masked_fill_ only supports boolean masks, but got mask with dtype "
                           f"{getattr(mask, 'dtype', type(mask).__name__)}")


def _scalar(value: Any) -> Any:
    return value.item() if isinstance(value, TensorBase) else value


# Op outputs are minigrad.Tensor objects.
TensorBase.output_class = Tensor
