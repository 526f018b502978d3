"""``minigrad.Tensor``: the user-facing tensor. Each method is thin: it calls an op.

The autograd state (buffer, version counter, ``grad_fn``, ``grad``) lives in
``autograd/tensor_base.py``; in-place methods go through ``autograd/inplace.py``, the only code that
writes into a buffer.
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np

from minigrad import (
    _arguments,
    _conversion,
    _device,
    _dim_order,
    _dtype,
    _layout,
    _layouts,
    _memory,
    _memory_formats,
    _numpy_protocol,
    _out_of_scope,
    _printing,
    _random,
    _shared_memory,
    _unbound_methods,
    _warnings,
    errors,
)
from minigrad._size import Size
from minigrad.autograd import engine, grad_mode, guard, inference
from minigrad.autograd.debug_switches import switches
from minigrad.autograd.graph import COUNTER_IN_NODE, RemovableHandle
from minigrad.autograd.record import binary_operator, bind_output_class, unary_method
from minigrad.autograd.tensor_base import TensorBase, set_array, shape_of
from minigrad.ops import (
    activations_extra,
    arithmetic,
    binary_extra,
    bitwise,
    building,
    clamp,
    comparison,
    constructions,
    covariance,
    cumulative,
    decompositions,
    determinants,
    element_callables,
    elementwise_extra,
    fill,
    gamma,
    gather_scatter,
    histogram,
    householder,
    index_ops,
    index_writes,
    indexing,
    inplace_views,
    linalg,
    mantissa,
    matrix_chains,
    matrix_functions,
    median,
    norms,
    power,
    reduction,
    reduction_extra,
    reduction_pairs,
    repeating,
    resizing,
    rounding,
    sampling,
    scaled_products,
    search,
    selection,
    setting,
    shape,
    softmax,
    solvers,
    sorting,
    special_functions,
    splitting,
    statistics,
    ternary,
    triangular,
    trigonometric,
    unary,
    unary_extra,
    unfold,
    vector_products,
    view_scatters,
    views,
)
from minigrad.ops import as_strided as as_strided_module
from minigrad.ops import lu as lu_module
from minigrad.ops._helpers import ToCopy, dim_size, wrap_dim
from minigrad.ops.strides import contiguous_strides
from minigrad.storage import TypedStorage, UntypedStorage, _warn_typed_storage_removal

# The recording functions (autograd/record.py) of the ops the hot operators and methods call
# directly once they know nothing needs casting or checking.
_new_tuple = tuple.__new__


def _never(doc: str) -> property:
    """A flag that is False for every minigrad tensor (``is_sparse``, ``is_mps``, ...)."""
    return property(lambda self: False, doc=doc)


_record_mm = linalg.Mm._record
_fits_mm = linalg.fits_mm
_record_neg = unary.Neg._record
_record_rsub = arithmetic.Rsub._record_options  # (``2 - x``: a number and options)
# The dtype classes of float buffers, for the hot methods' test of a float tensor (see
# ``_dtype.FLOAT_DTYPE_CLASSES``; the reductions' ``_FLOAT_DTYPES`` below also wants native
# byte order).
_FLOAT_DTYPE_CLASSES = _dtype.FLOAT_DTYPE_CLASSES

# What Python's operators take besides tensors; anything else gets NotImplemented, so that
# ``t + "a"`` raises Python's own TypeError ("unsupported operand type(s)") and ``t == None`` is
# False, as with PyTorch. A complex number, which PyTorch takes, is said to be out of scope.
_OPERANDS = (TensorBase, bool, int, float, np.number, np.bool_, np.ndarray)


def _not_an_operand(other: Any) -> Any:
    """NotImplemented for what Python's operators do not take (an error for a complex number)."""
    if isinstance(other, complex):
        raise _out_of_scope.complex_number(other)
    return NotImplemented


def _binary_operator(op: Any, general: Callable[[Any, Any], Any], any_dtype: bool) -> Any:
    """``Tensor.__add__`` and kin: ``self <op> other``, recorded in one call for two tensors.

    Two tensors of one dtype (a floating one unless ``any_dtype``) need no promotion and no
    checks: ``general`` (the op's function: ``arithmetic.add``) would call ``op.apply(self,
    other)`` after finding that out. So the operator is the op's recording function itself
    (``autograd/record.py``, ``binary_operator``), with ``general`` for anything else (the
    op's promoting function: ``arithmetic.add_promoted``); an
    operand that is neither a tensor nor a number gets NotImplemented (Python's TypeError, as
    for PyTorch).
    """

    def other_operands(self: Any, other: Any) -> Any:
        """A number or promotion: the op's function; anything else: NotImplemented."""
        return general(self, other) if isinstance(other, _OPERANDS) else _not_an_operand(other)

    return binary_operator(op, other_operands, floats_only=not any_dtype)


def _unary_method(op: Any, general: Callable[[Any], Any], doc: str) -> Any:
    """``Tensor.sigmoid`` and kin: ``self.<name>()``, recorded in one call for a float tensor.

    A tensor of a floating dtype needs no cast: ``general`` (the op's function:
    ``unary.sigmoid``) would call ``op.apply(self)``, so the method is the op's recording
    function itself (``autograd/record.py``, ``unary_method``), with ``general`` for other
    dtypes (it casts integers, or refuses).
    """
    method = unary_method(op, general, _FLOAT_DTYPE_CLASSES)
    method.__name__ = name = general.__name__
    method.__qualname__ = f"Tensor.{name}"
    method.__doc__ = doc
    method.frameless = True  # type: ignore[attr-defined]  # (see _arguments.check_methods)
    return method


def _rebuild_tensor(cls: type[Tensor], array: np.ndarray, requires_grad: bool) -> Tensor:
    """A leaf on ``array``, as unpickling and ``deepcopy`` make it (PyTorch's version: 1)."""
    tensor = cls._make(array, requires_grad=requires_grad)
    tensor._version_counter().bump()
    return tensor



def _given(
    values: tuple[Any, ...], method: str, parameter: str, named: dict[str, Any] | None = None
) -> tuple[Any, ...]:
    """A variadic method's values; PyTorch's parser error if the call gave none (``x.flip()``).

    ``named``: the call's keywords. PyTorch's parser also takes the whole list by its name
    (``x.flip(dims=(0, 1))``); then the list is ``values``' one item (a lone int is refused).
    """
    if named:
        unexpected = next((key for key in named if key != parameter), None)
        if unexpected is not None and (values or parameter in named):
            raise TypeError(f"{method}() got an unexpected keyword argument '{unexpected}'")
        if parameter not in named:
            raise TypeError(errors.missing_arguments(method, [parameter]))
        if values:
            raise TypeError(f"{method}() got multiple values for argument '{parameter}'")
        values = (named[parameter],)
        _arguments.check_int_sequence(values[0], method, parameter, None, lone_int=False)
    if not values:
        raise TypeError(errors.missing_arguments(method, [parameter]))
    return values

