"""Containers: ``Sequential``, ``ModuleList``, ``ModuleDict``, ``ParameterList``, ``ParameterDict``.

``Sequential`` is a pipeline; ``ModuleList`` and ``ModuleDict`` are registered collections.
Their children are named ``"0"``, ``"1"``, ... (or by key), which gives the ``state_dict``
keys ``"0.weight"`` and so on. ``ParameterList`` and ``ParameterDict`` hold parameters the
same way, as the container's own parameters named ``"0"``, ``"1"``, ... (or by key).
"""

from __future__ import annotations

import operator
import warnings
from collections import OrderedDict
from collections.abc import Iterable, Iterator, Mapping
from itertools import chain, islice
from typing import Any, TypeVar

from minigrad.autograd.tensor_base import TensorBase
from minigrad.nn.modules.module import Module, _addindent
from minigrad.nn.parameter import Parameter

__all__ = [
    "Container", "ModuleDict", "ModuleList", "ParameterDict", "ParameterList", "Sequential"
]  # fmt: skip

T = TypeVar("T")


def _checked_index(idx: Any, size: int) -> int:
    """``idx`` as a non-negative position in a container of ``size``, or IndexError."""
    idx = operator.index(idx)
    if not -size <= idx < size:
        raise IndexError(f"index {idx} is out of range")
    return idx % size


def _renumber(container: Module) -> None:
    """Give the children the keys "0", "1", ... again after a deletion (as PyTorch does)."""
    container._modules = OrderedDict(
        (str(i), module) for i, module in enumerate(container._modules.values())
    )


class Container(Module):
    """Deprecated: a module whose children are the keyword arguments (subclass ``Module``).

    Example:
        >>> import warnings
        >>> from minigrad import nn
        >>> with warnings.catch_warnings():
        ...     warnings.simplefilter("ignore", FutureWarning)
        ...     nn.Container(act=nn.ReLU())
        Container(
          (act): ReLU()
        )
    """

    def __init__(self, **kwargs: Any) -> None:
        warnings.warn(
            "`nn.Container` is deprecated. All of its functionality is now implemented in "
            "`nn.Module`. Subclass that instead.",
            FutureWarning,
            stacklevel=2,
        )
        super().__init__()
        for key, value in kwargs.items():
            self.add_module(key, value)


