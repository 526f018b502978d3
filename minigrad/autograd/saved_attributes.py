"""What a node shows of what it saved, under PyTorch's names: ``grad_fn._saved_self``.

PyTorch's nodes expose each value their backward keeps as an attribute named after the op's
argument: ``MulBackward0._saved_self`` and ``._saved_other``, ``ExpBackward0._saved_result``,
``PowBackward0._saved_exponent``, ``SumBackward1._saved_dim``. Tensors come back as tensors
(the input itself, or the output with its place in the graph) after the same version check
backward makes; once backward has freed them, reading raises PyTorch's "backward through the
graph a second time". ``_raw_saved_<name>`` gives the ``SavedTensor`` itself, on which
``register_hooks(pack, unpack)`` changes how that one value is kept.

Where the names come from, most general first:

1. the generic rule: a saved value that is the op's output is ``result``; inputs are ``self``
   then ``other``, by their position in ``save_for_backward``;
2. an op whose names differ declares them, one per ``save_for_backward`` position, in
   ``saves`` (``saves = ("self", "mat2")``; a uniform family declares it once on its base class);
   an op that saves a list of tensors under one name declares ``saves = TensorList(...)``;
3. options the node keeps as slots (its ``fields``) that PyTorch also shows are declared in
   ``saved_options``: PyTorch's name, or ``{PyTorch's name: field}`` where the field's name
   differs (``{"dim": "axes", "self_sym_sizes": "shape"}``), or a function of the node.

Nothing here runs while recording: the attributes are properties on the node's class, made once
when the op is declared (or, for an op without ``saves``, when a node of it is first inspected
or run by backward: ``autograd/function.py``'s ``_name_saved_values``).
"""

from __future__ import annotations

import math
import weakref
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

import numpy as np

from minigrad import errors
from minigrad.autograd import saved
from minigrad.autograd.graph import extend
from minigrad.autograd.read_only import ReadOnly
from minigrad.autograd.tensor_base import TensorBase

if TYPE_CHECKING:
    from minigrad.autograd.function import BackwardNode, Function

OptionSource = str | Callable[[Any], Any]
_PREFIXES = ("_saved_", "_raw_saved_")
_GENERIC_INPUT_NAMES = ("self", "other")


class SavedTensor:
    """One value a node saved for backward (PyTorch's ``torch._C._autograd.SavedTensor``).

    Got from ``grad_fn._raw_saved_<name>``. ``register_hooks(pack_hook, unpack_hook)`` packs
    the value now and unpacks it whenever backward (or ``_saved_<name>``) needs it.

    Example:
        >>> import minigrad
        >>> x = minigrad.tensor([1.0, 2.0], requires_grad=True)
        >>> y = x.pow(2)
        >>> y.grad_fn._raw_saved_self.register_hooks(lambda t: t.tolist(), minigrad.tensor)
        >>> y.grad_fn._saved_self
        tensor([1., 2.])
    """

    __slots__ = ("_node", "_index")

    def __init__(self, node: BackwardNode, index: int) -> None:
        self._node = node
        self._index = index

    def register_hooks(self, *hooks: Any) -> None:
        """Keep this value as ``pack_hook(tensor)``; give back ``unpack_hook(packed)``.

        As in PyTorch: one pair per value, not on a None, not once backward freed the value;
        the value is then no longer version-checked.
        """
        if len(hooks) != 2 or not all(callable(hook) for hook in hooks):
            raise TypeError(self._wrong_arguments(hooks))
        pack_hook, unpack_hook = hooks
        node = self._node
        values = saved.entries(node)
        if values is None:
            if self._index in node._freed_none:
                raise RuntimeError(errors.SAVED_HOOKS_ON_NONE)
            raise RuntimeError(errors.SAVED_HOOKS_AFTER_FREE)
        start = self._index * saved.FIELDS
        if start >= len(values):
            raise RuntimeError(errors.SAVED_HOOKS_ON_NONE)  # a None place of a TensorList
        entry = values[start : start + saved.FIELDS]
        if type(entry[0]) is saved.Hooked:
            raise RuntimeError(errors.SAVED_HOOKS_ALREADY_SET)
        tensor = saved.saved_tensor_of(node, entry)
        if tensor is None:
            raise RuntimeError(errors.SAVED_HOOKS_ON_NONE)
        hooked = saved.Hooked(saved.call_pack_hook(pack_hook, tensor), unpack_hook)
        extend(node)  # it holds what the hook returned: the collector must see it
        node._saved = (
            values[:start]
            + (hooked, None, 0, entry[3], False, entry[5])
            + values[start + saved.FIELDS :]
        )

    def _wrong_arguments(self, hooks: tuple[Any, ...]) -> str:
        # pybind11's message, which is what PyTorch raises for a bad call
        invoked = ", ".join(repr(value) for value in (self, *hooks))
        return (
            "register_hooks(): incompatible function arguments. The following argument types are "
            "supported:\n    1. (self: minigrad._C._autograd.SavedTensor, arg0: "
            "collections.abc.Callable, arg1: collections.abc.Callable) -> None\n\n"
            f"Invoked with: {invoked}"
        )

    def __repr__(self) -> str:
        return f"<minigrad._C._autograd.SavedTensor object at {id(self):#x}>"