class Tensor(TensorBase, metaclass=_unbound_methods.TensorType):
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

    def __new__(cls, *args: Any, **kwargs: Any) -> Tensor:
        """PyTorch's legacy constructor: ``Tensor(data)``, ``Tensor(2, 3)``, ``Tensor(other)``.

        Data becomes the default float dtype; sizes give an uninitialized tensor; a tensor gives
        an alias of it (see ``minigrad/legacy.py``). Ops make their tensors without calling this.
        """
        from minigrad.legacy import new  # (legacy.py builds on this module)

        return new(_dtype.get_default_dtype(), args, kwargs, any_dtype=True)

    # --- shape and type ----------------------------------------------------------------------

    @property
    def shape(self) -> Size:
        """The tensor's shape, e.g. ``minigrad.Size([2, 3])``."""
        return _new_tuple(Size, shape_of(self))  # (numpy's shape: ints, nothing to check)

    def size(self, dim: int | None = None) -> Any:
        """The shape, or the length of dimension ``dim``."""
        if dim is None:
            return _new_tuple(Size, shape_of(self))
        return dim_size(shape_of(self), dim)

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

    nelement = numel  # (PyTorch's older names)
    ndimension = dim

    def element_size(self) -> int:
        """The bytes one element takes."""
        return self._array.itemsize

    @property
    def itemsize(self) -> int:
        """The bytes one element takes."""
        return self._array.itemsize

    @property
    def nbytes(self) -> int:
        """The bytes the elements take (``numel() * itemsize``, whatever the strides)."""
        return self._array.size * self._array.itemsize

    def data_ptr(self) -> int:
        """The address of the first element (0 for a tensor without elements).

        Views share their base's memory: a view at the start of its base has the same address,
        ``x[1:]`` one element further.

        Example:
            >>> import minigrad
            >>> x = minigrad.zeros(3)
            >>> x.t().data_ptr() == x.data_ptr(), x[1:].data_ptr() - x.data_ptr()
            (True, 4)
        """
        array = self._array
        return array.__array_interface__["data"][0] if array.size else 0

    const_data_ptr = data_ptr

    def storage_offset(self) -> int:
        """Where the first element sits in the memory the tensor shares, in elements.

        A view's offset into its base's buffer (``x[1]`` of a 3x4 ``x``: 4); 0 for a tensor
        with memory of its own. The memory is ``untyped_storage()``: the numpy allocation
        behind the buffer, or for ``from_numpy`` of a numpy view, the view's own elements (as
        PyTorch's storage starts there). An empty slice keeps its start (``x[3:]`` of 3
        elements: 3), as PyTorch's does; other views without elements may read 0.

        Example:
            >>> import minigrad
            >>> x = minigrad.zeros(3, 4)
            >>> x[1].storage_offset(), x[:, 2].storage_offset(), x.t()[1].storage_offset()
            (4, 2, 1)
        """
        array = self._array
        return _memory.offset_in(_memory.root(array), array)

    def is_signed(self) -> bool:
        """True for a dtype that holds negative numbers (all but bool and uint8)."""
        return self._array.dtype.kind in "fi"

    def is_complex(self) -> bool:
        """False: minigrad has no complex dtypes."""
        return False

    # (minigrad's tensors are real: no lazy conjugation or negation bit is ever set, and the
    # conjugate of a real tensor is the tensor itself, as in PyTorch)
    def is_conj(self) -> bool:
        """False: no conjugation is pending (minigrad's tensors are real)."""
        return False

    def is_neg(self) -> bool:
        """False: no negation is pending (minigrad's tensors are real)."""
        return False

    def conj(self) -> Tensor:
        """The complex conjugate: for a real tensor, the tensor itself (PyTorch's too)."""
        return self

    def resolve_conj(self) -> Tensor:
        """The tensor with a pending conjugation applied: here, the tensor itself."""
        return self

    def resolve_neg(self) -> Tensor:
        """The tensor with a pending negation applied: here, the tensor itself."""
        return self

    def is_nonzero(self) -> bool:
        """The truth of a one-element tensor (PyTorch's errors for any other)."""
        return bool(self)  # (__bool__: its errors are is_nonzero's)

    def is_same_size(self, other: Tensor) -> bool:
        """True if ``other`` has this tensor's shape."""
        return self._array.shape == other._array.shape

    def is_floating_point(self) -> bool:
        """True for float16/32/64 tensors."""
        return self._array.dtype.kind == "f"

    def to(self, *args: Any, **kwargs: Any) -> Tensor:
        """This tensor on a device, as another dtype and/or in a memory format.

        The forms are PyTorch's: ``to(device, dtype)``, ``to(dtype)`` and ``to(other)`` (other's
        dtype), each with ``non_blocking``, ``copy`` and ``memory_format``. The CPU is the only
        device. Returns the tensor itself when nothing changes and ``copy`` is False (a memory
        format changes nothing if it is ``preserve_format`` or the one the tensor's strides
        suggest), else a differentiable copy (``ToCopyBackward0``).

        Example:
            >>> import minigrad
            >>> x = minigrad.ones(2)
            >>> x.to("cpu") is x
            True
            >>> x.to("cpu", minigrad.float64)
            tensor([1., 1.], dtype=minigrad.float64)
            >>> minigrad.ones(1, 2, 2, 3).to(memory_format=minigrad.channels_last).stride()
            (12, 1, 6, 2)
        """
        memory_format = None
        if len(args) == 1 and not kwargs and isinstance(args[0], _dtype.dtype):
            numpy_dtype, copy = args[0].numpy, False  # the common case, without parsing
        else:
            numpy_dtype, copy, memory_format = _conversion.parse_to(args, kwargs)
            if memory_format is _memory_formats.preserve_format:
                memory_format = None
        array = self._array
        if numpy_dtype is None:
            numpy_dtype = array.dtype
        if numpy_dtype == array.dtype and not copy and (
            memory_format is None or _layout.suggested_format(array) is memory_format
        ):
            return self
        if memory_format is not None:
            _layout.format_strides(array.shape, memory_format)  # (its rank error, up front)
        if numpy_dtype.kind != "f" or not self.requires_grad:
            # Nothing to record (integer and bool results have no gradient): a plain copy.
            return Tensor._make(ToCopy.forward(None, array, numpy_dtype, memory_format))
        if memory_format is None:
            return ToCopy.apply(self, numpy_dtype)
        return ToCopy.apply(self, numpy_dtype, memory_format)

    @property
    def device(self) -> _device.device:
        """Where the tensor lives: always ``device(type='cpu')`` in minigrad."""
        return _device.CPU

    @property
    def is_cpu(self) -> bool:
        """True: every minigrad tensor is on the CPU."""
        return True

    @property
    def is_cuda(self) -> bool:
        """False: minigrad has no CUDA tensors."""
        return False

    def get_device(self) -> int:
        """The device index: -1, which PyTorch returns for CPU tensors."""
        return -1

    @property
    def layout(self) -> _layouts.layout:
        """How the elements are stored: ``minigrad.strided`` (minigrad's tensors are dense)."""
        return _layouts.strided

    # What PyTorch's other kinds of tensors would answer True to: none is a minigrad tensor.
    is_sparse = _never("False: minigrad has no sparse tensors.")
    is_sparse_csr = _never("False: minigrad has no sparse (CSR) tensors.")
    is_quantized = _never("False: minigrad has no quantized tensors.")
    is_meta = _never("False: minigrad has no meta tensors (tensors without data).")
    is_nested = _never("False: minigrad has no nested tensors.")
    is_mkldnn = _never("False: minigrad's tensors are all strided.")
    is_mps = _never("False: every minigrad tensor is on the CPU.")
    is_xpu = _never("False: every minigrad tensor is on the CPU.")
    is_xla = _never("False: every minigrad tensor is on the CPU.")
    is_ipu = _never("False: every minigrad tensor is on the CPU.")
    is_vulkan = _never("False: every minigrad tensor is on the CPU.")
    is_mtia = _never("False: every minigrad tensor is on the CPU.")
    is_maia = _never("False: every minigrad tensor is on the CPU.")

    def is_pinned(self, device: Any = None) -> bool:
        """False: there is no accelerator, so no page-locked memory."""
        return False

    def pin_memory(self, device: Any = None) -> Tensor:
        """Raises PyTorch's error for a machine without an accelerator (minigrad has none)."""
        raise RuntimeError(_device.NO_ACCELERATOR)

    def is_set_to(self, tensor: Tensor) -> bool:
        """Whether ``tensor`` views the same memory the same way (start, shape, strides, dtype)."""
        mine, theirs = self._array, tensor._array
        return (mine.__array_interface__["data"][0] == theirs.__array_interface__["data"][0]
                and mine.shape == theirs.shape and mine.strides == theirs.strides
                and mine.dtype == theirs.dtype)

    def cpu(
        self,
        *,
        memory_format: _memory_formats.memory_format | None = _memory_formats.preserve_format,
    ) -> Tensor:
        """This tensor on the CPU: the tensor itself (it is already there), or in a format.

        ``memory_format`` as ``to``'s: a copy if the tensor's strides suggest another one.
        """
        if memory_format is None or memory_format is _memory_formats.preserve_format:
            return self
        return self.to(memory_format=memory_format)

    def cuda(self, device: Any = None, non_blocking: bool = False) -> Tensor:
        """Raises PyTorch's error for a build without CUDA: minigrad runs on the CPU only."""
        where = _device.as_device("cuda" if device is None else device, "cuda")
        if where.type != "cuda":
            raise RuntimeError(errors.CUDA_DEVICE_EXPECTED)
        _device.check_available(where)
        raise AssertionError("unreachable: check_available raises for CUDA")  # pragma: no cover

    def type(self, dtype: Any = None, non_blocking: bool = False) -> Any:
        """The legacy type name (``'minigrad.FloatTensor'``), or this tensor converted to a type.

        ``dtype`` may be a dtype, a legacy type (``minigrad.DoubleTensor``) or its name.
        """
        if dtype is None:
            return self._type_name()
        if isinstance(dtype, str):
            dtype = _conversion.parse_type_name(dtype)
        elif isinstance(getattr(dtype, "dtype", None), _dtype.dtype):  # a legacy type class
            dtype = dtype.dtype
        elif not isinstance(dtype, _dtype.dtype):
            if isinstance(dtype, type):
                raise ValueError(errors.invalid_type(dtype.__name__))
            raise TypeError(errors.TYPE_ARGUMENT)
        return self.to(dtype)

    def type_as(self, other: Tensor) -> Tensor:
        """This tensor as ``other``'s dtype."""
        if not isinstance(other, TensorBase):
            raise TypeError(
                errors.wrong_argument_type("type_as", "other", "Tensor",
                                           errors.python_type_name(other), 1)
            )
        return self.to(other.dtype)

    def _converted(self, dtype: Any, memory_format: Any) -> Tensor:
        """``float()`` and kin: ``to(dtype)``, given the format only when it is another one."""
        if memory_format is _memory_formats.preserve_format:
            return self.to(dtype)  # (``to`` with a format looks at the layout: ~3x as long)
        return self.to(dtype, memory_format=memory_format)

    def float(
        self, *, memory_format: _memory_formats.memory_format = _memory_formats.preserve_format
    ) -> Tensor:
        """This tensor as float32 (``self.to(minigrad.float32, memory_format=...)``)."""
        return self._converted(_dtype.float32, memory_format)

    def double(
        self, *, memory_format: _memory_formats.memory_format = _memory_formats.preserve_format
    ) -> Tensor:
        """This tensor as float64 (``self.to(minigrad.float64, memory_format=...)``)."""
        return self._converted(_dtype.float64, memory_format)

    def half(
        self, *, memory_format: _memory_formats.memory_format = _memory_formats.preserve_format
    ) -> Tensor:
        """This tensor as float16 (``self.to(minigrad.float16, memory_format=...)``)."""
        return self._converted(_dtype.float16, memory_format)

    def long(
        self, *, memory_format: _memory_formats.memory_format = _memory_formats.preserve_format
    ) -> Tensor:
        """This tensor as int64 (``self.to(minigrad.int64, memory_format=...)``)."""
        return self._converted(_dtype.int64, memory_format)

    def short(
        self, *, memory_format: _memory_formats.memory_format = _memory_formats.preserve_format
    ) -> Tensor:
        """This tensor as int16 (``self.to(minigrad.int16, memory_format=...)``)."""
        return self._converted(_dtype.int16, memory_format)

    def int(
        self, *, memory_format: _memory_formats.memory_format = _memory_formats.preserve_format
    ) -> Tensor:
        """This tensor as int32 (``self.to(minigrad.int32, memory_format=...)``)."""
        return self._converted(_dtype.int32, memory_format)

    def char(
        self, *, memory_format: _memory_formats.memory_format = _memory_formats.preserve_format
    ) -> Tensor:
        """This tensor as int8 (``self.to(minigrad.int8, memory_format=...)``)."""
        return self._converted(_dtype.int8, memory_format)

    def byte(
        self, *, memory_format: _memory_formats.memory_format = _memory_formats.preserve_format
    ) -> Tensor:
        """This tensor as uint8 (``self.to(minigrad.uint8, memory_format=...)``)."""
        return self._converted(_dtype.uint8, memory_format)

    def bool(
        self, *, memory_format: _memory_formats.memory_format = _memory_formats.preserve_format
    ) -> Tensor:
        """This tensor as bool (``self.to(minigrad.bool, memory_format=...)``)."""
        return self._converted(_dtype.bool_, memory_format)

    # --- new tensors like this one -----------------------------------------------------------

    def new(self, *args: Any, **kwargs: Any) -> Tensor:
        """The legacy constructor with this tensor's dtype (``x.new(2, 3)``, ``x.new(data)``)."""
        from minigrad.legacy import new  # (legacy.py builds on this module)

        return new(self.dtype, args, kwargs, any_dtype=False)

    def new_tensor(
        self, data: Any, dtype: Any = None, device: Any = None, requires_grad: bool = False
    ) -> Tensor:
        """``minigrad.tensor(data)`` with this tensor's dtype unless ``dtype`` is given."""
        from minigrad import creation  # (creation.py builds on this module)

        return creation.tensor(data, dtype=dtype or self.dtype, device=device,
                               requires_grad=requires_grad)

    def new_zeros(self, *size: Any, dtype: Any = None,
                  layout: _layouts.layout | None = None, device: Any = None,
                  requires_grad: bool = False, pin_memory: bool | None = False) -> Tensor:
        """Zeros of ``size``, with this tensor's dtype unless ``dtype`` is given."""
        from minigrad import creation  # (creation.py builds on this module)

        creation.shape_argument(size, "new_zeros")
        return creation.zeros(*size, dtype=dtype or self.dtype, layout=layout, device=device,
                              requires_grad=requires_grad, pin_memory=pin_memory)

    def new_ones(self, *size: Any, dtype: Any = None,
                 layout: _layouts.layout | None = None, device: Any = None,
                 requires_grad: bool = False, pin_memory: bool | None = False) -> Tensor:
        """Ones of ``size``, with this tensor's dtype unless ``dtype`` is given."""
        from minigrad import creation  # (creation.py builds on this module)

        creation.shape_argument(size, "new_ones")
        return creation.ones(*size, dtype=dtype or self.dtype, layout=layout, device=device,
                             requires_grad=requires_grad, pin_memory=pin_memory)

    def new_empty(self, *size: Any, dtype: Any = None,
                  layout: _layouts.layout | None = None, device: Any = None,
                  requires_grad: bool = False, pin_memory: bool | None = False) -> Tensor:
        """An uninitialized tensor of ``size``, with this tensor's dtype unless ``dtype``."""
        from minigrad import creation  # (creation.py builds on this module)

        creation.shape_argument(size, "new_empty")
        return creation.empty(*size, dtype=dtype or self.dtype, layout=layout, device=device,
                              requires_grad=requires_grad, pin_memory=pin_memory)

    def new_empty_strided(
        self,
        size: Any,
        stride: Any,
        *,
        dtype: Any = None,
        layout: _layouts.layout | None = None,
        device: Any = None,
        requires_grad: bool = False,
        pin_memory: bool | None = False,
    ) -> Tensor:
        """An uninitialized tensor of ``size`` and ``stride`` (this tensor's dtype by default).

        Example:
            >>> import minigrad
            >>> minigrad.zeros(1).new_empty_strided((2, 3), (1, 2)).stride()
            (1, 2)
        """
        from minigrad import creation  # (creation.py builds on this module)

        return creation.empty_strided_like(
            "new_empty_strided", size, stride, dtype or self.dtype, layout, device,
            requires_grad, pin_memory)

    def new_full(self, size: Any, fill_value: Any, *, dtype: Any = None,
                 layout: _layouts.layout | None = None, device: Any = None,
                 requires_grad: bool = False, pin_memory: bool | None = False) -> Tensor:
        """``fill_value`` everywhere in ``size``, with this tensor's dtype unless ``dtype``."""
        from minigrad import creation  # (creation.py builds on this module)

        creation.shape_argument((size,), "new_full")
        return creation.full(size, fill_value, dtype=dtype or self.dtype, layout=layout,
                             device=device, pin_memory=pin_memory,
                             requires_grad=requires_grad)

    # --- autograd: data, detach, backward ------------------------------------------------------

    @property
    def data(self) -> Tensor:
        """The same buffer with a *fresh* version counter and no history.

        Writes through it are invisible to autograd: the unsafe way to change values (use
        ``detach()``, whose writes autograd does see).
        """
        return Tensor._make(self._array, counter=inference.data_counter(self))

    @data.setter
    def data(self, other: Tensor) -> None:
        if not isinstance(other, TensorBase):
            raise TypeError(errors.data_not_tensor(errors.python_type_name(other)))
        if other._array.dtype.kind != "f" and self.requires_grad:
            raise RuntimeError(errors.DATA_NOT_DIFFERENTIABLE)
        # Take the other tensor's buffer; keep our own counter; bump nothing (as PyTorch).
        set_array(self, other._array)

    def detach(self) -> Tensor:
        """A new tensor on the same buffer *and the same version counter*, without history.

        In-place writes through it are seen by autograd, so backward raises if they changed a
        value it saved.
        """
        counter = self._version_counter()
        if counter.is_inference:  # made in inference mode: see autograd/inference.py
            counter = inference.detached_counter(self)
        return Tensor._make(self._array, counter=counter)

    def detach_(self) -> Tensor:
        """Make this tensor a leaf without history that does not require grad (in place)."""
        if self._base is not None:
            raise RuntimeError(errors.DETACH_VIEW_INPLACE)
        # A result its node saved shares its counter with the node, made on first need: made
        # now, while the node is known, so that later writes still reach the node's check.
        if self._counter is COUNTER_IN_NODE:
            self._version_counter()
        self._grad_fn = None
        self._output_nr = 0
        self._requires_grad = False
        return self

    def requires_grad_(self, requires_grad: bool = True) -> Tensor:
        """Set ``requires_grad`` in place and return the tensor."""
        if self._grad_fn is not None and requires_grad:
            return self  # already requires grad through its history: a no-op in PyTorch
        if requires_grad and self._array.dtype.kind != "f":
            raise RuntimeError(errors.ONLY_FLOAT_REQUIRES_GRAD)
        self._set_requires_grad(bool(requires_grad))
        return self

    def _set_requires_grad(self, value: bool) -> None:
        inference.check_requires_grad(self, value)
        super()._set_requires_grad(value)

    def is_inference(self) -> bool:
        """True if this tensor was made in ``inference_mode`` (or is a view or alias of one).

        Example:
            >>> import minigrad
            >>> with minigrad.inference_mode():
            ...     x = minigrad.ones(2)
            >>> x.is_inference(), minigrad.ones(2).is_inference()
            (True, False)
        """
        return inference.is_inference(self)

    @property
    def _version(self) -> int:
        """How many in-place writes the shared counter has seen (inference tensors: an error)."""
        return inference.version(self)

    def clone(
        self,
        *,
        memory_format: _memory_formats.memory_format | None = _memory_formats.preserve_format,
    ) -> Tensor:
        """A copy with its own buffer and counter; gradients flow back to this tensor.

        Laid out as this tensor (``preserve_format``) or in ``memory_format``.
        """
        if memory_format is _memory_formats.preserve_format:
            return unary.Clone.apply(self)  # (the common call: no format to look at)
        return unary.clone(self, memory_format=memory_format)

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
        # PyTorch's leaf test reads the node as it is; then it reads grad_fn, where a view
        # catches up with its base's writes (or raises the error of one that may not).
        if self._base is not None:
            self._sync_view()
        self._autograd_meta().retains_grad = True
        engine.register_retain(self)

    @property
    def retains_grad(self) -> bool:
        """True if ``retain_grad()`` was called on this non-leaf tensor."""
        return self._meta is not None and self._meta.retains_grad

    def register_post_accumulate_grad_hook(
        self, hook: Callable[[Tensor], None]
    ) -> RemovableHandle:
        """Call ``hook(tensor)`` on this leaf after backward has added into its ``.grad``.

        Example:
            >>> import minigrad
            >>> w = minigrad.tensor([1.0, 2.0], requires_grad=True)
            >>> handle = w.register_post_accumulate_grad_hook(lambda t: print(t.grad))
            >>> (w * 3).sum().backward()
            tensor([3., 3.])
        """
        if not self.requires_grad:
            raise RuntimeError(errors.HOOK_NO_GRAD)
        if self._base is not None:
            # PyTorch reads grad_fn: a view catches up with its base's writes (or raises the
            # error of one that may not, such as a view made in no_grad).
            self._sync_view()
        if self._grad_fn is not None:
            raise RuntimeError(errors.POST_ACCUMULATE_HOOK_NON_LEAF)
        hooks = self._autograd_meta().post_accumulate_hooks
        hooks.append(hook)
        return RemovableHandle(hooks, hook)

    def register_hook(self, hook: Callable[[Tensor], Tensor | None]) -> RemovableHandle:
        """Call ``hook(grad)`` when this tensor's gradient is computed; it may return a new one."""
        if not self.requires_grad:
            raise RuntimeError(errors.HOOK_NO_GRAD)
        meta = self._autograd_meta()
        hooks = meta.hooks
        if hooks is None:
            # PyTorch's first hook since the tensor's node last changed starts the tensor's
            # list and hands it to grad_fn; reading grad_fn, a view catches up with its base's
            # writes (or raises the error of one that may not: the list is made first, so the
            # next hook only joins it). The list stays the tensor's: after ``detach_()`` it
            # runs on the leaf's gradient.
            meta.hooks = []
            if self._base is not None:
                self._sync_view()  # (may end the list: PyTorch would crash, see random_programs)
            hooks = meta.hooks = [] if meta.hooks is None else meta.hooks
            if self._grad_fn is not None:
                self._grad_fn._register_tensor_hooks(self._output_nr, hooks)
        hooks.append(hook)  # (the same function twice runs twice, as in PyTorch's dict)
        return RemovableHandle(hooks, hook)

    # --- views and indexing -------------------------------------------------------------------
    # Every method here returns a view (same buffer and version counter, ``_base`` set) unless
    # its docstring says otherwise; minigrad/ops/views.py and ops/indexing.py hold the ops.

    def _is_view(self) -> bool:
        """True if this tensor is a view of another (``self._base``)."""
        return self._base is not None

    def __getitem__(self, key: Any) -> Tensor:
        return indexing.getitem(self, key)

    def __setitem__(self, key: Any, value: Any) -> None:
        indexing.setitem(self, key, value)

    def __delitem__(self, key: Any) -> None:
        raise TypeError(errors.DELETE_ITEMS)

    def view(self, *shape: Any, **named: Any) -> Tensor:
        """A view with another shape (raises if the memory layout does not allow one).

        ``x.view(dtype)`` (PyTorch's other overload) reads the same memory as another dtype.
        """
        if named:  # (``dtype=`` or ``size=`` by name: rare, so the common call does no more)
            return views.view_named(self, shape, named)
        return views.view(self, *shape)

    def view_as(self, other: Tensor) -> Tensor:
        """A view with ``other``'s shape."""
        return views.view_as(self, other)

    def reshape(self, *shape: Any, **named: Any) -> Tensor:
        """Another shape: a view when the layout allows, else a copy."""
        if named:  # (``shape=`` by name: rare, so the common call does no more)
            shape = _given(shape, "reshape", "shape", named)
        return views.reshape_method(self, shape)

    def reshape_as(self, other: Tensor) -> Tensor:
        """``reshape`` to ``other``'s shape."""
        return views.reshape(self, other._array.shape)

    def flatten(self, start_dim: int = 0, end_dim: int = -1) -> Tensor:
        """Dimensions ``start_dim`` to ``end_dim`` merged into one (a view when possible)."""
        return views.flatten(self, start_dim, end_dim)

    def unflatten(self, dim: int, sizes: Any) -> Tensor:
        """Dimension ``dim`` split into ``sizes``."""
        return views.unflatten_method(self, dim, sizes)

    def ravel(self) -> Tensor:
        """All elements in one dimension (a view of this tensor, or of a contiguous copy)."""
        return views.ravel(self)

    def t(self) -> Tensor:
        """A matrix transposed."""
        return views.t(self)

    @property
    def T(self) -> Tensor:  # noqa: N802 - PyTorch's name
        """All dimensions reversed (PyTorch warns unless the tensor is 2-D)."""
        return views.reversed_dims(self)

    @property
    def mT(self) -> Tensor:  # noqa: N802 - PyTorch's name
        """The last two dimensions swapped (a batch of matrices transposed)."""
        return views.matrix_transpose(self)

    @property
    def mH(self) -> Tensor:  # noqa: N802 - PyTorch's name
        """The conjugate transpose of a batch of matrices: ``mT`` for real tensors."""
        return views._matrix_transpose(self, "mH")

    @property
    def H(self) -> Tensor:  # noqa: N802 - PyTorch's name
        """The conjugate transpose of a matrix: ``t()`` for real tensors."""
        if self._array.ndim != 2:
            raise RuntimeError(errors.h_needs_matrix(self._array.ndim))
        return views.transpose(self, -2, -1)  # (PyTorch's node shows these: H is mH)

    def adjoint(self) -> Tensor:
        """The conjugate transpose of the last two dimensions: ``mT`` for real tensors."""
        return views.adjoint(self)

    def transpose(self, dim0: int, dim1: int) -> Tensor:
        """Dimensions ``dim0`` and ``dim1`` swapped."""
        return views.transpose(self, dim0, dim1)

    def swapaxes(self, axis0: int, axis1: int) -> Tensor:
        """Dimensions ``axis0`` and ``axis1`` swapped (``transpose``)."""
        return views.transpose(self, axis0, axis1)

    def swapdims(self, dim0: int, dim1: int) -> Tensor:
        """Dimensions ``dim0`` and ``dim1`` swapped (``transpose``)."""
        return views.transpose(self, dim0, dim1)

    def permute(self, *dims: Any, **named: Any) -> Tensor:
        """The dimensions reordered."""
        if named:
            dims = _given(dims, "permute", "dims", named)
        return views.permute_method(self, dims)

    def movedim(self, source: Any, destination: Any) -> Tensor:
        """Dimensions ``source`` moved to positions ``destination``."""
        return views.movedim(self, source, destination)

    def moveaxis(self, source: Any, destination: Any) -> Tensor:
        """Dimensions ``source`` moved to positions ``destination`` (``movedim``)."""
        return views.movedim(self, source, destination)

    def squeeze(self, dim: Any = _arguments.NOT_GIVEN, *more_dims: Any) -> Tensor:
        """Size-1 dimensions removed (all, or those among ``dim``: ``x.squeeze(0, 1)`` too)."""
        if more_dims:  # (the method's parser, not the function's, takes the dims unpacked)
            dim = _arguments.unpacked_ints(dim, more_dims, "squeeze", "dim")
        return views.squeeze(self, dim)

    def unsqueeze(self, dim: int) -> Tensor:
        """A new size-1 dimension at ``dim``."""
        return views.unsqueeze(self, dim)

    # In-place view ops: this tensor takes the view's shape and strides (a new version).

    def unsqueeze_(self, dim: int) -> Tensor:
        """``unsqueeze`` in place: a new size-1 dimension at ``dim``."""
        return inplace_views.unsqueeze_(self, dim)

    def squeeze_(self, dim: Any = _arguments.NOT_GIVEN, *more_dims: Any) -> Tensor:
        """``squeeze`` in place: size-1 dimensions removed (all, or those among ``dim``)."""
        if more_dims:
            dim = _arguments.unpacked_ints(dim, more_dims, "squeeze_", "dim")
        return inplace_views.squeeze_(self, dim)

    def t_(self) -> Tensor:
        """``t`` in place: a matrix transposed."""
        return inplace_views.t_(self)

    def transpose_(self, dim0: int, dim1: int) -> Tensor:
        """``transpose`` in place: dimensions ``dim0`` and ``dim1`` swapped."""
        return inplace_views.transpose_(self, dim0, dim1)

    def swapaxes_(self, axis0: int, axis1: int) -> Tensor:
        """``swapaxes`` in place (``transpose_``)."""
        return inplace_views.transpose_(self, axis0, axis1)

    def swapdims_(self, dim0: int, dim1: int) -> Tensor:
        """``swapdims`` in place (``transpose_``)."""
        return inplace_views.transpose_(self, dim0, dim1)

    def expand(self, *sizes: Any, **named: Any) -> Tensor:
        """Size-1 dimensions repeated without copying (-1 keeps a size)."""
        return views.expand(self, *_given(sizes, "expand", "size", named))

    def expand_as(self, other: Tensor) -> Tensor:
        """``expand`` to ``other``'s shape."""
        return views.expand_as(self, other)

    def narrow(self, dim: int, start: Any, length: int) -> Tensor:
        """``length`` elements from ``start`` along ``dim``."""
        return views.narrow(self, dim, start, length)

    def select(self, dim: int, index: int) -> Tensor:
        """The slice at ``index`` along ``dim``."""
        return views.select(self, dim, index)

    def unfold(self, dimension: int, size: int, step: int) -> Tensor:
        """A view of the windows of ``size`` elements every ``step`` along ``dimension``."""
        return unfold.unfold(self, dimension, size, step)

    def diagonal(self, offset: int = 0, dim1: int = 0, dim2: int = 1) -> Tensor:
        """The diagonal ``offset`` of the matrices in dims ``dim1`` and ``dim2``."""
        return views.diagonal(self, offset, dim1, dim2)

    def split(self, split_size: Any, dim: int = 0) -> tuple[Tensor, ...]:
        """Pieces of ``split_size`` (or of the sizes in a list) along ``dim``."""
        return splitting.split(self, split_size, dim)

    def split_with_sizes(self, split_sizes: Any, dim: int = 0) -> tuple[Tensor, ...]:
        """Pieces of the given sizes along ``dim``."""
        return splitting.split_with_sizes(self, split_sizes, dim)

    def chunk(self, chunks: int, dim: int = 0) -> tuple[Tensor, ...]:
        """At most ``chunks`` pieces of equal size along ``dim``."""
        return splitting.chunk(self, chunks, dim)

    def unbind(self, dim: int = 0) -> tuple[Tensor, ...]:
        """The slices along ``dim``."""
        return splitting.unbind(self, dim)

    def tensor_split(self, indices_or_sections: Any, dim: int = 0) -> tuple[Tensor, ...]:
        """``n`` nearly equal pieces along ``dim``, or pieces cut at the given indices."""
        return splitting.tensor_split(self, indices_or_sections, dim)

    def hsplit(self, sections: Any) -> tuple[Tensor, ...]:
        """``tensor_split`` along dimension 1 (0 for a 1-D tensor)."""
        return splitting.hsplit(self, sections)

    def vsplit(self, sections: Any) -> tuple[Tensor, ...]:
        """``tensor_split`` along dimension 0."""
        return splitting.vsplit(self, sections)

    def dsplit(self, sections: Any) -> tuple[Tensor, ...]:
        """``tensor_split`` along dimension 2."""
        return splitting.dsplit(self, sections)

    def is_contiguous(
        self, *, memory_format: _memory_formats.memory_format = _memory_formats.contiguous_format
    ) -> bool:
        """True if the elements are laid out in row-major order without gaps.

        Or in ``memory_format``'s order: ``channels_last`` (NHWC) asks it of a 4-d tensor,
        ``channels_last_3d`` of a 5-d one (any other rank: False).

        Example:
            >>> import minigrad
            >>> x = minigrad.zeros(2, 4, 5, 3).permute(0, 3, 1, 2)  # (N, C, H, W), stored NHWC
            >>> x.is_contiguous(), x.is_contiguous(memory_format=minigrad.channels_last)
            (False, True)
        """
        if memory_format is _memory_formats.contiguous_format:
            return bool(self._array.flags.c_contiguous)
        return _layout.is_contiguous_in(self._array, memory_format)

    def contiguous(
        self, *, memory_format: _memory_formats.memory_format = _memory_formats.contiguous_format
    ) -> Tensor:
        """Itself if contiguous, else a contiguous copy (not a view; ``CloneBackward0``).

        Contiguous in ``memory_format``'s order (``channels_last``: NHWC) if given.

        Example:
            >>> import minigrad
            >>> x = minigrad.zeros(2, 3, 4, 5)
            >>> x.contiguous(memory_format=minigrad.channels_last).stride()
            (60, 1, 15, 3)
        """
        if memory_format is _memory_formats.contiguous_format:
            return self if self._array.flags.c_contiguous else unary.contiguous_copy(self)
        if _layout.is_contiguous_in(self._array, memory_format):
            return self
        if memory_format is _memory_formats.preserve_format:
            raise RuntimeError(errors.PRESERVE_FORMAT_IN_CONTIGUOUS)
        return unary.clone(self, memory_format=memory_format)

    def dim_order(
        self, *, ambiguity_check: bool | list[_memory_formats.memory_format] = False
    ) -> tuple[int, ...]:
        """The dimensions from the outermost to the innermost in memory.

        ``ambiguity_check=True`` raises PyTorch's RuntimeError when another order would fit
        the strides too (a dim of size 1, equal strides); a list of memory formats also lets
        through a tensor contiguous in exactly one of them.

        Example:
            >>> import minigrad
            >>> minigrad.empty(2, 3, 5, 7).transpose(1, 2).dim_order()
            (0, 2, 1, 3)
            >>> minigrad.empty(2, 3, 5, 7, memory_format=minigrad.channels_last).dim_order()
            (0, 2, 3, 1)
        """
        return _dim_order.dim_order(self._array, ambiguity_check)

    def apply_(self, callable: Callable[[Any], Any]) -> Tensor:
        """Each element replaced by ``callable(element)``, in place (a CPU loop in Python).

        Refused for a tensor that requires grad; the version does not move (PyTorch's).
        """
        return element_callables.apply_(self, callable)

    def map_(self, other: Tensor, callable: Callable[[Any, Any], Any]) -> Tensor:
        """Each element replaced by ``callable(element, other's element)``, in place.

        ``other`` (of this tensor's dtype) is broadcast to this tensor's shape.
        """
        return element_callables.map_(self, other, callable)

    def map2_(self, x: Tensor, y: Tensor, callable: Callable[[Any, Any, Any], Any]) -> Tensor:
        """Each element replaced by ``callable(element, x's, y's)``, in place (both broadcast)."""
        return element_callables.map2_(self, x, y, callable)

    def untyped_storage(self) -> UntypedStorage:
        """The memory this tensor lives in, as bytes (its views' and aliases' too).

        One object per memory while it lives; writes through it move no version (as writes
        through ``numpy()``). ``storage_offset()`` counts from its start.

        Example:
            >>> import minigrad
            >>> x = minigrad.zeros(2, 3)
            >>> s = x[1].untyped_storage()
            >>> s is x.untyped_storage(), s.nbytes(), s.data_ptr() == x.data_ptr()
            (True, 24, True)
        """
        return UntypedStorage._of(self._array)

    def storage(self) -> TypedStorage:
        """The memory this tensor lives in, counted in its elements (a ``TypedStorage``).

        PyTorch's deprecated form: it warns once per process, as PyTorch's does.
        """
        _warn_typed_storage_removal()
        return self._typed_storage()

    def _typed_storage(self) -> TypedStorage:
        """``storage()`` without the deprecation warning."""
        return TypedStorage(
            wrap_storage=UntypedStorage._of(self._array), dtype=self.dtype, _internal=True
        )

    def set_(self, *args: Any, **kwargs: Any) -> Tensor:
        """Take other memory in place (PyTorch's forms and rules).

        ``set_()``, ``set_(tensor)``, ``set_(storage)``, or ``set_(source, storage_offset,
        size, stride=None)``. The version moves once; the source's does not. Refused on a
        leaf that requires grad (grad mode on), on a view, and for a geometry past the end of
        the storage (PyTorch grows it; numpy cannot move the tensors on it). See
        ``minigrad/ops/setting.py``.

        Example:
            >>> import minigrad
            >>> x = minigrad.arange(6.0)
            >>> minigrad.empty(0).set_(x.untyped_storage(), 1, (2, 2), (2, 1))
            tensor([[1., 2.],
                    [3., 4.]])
        """
        return setting.set_(self, args, kwargs)

    def is_shared(self) -> bool:
        """Whether ``share_memory_()`` marked this tensor's memory (or its base's) shared."""
        return _shared_memory.is_shared(self._array)

    def share_memory_(self) -> Tensor:
        """Mark the memory shared and return the tensor; it can no longer grow.

        PyTorch's moves the memory to shared memory for other processes; minigrad runs in
        one, so nothing moves.

        Example:
            >>> import minigrad
            >>> x = minigrad.zeros(3)
            >>> x.share_memory_() is x, x[1:].is_shared()
            (True, True)
        """
        _shared_memory.share(self._array)
        return self

    def resize_(
        self, *size: Any, memory_format: _memory_formats.memory_format | None = None
    ) -> Tensor:
        """This tensor with ``size`` over its memory (grown if too small), in place.

        The elements that fit keep their values in memory order; new ones are uninitialized.
        PyTorch's rules: refused if the tensor requires grad; the version moves only if the
        shape changes. (Grown memory is the tensor's own: its views, aliases and storage
        object keep the old memory, where PyTorch's follow the grown storage; see
        ``minigrad/ops/resizing.py``.)

        Example:
            >>> import minigrad
            >>> minigrad.arange(6.0).resize_(2, 2)
            tensor([[0., 1.],
                    [2., 3.]])
        """
        from minigrad import creation  # (creation.py builds on this module)

        if not size:
            raise TypeError('resize_() missing 1 required positional arguments: "size"')
        shape = creation.shape_argument(size, "resize_", negative=True)
        return resizing.resize_(self, shape, memory_format)

    def resize_as_(
        self,
        the_template: Tensor,
        *,
        memory_format: _memory_formats.memory_format | None = None,
    ) -> Tensor:
        """This tensor resized to ``the_template``'s shape, in place (``resize_``'s rules)."""
        return resizing.resize_as_(self, the_template, memory_format)

    def stride(self, dim: int | None = None) -> Any:
        """Steps in elements between neighbours along each dimension (or along ``dim``)."""
        array = self._array
        itemsize = array.itemsize
        strides = tuple(s // itemsize for s in array.strides)
        if not array.size and not any(strides) and (self._base is None or not self._base.numel()):
            # numpy's strides of a new empty array are 0s, PyTorch's those of a new tensor; a
            # view of a tensor with elements keeps numpy's (an expand's 0s are PyTorch's too)
            strides = contiguous_strides(array.shape)
        return strides if dim is None else strides[wrap_dim(dim, array.ndim)]

    # --- conversion ---------------------------------------------------------------------------

    def numpy(self, *, force: bool = False) -> np.ndarray:
        """A numpy array on this tensor's memory (writes through it bump no version).

        Refused for a tensor that requires grad while grad mode is on (PyTorch's rule: under
        ``no_grad`` it is allowed), unless ``force``. A new array object each call, as
        PyTorch's: giving it another shape (``a.shape = ...``) leaves the tensor's alone.
        """
        if not force and self.requires_grad and grad_mode.is_grad_enabled():
            raise RuntimeError(errors.NUMPY_REQUIRES_GRAD)
        if switches.guard_used:  # debugging hook: a view left read-only by a released guard
            guard.heal(self._array)
        return self._array.view()

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
            raise RuntimeError(errors.not_one_element_for_item(self._array.size))
        return self._array.reshape(()).item()

    def tolist(self) -> Any:
        """The values as (nested) Python lists."""
        return self._array.tolist()

    def __len__(self) -> int:
        if self._array.ndim == 0:
            raise TypeError(errors.LEN_OF_0D)
        return self._array.shape[0]

    def __bool__(self) -> bool:
        if self._array.size != 1:
            raise RuntimeError(errors.ambiguous_bool(self._array.size))
        return bool(self._array.reshape(()))

    def __float__(self) -> float:
        if self.requires_grad and grad_mode._state.enabled:  # (once, as PyTorch's float())
            _warnings.warn_once(errors.REQUIRES_GRAD_TO_SCALAR)
        return float(self._scalar_value())

    def __int__(self) -> int:
        return int(self._scalar_value())

    def __index__(self) -> int:
        """The value of a one-element integer (or bool) tensor, where Python wants an index."""
        if self._array.dtype.kind not in "biu" or self._array.size != 1:
            raise TypeError(errors.NOT_AN_INDEX)
        return int(self._array.reshape(()).item())

    def _scalar_value(self) -> Any:
        # Python's number protocols get ValueError (``item()`` raises RuntimeError), as in PyTorch.
        if self._array.size != 1:
            raise ValueError(errors.NOT_ONE_ELEMENT_FOR_PYTHON_SCALAR)
        return self._array.reshape(()).item()

    # --- copying and pickling -----------------------------------------------------------------

    def __deepcopy__(self, memo: dict[int, Any]) -> Tensor:
        """A copy with its own buffer, ``requires_grad`` and a deep copy of ``.grad``.

        Only leaves: copying a result would copy (and share) its graph. As in PyTorch, the copy's
        version is 1.
        """
        if id(self) in memo:
            return memo[id(self)]
        if self.grad_fn is not None:
            raise RuntimeError(errors.DEEPCOPY_NON_LEAF)
        result = _rebuild_tensor(type(self), self._array.copy(), self._requires_grad)
        memo[id(self)] = result
        if self._meta is not None and self._meta.grad is not None:
            result._autograd_meta().grad = self._meta.grad.__deepcopy__(memo)
        return result

    def __reduce_ex__(self, protocol: Any) -> tuple[Any, ...]:
        """Pickle the values and ``requires_grad`` (not the graph, hooks or ``.grad``)."""
        return (_rebuild_tensor, (type(self), self._array.copy(), self.requires_grad))

    def __iter__(self) -> Iterator[Any]:
        if self._array.ndim == 0:
            raise TypeError(errors.ITERATE_0D)
        return iter(splitting.unbind(self, 0))  # as PyTorch: rows are multi-output (Unbind) views

    def __reversed__(self) -> Tensor:
        """The tensor flipped along dimension 0 (a 0-d tensor: itself), as PyTorch's."""
        if self._array.ndim == 0:
            return self
        return self.flip(0)

    def __repr__(self) -> str:
        # PyTorch reads ``grad_fn`` (a view's history regenerated after a write to its base)
        # and ``requires_grad`` (a view of a leaf made under no_grad requires grad); a view
        # whose history cannot be regenerated prints as ``grad_fn=<Invalid>``.
        try:
            grad_fn = self.grad_fn
            grad_fn_name = None if grad_fn is None else type(grad_fn).__name__
        except RuntimeError:
            grad_fn_name = "Invalid"
        return _printing.tensor_repr(
            self._array,
            dtype_name=_dtype.from_numpy_dtype(self._array.dtype).name,
            requires_grad=grad_fn_name is None and self.requires_grad,
            grad_fn_name=grad_fn_name,
        )

    __str__ = __repr__

    def __format__(self, format_spec: str) -> str:
        """A 0-d tensor formats as its value (``f"{loss:.4f}"``), as PyTorch's; others as repr.

        Only a plain Tensor: a 0-d Parameter formats as its repr, as in PyTorch.
        """
        if self._array.ndim == 0 and type(self) is Tensor:
            return self._array.item().__format__(format_spec)
        return object.__format__(self, format_spec)

    # --- arithmetic ---------------------------------------------------------------------------

    def add(self, other: Any, *, alpha: Any = 1) -> Tensor:
        """``self + alpha * other``."""
        return arithmetic.add(self, other, alpha=alpha)

    def sub(self, other: Any, *, alpha: Any = 1) -> Tensor:
        """``self - alpha * other``."""
        return arithmetic.sub(self, other, alpha=alpha)

    def mul(self, other: Any) -> Tensor:
        """``self * other``."""
        return arithmetic.mul(self, other)

    def div(self, other: Any, *, rounding_mode: Any = _arguments.NOT_GIVEN) -> Tensor:
        """``self / other``; ``rounding_mode`` "trunc" or "floor" rounds the quotient."""
        return arithmetic.div_method(self, other, rounding_mode=rounding_mode)

    # NumPy's names, which PyTorch takes too
    subtract = sub
    multiply = mul
    divide = div

    def pow(self, exponent: Any) -> Tensor:
        """``self ** exponent``."""
        return power.pow(self, exponent)

    # Same-dtype tensors: straight to recording (bool - bool raises, so sub and div take floats).
    __add__ = __radd__ = _binary_operator(arithmetic.Add, arithmetic.add_promoted, any_dtype=True)
    __sub__ = _binary_operator(arithmetic.Sub, arithmetic.sub_promoted, any_dtype=False)

    def __rsub__(self, other: Any) -> Tensor:
        if (type(other) is int and other <= 0x3FFFFFFF and other >= -0x3FFFFFFF
                or type(other) is float) and type(self._array.dtype) in _FLOAT_DTYPE_CLASSES:
            # nothing to promote or check (as pow's): Rsub's recording function for options;
            # a larger int takes ``rsub_number``'s checks (``2**70 - x``)
            return _record_rsub(self, other, None)
        if not isinstance(other, _OPERANDS):
            return _not_an_operand(other)
        return arithmetic.rsub_number(self, other)

    __mul__ = __rmul__ = _binary_operator(arithmetic.Mul, arithmetic.mul_promoted, any_dtype=True)
    __truediv__ = _binary_operator(arithmetic.Div, arithmetic.div_promoted, any_dtype=False)

    def __rtruediv__(self, other: Any) -> Tensor:
        if not isinstance(other, _OPERANDS):
            # PyTorch's is ``self.reciprocal() * other``: the reciprocal comes first (and may
            # raise: a view that cannot be used), the product's TypeError is NotImplemented.
            unary.reciprocal(self)
            return _not_an_operand(other)
        return unary.rdiv(self, other)

    __rdiv__ = __rtruediv__  # (Python 2's name, which PyTorch's Tensor keeps)

    def __floordiv__(self, other: Any) -> Tensor:
        if not isinstance(other, _OPERANDS):
            return _not_an_operand(other)
        return arithmetic.floor_divide(self, other)

    def __rfloordiv__(self, other: Any) -> Tensor:
        if not isinstance(other, _OPERANDS):
            return _not_an_operand(other)
        return arithmetic.floor_divide(other, self)

    def __pow__(self, exponent: Any) -> Tensor:
        if not isinstance(exponent, _OPERANDS):
            return _not_an_operand(exponent)
        return power.pow(self, exponent)

    def __rpow__(self, base: Any) -> Tensor:
        if not isinstance(base, _OPERANDS):
            return _not_an_operand(base)
        return power.pow(base, self)

    def __ipow__(self, exponent: Any) -> Tensor:
        if not isinstance(exponent, _OPERANDS):
            return _not_an_operand(exponent)
        return self.pow_(exponent)  # in place, as PyTorch's (``x **= 2`` bumps x's version)

    # matmul takes tensors only; PyTorch's operators turn its TypeError for anything else into
    # NotImplemented, so Python tries the other operand, then raises its own TypeError.
    def __matmul__(self, other: Any) -> Tensor:
        if not isinstance(other, TensorBase):
            return NotImplemented
        if _fits_mm(self, other):  # (what ``mm`` checks, then calls)
            return _record_mm(self, other)
        return linalg.matmul(self, other)

    def __rmatmul__(self, other: Any) -> Tensor:
        if not isinstance(other, TensorBase):
            return NotImplemented
        return linalg.matmul(other, self)

    def __neg__(self) -> Tensor:
        if type(self._array.dtype) in _FLOAT_DTYPE_CLASSES:
            return _record_neg(self)  # (bool tensors raise: ``neg`` checks)
        return unary.neg(self)

    def __pos__(self) -> Tensor:
        return unary.positive(self)

    def __abs__(self) -> Tensor:
        return unary.abs(self)

    def __iadd__(self, other: Any) -> Tensor:
        if not isinstance(other, _OPERANDS):
            return _not_an_operand(other)
        return self.add_(other)

    def __isub__(self, other: Any) -> Tensor:
        if not isinstance(other, _OPERANDS):
            return _not_an_operand(other)
        return self.sub_(other)

    def __imul__(self, other: Any) -> Tensor:
        if not isinstance(other, _OPERANDS):
            return _not_an_operand(other)
        return self.mul_(other)

    def __itruediv__(self, other: Any) -> Tensor:
        if not isinstance(other, _OPERANDS):
            return _not_an_operand(other)
        return self.div_(other)

    __idiv__ = __itruediv__  # (Python 2's name, which PyTorch's Tensor keeps)

    def __ifloordiv__(self, other: Any) -> Tensor:
        if not isinstance(other, _OPERANDS):
            return _not_an_operand(other)
        return self.floor_divide_(other)  # in place, as PyTorch's (not ``x = x // y``)

    # --- bitwise operators (integer and bool tensors: ops/bitwise.py) --------------------------

    def __and__(self, other: Any) -> Tensor:
        if not isinstance(other, _OPERANDS):
            return _not_an_operand(other)
        return bitwise.bitwise_and(self, other)

    def __rand__(self, other: Any) -> Tensor:
        if not isinstance(other, _OPERANDS):
            return _not_an_operand(other)
        return bitwise.bitwise_and(other, self)

    def __iand__(self, other: Any) -> Tensor:
        if not isinstance(other, _OPERANDS):
            return _not_an_operand(other)
        return bitwise.bitwise_and_(self, other)

    def __or__(self, other: Any) -> Tensor:
        if not isinstance(other, _OPERANDS):
            return _not_an_operand(other)
        return bitwise.bitwise_or(self, other)

    def __ror__(self, other: Any) -> Tensor:
        if not isinstance(other, _OPERANDS):
            return _not_an_operand(other)
        return bitwise.bitwise_or(other, self)

    def __ior__(self, other: Any) -> Tensor:
        if not isinstance(other, _OPERANDS):
            return _not_an_operand(other)
        return bitwise.bitwise_or_(self, other)

    def __xor__(self, other: Any) -> Tensor:
        if not isinstance(other, _OPERANDS):
            return _not_an_operand(other)
        return bitwise.bitwise_xor(self, other)

    def __rxor__(self, other: Any) -> Tensor:
        if not isinstance(other, _OPERANDS):
            return _not_an_operand(other)
        return bitwise.bitwise_xor(other, self)

    def __ixor__(self, other: Any) -> Tensor:
        if not isinstance(other, _OPERANDS):
            return _not_an_operand(other)
        return bitwise.bitwise_xor_(self, other)

    def __lshift__(self, other: Any) -> Tensor:
        if not isinstance(other, _OPERANDS):
            return _not_an_operand(other)
        return bitwise.bitwise_left_shift(self, other)

    def __rlshift__(self, other: Any) -> Tensor:
        if not isinstance(other, _OPERANDS):
            return _not_an_operand(other)
        return bitwise.bitwise_left_shift(other, self)

    def __ilshift__(self, other: Any) -> Tensor:
        if not isinstance(other, _OPERANDS):
            return _not_an_operand(other)
        return bitwise.bitwise_left_shift_(self, other)

    def __rshift__(self, other: Any) -> Tensor:
        if not isinstance(other, _OPERANDS):
            return _not_an_operand(other)
        return bitwise.bitwise_right_shift(self, other)

    def __rrshift__(self, other: Any) -> Tensor:
        if not isinstance(other, _OPERANDS):
            return _not_an_operand(other)
        return bitwise.bitwise_right_shift(other, self)

    def __irshift__(self, other: Any) -> Tensor:
        if not isinstance(other, _OPERANDS):
            return _not_an_operand(other)
        return bitwise.bitwise_right_shift_(self, other)

    def __invert__(self) -> Tensor:
        return bitwise.invert(self)

    def bitwise_and(self, other: Any) -> Tensor:
        """``self & other``, bit by bit (integer and bool tensors)."""
        return bitwise.bitwise_and(self, other)

    def bitwise_and_(self, other: Any) -> Tensor:
        """``self &= other`` in place."""
        return bitwise.bitwise_and_(self, other)

    def bitwise_or(self, other: Any) -> Tensor:
        """``self | other``, bit by bit (integer and bool tensors)."""
        return bitwise.bitwise_or(self, other)

    def bitwise_or_(self, other: Any) -> Tensor:
        """``self |= other`` in place."""
        return bitwise.bitwise_or_(self, other)

    def bitwise_xor(self, other: Any) -> Tensor:
        """``self ^ other``, bit by bit (integer and bool tensors)."""
        return bitwise.bitwise_xor(self, other)

    def bitwise_xor_(self, other: Any) -> Tensor:
        """``self ^= other`` in place."""
        return bitwise.bitwise_xor_(self, other)

    def bitwise_left_shift(self, other: Any) -> Tensor:
        """``self << other`` (integer tensors)."""
        return bitwise.bitwise_left_shift(self, other)

    def bitwise_left_shift_(self, other: Any) -> Tensor:
        """``self <<= other`` in place."""
        return bitwise.bitwise_left_shift_(self, other)

    def bitwise_right_shift(self, other: Any) -> Tensor:
        """``self >> other`` (integer tensors)."""
        return bitwise.bitwise_right_shift(self, other)

    def bitwise_right_shift_(self, other: Any) -> Tensor:
        """``self >>= other`` in place."""
        return bitwise.bitwise_right_shift_(self, other)

    def bitwise_not(self) -> Tensor:
        """``~self``: every bit flipped (integer and bool tensors)."""
        return bitwise.bitwise_not(self)

    def bitwise_not_(self) -> Tensor:
        """``bitwise_not(self)``, in place."""
        return bitwise.bitwise_not_(self)

    # --- comparisons (not differentiable: bool results) ----------------------------------------

    def __eq__(self, other: Any) -> Tensor:  # type: ignore[override]
        if not isinstance(other, _OPERANDS):
            return _not_an_operand(other)
        return comparison.eq(self, other)

    def __ne__(self, other: Any) -> Tensor:  # type: ignore[override]
        if not isinstance(other, _OPERANDS):
            return _not_an_operand(other)
        return comparison.ne(self, other)

    def __lt__(self, other: Any) -> Tensor:
        if not isinstance(other, _OPERANDS):
            return _not_an_operand(other)
        return comparison.lt(self, other)

    def __le__(self, other: Any) -> Tensor:
        if not isinstance(other, _OPERANDS):
            return _not_an_operand(other)
        return comparison.le(self, other)

    def __gt__(self, other: Any) -> Tensor:
        if not isinstance(other, _OPERANDS):
            return _not_an_operand(other)
        return comparison.gt(self, other)

    def __ge__(self, other: Any) -> Tensor:
        if not isinstance(other, _OPERANDS):
            return _not_an_operand(other)
        return comparison.ge(self, other)

    def eq(self, other: Any) -> Tensor:
        """Elementwise ``==`` (a bool tensor)."""
        return comparison.eq(self, other)

    def ne(self, other: Any) -> Tensor:
        """Elementwise ``!=`` (a bool tensor)."""
        return comparison.ne(self, other)

    def lt(self, other: Any) -> Tensor:
        """Elementwise ``<`` (a bool tensor)."""
        return comparison.lt(self, other)

    def le(self, other: Any) -> Tensor:
        """Elementwise ``<=`` (a bool tensor)."""
        return comparison.le(self, other)

    def gt(self, other: Any) -> Tensor:
        """Elementwise ``>`` (a bool tensor)."""
        return comparison.gt(self, other)

    def ge(self, other: Any) -> Tensor:
        """Elementwise ``>=`` (a bool tensor)."""
        return comparison.ge(self, other)

    # PyTorch's other names for them
    not_equal = ne
    less = lt
    less_equal = le
    greater = gt
    greater_equal = ge

    def logical_and(self, other: Any) -> Tensor:
        """Both nonzero, elementwise (a bool tensor)."""
        return comparison.logical_and(self, other)

    def logical_or(self, other: Any) -> Tensor:
        """Either nonzero, elementwise (a bool tensor)."""
        return comparison.logical_or(self, other)

    def logical_xor(self, other: Any) -> Tensor:
        """Exactly one nonzero, elementwise (a bool tensor)."""
        return comparison.logical_xor(self, other)

    def logical_not(self) -> Tensor:
        """Zero elements become True, others False (a bool tensor)."""
        return comparison.logical_not(self)

    def logical_and_(self, other: Tensor) -> Tensor:
        """Write ``self and other`` as 1 and 0 in place (no gradient, no history)."""
        return comparison.logical_(np.logical_and, self, other)

    def logical_or_(self, other: Tensor) -> Tensor:
        """Write ``self or other`` as 1 and 0 in place (no gradient, no history)."""
        return comparison.logical_(np.logical_or, self, other)

    def logical_xor_(self, other: Tensor) -> Tensor:
        """Write ``self xor other`` as 1 and 0 in place (no gradient, no history)."""
        return comparison.logical_(np.logical_xor, self, other)

    def logical_not_(self) -> Tensor:
        """Write ``not self`` as 1 and 0 in place (no gradient, no history)."""
        return comparison.logical_(np.logical_not, self)

    def isnan(self) -> Tensor:
        """True where nan."""
        return comparison.isnan(self)

    def isinf(self) -> Tensor:
        """True where +inf or -inf."""
        return comparison.isinf(self)

    def isfinite(self) -> Tensor:
        """True where neither nan nor infinite."""
        return comparison.isfinite(self)

    def isclose(
        self, other: Any, rtol: float = 1e-05, atol: float = 1e-08, equal_nan: bool = False
    ) -> Tensor:
        """Where ``|self - other| <= atol + rtol * |other|`` (a bool tensor; see ``isclose``)."""
        return comparison.isclose(self, other, rtol, atol, equal_nan)

    def allclose(
        self, other: Any, rtol: float = 1e-05, atol: float = 1e-08, equal_nan: bool = False
    ) -> bool:
        """True if every element is close to ``other``'s (see ``isclose``)."""
        return comparison.allclose(self, other, rtol, atol, equal_nan)

    def equal(self, other: Any) -> bool:
        """True if ``other`` has the same shape and the same values."""
        return comparison.equal(self, other)

    # --- math ---------------------------------------------------------------------------------

    def neg(self) -> Tensor:
        """``-self``."""
        return unary.neg(self)

    abs = _unary_method(unary.Abs, unary.abs, "``|self|``.")

    def positive(self) -> Tensor:
        """``+self``: this tensor itself."""
        return unary.positive(self)

    negative = neg  # (NumPy's names, which PyTorch takes too)
    absolute = abs

    exp = _unary_method(unary.Exp, unary.exp, "``e ** self``.")

    log = _unary_method(unary.Log, unary.log, "Natural logarithm.")

    sqrt = _unary_method(unary.Sqrt, unary.sqrt, "Square root.")

    sigmoid = _unary_method(unary.Sigmoid, unary.sigmoid, "``1 / (1 + exp(-self))``.")

    tanh = _unary_method(unary.Tanh, unary.tanh, "Hyperbolic tangent.")

    relu = _unary_method(unary.Relu, unary.relu, "``max(self, 0)``.")

    def hardshrink(self, lambd: float = 0.5) -> Tensor:
        """``self`` outside ``[-lambd, lambd]``, 0 inside (see ``nn.functional.hardshrink``)."""
        return activations_extra.hardshrink(self, lambd)

    def prelu(self, weight: Tensor) -> Tensor:
        """``self`` where positive, else ``weight * self`` (see ``nn.functional.prelu``)."""
        return activations_extra.prelu(self, weight)

    def reciprocal(self) -> Tensor:
        """``1 / self``."""
        return unary.reciprocal(self)

    def reciprocal_(self) -> Tensor:
        """``1 / self``, in place."""
        return unary.reciprocal_(self)

    def clamp(self, min: Any = None, max: Any = None) -> Tensor:
        """Limit every element to ``[min, max]``."""
        return clamp.clamp(self, min, max)

    clip = clamp

    def sum(
        self, dim: Any = _arguments.NOT_GIVEN, keepdim: bool = False, *, dtype: Any = None
    ) -> Tensor:
        """Sum of all elements, or over ``dim``."""
        return reduction.sum(self, dim, keepdim, dtype=dtype)  # (x.sum(): _reduction_shortcut)

    def mean(
        self, dim: Any = _arguments.NOT_GIVEN, keepdim: bool = False, *, dtype: Any = None
    ) -> Tensor:
        """Mean of all elements, or over ``dim`` (computed in ``dtype`` if given)."""
        return reduction.mean(self, dim, keepdim, dtype=dtype)  # (x.mean(): as x.sum())

    def matmul(self, other: Any) -> Tensor:
        """Matrix product."""
        return linalg.matmul(self, other)

    def mm(self, mat2: Any) -> Tensor:
        """Product of two matrices."""
        return linalg.mm(self, mat2)

    def mv(self, vec: Any) -> Tensor:
        """Matrix-vector product."""
        return linalg.mv(self, vec)

    def dot(self, tensor: Any) -> Tensor:
        """Dot product of two vectors."""
        return linalg.dot(self, tensor)

    # --- elementwise math (more) ------------------------------------------------------------

    def exp2(self) -> Tensor:
        """``2 ** self``."""
        return unary.exp2(self)

    def exp2_(self) -> Tensor:
        """``2 ** self``, in place."""
        return unary.exp2_(self)

    def expm1(self) -> Tensor:
        """``exp(self) - 1``."""
        return unary.expm1(self)

    def expm1_(self) -> Tensor:
        """``exp(self) - 1``, in place."""
        return unary.expm1_(self)

    def log2(self) -> Tensor:
        """Base-2 logarithm."""
        return unary.log2(self)

    def log2_(self) -> Tensor:
        """Base-2 logarithm, in place."""
        return unary.log2_(self)

    def log10(self) -> Tensor:
        """Base-10 logarithm."""
        return unary.log10(self)

    def log10_(self) -> Tensor:
        """Base-10 logarithm, in place."""
        return unary.log10_(self)

    def log1p(self) -> Tensor:
        """``log(1 + self)``."""
        return unary.log1p(self)

    def log1p_(self) -> Tensor:
        """``log(1 + self)``, in place."""
        return unary.log1p_(self)

    def rsqrt(self) -> Tensor:
        """``1 / sqrt(self)``."""
        return unary.rsqrt(self)

    def rsqrt_(self) -> Tensor:
        """``1 / sqrt(self)``, in place."""
        return unary.rsqrt_(self)

    def sin(self) -> Tensor:
        """Sine."""
        return trigonometric.sin(self)

    def sin_(self) -> Tensor:
        """Sine, in place."""
        return trigonometric.sin_(self)

    def cos(self) -> Tensor:
        """Cosine."""
        return trigonometric.cos(self)

    def cos_(self) -> Tensor:
        """Cosine, in place."""
        return trigonometric.cos_(self)

    def tan(self) -> Tensor:
        """Tangent."""
        return trigonometric.tan(self)

    def tan_(self) -> Tensor:
        """Tangent, in place."""
        return trigonometric.tan_(self)

    def asin(self) -> Tensor:
        """Inverse sine."""
        return trigonometric.asin(self)

    def asin_(self) -> Tensor:
        """Inverse sine, in place."""
        return trigonometric.asin_(self)

    def acos(self) -> Tensor:
        """Inverse cosine."""
        return trigonometric.acos(self)

    def acos_(self) -> Tensor:
        """Inverse cosine, in place."""
        return trigonometric.acos_(self)

    def atan(self) -> Tensor:
        """Inverse tangent."""
        return trigonometric.atan(self)

    def atan_(self) -> Tensor:
        """Inverse tangent, in place."""
        return trigonometric.atan_(self)

    def sinh(self) -> Tensor:
        """Hyperbolic sine."""
        return trigonometric.sinh(self)

    def sinh_(self) -> Tensor:
        """Hyperbolic sine, in place."""
        return trigonometric.sinh_(self)

    def cosh(self) -> Tensor:
        """Hyperbolic cosine."""
        return trigonometric.cosh(self)

    def cosh_(self) -> Tensor:
        """Hyperbolic cosine, in place."""
        return trigonometric.cosh_(self)

    def asinh(self) -> Tensor:
        """Inverse hyperbolic sine."""
        return trigonometric.asinh(self)

    def asinh_(self) -> Tensor:
        """Inverse hyperbolic sine, in place."""
        return trigonometric.asinh_(self)

    def acosh(self) -> Tensor:
        """Inverse hyperbolic cosine."""
        return trigonometric.acosh(self)

    def acosh_(self) -> Tensor:
        """Inverse hyperbolic cosine, in place."""
        return trigonometric.acosh_(self)

    def atanh(self) -> Tensor:
        """Inverse hyperbolic tangent."""
        return trigonometric.atanh(self)

    def atanh_(self) -> Tensor:
        """Inverse hyperbolic tangent, in place."""
        return trigonometric.atanh_(self)

    # NumPy's names, which PyTorch takes too
    arcsin, arcsin_ = asin, asin_
    arccos, arccos_ = acos, acos_
    arctan, arctan_ = atan, atan_
    arcsinh, arcsinh_ = asinh, asinh_
    arccosh, arccosh_ = acosh, acosh_
    arctanh, arctanh_ = atanh, atanh_

    def erf(self) -> Tensor:
        """The error function."""
        return unary.erf(self)

    def erf_(self) -> Tensor:
        """The error function, in place."""
        return unary.erf_(self)

    def erfc(self) -> Tensor:
        """The complementary error function ``1 - erf(self)``."""
        return unary_extra.erfc(self)

    def erfc_(self) -> Tensor:
        """The complementary error function, in place."""
        return unary_extra.erfc_(self)

    def erfinv(self) -> Tensor:
        """The inverse error function on [-1, 1]."""
        return special_functions.erfinv(self)

    def erfinv_(self) -> Tensor:
        """The inverse error function, in place."""
        return special_functions.erfinv_(self)

    def lgamma(self) -> Tensor:
        """The logarithm of the absolute value of the gamma function."""
        return gamma.lgamma(self)

    def lgamma_(self) -> Tensor:
        """``lgamma``, in place."""
        return gamma.lgamma_(self)

    def digamma(self) -> Tensor:
        """The logarithmic derivative of the gamma function."""
        return gamma.digamma(self)

    def digamma_(self) -> Tensor:
        """``digamma``, in place."""
        return gamma.digamma_(self)

    def polygamma(self, n: int) -> Tensor:
        """The n-th derivative of digamma."""
        return gamma.polygamma(n, self)

    def polygamma_(self, n: int) -> Tensor:
        """The n-th derivative of digamma, in place."""
        return gamma.polygamma_(self, n)

    def mvlgamma(self, p: int) -> Tensor:
        """The multivariate log-gamma function of dimension ``p``."""
        return gamma.mvlgamma(self, p)

    def mvlgamma_(self, p: int) -> Tensor:
        """The multivariate log-gamma function of dimension ``p``, in place."""
        return gamma.mvlgamma_(self, p)

    def igamma(self, other: Any) -> Tensor:
        """The regularized lower incomplete gamma function ``P(self, other)``."""
        return gamma.igamma(self, other)

    def igamma_(self, other: Any) -> Tensor:
        """``igamma``, in place."""
        return gamma.igamma_(self, other)

    def igammac(self, other: Any) -> Tensor:
        """The regularized upper incomplete gamma function ``Q(self, other)``."""
        return gamma.igammac(self, other)

    def igammac_(self, other: Any) -> Tensor:
        """``igammac``, in place."""
        return gamma.igammac_(self, other)

    def i0(self) -> Tensor:
        """The modified Bessel function of the first kind of order 0."""
        return special_functions.i0(self)

    def i0_(self) -> Tensor:
        """The modified Bessel function of order 0, in place."""
        return special_functions.i0_(self)

    def sinc(self) -> Tensor:
        """The normalized sinc function ``sin(pi self) / (pi self)``, 1 at 0."""
        return unary_extra.sinc(self)

    def sinc_(self) -> Tensor:
        """The normalized sinc function, in place."""
        return unary_extra.sinc_(self)

    def deg2rad(self) -> Tensor:
        """Angles in degrees converted to radians."""
        return unary_extra.deg2rad(self)

    def deg2rad_(self) -> Tensor:
        """Angles in degrees converted to radians, in place."""
        return unary_extra.deg2rad_(self)

    def rad2deg(self) -> Tensor:
        """Angles in radians converted to degrees."""
        return unary_extra.rad2deg(self)

    def rad2deg_(self) -> Tensor:
        """Angles in radians converted to degrees, in place."""
        return unary_extra.rad2deg_(self)

    def square(self) -> Tensor:
        """``self ** 2``."""
        return unary.square(self)

    def square_(self) -> Tensor:
        """``self ** 2`` in place (recorded as ``pow_``)."""
        return unary.square_(self)

    def sign(self) -> Tensor:
        """-1, 0 or 1 by the sign of each element."""
        return unary.sign(self)

    def sign_(self) -> Tensor:
        """-1, 0 or 1 by the sign of each element, in place."""
        return unary.sign_(self)

    def floor(self) -> Tensor:
        """Round down."""
        return rounding.floor(self)

    def floor_(self) -> Tensor:
        """Round down, in place."""
        return rounding.floor_(self)

    def ceil(self) -> Tensor:
        """Round up."""
        return rounding.ceil(self)

    def ceil_(self) -> Tensor:
        """Round up, in place."""
        return rounding.ceil_(self)

    def trunc(self) -> Tensor:
        """Round towards zero."""
        return rounding.trunc(self)

    def trunc_(self) -> Tensor:
        """Round towards zero, in place."""
        return rounding.trunc_(self)

    fix = trunc
    fix_ = trunc_

    def round(self, decimals: int = 0) -> Tensor:
        """Round half to even, to ``decimals`` decimal digits."""
        return rounding.round(self, decimals=decimals)

    def round_(self, decimals: int = 0) -> Tensor:
        """Round half to even, in place."""
        return rounding.round_(self, decimals=decimals)

    def frac(self) -> Tensor:
        """``self - trunc(self)``."""
        return rounding.frac(self)

    def frac_(self) -> Tensor:
        """``self - trunc(self)``, in place."""
        return rounding.frac_(self)

    def true_divide(self, other: Any) -> Tensor:
        """``self / other``."""
        return arithmetic.div(self, other)

    def true_divide_(self, other: Any) -> Tensor:
        """``self /= other`` in place."""
        return arithmetic.div_(self, other)

    def floor_divide(self, other: Any) -> Tensor:
        """``self // other``."""
        return arithmetic.floor_divide(self, other)

    def floor_divide_(self, other: Any) -> Tensor:
        """``self //= other`` in place."""
        return arithmetic.floor_divide_(self, other)

    def remainder(self, other: Any) -> Tensor:
        """``self % other`` (the sign of ``other``)."""
        return arithmetic.remainder(self, other)

    def remainder_(self, other: Any) -> Tensor:
        """``self %= other`` in place."""
        return arithmetic.remainder_(self, other)

    def __mod__(self, other: Any) -> Tensor:
        if not isinstance(other, _OPERANDS):
            return _not_an_operand(other)
        return arithmetic.remainder(self, other)

    def __rmod__(self, other: Any) -> Tensor:
        if not isinstance(other, _OPERANDS):
            return _not_an_operand(other)
        return arithmetic.remainder(other, self)

    def __imod__(self, other: Any) -> Tensor:
        if not isinstance(other, _OPERANDS):
            return _not_an_operand(other)
        return self.remainder_(other)

    def maximum(self, other: Any) -> Tensor:
        """The larger of ``self`` and ``other``, elementwise."""
        return arithmetic.maximum(self, other)

    def atan2(self, other: Any) -> Tensor:
        """The angle of the point ``(other, self)``, elementwise."""
        return arithmetic.atan2(self, other)

    def atan2_(self, other: Any) -> Tensor:
        """``atan2(self, other)``, in place."""
        return arithmetic.atan2_(self, other)

    arctan2 = atan2
    arctan2_ = atan2_

    def logaddexp(self, other: Tensor) -> Tensor:
        """``log(exp(self) + exp(other))``, without overflow."""
        return binary_extra.logaddexp(self, other)

    def logaddexp2(self, other: Tensor) -> Tensor:
        """``log2(2 ** self + 2 ** other)``, without overflow."""
        return binary_extra.logaddexp2(self, other)

    def hypot(self, other: Tensor) -> Tensor:
        """``sqrt(self ** 2 + other ** 2)``, without overflow."""
        return binary_extra.hypot(self, other)

    def hypot_(self, other: Tensor) -> Tensor:
        """``hypot(self, other)``, in place."""
        return binary_extra.hypot_(self, other)

    def xlogy(self, other: Any) -> Tensor:
        """``self * log(other)``, 0 where ``self`` is 0 (unless ``other`` is nan)."""
        return binary_extra.xlogy(self, other)

    def xlogy_(self, other: Any) -> Tensor:
        """``xlogy(self, other)``, in place."""
        return binary_extra.xlogy_(self, other)

    def logit(self, eps: float | None = None) -> Tensor:
        """``log(self / (1 - self))``; ``eps`` clamps ``self`` to ``[eps, 1 - eps]`` first."""
        return binary_extra.logit(self, eps)

    def logit_(self, eps: float | None = None) -> Tensor:
        """``logit(self, eps)``, in place."""
        return binary_extra.logit_(self, eps)

    # --- more elementwise math (ops/elementwise_extra.py) ---------------------------------------

    def fmod(self, other: Any) -> Tensor:
        """C's remainder of ``self / other`` (the sign of ``self``)."""
        return elementwise_extra.fmod(self, other)

    def fmod_(self, other: Any) -> Tensor:
        """``fmod(self, other)``, in place."""
        return elementwise_extra.fmod_(self, other)

    def copysign(self, other: Any) -> Tensor:
        """``|self|`` with the sign of ``other``."""
        return elementwise_extra.copysign(self, other)

    def copysign_(self, other: Any) -> Tensor:
        """``copysign(self, other)``, in place."""
        return elementwise_extra.copysign_(self, other)

    def fmax(self, other: Tensor) -> Tensor:
        """The larger of ``self`` and ``other``, elementwise; where one is nan, the other."""
        return elementwise_extra.fmax(self, other)

    def fmin(self, other: Tensor) -> Tensor:
        """The smaller of ``self`` and ``other``, elementwise; where one is nan, the other."""
        return elementwise_extra.fmin(self, other)

    def heaviside(self, values: Tensor) -> Tensor:
        """0 where ``self`` is negative, 1 where positive, ``values`` where 0."""
        return elementwise_extra.heaviside(self, values)

    def heaviside_(self, values: Tensor) -> Tensor:
        """``heaviside(self, values)``, in place."""
        return elementwise_extra.heaviside_(self, values)

    def nextafter(self, other: Tensor) -> Tensor:
        """The next floating-point value after ``self`` towards ``other``."""
        return elementwise_extra.nextafter(self, other)

    def nextafter_(self, other: Tensor) -> Tensor:
        """``nextafter(self, other)``, in place."""
        return elementwise_extra.nextafter_(self, other)

    def float_power(self, exponent: Any) -> Tensor:
        """``self ** exponent`` in float64."""
        return elementwise_extra.float_power(self, exponent)

    def float_power_(self, exponent: Any) -> Tensor:
        """``float_power(self, exponent)``, in place (``self`` must be float64)."""
        return elementwise_extra.float_power_(self, exponent)

    def gcd(self, other: Tensor) -> Tensor:
        """The greatest common divisor of ``self`` and ``other`` (integers)."""
        return elementwise_extra.gcd(self, other)

    def gcd_(self, other: Tensor) -> Tensor:
        """``gcd(self, other)``, in place."""
        return elementwise_extra.gcd_(self, other)

    def lcm(self, other: Tensor) -> Tensor:
        """The least common multiple of ``self`` and ``other`` (integers)."""
        return elementwise_extra.lcm(self, other)

    def lcm_(self, other: Tensor) -> Tensor:
        """``lcm(self, other)``, in place."""
        return elementwise_extra.lcm_(self, other)

    def angle(self) -> Tensor:
        """The argument of each element in radians: pi for negative reals, 0 otherwise."""
        return elementwise_extra.angle(self)

    def sgn(self) -> Tensor:
        """The sign of each element: ``sign`` for real tensors."""
        return elementwise_extra.sgn(self)

    def sgn_(self) -> Tensor:
        """``sgn(self)``, in place."""
        return elementwise_extra.sgn_(self)

    def signbit(self) -> Tensor:
        """True where the sign bit is set (negative values, -0.0)."""
        return elementwise_extra.signbit(self)

    def isneginf(self) -> Tensor:
        """True where -inf."""
        return elementwise_extra.isneginf(self)

    def isposinf(self) -> Tensor:
        """True where +inf."""
        return elementwise_extra.isposinf(self)

    def isreal(self) -> Tensor:
        """True where the imaginary part is 0 (everywhere, for real dtypes)."""
        return elementwise_extra.isreal(self)

    def kthvalue(self, k: int, dim: int = -1, keepdim: bool = False) -> Any:
        """The ``k``-th smallest value along ``dim`` and its index: ``(values, indices)``."""
        return selection.kthvalue(self, k, dim, keepdim)

    def mode(self, dim: int = -1, keepdim: bool = False) -> Any:
        """The most frequent value along ``dim`` and its index: ``(values, indices)``."""
        return selection.mode(self, dim, keepdim)

    def cummax(self, dim: int) -> Any:
        """The running maximum along ``dim`` and its indices: ``(values, indices)``."""
        return selection.cummax(self, dim)

    def cummin(self, dim: int) -> Any:
        """The running minimum along ``dim`` and its indices: ``(values, indices)``."""
        return selection.cummin(self, dim)

    def trace(self) -> Tensor:
        """The sum of the diagonal of a matrix."""
        return reduction_extra.trace(self)

    def diff(
        self, n: int = 1, dim: int = -1, prepend: Tensor | None = None,
        append: Tensor | None = None,
    ) -> Tensor:
        """The ``n``-th forward difference along ``dim``."""
        return cumulative.diff(self, n, dim, prepend, append)

    def broadcast_to(self, size: Any) -> Tensor:
        """This tensor expanded to ``size`` (a view)."""
        return self.expand(size)

    def minimum(self, other: Any) -> Tensor:
        """The smaller of ``self`` and ``other``, elementwise."""
        return arithmetic.minimum(self, other)

    def clamp_min(self, min: Any) -> Tensor:
        """``max(self, min)``."""
        return clamp.clamp_min(self, min)

    def clamp_min_(self, min: Any) -> Tensor:
        """``max(self, min)`` in place."""
        return clamp.clamp_min_(self, min)

    def clamp_max(self, max: Any) -> Tensor:
        """``min(self, max)``."""
        return clamp.clamp_max(self, max)

    def clamp_max_(self, max: Any) -> Tensor:
        """``min(self, max)`` in place."""
        return clamp.clamp_max_(self, max)

    def lerp(self, end: Any, weight: Any) -> Tensor:
        """``self + weight * (end - self)``."""
        return ternary.lerp(self, end, weight)

    def lerp_(self, end: Any, weight: Any) -> Tensor:
        """``self + weight * (end - self)``, in place."""
        return ternary.lerp_(self, end, weight)

    def addcmul(self, tensor1: Any, tensor2: Any, *, value: Any = 1) -> Tensor:
        """``self + value * tensor1 * tensor2``."""
        return ternary.addcmul(self, tensor1, tensor2, value=value)

    def addcmul_(self, tensor1: Any, tensor2: Any, *, value: Any = 1) -> Tensor:
        """``self += value * tensor1 * tensor2`` in place."""
        return ternary.addcmul_(self, tensor1, tensor2, value=value)

    def addcdiv(self, tensor1: Any, tensor2: Any, *, value: Any = 1) -> Tensor:
        """``self + value * tensor1 / tensor2``."""
        return ternary.addcdiv(self, tensor1, tensor2, value=value)

    def addcdiv_(self, tensor1: Any, tensor2: Any, *, value: Any = 1) -> Tensor:
        """``self += value * tensor1 / tensor2`` in place."""
        return ternary.addcdiv_(self, tensor1, tensor2, value=value)

    def nan_to_num(
        self, nan: float = 0.0, posinf: float | None = None, neginf: float | None = None
    ) -> Tensor:
        """nan, +inf and -inf replaced by finite values."""
        return unary.nan_to_num(self, nan, posinf, neginf)

    def nan_to_num_(
        self, nan: float = 0.0, posinf: float | None = None, neginf: float | None = None
    ) -> Tensor:
        """nan, +inf and -inf replaced by finite values, in place."""
        return unary.nan_to_num_(self, nan, posinf, neginf)

    def where(self, condition: Any, other: Any) -> Tensor:
        """``self`` where ``condition`` is True, else ``other``."""
        return comparison.where(condition, self, other)


    # --- reductions (more) -------------------------------------------------------------------

    def prod(
        self, dim: Any = reduction.EVERY_DIM, keepdim: bool = False, *, dtype: Any = None
    ) -> Tensor:
        """Product of all elements, or over ``dim``."""
        return reduction.prod(self, dim, keepdim, dtype=dtype)

    def var(self, dim: Any = _arguments.NOT_GIVEN, unbiased: bool = _arguments.NOT_GIVEN,
            keepdim: bool = _arguments.NOT_GIVEN, *,
            correction: float | None = _arguments.NOT_GIVEN) -> Tensor:
        """Variance over ``dim`` (all elements if None), dividing by ``n - correction``."""
        return reduction.var(self, dim, unbiased, keepdim, correction=correction)

    def std(self, dim: Any = _arguments.NOT_GIVEN, unbiased: bool = _arguments.NOT_GIVEN,
            keepdim: bool = _arguments.NOT_GIVEN, *,
            correction: float | None = _arguments.NOT_GIVEN) -> Tensor:
        """Standard deviation over ``dim`` (all elements if None)."""
        return reduction.std(self, dim, unbiased, keepdim, correction=correction)

    def max(self, dim: Any = _arguments.NOT_GIVEN, keepdim: bool = False) -> Any:
        """The largest element; ``(values, indices)`` over ``dim``; or ``maximum(self, other)``."""
        return reduction.max(self, dim, keepdim)

    def min(self, dim: Any = _arguments.NOT_GIVEN, keepdim: bool = False) -> Any:
        """The smallest element; ``(values, indices)`` over ``dim``; or ``minimum(self, other)``."""
        return reduction.min(self, dim, keepdim)

    def amax(self, dim: Any = (), keepdim: bool = False) -> Tensor:
        """The maximum over ``dim`` (all dims by default)."""
        return reduction.amax(self, dim, keepdim)

    def amin(self, dim: Any = (), keepdim: bool = False) -> Tensor:
        """The minimum over ``dim`` (all dims by default)."""
        return reduction.amin(self, dim, keepdim)

    def aminmax(self, *, dim: int | None = None, keepdim: bool = False) -> Any:
        """``(min, max)`` of all elements, or over ``dim``."""
        return reduction_pairs.aminmax(self, dim=dim, keepdim=keepdim)

    def median(self, dim: int = _arguments.NOT_GIVEN, keepdim: bool = False) -> Any:
        """The lower median; ``(values, indices)`` over ``dim``."""
        return median.median(self, dim, keepdim)

    def nanmedian(self, dim: int = _arguments.NOT_GIVEN, keepdim: bool = False) -> Any:
        """The lower median of the values that are not NaN; ``(values, indices)`` over ``dim``."""
        return median.nanmedian(self, dim, keepdim)

    def argmax(self, dim: int | None = None, keepdim: bool = False) -> Tensor:
        """The index of the largest element (flattened, or along ``dim``)."""
        return reduction.argmax(self, dim, keepdim)

    def argmin(self, dim: int | None = None, keepdim: bool = False) -> Tensor:
        """The index of the smallest element (flattened, or along ``dim``)."""
        return reduction.argmin(self, dim, keepdim)

    def logsumexp(self, dim: Any, keepdim: bool = False) -> Tensor:
        """``log(sum(exp(self)))`` over ``dim``, without overflow."""
        return reduction.logsumexp(self, dim, keepdim)

    def nansum(self, dim: Any = None, keepdim: bool = False, *, dtype: Any = None) -> Tensor:
        """Sum of the elements that are not NaN, of all or over ``dim``."""
        return reduction_extra.nansum(self, dim, keepdim, dtype=dtype)

    def cross(self, other: Any, dim: int | None = None) -> Tensor:
        """The cross product of 3-vectors along ``dim`` (see ``minigrad.cross``)."""
        return vector_products.cross(self, other, dim)

    def inner(self, other: Any) -> Tensor:
        """Sums of products over the last dims (see ``minigrad.inner``)."""
        return vector_products.inner(self, other)

    def kron(self, other: Any) -> Tensor:
        """The Kronecker product with ``other``."""
        return vector_products.kron(self, other)

    def vdot(self, other: Any) -> Tensor:
        """The dot product with ``other``, this vector conjugated."""
        return vector_products.vdot(self, other)

    def nanmean(self, dim: Any = None, keepdim: bool = False, *, dtype: Any = None) -> Tensor:
        """The mean of the elements that are not NaN, of all or over ``dim``."""
        return statistics.nanmean(self, dim, keepdim, dtype=dtype)

    def quantile(
        self, q: Any, dim: int | None = None, keepdim: bool = False, *,
        interpolation: str = "linear",
    ) -> Tensor:
        """The ``q``-th quantiles, of all values or along ``dim`` (see ``minigrad.quantile``)."""
        return statistics.quantile(self, q, dim, keepdim, interpolation=interpolation)

    def nanquantile(
        self, q: Any, dim: int | None = None, keepdim: bool = False, *,
        interpolation: str = "linear",
    ) -> Tensor:
        """``quantile`` of the values that are not NaN."""
        return statistics.nanquantile(self, q, dim, keepdim, interpolation=interpolation)

    def count_nonzero(self, dim: Any = None) -> Tensor:
        """How many elements are nonzero, of all or over ``dim`` (int64)."""
        return reduction_extra.count_nonzero(self, dim)

    def dist(self, other: Any, p: float = 2) -> Tensor:
        """The ``p``-norm of ``self - other`` (broadcast), over all its elements."""
        return norms.dist(self, other, p)

    def norm(self, p: Any = "fro", dim: Any = None, keepdim: bool = False,
             dtype: Any = None) -> Tensor:
        """The ``p``-norm over ``dim`` (all elements if None); ``"nuc"``: nuclear norm."""
        return norms.norm(self, p, dim, keepdim, dtype)

    def cumsum(self, dim: int, *, dtype: Any = None) -> Tensor:
        """Cumulative sums along ``dim``."""
        return cumulative.cumsum(self, dim, dtype=dtype)

    def logcumsumexp(self, dim: int) -> Tensor:
        """``log(cumsum(exp(self), dim))``, computed without overflow."""
        return cumulative.logcumsumexp(self, dim)

    def cumprod(self, dim: int, *, dtype: Any = None) -> Tensor:
        """Cumulative products along ``dim``."""
        return cumulative.cumprod(self, dim, dtype=dtype)

    def cumsum_(self, dim: int, *, dtype: Any = None) -> Tensor:
        """Cumulative sums along ``dim``, in place."""
        return cumulative.cumsum_(self, dim, dtype=dtype)

    def cumprod_(self, dim: int, *, dtype: Any = None) -> Tensor:
        """Cumulative products along ``dim``, in place."""
        return cumulative.cumprod_(self, dim, dtype=dtype)

    def softmax(self, dim: int, dtype: Any = None) -> Tensor:
        """``exp(self) / sum(exp(self))`` along ``dim``."""
        return softmax.softmax(self, dim, dtype)

    def log_softmax(self, dim: int, dtype: Any = None) -> Tensor:
        """``log(softmax(self))`` along ``dim``, computed stably."""
        return softmax.log_softmax(self, dim, dtype)

    # Replace the dim-less all()/any() of the comparisons section (they take dim and keepdim).
    def all(self, dim: Any = None, keepdim: bool = False) -> Tensor:
        """True where every element (over ``dim``, or all) is nonzero."""
        return reduction.all(self, dim, keepdim)

    def any(self, dim: Any = None, keepdim: bool = False) -> Tensor:
        """True where some element (over ``dim``, or all) is nonzero."""
        return reduction.any(self, dim, keepdim)


    # --- linear algebra (more) ---------------------------------------------------------------

    def bmm(self, mat2: Any) -> Tensor:
        """Batched matrix product of 3-D tensors."""
        return linalg.bmm(self, mat2)

    def outer(self, vec2: Any) -> Tensor:
        """The outer product with the vector ``vec2``."""
        return linalg.outer(self, vec2)

    def addmm(self, mat1: Any, mat2: Any, *, beta: Any = 1, alpha: Any = 1) -> Tensor:
        """``beta * self + alpha * (mat1 @ mat2)``."""
        return linalg.addmm(self, mat1, mat2, beta=beta, alpha=alpha)

    def addmm_(self, mat1: Any, mat2: Any, *, beta: Any = 1, alpha: Any = 1) -> Tensor:
        """``self = beta * self + alpha * (mat1 @ mat2)``, in place."""
        return linalg.addmm_(self, mat1, mat2, beta=beta, alpha=alpha)

    def baddbmm(self, batch1: Any, batch2: Any, *, beta: Any = 1, alpha: Any = 1) -> Tensor:
        """``beta * self + alpha * bmm(batch1, batch2)``."""
        return linalg.baddbmm(self, batch1, batch2, beta=beta, alpha=alpha)

    def baddbmm_(self, batch1: Any, batch2: Any, *, beta: Any = 1, alpha: Any = 1) -> Tensor:
        """``self = beta * self + alpha * bmm(batch1, batch2)``, in place."""
        return linalg.baddbmm_(self, batch1, batch2, beta=beta, alpha=alpha)

    def addmv(self, mat: Any, vec: Any, *, beta: Any = 1, alpha: Any = 1) -> Tensor:
        """``beta * self + alpha * (mat @ vec)``."""
        return scaled_products.addmv(self, mat, vec, beta=beta, alpha=alpha)

    def addmv_(self, mat: Any, vec: Any, *, beta: Any = 1, alpha: Any = 1) -> Tensor:
        """``self = beta * self + alpha * (mat @ vec)``, in place."""
        return scaled_products.addmv_(self, mat, vec, beta=beta, alpha=alpha)

    def addr(self, vec1: Any, vec2: Any, *, beta: Any = 1, alpha: Any = 1) -> Tensor:
        """``beta * self + alpha * outer(vec1, vec2)``."""
        return scaled_products.addr(self, vec1, vec2, beta=beta, alpha=alpha)

    def addr_(self, vec1: Any, vec2: Any, *, beta: Any = 1, alpha: Any = 1) -> Tensor:
        """``self = beta * self + alpha * outer(vec1, vec2)``, in place."""
        return scaled_products.addr_(self, vec1, vec2, beta=beta, alpha=alpha)

    def addbmm(self, batch1: Any, batch2: Any, *, beta: Any = 1, alpha: Any = 1) -> Tensor:
        """``beta * self + alpha * sum_b batch1[b] @ batch2[b]``."""
        return scaled_products.addbmm(self, batch1, batch2, beta=beta, alpha=alpha)

    def addbmm_(self, batch1: Any, batch2: Any, *, beta: Any = 1, alpha: Any = 1) -> Tensor:
        """``self = beta * self + alpha * sum_b batch1[b] @ batch2[b]``, in place."""
        return scaled_products.addbmm_(self, batch1, batch2, beta=beta, alpha=alpha)

    def ger(self, vec2: Any) -> Tensor:
        """The outer product with the vector ``vec2`` (``outer``'s other name)."""
        return matrix_chains.ger(self, vec2)

    def matrix_power(self, n: int) -> Tensor:
        """This square matrix multiplied by itself ``n`` times (see ``linalg.matrix_power``)."""
        return matrix_chains.matrix_power(self, n)

    def cov(self, *, correction: int = 1, fweights: Any = None, aweights: Any = None) -> Tensor:
        """The covariance matrix of the variables in the rows (see ``minigrad.cov``)."""
        return covariance.cov(self, correction=correction, fweights=fweights, aweights=aweights)

    def corrcoef(self) -> Tensor:
        """The correlation coefficients of the variables in the rows."""
        return covariance.corrcoef(self)

    def matrix_exp(self) -> Tensor:
        """The matrix exponential (see ``minigrad.linalg.matrix_exp``)."""
        return matrix_functions.matrix_exp(self)

    def triangular_solve(self, A: Any, upper: bool = True, transpose: bool = False,  # noqa: N803
                         unitriangular: bool = False) -> Any:
        """``(solution, cloned_coefficient)`` of ``A X = self`` for triangular ``A``."""
        return triangular.triangular_solve(self, A, upper, transpose, unitriangular)

    def cholesky_solve(self, input2: Any, upper: bool = False) -> Tensor:
        """The solution of ``A X = self`` given the Cholesky factor ``input2`` of ``A``."""
        return triangular.cholesky_solve(self, input2, upper)

    def cholesky_inverse(self, upper: bool = False) -> Tensor:
        """The inverse of ``A`` given this Cholesky factor of it."""
        return triangular.cholesky_inverse(self, upper)

    def lu(self, pivot: bool = True, get_infos: bool = False) -> Any:
        """``(LU, pivots)`` (and ``infos``): the LU factorisation (see ``minigrad.lu``)."""
        return lu_module.lu_legacy(self, pivot, get_infos)

    def lu_solve(self, LU_data: Any, LU_pivots: Any) -> Tensor:  # noqa: N803 - PyTorch's names
        """The solution of ``A X = self`` given ``lu(A)`` (see ``minigrad.lu_solve``)."""
        return lu_module.lu_solve_legacy(self, LU_data, LU_pivots)


    # --- shape and indexing (copies) ---------------------------------------------------------

    def gather(self, dim: int, index: Any, *, sparse_grad: bool = False) -> Tensor:
        """The values at ``index`` along ``dim``."""
        return gather_scatter.gather(self, dim, index)

    def scatter(self, dim: int, index: Any, src: Any = None, *, value: Any = None,
                reduce: Any = _arguments.NOT_GIVEN) -> Tensor:
        """A copy with ``src`` (a tensor or a number) written at ``index`` along ``dim``."""
        return gather_scatter.scatter(self, dim, index, src, value=value, reduce=reduce)

    def scatter_add(self, dim: int, index: Any, src: Any) -> Tensor:
        """A copy with ``src`` added at ``index`` along ``dim``."""
        return gather_scatter.scatter_add(self, dim, index, src)

    def index_select(self, dim: int, index: Any) -> Tensor:
        """The slices at the positions ``index`` along ``dim``."""
        return index_ops.index_select(self, dim, index)

    def masked_select(self, mask: Any) -> Tensor:
        """The elements where ``mask`` is True, as a vector."""
        return index_ops.masked_select(self, mask)

    def take_along_dim(self, indices: Any, dim: int | None = None) -> Tensor:
        """The values at ``indices`` along ``dim`` (flattened if None)."""
        return gather_scatter.take_along_dim(self, indices, dim)

    def repeat(self, *sizes: Any, **named: Any) -> Tensor:
        """Tiled ``sizes[i]`` times along dimension i."""
        return shape.repeat(self, *_given(sizes, "repeat", "repeats", named))

    def repeat_interleave(
        self, repeats: Any, dim: int | None = None, *, output_size: int | None = None
    ) -> Tensor:
        """Each element (or slice along ``dim``) repeated ``repeats`` times, next to itself."""
        return repeating.repeat_interleave(self, repeats, dim, output_size=output_size)

    def tile(self, *dims: Any, **named: Any) -> Tensor:
        """``repeat`` with ``dims`` padded with leading 1s."""
        dims = _given(dims, "tile", "dims", named)
        return shape.tile(self, dims[0] if len(dims) == 1 else dims)

    def flip(self, *dims: Any, **named: Any) -> Tensor:
        """Reversed along ``dims`` (a copy)."""
        if named:
            dims = _given(dims, "flip", "dims", named)
        return shape.flip_method(self, dims)

    def rot90(self, k: int = 1, dims: Any = (0, 1)) -> Tensor:
        """Rotated by ``k`` quarter turns in the plane of ``dims`` (see ``minigrad.rot90``)."""
        return building.rot90(self, k, dims)

    def fliplr(self) -> Tensor:
        """Reversed left to right (along dim 1)."""
        return building.fliplr(self)

    def flipud(self) -> Tensor:
        """Reversed upside down (along dim 0)."""
        return building.flipud(self)

    def diagflat(self, offset: int = 0) -> Tensor:
        """A matrix with the flattened elements on its diagonal ``offset``."""
        return building.diagflat(self, offset)

    def roll(self, shifts: Any, dims: Any = None) -> Tensor:
        """Shifted cyclically by ``shifts`` along ``dims``."""
        return shape.roll(self, shifts, dims)

    def tril(self, diagonal: int = 0) -> Tensor:
        """The lower triangle of the last two dimensions."""
        return shape.tril(self, diagonal)

    def tril_(self, diagonal: int = 0) -> Tensor:
        """The lower triangle of the last two dimensions, in place."""
        return shape.tril_(self, diagonal)

    def triu(self, diagonal: int = 0) -> Tensor:
        """The upper triangle of the last two dimensions."""
        return shape.triu(self, diagonal)

    def triu_(self, diagonal: int = 0) -> Tensor:
        """The upper triangle of the last two dimensions, in place."""
        return shape.triu_(self, diagonal)

    def sort(self, dim: int = -1, descending: bool = False, *, stable: bool | None = False) -> Any:
        """``(values, indices)`` sorted along ``dim``."""
        return sorting.sort(self, dim, descending, stable=stable)

    def msort(self) -> Tensor:
        """Sorted along the first dimension (see ``minigrad.msort``)."""
        return sorting.msort(self)

    def sum_to_size(self, *size: Any) -> Tensor:
        """Summed down to ``size``, to which it broadcasts (see ``reduction_extra``)."""
        return reduction_extra.sum_to_size(self, *size)

    def argsort(self, dim: int = -1, descending: bool = False, *, stable: bool = False) -> Tensor:
        """The indices that sort along ``dim``."""
        return sorting.argsort(self, dim, descending, stable=stable)

    def topk(self, k: int, dim: int = -1, largest: bool = True, sorted: bool = True) -> Any:
        """``(values, indices)`` of the ``k`` largest (or smallest) along ``dim``."""
        return sorting.topk(self, k, dim, largest, sorted)


    # --- finding and counting (not differentiable) ------------------------------------------

    def nonzero(self, *, as_tuple: bool = False) -> Any:
        """The indices of the nonzero elements (see ``minigrad.nonzero``)."""
        return search.nonzero(self, as_tuple=as_tuple)

    def nonzero_static(self, *, size: int, fill_value: int = -1) -> Tensor:
        """The first ``size`` rows of ``nonzero()``, padded with ``fill_value`` rows."""
        return search.nonzero_static(self, size=size, fill_value=fill_value)

    def argwhere(self) -> Tensor:
        """The indices of the nonzero elements, one row per element."""
        return search.argwhere(self)

    def unique(
        self,
        sorted: bool = True,
        return_inverse: bool = False,
        return_counts: bool = False,
        dim: int | None = None,
    ) -> Any:
        """The distinct elements, sorted (see ``minigrad.unique``)."""
        return search.unique(self, sorted, return_inverse, return_counts, dim)

    def unique_consecutive(
        self, return_inverse: bool = False, return_counts: bool = False, dim: int | None = None
    ) -> Any:
        """Each run of equal consecutive elements kept once (``minigrad.unique_consecutive``)."""
        return search.unique_consecutive(self, return_inverse, return_counts, dim)

    def bincount(self, weights: Any = None, minlength: int = 0) -> Tensor:
        """How often each non-negative integer occurs (see ``minigrad.bincount``)."""
        return histogram.bincount(self, weights, minlength)

    def histc(self, bins: int = 100, min: Any = 0, max: Any = 0) -> Tensor:
        """A histogram in ``bins`` equal-width bins (see ``minigrad.histc``)."""
        return histogram.histc(self, bins, min, max)

    def geqrf(self) -> Any:
        """QR in LAPACK's compact form ``(a, tau)`` (see ``minigrad.geqrf``)."""
        return householder.geqrf(self)

    def orgqr(self, input2: Tensor) -> Tensor:
        """Q from ``geqrf``'s form (see ``minigrad.linalg.householder_product``)."""
        return householder.orgqr(self, input2)

    def ormqr(self, input2: Tensor, input3: Tensor, left: bool = True,
              transpose: bool = False) -> Tensor:
        """``op(Q) @ input3`` from ``geqrf``'s form (see ``minigrad.ormqr``)."""
        return householder.ormqr(self, input2, input3, left, transpose)

    def histogram(self, bins: Any = 100, *, range: Any = None, weight: Any = None,
                  density: bool = False) -> Any:
        """``(hist, bin_edges)`` of the values (see ``minigrad.histogram``)."""
        return histogram.histogram(self, bins, range=range, weight=weight, density=density)

    # --- writing at indices, diagonals (issue 9) ---------------------------------------------

    def index_add(self, dim: int, index: Any, source: Any, *, alpha: Any = 1) -> Tensor:
        """A copy with ``alpha * source``'s slices added at ``index`` along ``dim``."""
        return index_ops.index_add(self, dim, index, source, alpha=alpha)

    def index_copy(self, dim: int, index: Any, source: Any) -> Tensor:
        """A copy with ``source``'s slices written at ``index`` along ``dim``."""
        return index_ops.index_copy(self, dim, index, source)

    def index_fill(self, dim: int, index: Any, value: Any) -> Tensor:
        """A copy with the slices at ``index`` along ``dim`` set to ``value``."""
        return index_ops.index_fill(self, dim, index, value)

    def scatter_reduce(self, dim: int, index: Any, src: Any, reduce: str, *,
                       include_self: bool = True) -> Tensor:
        """A copy with ``src`` combined in at ``index`` along ``dim`` by ``reduce``."""
        return gather_scatter.scatter_reduce(self, dim, index, src, reduce,
                                             include_self=include_self)

    def masked_scatter(self, mask: Any, source: Any) -> Tensor:
        """A copy with the positions where ``mask`` is True filled from ``source``."""
        return index_ops.masked_scatter(self, mask, source)

    def take(self, index: Any) -> Tensor:
        """The elements (read as 1-D) at ``index``."""
        return index_ops.take(self, index)

    def index_put(self, indices: Any, values: Any, accumulate: bool = False) -> Tensor:
        """A copy with ``values`` written (or added) at the index tensors ``indices``."""
        return indexing.index_put(self, indices, values, accumulate)

    def put(self, index: Any, source: Any, accumulate: bool = False) -> Tensor:
        """A copy (read as 1-D) with ``source`` written (or added) at ``index``."""
        return index_writes.put(self, index, source, accumulate)

    def index_reduce(self, dim: int, index: Any, source: Any, reduce: str, *,
                     include_self: bool = True) -> Tensor:
        """A copy with ``source``'s slices combined in at ``index`` along ``dim``."""
        return index_writes.index_reduce(self, dim, index, source, reduce,
                                         include_self=include_self)

    def as_strided(self, size: Any, stride: Any, storage_offset: Any = None) -> Tensor:
        """A view of this tensor's memory with the given geometry (see ``minigrad.as_strided``)."""
        return as_strided_module.as_strided(self, size, stride, storage_offset)

    def as_strided_(self, size: Any, stride: Any, storage_offset: Any = None) -> Tensor:
        """Take the geometry (``size``, ``stride``, ``storage_offset``) in place."""
        return as_strided_module.as_strided_(self, size, stride, storage_offset)

    def as_strided_scatter(self, src: Any, size: Any, stride: Any,
                           storage_offset: Any = None) -> Tensor:
        """A copy whose elements at the given geometry hold ``src``."""
        return as_strided_module.as_strided_scatter(self, src, size, stride, storage_offset)

    def narrow_copy(self, dim: int, start: int, length: int) -> Tensor:
        """A copy (not a view) of elements ``start`` to ``start + length`` along ``dim``."""
        return shape.narrow_copy(self, dim, start, length)

    def unsafe_split(self, split_size: int, dim: int = 0) -> tuple[Tensor, ...]:
        """``split``, its pieces not views for autograd (see ``minigrad.unsafe_split``)."""
        return splitting.unsafe_split(self, split_size, dim)

    def unsafe_split_with_sizes(self, split_sizes: Any, dim: int = 0) -> tuple[Tensor, ...]:
        """``split_with_sizes``, its pieces not views for autograd."""
        return splitting.unsafe_split_with_sizes(self, split_sizes, dim)

    def unsafe_chunk(self, chunks: int, dim: int = 0) -> tuple[Tensor, ...]:
        """``chunk``, its pieces not views for autograd."""
        return splitting.unsafe_chunk(self, chunks, dim)

    def frexp(self) -> Any:
        """``self`` as ``mantissa * 2 ** exponent`` (see ``minigrad.frexp``)."""
        return mantissa.frexp(self)

    def ldexp(self, other: Tensor) -> Tensor:
        """``self * 2 ** other``."""
        return mantissa.ldexp(self, other)

    def ldexp_(self, other: Tensor) -> Tensor:
        """``self *= 2 ** other``, in place."""
        return mantissa.ldexp_(self, other)

    def renorm(self, p: float, dim: int, maxnorm: float) -> Tensor:
        """Slices along ``dim`` of ``p``-norm above ``maxnorm`` scaled down to it."""
        return norms.renorm(self, p, dim, maxnorm)

    def renorm_(self, p: float, dim: int, maxnorm: float) -> Tensor:
        """Scale the slices along ``dim`` of ``p``-norm above ``maxnorm`` down to it, in place."""
        return norms.renorm_(self, p, dim, maxnorm)

    def slice_scatter(self, src: Any, dim: int = 0, start: Any = None, end: Any = None,
                      step: int = 1) -> Tensor:
        """A copy with the slice ``start:end:step`` along ``dim`` replaced by ``src``."""
        return view_scatters.slice_scatter(self, src, dim, start, end, step)

    def select_scatter(self, src: Any, dim: int, index: int) -> Tensor:
        """A copy with the slice at ``index`` along ``dim`` replaced by ``src``."""
        return view_scatters.select_scatter(self, src, dim, index)

    def diagonal_scatter(self, src: Any, offset: int = 0, dim1: int = 0, dim2: int = 1) -> Tensor:
        """A copy with the diagonal ``offset`` of ``dim1``, ``dim2`` replaced by ``src``."""
        return view_scatters.diagonal_scatter(self, src, offset, dim1, dim2)

    def diag(self, diagonal: int = 0) -> Tensor:
        """A vector's diagonal matrix, or a matrix's diagonal (see ``minigrad.diag``)."""
        return constructions.diag(self, diagonal)

    def diag_embed(self, offset: int = 0, dim1: int = -2, dim2: int = -1) -> Tensor:
        """The last dim written onto diagonals of zeros (see ``minigrad.diag_embed``)."""
        return constructions.diag_embed(self, offset, dim1, dim2)

    # --- linear algebra: solvers and decompositions (issue 9) -------------------------------

    def inverse(self) -> Tensor:
        """The inverse of this square matrix (``minigrad.linalg.inv``)."""
        return solvers.inverse(self)

    def det(self) -> Tensor:
        """The determinant (``minigrad.linalg.det``)."""
        return determinants.det(self)

    def logdet(self) -> Tensor:
        """The log of the determinant (nan where it is negative)."""
        return determinants.logdet(self)

    def slogdet(self) -> Any:
        """``(sign, logabsdet)`` of the determinant."""
        return determinants.slogdet_legacy(self)

    def cholesky(self, upper: bool = False) -> Tensor:
        """The Cholesky factor (deprecated in PyTorch: ``minigrad.linalg.cholesky``)."""
        return decompositions.cholesky_legacy(self, upper)

    def qr(self, some: bool = True) -> Any:
        """``(Q, R)`` (deprecated in PyTorch: ``minigrad.linalg.qr``)."""
        return decompositions.qr_legacy(self, some)

    def svd(self, some: bool = True, compute_uv: bool = True) -> Any:
        """``(U, S, V)`` with this matrix = U diag(S) V^T (see ``minigrad.svd``)."""
        return decompositions.svd_legacy(self, some, compute_uv)

    def pinverse(self, rcond: float = 1e-15) -> Tensor:
        """The pseudo-inverse (``minigrad.pinverse``)."""
        return decompositions.pinverse(self, rcond)

    # --- in-place: every one goes through autograd/inplace.py --------------------------------

    def add_(self, other: Any, *, alpha: Any = 1) -> Tensor:
        """``self += alpha * other`` in place."""
        return arithmetic.add_(self, other, alpha=alpha)

    def sub_(self, other: Any, *, alpha: Any = 1) -> Tensor:
        """``self -= alpha * other`` in place."""
        return arithmetic.sub_(self, other, alpha=alpha)

    def mul_(self, other: Any) -> Tensor:
        """``self *= other`` in place."""
        return arithmetic.mul_(self, other)

    def div_(self, other: Any, *, rounding_mode: Any = _arguments.NOT_GIVEN) -> Tensor:
        """``self /= other`` in place; ``rounding_mode`` "trunc" or "floor" rounds it."""
        return arithmetic.div_(self, other, rounding_mode=rounding_mode)

    # NumPy's names, which PyTorch takes too
    subtract_ = sub_
    multiply_ = mul_
    divide_ = div_

    def eq_(self, other: Any) -> Tensor:
        """``self = (self == other)`` in place, as 1 and 0 in ``self``'s dtype."""
        return comparison.compare_(self, other, "eq")

    def ne_(self, other: Any) -> Tensor:
        """``self = (self != other)`` in place, as 1 and 0 in ``self``'s dtype."""
        return comparison.compare_(self, other, "ne")

    def lt_(self, other: Any) -> Tensor:
        """``self = (self < other)`` in place, as 1 and 0 in ``self``'s dtype."""
        return comparison.compare_(self, other, "lt")

    def le_(self, other: Any) -> Tensor:
        """``self = (self <= other)`` in place, as 1 and 0 in ``self``'s dtype."""
        return comparison.compare_(self, other, "le")

    def gt_(self, other: Any) -> Tensor:
        """``self = (self > other)`` in place, as 1 and 0 in ``self``'s dtype."""
        return comparison.compare_(self, other, "gt")

    def ge_(self, other: Any) -> Tensor:
        """``self = (self >= other)`` in place, as 1 and 0 in ``self``'s dtype."""
        return comparison.compare_(self, other, "ge")

    # PyTorch's other names for them
    not_equal_ = ne_
    less_ = lt_
    less_equal_ = le_
    greater_ = gt_
    greater_equal_ = ge_

    def pow_(self, exponent: Any) -> Tensor:
        """``self **= exponent`` in place."""
        return power.pow_(self, exponent)

    def clamp_(self, min: Any = None, max: Any = None) -> Tensor:
        """Limit every element to ``[min, max]`` in place."""
        return clamp.clamp_(self, min, max)

    clip_ = clamp_

    def neg_(self) -> Tensor:
        """``self = -self`` in place."""
        return unary.neg_(self)

    def abs_(self) -> Tensor:
        """``self = |self|`` in place."""
        return unary.abs_(self)

    negative_ = neg_  # (NumPy's names, which PyTorch takes too)
    absolute_ = abs_

    def exp_(self) -> Tensor:
        """``self = exp(self)`` in place (saves the result: a later in-place write breaks it)."""
        return unary.exp_(self)

    def log_(self) -> Tensor:
        """``self = log(self)`` in place."""
        return unary.log_(self)

    def sqrt_(self) -> Tensor:
        """``self = sqrt(self)`` in place."""
        return unary.sqrt_(self)

    def sigmoid_(self) -> Tensor:
        """``self = sigmoid(self)`` in place."""
        return unary.sigmoid_(self)

    def tanh_(self) -> Tensor:
        """``self = tanh(self)`` in place."""
        return unary.tanh_(self)

    def relu_(self) -> Tensor:
        """``self = max(self, 0)`` in place."""
        return unary.relu_(self)

    def zero_(self) -> Tensor:
        """Fill with zeros in place."""
        return fill.zero_(self)

    def fill_(self, value: Any) -> Tensor:
        """Fill with ``value`` (a number or a 0-d tensor) in place."""
        return fill.fill_(self, value)

    def fill_diagonal_(self, fill_value: Any, wrap: bool = False) -> Tensor:
        """Fill the main diagonal with ``fill_value`` in place (``wrap``: tall matrices again)."""
        return fill.fill_diagonal_(self, fill_value, wrap)

    def copy_(self, other: Any, non_blocking: bool = False) -> Tensor:
        """Copy ``other``'s values (broadcast to this shape) into this tensor.

        PyTorch's names: the source is ``other``; ``non_blocking`` changes nothing on the CPU.
        """
        return fill.copy_(self, other)

    def normal_(self, mean: float = 0.0, std: float = 1.0, *,
                generator: _random.Generator | None = None) -> Tensor:
        """Fill with samples from Normal(mean, std) in place."""
        return fill.normal_(self, mean, std, generator=generator)

    def bernoulli(self, p: float | None = None, *,
                  generator: _random.Generator | None = None) -> Tensor:
        """1 with probability ``self`` (or ``p``) in each element, else 0."""
        return sampling.bernoulli(self, p, generator=generator)

    def bernoulli_(self, p: Any = 0.5, *, generator: _random.Generator | None = None) -> Tensor:
        """Fill with 1 with probability ``p`` (a number or a tensor), else 0, in place."""
        return sampling.bernoulli_(self, p, generator=generator)

    def multinomial(self, num_samples: int, replacement: bool = False, *,
                    generator: _random.Generator | None = None) -> Tensor:
        """Indices drawn from the categories weighted by the last dimension (int64)."""
        return sampling.multinomial(self, num_samples, replacement, generator=generator)

    def exponential_(self, lambd: float = 1.0, *,
                     generator: _random.Generator | None = None) -> Tensor:
        """Fill with samples of Exponential(``lambd``), in place."""
        return sampling.exponential_(self, lambd, generator=generator)

    def geometric_(self, p: float, *, generator: _random.Generator | None = None) -> Tensor:
        """Fill with samples of Geometric(``p``), in place."""
        return sampling.geometric_(self, p, generator=generator)

    def log_normal_(self, mean: float = 1.0, std: float = 2.0, *,
                    generator: _random.Generator | None = None) -> Tensor:
        """Fill with ``exp`` of Normal(``mean``, ``std``) samples, in place."""
        return sampling.log_normal_(self, mean, std, generator=generator)

    def cauchy_(self, median: float = 0.0, sigma: float = 1.0, *,
                generator: _random.Generator | None = None) -> Tensor:
        """Fill with samples of Cauchy(``median``, ``sigma``), in place."""
        return sampling.cauchy_(self, median, sigma, generator=generator)

    def random_(self, from_: int | None = None, to: int | None = None, *,
                generator: _random.Generator | None = None) -> Tensor:
        """Fill with integers drawn uniformly, in place.

        From the dtype's range of exact integers, ``[0, to)`` or ``[from, to)``.
        """
        return sampling.random_(self, from_, to, generator=generator)

    def uniform_(self, from_: float = 0.0, to: float = 1.0, *,
                 generator: _random.Generator | None = None) -> Tensor:
        """Fill with samples from Uniform[from_, to) in place."""
        return fill.uniform_(self, from_, to, generator=generator)

    def masked_fill_(self, mask: Tensor, value: Any) -> Tensor:
        """Write ``value`` where ``mask`` is True, in place."""
        return fill.masked_fill_(self, mask, value)

    def masked_fill(self, mask: Tensor, value: Any) -> Tensor:
        """A copy with ``value`` written where ``mask`` is True."""
        return fill.masked_fill(self, mask, value)

    def scatter_(
        self, dim: int, index: Tensor, src: Any = None, *, value: Any = None,
        reduce: Any = _arguments.NOT_GIVEN,
    ) -> Tensor:
        """Write ``src`` (a tensor or number) at ``index`` along ``dim``, in place."""
        return gather_scatter.scatter_(self, dim, index, src, value=value, reduce=reduce)

    def scatter_add_(self, dim: int, index: Tensor, src: Tensor) -> Tensor:
        """Add ``src`` at ``index`` along ``dim``, in place."""
        return gather_scatter.scatter_add_(self, dim, index, src)

    def scatter_reduce_(self, dim: int, index: Tensor, src: Tensor, reduce: str, *,
                        include_self: bool = True) -> Tensor:
        """Combine ``src`` in at ``index`` along ``dim`` by ``reduce``, in place."""
        return gather_scatter.scatter_reduce_(
            self, dim, index, src, reduce, include_self=include_self
        )

    def index_add_(self, dim: int, index: Tensor, source: Tensor, *, alpha: Any = 1) -> Tensor:
        """Add ``alpha * source``'s slices at ``index`` along ``dim``, in place."""
        return index_ops.index_add_(self, dim, index, source, alpha=alpha)

    def index_copy_(self, dim: int, index: Tensor, source: Tensor) -> Tensor:
        """Write ``source``'s slices at ``index`` along ``dim``, in place."""
        return index_ops.index_copy_(self, dim, index, source)

    def index_fill_(self, dim: int, index: Tensor, value: Any) -> Tensor:
        """Set the slices at ``index`` along ``dim`` to ``value``, in place."""
        return index_ops.index_fill_(self, dim, index, value)

    def index_put_(self, indices: Any, values: Tensor, accumulate: bool = False) -> Tensor:
        """Write (or add) ``values`` at the index tensors ``indices``, in place."""
        return indexing.index_put_(self, indices, values, accumulate)

    def put_(self, index: Tensor, source: Tensor, accumulate: bool = False) -> Tensor:
        """Write (or add) ``source`` at ``index`` (read as 1-D), in place."""
        return index_writes.put_(self, index, source, accumulate)

    def index_reduce_(self, dim: int, index: Tensor, source: Tensor, reduce: str, *,
                      include_self: bool = True) -> Tensor:
        """Combine ``source``'s slices in at ``index`` along ``dim`` by ``reduce``, in place."""
        return index_writes.index_reduce_(self, dim, index, source, reduce,
                                          include_self=include_self)

    def masked_scatter_(self, mask: Tensor, source: Tensor) -> Tensor:
        """Fill the positions where ``mask`` is True from ``source``, in place."""
        return index_ops.masked_scatter_(self, mask, source)


def is_tensor(obj: Any) -> bool:
    """True if ``obj`` is a minigrad tensor.

    Example:
        >>> import minigrad
        >>> minigrad.is_tensor(minigrad.ones(1)), minigrad.is_tensor([1.0])
        (True, False)
    """
    return isinstance(obj, Tensor)


def numel(input: Tensor) -> int:
    """The number of elements of ``input``."""
    return input.numel()


def is_floating_point(input: Tensor) -> bool:
    """True if ``input`` has a floating-point dtype."""
    return input.is_floating_point()


def is_complex(input: Tensor) -> bool:
    """False: minigrad has no complex dtypes."""
    return input.is_complex()


def is_signed(input: Tensor) -> bool:
    """True if ``input``'s dtype holds negative numbers (all but bool and uint8)."""
    return input.is_signed()


def is_conj(input: Tensor) -> bool:
    """False: minigrad's tensors are real (no pending conjugation)."""
    return input.is_conj()


def is_neg(input: Tensor) -> bool:
    """False: minigrad's tensors are real (no pending negation)."""
    return input.is_neg()


def conj(input: Tensor) -> Tensor:
    """``input``'s complex conjugate: a real tensor is returned as it is.

    Example:
        >>> import minigrad
        >>> x = minigrad.ones(2)
        >>> minigrad.conj(x) is x
        True
    """
    return input.conj()


def resolve_conj(input: Tensor) -> Tensor:
    """``input`` with a pending conjugation applied: a real tensor, as it is."""
    return input.resolve_conj()


def resolve_neg(input: Tensor) -> Tensor:
    """``input`` with a pending negation applied: a real tensor, as it is."""
    return input.resolve_neg()


def is_inference(input: Tensor) -> bool:
    """True if ``input`` was made in ``inference_mode`` (see ``Tensor.is_inference``)."""
    return input.is_inference()


def detach(input: Tensor) -> Tensor:
    """``input.detach()``: the same data and version counter, without history."""
    return input.detach()


def is_nonzero(input: Tensor) -> bool:
    """The truth of a one-element tensor (an error for any other)."""
    return input.is_nonzero()


def is_same_size(input: Tensor, other: Tensor) -> bool:
    """True if ``input`` and ``other`` have the same shape."""
    return input.is_same_size(other)


# Op outputs are minigrad.Tensor objects.
bind_output_class(Tensor)


# PyTorch's TypeError for an argument of the wrong type (minigrad/_arguments.py).
_arguments.check_methods(Tensor, list(vars(Tensor)))


# The floating dtypes of native byte order: a reduction of one computes in its dtype (a set's
# test costs ~0.03 us less than ``dtype.kind``'s; any other dtype just takes the general way).
_FLOAT_DTYPES = frozenset(np.dtype(t) for t in (np.float16, np.float32, np.float64))


def _reduction_shortcut(
    checked: Callable[..., Any], record: Callable[[Any], Tensor], over_dim: Callable[..., Any]
) -> Callable[..., Any]:
    """``Tensor.sum`` (``mean``) with its argument checks; ``x.sum()``, ``x.sum(1)`` without.

    The checks (``_arguments.checking_arguments``) are a layer of their own around the method,
    which costs a recorded ``x.sum()`` as much again as Sum's recording: a call without
    arguments has nothing to check, and records at once (the op's recording function,
    ``record``) when nothing needs casting; a call with an ``int`` dim and a ``bool`` keepdim,
    positional or named (``x.sum(1)``, ``x.sum(dim=1, keepdim=True)``), has nothing the checks
    would refuse either (a dim out of range is the op's own error), and goes straight to the
    op's function, ``over_dim`` (``reduction.sum``: the checks' layer is ~2,300 of a no-grad
    ``m.sum(1)``'s ~32,500 instructions, ~12,000 of ``m.sum(dim=1, keepdim=True)``'s ~51,000:
    keywords take its slow way).
    """

    @functools.wraps(checked)
    def reduce(self: Tensor, *args: Any, **kwargs: Any) -> Tensor:
        """``x.sum()`` records at once, ``x.sum(1)`` skips the checks; the rest is checked."""
        dtype = self._dtype  # (kept on the tensor, as the recorders keep it: a slot read)
        if dtype is None:
            dtype = self._dtype = self._array.dtype
        if dtype in _FLOAT_DTYPES:
            if not kwargs:
                if not args:
                    return record(self)
                if len(args) == 1 and type(args[0]) is int:
                    return over_dim(self, args[0])
            dim, keepdim = _dim_and_keepdim(args, kwargs)
            if type(dim) is int and type(keepdim) is bool:
                return over_dim(self, dim, keepdim)
        return checked(self, *args, **kwargs)

    return reduce


_DIM_KEEPDIM = frozenset(("dim", "keepdim"))


def _dim_and_keepdim(args: tuple[Any, ...], kwargs: dict[str, Any]) -> tuple[Any, Any]:
    """A reduction call's ``dim`` and ``keepdim``, positional or named, if it gives only those.

    ``(None, None)`` for any other call (another argument, ``dim`` given twice, NumPy's
    names), which the checks then read.
    """
    if len(args) > 2 or not kwargs.keys() <= _DIM_KEEPDIM or len(args) + len(kwargs) > 2:
        return None, None
    if len(args) == 2:
        return args
    if args:
        return (None, None) if "dim" in kwargs else (args[0], kwargs.get("keepdim", False))
    return kwargs.get("dim"), kwargs.get("keepdim", False)


Tensor.sum = _reduction_shortcut(  # type: ignore[method-assign]
    Tensor.sum, reduction.Sum._record, reduction.sum)
Tensor.mean = _reduction_shortcut(  # type: ignore[method-assign]
    Tensor.mean, reduction.Mean._record, reduction.mean)
# var's and std's warning (no degrees of freedom) points at the caller of the method, as
# PyTorch's does: their frames are wrappers of the module functions.
for _method in (Tensor.var, Tensor.std):
    _warnings.register_wrapper(inspect.unwrap(_method).__code__)
# Tensor.mul(2, t): PyTorch's descriptor TypeError, checked only through the class (last:
# every method is final now; an instance's lookup is left as it was).
_unbound_methods.install()
