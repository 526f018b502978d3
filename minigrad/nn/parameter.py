"""``nn.Parameter``: a tensor that a ``Module`` registers as one of its parameters."""

from __future__ import annotations

from typing import Any

import numpy as np

from minigrad import errors
from minigrad.autograd.tensor_base import TensorBase, set_array
from minigrad.creation import empty
from minigrad.tensor import Tensor


class Parameter(Tensor):
    """A leaf tensor that requires grad (by default) and that modules register on assignment.

    ``Parameter(data)`` shares ``data``'s buffer *and* version counter, as PyTorch's does: it is
    ``data.detach()`` turned into a parameter. Results of ops on a parameter are plain tensors.

    Args:
        data: The initial value (default: an empty tensor).
        requires_grad: Whether the parameter requires a gradient (default True).

    Example:
        >>> import minigrad
        >>> from minigrad import nn
        >>> nn.Parameter(minigrad.zeros(2))
        Parameter containing:
        tensor([0., 0.], requires_grad=True)
    """

    def __new__(cls, data: Tensor | None = None, requires_grad: bool = True) -> Parameter:
        """A parameter on ``data``'s buffer and version counter."""
        if data is None:
            data = empty(0)
        if not isinstance(data, TensorBase):  # PyTorch's text: it calls data.detach()
            raise AttributeError(f"'{type(data).__name__}' object has no attribute 'detach'")
        if requires_grad and data._array.dtype.kind != "f":
            raise RuntimeError(errors.ONLY_FLOAT_FACTORY_REQUIRES_GRAD)
        counter = data._version_counter()
        return cls._make(data._array, counter=counter, requires_grad=bool(requires_grad))

    def __repr__(self) -> str:
        return "Parameter containing:\n" + super().__repr__()

    __str__ = __repr__

    def __deepcopy__(self, memo: dict[int, Any]) -> Parameter:
        if id(self) in memo:
            return memo[id(self)]
        result = type(self)(self.data.clone(), self.requires_grad)
        memo[id(self)] = result
        return result


_ARRAY_SLOT = TensorBase.__dict__["_array"]  # the slot itself, under the property below

_UNINITIALIZED_USE = (
    "Attempted to use an uninitialized parameter in {}. This error happens when you are using a "
    "`LazyModule` or explicitly manipulating `minigrad.nn.parameter.UninitializedParameter` "
    "objects. When using LazyModules Call `forward` with a dummy batch to initialize the "
    "parameters before calling minigrad functions"
)


class UninitializedTensorMixin:
    """A tensor without values yet: a lazy module's parameter or buffer before its first call.

    Reading its values (any op) raises PyTorch's ValueError, its shape PyTorch's RuntimeError;
    ``materialize(shape)`` gives it memory and turns it into ``cls_to_become`` (``Parameter``
    or ``Tensor``) in place, so modules and optimizers holding it keep the same object.
    """

    __slots__ = ()
    cls_to_become: type

    @property
    def _array(self) -> Any:
        raise ValueError(_UNINITIALIZED_USE.format("an operation"))

    @_array.setter
    def _array(self, value: Any) -> None:
        _ARRAY_SLOT.__set__(self, value)

    @property
    def dtype(self) -> Any:
        """The dtype the tensor will have when materialized."""
        from minigrad import _dtype

        return _dtype.from_numpy_dtype(_ARRAY_SLOT.__get__(self).dtype)

    @property
    def shape(self) -> Any:
        """Refused: there is no shape before ``materialize``."""
        raise RuntimeError(
            "Can't access the shape of an uninitialized parameter or buffer. This error usually "
            "happens in `load_state_dict` when trying to load an uninitialized parameter into "
            "an initialized one. Call `forward` to initialize the parameters before accessing "
            "their attributes."
        )

    @property
    def data(self) -> Any:
        """Refused, as any read of the values (the setter takes another one's dtype)."""
        raise ValueError(_UNINITIALIZED_USE.format("data"))

    @data.setter
    def data(self, other: Any) -> None:
        # Module.to / .double() on a lazy module: take the new (still empty) dtype.
        set_array(self, _ARRAY_SLOT.__get__(other))

    def is_floating_point(self) -> bool:
        """Whether the dtype it will have is a floating-point one."""
        return bool(_ARRAY_SLOT.__get__(self).dtype.kind == "f")

    def _with_dtype(self, dtype: Any) -> Any:
        return type(self)(self.requires_grad, dtype=dtype)

    def to(self, *args: Any, **kwargs: Any) -> Any:
        """Another uninitialized tensor of the dtype asked for (devices: the CPU only)."""
        from minigrad import _dtype

        dtype = kwargs.get("dtype")
        for arg in args:
            if isinstance(arg, _dtype.dtype):
                dtype = arg
        return self if dtype is None else self._with_dtype(dtype)

    def double(self, *args: Any, **kwargs: Any) -> Any:
        """Another uninitialized tensor, of float64."""
        from minigrad import _dtype

        return self._with_dtype(_dtype.float64)

    def float(self, *args: Any, **kwargs: Any) -> Any:
        """Another uninitialized tensor, of float32."""
        from minigrad import _dtype

        return self._with_dtype(_dtype.float32)

    def half(self, *args: Any, **kwargs: Any) -> Any:
        """Another uninitialized tensor, of float16."""
        from minigrad import _dtype

        return self._with_dtype(_dtype.float16)

    def materialize(self, shape: Any, device: Any = None, dtype: Any = None) -> None:
        """Give the tensor memory of ``shape`` (uninitialized values) and its final class."""
        from minigrad import _dtype

        numpy_dtype = (
            _ARRAY_SLOT.__get__(self).dtype
            if dtype is None
            else (_dtype.to_numpy_dtype(dtype, "materialize"))
        )
        shape = (shape,) if isinstance(shape, int) else tuple(shape)
        self.__class__ = self.cls_to_become
        set_array(self, np.empty(shape, dtype=numpy_dtype))

    def __repr__(self) -> str:
        return f"<{type(self).__name__}>"

    __str__ = __repr__

    def __deepcopy__(self, memo: dict[int, Any]) -> Any:
        if id(self) in memo:
            return memo[id(self)]
        result = type(self)(self.requires_grad, dtype=self.dtype)
        memo[id(self)] = result
        return result