class Sequential(Module):
    """Modules applied one after the other: ``Sequential(a, b)(x) == b(a(x))``.

    Takes modules as arguments (named "0", "1", ...) or one ``OrderedDict`` of named modules.

    Example:
        >>> import minigrad
        >>> from minigrad import nn
        >>> model = nn.Sequential(nn.Linear(2, 3), nn.ReLU())
        >>> model
        Sequential(
          (0): Linear(in_features=2, out_features=3, bias=True)
          (1): ReLU()
        )
        >>> model(minigrad.zeros(4, 2)).shape
        minigrad.Size([4, 3])
    """

    def __init__(self, *args: Any) -> None:
        super().__init__()
        if len(args) == 1 and isinstance(args[0], OrderedDict):
            for key, module in args[0].items():
                self.add_module(key, module)
        else:
            for idx, module in enumerate(args):
                self.add_module(str(idx), module)

    def _item_by_idx(self, iterator: Iterable[T], idx: Any) -> T:
        return next(islice(iterator, _checked_index(idx, len(self)), None))

    def __getitem__(self, idx: slice | int) -> Any:
        if isinstance(idx, slice):
            return self.__class__(OrderedDict(list(self._modules.items())[idx]))
        return self._item_by_idx(self._modules.values(), idx)

    def __setitem__(self, idx: int, module: Module) -> None:
        setattr(self, self._item_by_idx(self._modules.keys(), idx), module)

    def __delitem__(self, idx: slice | int) -> None:
        if isinstance(idx, slice):
            for key in list(self._modules.keys())[idx]:
                delattr(self, key)
        else:
            delattr(self, self._item_by_idx(self._modules.keys(), idx))
        _renumber(self)

    def __len__(self) -> int:
        return len(self._modules)

    def __iter__(self) -> Iterator[Module]:
        return iter(self._modules.values())

    def __add__(self, other: Any) -> Sequential:
        if not isinstance(other, Sequential):
            raise ValueError(
                "add operator supports only objects of Sequential class, but "
                f"{type(other)} is given."
            )
        return Sequential(*self, *other)

    def __iadd__(self, other: Any) -> Sequential:
        if not isinstance(other, Sequential):
            raise ValueError(
                "add operator supports only objects of Sequential class, but "
                f"{type(other)} is given."
            )
        return self.extend(other)

    def __mul__(self, other: int) -> Sequential:
        if not isinstance(other, int):
            raise TypeError(f"unsupported operand type(s) for *: {type(self)} and {type(other)}")
        if other <= 0:
            raise ValueError(f"Non-positive multiplication factor {other} for {type(self)}")
        return Sequential(*(list(self) * other))

    __rmul__ = __mul__

    def __dir__(self) -> list[str]:
        return [key for key in super().__dir__() if not key.isdigit()]

    def pop(self, key: int | slice) -> Any:
        """Remove and return the module(s) at ``key``."""
        value = self[key]
        del self[key]
        return value

    def append(self, module: Module) -> Sequential:
        """Add ``module`` at the end."""
        self.add_module(str(len(self)), module)
        return self

    def insert(self, index: int, module: Module) -> Sequential:
        """Insert ``module`` before position ``index``."""
        if not isinstance(module, Module):
            raise AssertionError(f"module should be of type: {Module}")
        n = len(self._modules)
        if not -n <= index <= n:
            raise IndexError(f"Index out of range: {index}")
        if index < 0:
            index += n
        for i in range(n, index, -1):
            self._modules[str(i)] = self._modules[str(i - 1)]
        self._modules[str(index)] = module
        return self

    def extend(self, sequential: Iterable[Module]) -> Sequential:
        """Append every module of ``sequential``."""
        for layer in sequential:
            self.append(layer)
        return self

    def forward(self, input: Any) -> Any:
        """Feed ``input`` through every module in turn."""
        for module in self._modules.values():
            input = module(input)
        return input


class ModuleList(Module):
    """A list of modules, registered as children (so their parameters are the list's).

    Example:
        >>> from minigrad import nn
        >>> layers = nn.ModuleList([nn.Linear(2, 2) for _ in range(3)])
        >>> len(list(layers.parameters()))
        6
        >>> layers
        ModuleList(
          (0-2): 3 x Linear(in_features=2, out_features=2, bias=True)
        )
    """

    def __init__(self, modules: Iterable[Module] | None = None) -> None:
        super().__init__()
        if modules is not None:
            self.extend(modules)

    def __getitem__(self, idx: int | slice) -> Any:
        if isinstance(idx, slice):
            return self.__class__(list(self._modules.values())[idx])
        return self._modules[str(_checked_index(idx, len(self)))]

    def __setitem__(self, idx: int, module: Module) -> None:
        setattr(self, str(_checked_index(idx, len(self))), module)

    def __delitem__(self, idx: int | slice) -> None:
        if isinstance(idx, slice):
            for k in range(len(self._modules))[idx]:
                delattr(self, str(k))
        else:
            delattr(self, str(_checked_index(idx, len(self))))
        _renumber(self)

    def __len__(self) -> int:
        return len(self._modules)

    def __iter__(self) -> Iterator[Module]:
        return iter(self._modules.values())

    def __iadd__(self, modules: Iterable[Module]) -> ModuleList:
        return self.extend(modules)

    def __add__(self, other: Iterable[Module]) -> ModuleList:
        return ModuleList(chain(self, other))

    def __dir__(self) -> list[str]:
        return [key for key in super().__dir__() if not key.isdigit()]

    def __repr__(self) -> str:
        # Runs of equal children collapse to one line: "(0-2): 3 x Linear(...)".
        reprs = [repr(item) for item in self]
        if not reprs:
            return self._get_name() + "()"
        runs: list[list[Any]] = []  # [start, end, text]
        for i, text in enumerate(reprs):
            if runs and runs[-1][2] == text:
                runs[-1][1] = i
            else:
                runs.append([i, i, text])
        lines = [
            _addindent(
                f"({start}): {text}"
                if start == end
                else f"({start}-{end}): {end - start + 1} x {text}",
                2,
            )
            for start, end, text in runs
        ]
        return self._get_name() + "(\n  " + "\n  ".join(lines) + "\n)"

    def insert(self, index: int, module: Module) -> None:
        """Insert ``module`` before position ``index``."""
        for i in range(len(self._modules), index, -1):
            self._modules[str(i)] = self._modules[str(i - 1)]
        self._modules[str(index)] = module

    def append(self, module: Module) -> ModuleList:
        """Add ``module`` at the end."""
        self.add_module(str(len(self)), module)
        return self

    def pop(self, key: int | slice) -> Any:
        """Remove and return the module(s) at ``key``."""
        value = self[key]
        del self[key]
        return value

    def extend(self, modules: Iterable[Module]) -> ModuleList:
        """Append every module of ``modules``."""
        if not isinstance(modules, Iterable):
            raise TypeError(
                "ModuleList.extend should be called with an iterable, but got "
                + type(modules).__name__
            )
        offset = len(self)
        for i, module in enumerate(modules):
            self.add_module(str(offset + i), module)
        return self


