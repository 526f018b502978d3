"""``minigrad.autograd.Variable``: PyTorch's pre-0.4 wrapper, kept so old tutorials run.

Since PyTorch 0.4 every tensor is a Variable: ``Variable(t, requires_grad=True)`` returns a new
tensor on ``t``'s buffer and version counter (``t.detach()``) with the flag set, and
``isinstance(t, Variable)`` is True for every tensor.
"""

from __future__ import annotations

import warnings
from typing import Any

from minigrad import errors
from minigrad.autograd.tensor_base import TensorBase


class _VariableMeta(type):
    def __instancecheck__(cls, instance: Any) -> bool:
        return isinstance(instance, TensorBase)


class Variable(metaclass=_VariableMeta):
    """``Variable(data, requires_grad=False)``: ``data.detach()``, requiring grad if asked.

    Example:
        >>> import minigrad
        >>> from minigrad.autograd import Variable
        >>> x = Variable(minigrad.ones(2), requires_grad=True)
        >>> x
        tensor([1., 1.], requires_grad=True)
        >>> isinstance(x, Variable), type(x).__name__
        (True, 'Tensor')
    """

    def __new__(
        cls, data: Any = None, requires_grad: Any = False, volatile: Any = False, **kwargs: Any
    ) -> Any:
        """A tensor, not a Variable: ``Variable`` is only a name for ``Tensor`` now."""
        if kwargs:
            name = next(iter(kwargs))
            raise TypeError(f"'{name}' is an invalid keyword argument for this function")
        if volatile:
            warnings.warn(
                "volatile was removed and now has no effect. Use `with minigrad.no_grad():` "
                "instead.",
                UserWarning,
                stacklevel=2,
            )
            if requires_grad:
                raise ValueError("Variable can't be volatile and require_grad at the same time!")
        if data is None:
            # creation.py -> tensor.py -> minigrad.autograd -> this module: import when used.
            from minigrad.creation import empty

            data = empty(0)
        elif not isinstance(data, TensorBase):
            raise TypeError(errors.data_not_tensor(errors.python_type_name(data)))
        if requires_grad and data._array.dtype.kind != "f":
            raise RuntimeError(errors.ONLY_FLOAT_FACTORY_REQUIRES_GRAD)
        return data.detach().requires_grad_(bool(requires_grad))