# --- small sources for ``saved_options``: PyTorch's value from what the node keeps ---------


def part(field: str, index: int) -> Callable[[Any], Any]:
    """The ``index``-th item of the tuple kept in ``field`` (``part("coefficients", 0)``)."""
    return lambda node: getattr(node, field)[index]


def constant(value: Any) -> Callable[[Any], Any]:
    """A value PyTorch keeps that is always the same for this op (``sparse=False``)."""
    return lambda node: value


def numel(field: str) -> Callable[[Any], int]:
    """The number of elements of the shape kept in ``field`` (PyTorch's ``self_sym_numel``)."""
    return lambda node: math.prod(getattr(node, field))


def shown_as_int64(value: Any) -> Any:
    """An int (or ints) as PyTorch's bindings show an int64 option: -1 as 18446744073709551615.

    None (an optional option not given) stays None.
    """
    if value is None:
        return None
    if isinstance(value, (tuple, list)):
        return tuple(int(d) % 2**64 for d in value)
    return int(value) % 2**64


def as_given(field: str, index: int | None = None) -> Callable[[Any], Any]:
    """The dim (or dims) kept in ``field`` as the user gave it, shown as PyTorch shows it.

    PyTorch keeps a dim unnormalised and its bindings read the int64 back as unsigned: -1
    shows as 18446744073709551615. The node keeps the given value next to whatever its
    backward uses (or alone, if backward does not need it normalised). ``index``: the item of
    a tuple kept in ``field`` (``as_given("dims", 0)``, transpose's ``dim0``).
    """
    if index is None:
        return lambda node: shown_as_int64(getattr(node, field))
    return lambda node: shown_as_int64(getattr(node, field)[index])


def dims_as_given(field: str) -> Callable[[Any], Any]:
    """As ``as_given``, for an ``int[]`` option: a lone int shows as a 1-tuple (``sum(-1)``)."""

    def get(node: Any) -> Any:
        """The node's ``field`` as PyTorch shows an ``int[]`` option."""
        value = getattr(node, field)
        return shown_as_int64((value,) if isinstance(value, (int, np.integer)) else value)

    return get