class ModuleDict(Module):
    """An ordered dict of modules, registered as children under their keys.

    Example:
        >>> from minigrad import nn
        >>> heads = nn.ModuleDict({"mean": nn.Linear(4, 1), "log_var": nn.Linear(4, 1)})
        >>> list(heads.keys()), [name for name, _ in heads.named_parameters()][:2]
        (['mean', 'log_var'], ['mean.weight', 'mean.bias'])
    """

    def __init__(self, modules: Mapping[str, Module] | None = None) -> None:
        super().__init__()
        if modules is not None:
            self.update(modules)

    def __getitem__(self, key: str) -> Module:
        return self._modules[key]

    def __setitem__(self, key: str, module: Module) -> None:
        self.add_module(key, module)

    def __delitem__(self, key: str) -> None:
        del self._modules[key]

    def __len__(self) -> int:
        return len(self._modules)

    def __iter__(self) -> Iterator[str]:
        return iter(self._modules)

    def __contains__(self, key: object) -> bool:
        return key in self._modules

    def clear(self) -> None:
        """Remove every module."""
        self._modules.clear()

    def pop(self, key: str) -> Module:
        """Remove and return the module under ``key``."""
        value = self[key]
        del self[key]
        return value

    def keys(self) -> Any:
        """The keys, in insertion order."""
        return self._modules.keys()

    def items(self) -> Any:
        """``(key, module)`` pairs, in insertion order."""
        return self._modules.items()

    def values(self) -> Any:
        """The modules, in insertion order."""
        return self._modules.values()

    def update(self, modules: Any) -> None:
        """Add the modules of a mapping or of an iterable of ``(key, module)`` pairs."""
        if not isinstance(modules, Iterable):
            raise TypeError(
                "ModuleDict.update should be called with an iterable of key/value pairs, but got "
                + type(modules).__name__
            )
        if isinstance(modules, (Mapping, ModuleDict)):
            for key, module in modules.items():
                self[key] = module
            return
        for j, pair in enumerate(modules):
            if not isinstance(pair, Iterable):
                raise TypeError(
                    "ModuleDict update sequence element #"
                    + str(j)
                    + " should be Iterable; is"
                    + type(pair).__name__
                )
            if len(pair) != 2:
                raise ValueError(
                    "ModuleDict update sequence element #"
                    + str(j)
                    + " has length "
                    + str(len(pair))
                    + "; 2 is required"
                )
            self[pair[0]] = pair[1]


def _as_parameter(value: Any) -> Any:
    """A plain tensor becomes a ``Parameter`` on its buffer; anything else is kept as given."""
    if isinstance(value, TensorBase) and not isinstance(value, Parameter):
        return Parameter(value)
    return value


def _entry_lines(items: Iterable[tuple[Any, Any]], show_dtype: bool) -> str:
    """PyTorch's ``extra_repr`` of the parameter containers: one line per entry.

    A tensor shows its dtype (``ParameterList``) or its type name (``ParameterDict``).
    """
    lines = []
    for key, value in items:
        if isinstance(value, TensorBase):
            kind = "Parameter" if isinstance(value, Parameter) else "Tensor"
            size = "x".join(str(n) for n in value.size())
            what = value.dtype if show_dtype else value._type_name()
            lines.append(f"  ({key}): {kind} containing: [{what} of size {size}]")
        else:
            lines.append(f"  ({key}): Object of type: {type(value).__name__}")
    return "\n".join(lines)