def _empty_of(dtype: Any) -> np.ndarray:
    from minigrad import _dtype

    return np.empty(
        0, dtype=_dtype.default_float() if dtype is None else _dtype.to_numpy_dtype(dtype, "empty")
    )


class UninitializedParameter(UninitializedTensorMixin, Parameter):
    """A parameter whose shape is not known yet (lazy modules): becomes a ``Parameter``.

    Example:
        >>> from minigrad import nn
        >>> p = nn.UninitializedParameter()
        >>> p
        <UninitializedParameter>
        >>> p.materialize((2,))
        >>> type(p).__name__, p.shape
        ('Parameter', minigrad.Size([2]))
    """

    __slots__ = ()
    cls_to_become = Parameter

    def __new__(
        cls, requires_grad: bool = True, device: Any = None, dtype: Any = None
    ) -> UninitializedParameter:
        """An uninitialized parameter of ``dtype`` (default: the default float dtype)."""
        return cls._make(_empty_of(dtype), requires_grad=bool(requires_grad))


class UninitializedBuffer(UninitializedTensorMixin, Tensor):
    """A buffer whose shape is not known yet (lazy modules): becomes a ``Tensor``.

    Example:
        >>> from minigrad import nn
        >>> b = nn.UninitializedBuffer()
        >>> b.materialize((3,))
        >>> type(b).__name__, b.requires_grad
        ('Tensor', False)
    """

    __slots__ = ()
    cls_to_become = Tensor

    def __new__(
        cls, requires_grad: bool = False, device: Any = None, dtype: Any = None
    ) -> UninitializedBuffer:
        """An uninitialized buffer of ``dtype`` (default: the default float dtype)."""
        return cls._make(_empty_of(dtype), requires_grad=bool(requires_grad))


class Buffer(Tensor):
    """Marks a tensor as a buffer: assigning it to a module attribute registers it.

    The module registers a plain tensor on ``data``'s memory and version counter (as PyTorch,
    whose ``nn.Buffer`` returns ``data.detach()`` with a flag), persistent or not.

    Example:
        >>> import minigrad
        >>> from minigrad import nn
        >>> layer = nn.Module()
        >>> layer.scale = nn.Buffer(minigrad.ones(2))
        >>> layer.step = nn.Buffer(minigrad.zeros(()), persistent=False)
        >>> list(layer.state_dict()), type(layer.scale).__name__
        (['scale'], 'Tensor')
    """

    __slots__ = ("persistent",)

    def __new__(cls, data: Tensor | None = None, *, persistent: bool = True) -> Buffer:
        """A marker on ``data``'s memory and version counter."""
        if data is None:
            data = empty(0)
        buffer = cls._make(
            data._array, counter=data._version_counter(), requires_grad=data.requires_grad
        )
        buffer.persistent = persistent
        return buffer

    def _plain(self) -> Tensor:
        """The plain tensor a module registers (same memory, same version counter)."""
        return Tensor._make(
            self._array, counter=self._version_counter(), requires_grad=self.requires_grad
        )