def matrix_layout(operand: int, kind: int, input_index: int) -> Callable[[Any], tuple[int, ...]]:
    """PyTorch's ``mat2_sym_sizes`` (``kind`` 0) or ``mat2_sym_strides`` (1) of a matrix product.

    The node keeps ``layouts = (shape0, strides0, shape1, strides1, itemsize)`` of its two
    matrices (``operand`` 0 or 1); strides are counted in elements, and PyTorch keeps them only
    if that matrix (forward argument ``input_index``) needs a gradient: () otherwise.
    """

    def get(node: Any) -> tuple[int, ...]:
        shape, strides = node.layouts[2 * operand : 2 * operand + 2]
        if kind == 0:
            return tuple(shape)
        if not node.needs_input_grad[input_index]:
            return ()
        return tuple(stride // node.layouts[4] for stride in strides)

    return get


class TensorList:
    """``saves`` of an op that keeps a list of tensors under one name (``_saved_indices``).

    ``_saved_<name>`` is a tuple with a tensor or None in each place, as PyTorch shows a saved
    ``List[Optional[Tensor]]`` (``IndexPutBackward0``'s ``indices``). ``places(node)`` tells,
    place by place, whether it holds a tensor (the next one given to ``save_for_backward``) or
    None; ``_raw_saved_<name>`` has one ``SavedTensor`` per place.
    """

    __slots__ = ("name", "places")

    def __init__(self, name: str, places: Callable[[Any], tuple[bool, ...]]) -> None:
        self.name = name
        self.places = places

    def install(self, node_class: type[BackwardNode]) -> None:
        """Give ``node_class`` the two properties."""
        places = self.places

        def positions(node: BackwardNode) -> list[int]:
            # a tensor place takes the next saved position; a None place one past them all
            count = sum(places(node))
            found, nones, result = 0, 0, []
            for is_tensor in places(node):
                result.append(found if is_tensor else count + nones)
                found, nones = found + is_tensor, nones + (not is_tensor)
            return result

        def get(node: BackwardNode) -> tuple[Any, ...]:
            values = []
            for is_tensor, index in zip(places(node), positions(node)):
                value = saved.unpack_exposed(node, index) if is_tensor else None
                values.append(None if value is None else _as_tensor(value))
            return tuple(values)

        def get_raw(node: BackwardNode) -> tuple[SavedTensor, ...]:
            return tuple(SavedTensor(node, index) for index in positions(node))

        node_class._names_of_saved = ()
        name = f"_saved_{self.name}"
        setattr(node_class, name, ReadOnly(
            get, f"The saved ``{self.name}``, checked as backward checks them.", name))
        setattr(node_class, f"_raw{name}", ReadOnly(
            get_raw, f"The saved ``{self.name}`` as ``SavedTensor``s.", f"_raw{name}"))


def install(node_class: type[BackwardNode], function: type[Function]) -> None:
    """Give ``node_class`` its ``_saved_*`` properties, from ``function``'s declarations."""
    names = function.saves
    if isinstance(names, TensorList):
        names.install(node_class)
    else:
        if isinstance(names, str):
            names = (names,)
        node_class._names_of_saved = None if names is None else tuple(names)
        if names is not None:
            _add_tensor_properties(node_class, names)
    # Both are inherited: a family declares them once on its base class (a subclass that is
    # another PyTorch op declares its own, ``()`` for none).
    options = function.saved_options
    if not isinstance(options, Mapping):
        options = {name: name for name in options}
    for name, source in options.items():
        setattr(node_class, f"_saved_{name}", _option_property(name, source))


def install_for_custom_function(node_class: type[BackwardNode]) -> None:
    """A custom Function's node shows its saved values as ``_raw_saved_tensors`` (PyTorch)."""
    node_class._raw_saved_tensors = ReadOnly(  # type: ignore[attr-defined]
        _raw_saved_tensors, _raw_saved_tensors.__doc__, "_raw_saved_tensors")


def _raw_saved_tensors(node: BackwardNode) -> tuple[SavedTensor, ...]:
    """One ``SavedTensor`` per value given to ``save_for_backward`` (for their hooks)."""
    if node._saved is None:
        raise RuntimeError(errors.BACKWARD_TWICE)
    count = len(saved.entries(node)) // saved.FIELDS
    return tuple(SavedTensor(node, index) for index in range(count))


def infer_names(node: BackwardNode) -> None:
    """The generic rule, for an op that declares no ``saves``: name its values from ``node``'s.

    A saved output is ``result``; any other position is ``self``, ``other`` ... by position.
    Done once per op, on the first node inspected (or run by backward) while its values are
    still there.
    """
    node_class = node._function._Node  # (the class a node of other options derives from)
    if node_class._names_of_saved is not None or not node._saved:
        return
    names = []
    for index, _, _, _, origin in saved.saved_values(node):
        # an output is known by its number (or, written through a view, a weak reference)
        is_output = type(origin) is int or isinstance(origin, weakref.ref)
        names.append("result" if is_output else _generic_input_name(index))
    node_class._names_of_saved = tuple(names)
    _add_tensor_properties(node_class, names)


def is_saved_name(name: str) -> bool:
    """True for a ``_saved_*`` or ``_raw_saved_*`` attribute name."""
    return name.startswith(_PREFIXES)


def _generic_input_name(index: int) -> str:
    return _GENERIC_INPUT_NAMES[index] if index < len(_GENERIC_INPUT_NAMES) else f"input{index}"


def _add_tensor_properties(node_class: type[BackwardNode], names: Any) -> None:
    for index, name in enumerate(names):
        if name is not None:
            setattr(node_class, f"_saved_{name}", _tensor_property(name, index))
            setattr(node_class, f"_raw_saved_{name}", _raw_property(name, index))


# The properties' getters depend only on the saved value's index (or the option's slot): one
# getter per index, shared by the ~1,000 properties of the op classes made at import.
_GETTERS: dict[tuple[str, Any], Callable[[BackwardNode], Any]] = {}


def _tensor_property(name: str, index: int) -> ReadOnly:
    def get(node: BackwardNode) -> Any:
        if node._saved is None and index in node._freed_none:
            return None  # a None stays None once freed, as in PyTorch
        value = saved.unpack_exposed(node, index)
        return None if value is None else _as_tensor(value)

    get = _GETTERS.setdefault(("tensor", index), get)
    return ReadOnly(get, f"The saved ``{name}``, checked as backward checks it.", f"_saved_{name}")


def _raw_property(name: str, index: int) -> ReadOnly:
    def get(node: BackwardNode) -> SavedTensor:
        return SavedTensor(node, index)  # even once freed (its register_hooks then raises)

    get = _GETTERS.setdefault(("raw", index), get)
    return ReadOnly(get, f"The saved ``{name}`` as a ``SavedTensor`` (for its hooks).",
                    f"_raw_saved_{name}")


def _option_property(name: str, source: OptionSource) -> ReadOnly:
    if callable(source):
        getter = source
    else:

        def getter(node: BackwardNode) -> Any:
            return getattr(node, source, None)

        getter = _GETTERS.setdefault(("option", source), getter)
    return ReadOnly(getter, f"The ``{name}`` the op kept for backward.", f"_saved_{name}")


def _as_tensor(value: Any) -> Any:
    """A private value as PyTorch shows it: a wrapped number is a 0-d tensor (float64, int64)."""
    if isinstance(value, TensorBase):
        return value
    return TensorBase.output_class._make(np.asarray(value))