class ParameterList(Module):
    """A list of parameters, registered as the container's parameters ``"0"``, ``"1"``, ...

    The constructor, item assignment, ``append`` and ``extend`` turn a plain tensor into a
    ``Parameter`` (sharing its buffer); other objects are stored as they are.

    Example:
        >>> import minigrad
        >>> from minigrad import nn
        >>> params = nn.ParameterList([minigrad.zeros(2, 3), nn.Parameter(minigrad.ones(1))])
        >>> params
        ParameterList(
            (0): Parameter containing: [minigrad.float32 of size 2x3]
            (1): Parameter containing: [minigrad.float32 of size 1]
        )
        >>> [name for name, _ in params.named_parameters()]
        ['0', '1']
    """

    def __init__(self, values: Iterable[Any] | None = None) -> None:
        super().__init__()
        self._size = 0
        if values is not None:
            self += values

    def _key(self, idx: Any) -> str:
        return str(_checked_index(idx, len(self)))

    def __getitem__(self, idx: int | slice) -> Any:
        if isinstance(idx, slice):
            out = self.__class__()
            for i in range(*idx.indices(len(self))):
                out.append(self[i])
            return out
        return getattr(self, self._key(idx))

    def __setitem__(self, idx: int, param: Any) -> None:
        # Every way of adding an entry ends here: the one place that makes Parameters.
        key = self._key(idx)
        setattr(self, key, _as_parameter(param))

    def __len__(self) -> int:
        return self._size

    def __iter__(self) -> Iterator[Any]:
        return iter(self[i] for i in range(len(self)))

    def __iadd__(self, parameters: Iterable[Any]) -> ParameterList:
        return self.extend(parameters)

    def __dir__(self) -> list[str]:
        return [key for key in super().__dir__() if not key.isdigit()]

    def append(self, value: Any) -> ParameterList:
        """Add ``value`` at the end."""
        self._size += 1
        self[self._size - 1] = value
        return self

    def extend(self, values: Iterable[Any]) -> ParameterList:
        """Append every value of ``values`` (an iterable, not a tensor)."""
        if not isinstance(values, Iterable) or isinstance(values, TensorBase):
            raise TypeError(
                "ParameterList.extend should be called with an iterable, but got "
                + type(values).__name__
            )
        for value in values:
            self.append(value)
        return self

    def extra_repr(self) -> str:
        """One line per entry: its kind, dtype and size."""
        return _entry_lines(enumerate(self), show_dtype=True)

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        """Refused: a container of parameters is not a layer."""
        raise RuntimeError("ParameterList should not be called.")


class ParameterDict(Module):
    """An ordered dict of parameters, registered as the container's parameters under their keys.

    The constructor, item assignment and ``update`` turn a plain tensor into a ``Parameter``;
    a plain ``dict`` is added in sorted key order, an ``OrderedDict``, a ``ParameterDict`` or
    an iterable of pairs in their own order (as PyTorch does).

    Example:
        >>> import minigrad
        >>> from minigrad import nn
        >>> params = nn.ParameterDict({"scale": minigrad.ones(2), "bias": minigrad.zeros(2)})
        >>> list(params.state_dict())
        ['bias', 'scale']
        >>> params
        ParameterDict(
            (bias): Parameter containing: [minigrad.FloatTensor of size 2]
            (scale): Parameter containing: [minigrad.FloatTensor of size 2]
        )
    """

    def __init__(self, parameters: Any = None) -> None:
        super().__init__()
        self._keys: dict[str, None] = {}
        if parameters is not None:
            self.update(parameters)

    @staticmethod
    def _key_to_attr(key: Any) -> str:
        if not isinstance(key, str):
            raise TypeError(
                "Index given to ParameterDict cannot be used as a key as it is not a string "
                f"(type is '{type(key).__name__}'). Open an issue on github if you need "
                "non-string keys."
            )
        return key

    def __getitem__(self, key: str) -> Any:
        return getattr(self, self._key_to_attr(key))

    def __setitem__(self, key: str, value: Any) -> None:
        # Every way of adding an entry ends here: the one place that makes Parameters.
        self._keys[key] = None
        setattr(self, self._key_to_attr(key), _as_parameter(value))

    def __delitem__(self, key: str) -> None:
        del self._keys[key]
        delattr(self, self._key_to_attr(key))

    def __len__(self) -> int:
        return len(self._keys)

    def __iter__(self) -> Iterator[str]:
        return iter(self._keys)

    def __reversed__(self) -> Iterator[str]:
        return reversed(self._keys)

    def __contains__(self, key: object) -> bool:
        return key in self._keys

    def __or__(self, other: ParameterDict) -> ParameterDict:
        merged = self.copy()
        merged.update(other)
        return merged

    def __ror__(self, other: ParameterDict) -> ParameterDict:
        merged = other.copy()
        merged.update(self)
        return merged

    def __ior__(self, other: ParameterDict) -> ParameterDict:
        self.update(other)
        return self

    def copy(self) -> ParameterDict:
        """A new ``ParameterDict`` holding the same parameters, in the same order."""
        return ParameterDict(OrderedDict((k, self[k]) for k in self._keys))

    def setdefault(self, key: str, default: Any = None) -> Any:
        """``self[key]``, after setting it to ``default`` if it was missing."""
        if key not in self:
            self[key] = default
        return self[key]

    def clear(self) -> None:
        """Remove every entry."""
        for key in self._keys.copy():
            del self[key]

    def pop(self, key: str) -> Any:
        """Remove and return the entry under ``key``."""
        value = self[key]
        del self[key]
        return value

    def popitem(self) -> tuple[str, Any]:
        """Remove and return the last inserted ``(key, value)`` pair."""
        key, _ = self._keys.popitem()  # KeyError when empty, as dict's
        self._keys[key] = None
        return key, self.pop(key)

    def get(self, key: str, default: Any = None) -> Any:
        """``self[key]`` if ``key`` is present, else ``default``."""
        return self[key] if key in self else default  # noqa: SIM401 - self[key] is getattr

    def fromkeys(self, keys: Iterable[str], default: Any = None) -> ParameterDict:
        """A new ``ParameterDict`` with ``keys``, each set to ``default``."""
        return ParameterDict((k, default) for k in keys)

    def keys(self) -> Any:
        """The keys, in insertion order."""
        return self._keys.keys()

    def items(self) -> Iterator[tuple[str, Any]]:
        """``(key, value)`` pairs, in insertion order."""
        return ((k, self[k]) for k in self._keys)

    def values(self) -> Iterator[Any]:
        """The values, in insertion order."""
        return (self[k] for k in self._keys)

    def update(self, parameters: Any) -> None:
        """Add (or overwrite) the entries of a mapping or of an iterable of pairs."""
        if not isinstance(parameters, Iterable):
            raise TypeError(
                "ParametersDict.update should be called with an iterable of key/value pairs, "
                "but got " + type(parameters).__name__
            )
        if isinstance(parameters, (OrderedDict, ParameterDict)):
            for key, value in parameters.items():
                self[key] = value
        elif isinstance(parameters, Mapping):
            for key, value in sorted(parameters.items()):
                self[key] = value
        else:
            for j, pair in enumerate(parameters):
                if not isinstance(pair, Iterable):
                    raise TypeError(
                        "ParameterDict update sequence element #"
                        + str(j)
                        + " should be Iterable; is"
                        + type(pair).__name__
                    )
                if len(pair) != 2:
                    raise ValueError(
                        "ParameterDict update sequence element #"
                        + str(j)
                        + " has length "
                        + str(len(pair))
                        + "; 2 is required"
                    )
                self[pair[0]] = pair[1]

    def extra_repr(self) -> str:
        """One line per entry: its kind, tensor type and size."""
        return _entry_lines(self.items(), show_dtype=False)

    def __call__(self, input: Any) -> Any:
        """Refused: a container of parameters is not a layer."""
        raise RuntimeError("ParameterDict should not be called.")
