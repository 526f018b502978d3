"""PyTorch's argument checks for public functions and Tensor methods.

PyTorch binds its functions through an argument parser: ``torch.exp("a")`` raises
``TypeError: exp(): argument 'input' (position 1) must be Tensor, not str`` before any work is
done, and so does ``x.sum(keepdim=None)``. minigrad's functions are plain Python: without a
check, a wrong argument fails somewhere inside (an AttributeError, a numpy error) or, worse, is
silently accepted. ``check_functions`` and ``check_methods`` give each public function and method
that check, once, where the public API is assembled (``minigrad/__init__.py``,
``minigrad/nn/functional.py``, ``minigrad/linalg.py``, ``minigrad/tensor.py``).

What a parameter accepts is read off its signature, as PyTorch reads it off its schemas:
- by name, PyTorch's tensor parameters (``input``, ``target``, ``mat2``, ...): a tensor (a few
  functions also take a number, where PyTorch has a Scalar overload: ``minigrad.pow(2, t)``);
- by annotation, ``bool``, ``int``, ``float`` and ``str`` parameters: a value of that type;
- a parameter whose default is None, or annotated ``... | None``, also takes None.
"""

from __future__ import annotations

import functools
import inspect
import json
import operator
import re
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from minigrad import _signatures, _warnings, errors
from minigrad._dtype import dtype
from minigrad._layouts import layout
from minigrad._memory_formats import memory_format
from minigrad._published import publish
from minigrad._random import Generator
from minigrad._wrapped_numbers import (
    NUMBERS_AS_TENSORS,
    TENSOR_OR_NUMBER,
    WRAPPED_SOURCES,
    is_number,
    wrapped_number,
)
from minigrad.autograd.tensor_base import TensorBase

# Parameters that PyTorch types as Tensor, by name.
TENSOR_PARAMETERS = frozenset(
    {
        "input", "A", "B", "mat", "mat1", "mat2", "vec", "vec1", "vec2", "target", "weight",
        "bias", "condition", "tensor1", "tensor2", "batch1", "batch2", "x1", "x2",
        "pos_weight", "indices", "index", "mask", "src", "source", "LU", "pivots", "elements",
        "test_elements", "x", "input1", "input2",
    }
)  # fmt: skip
# Parameters that PyTorch types as Number (a 0-d tensor is accepted too), by name (but for
# NOT_NUMBERS: nonzero_static's ``fill_value`` is an int)...
NUMBER_PARAMETERS = frozenset({"alpha", "beta", "fill_value"})
NOT_NUMBERS = frozenset({("nonzero_static", "fill_value")})
# ... and by function: (function, parameter).
NUMBERS_OF = frozenset(
    {(f, "value") for f in ("index_fill", "index_fill_", "masked_fill", "masked_fill_", "fill_",
                            "fill")}
    | {(f, bound) for f in ("clamp", "clamp_", "clip", "clip_") for bound in ("min", "max")}
    | {("clamp_min", "min"), ("clamp_min_", "min"), ("clamp_max", "max"), ("clamp_max_", "max")}
    | {("linalg_vector_norm", "ord"), ("dist", "p")}
    | {(f, bound) for f in ("linspace", "logspace") for bound in ("start", "end")}  # (Tensor
    # overloads too)
)
# Exceptions to the names, both ways: (function, parameter).
NOT_TENSORS = frozenset({("movedim", "source"), ("moveaxis", "source"),
                         # (checked inline, in the kernel's order: weight, then the indices)
                         ("embedding", "input"), ("embedding", "weight")}
                        # (a tuple of index tensors, checked inline)
                        | {("index_put", "indices"), ("index_put_", "indices")}
                        # (an int: the row's number, as select's)
                        | {("select_copy", "index")})
# Functions whose ``dtype`` also takes a type name: ``x.type("minigrad.LongTensor")``.
NOT_DTYPES = frozenset({"type"})
MORE_TENSORS = frozenset(
    {("lerp", "end"), ("lerp_", "end"), ("linalg_matrix_norm", "a"), ("copy_", "other"),
     ("dot", "tensor"), ("dist", "other"), ("linalg_vecdot", "x"), ("linalg_vecdot", "y")}
    | {(f, "other") for f in ("logaddexp", "logaddexp2", "hypot", "hypot_")}
    | {(f, "other") for f in ("fmax", "fmin", "nextafter", "nextafter_", "gcd", "gcd_", "lcm",
                              "lcm_")}
    | {("heaviside", "values"), ("heaviside_", "values")}
    | {(f, "other") for f in ("igamma", "igamma_", "igammac", "igammac_", "special_gammainc",
                              "special_gammaincc")}
    | {("result_type", "tensor"), ("result_type", "other")}
    | {("map_", "other"), ("map2_", "y")}
    | {("index_put", "values"), ("index_put_", "values"), ("ldexp", "other"), ("ldexp_", "other")}
    | {(f, "other") for f in ("maximum", "minimum", "matmul", "atan2", "atan2_", "arctan2",
                              "arctan2_", "logical_and", "logical_or", "logical_xor",
                              "logical_and_", "logical_or_", "logical_xor_",
                              "isclose", "allclose", "equal")}
)
# Functions and methods whose ``other`` is a Tensor to PyTorch's parser, which wraps a number
# into one: anything else gets "argument 'other' ... must be Tensor".
WRAPPED_NUMBERS = frozenset({"add", "add_", "sub", "sub_", "mul", "mul_", "div", "div_"})
# Functions and methods PyTorch binds twice, for a Tensor and for a Number ``other`` (or
# ``exponent``): anything else gets the parser's message listing the overloads. Each entry:
# the function's overloads (a method's are always ``(Tensor other)`` and ``(Number other)``);
# in them "{bad}" stands for the refused type's name.
_COMPARISON = (
    " * (Tensor input, Tensor other, *, Tensor out = None)\n",
    " * (Tensor input, Number other, *, Tensor out = None)\n",
)
_DIVISION = (
    " * (Tensor input, Tensor other, *, Tensor out = None)\n",
    " * (Tensor input, Number other)\n"
    "      didn't match because some of the arguments have invalid types: (Tensor, !{bad}!)\n",
)
_IN_PLACE_COMPARISONS = ("eq_", "ne_", "lt_", "le_", "gt_", "ge_", "not_equal_", "less_",
                         "less_equal_", "greater_", "greater_equal_")
OVERLOADED: dict[str, tuple[str, ...]] = {
    **dict.fromkeys(("pow", "float_power"), (
        " * (Tensor input, Tensor exponent, *, Tensor out = None)\n",
        " * (Number self, Tensor exponent, *, Tensor out = None)\n",
        " * (Tensor input, Number exponent, *, Tensor out = None)\n")),
    **dict.fromkeys(("eq", "ne", "lt", "le", "gt", "ge", "not_equal", "less", "less_equal",
                     "greater", "greater_equal", "fmod", "copysign"), _COMPARISON),
    **dict.fromkeys(("true_divide", "floor_divide"), _DIVISION),
    **dict.fromkeys(("remainder", "bitwise_and", "bitwise_or", "bitwise_xor",
                     "bitwise_left_shift", "bitwise_right_shift"), (
        " * (Tensor input, Tensor other, *, Tensor out = None)\n",
        " * (Number self, Tensor other)\n"
        "      didn't match because some of the arguments have invalid types: (!Tensor!, "
        "!{bad}!)\n",
        " * (Tensor input, Number other, *, Tensor out = None)\n")),
    "rsub": (" * (Tensor input, Tensor other, *, Number alpha = 1)\n",
             " * (Tensor input, Number other, Number alpha = 1)\n"),
    # (methods only)
    **dict.fromkeys(("pow_", "true_divide_", "floor_divide_", "remainder_", "fmod_",
                     "copysign_", "float_power_", "bitwise_and_", "bitwise_or_", "bitwise_xor_",
                     "bitwise_left_shift_", "bitwise_right_shift_"), ()),
    **dict.fromkeys(_IN_PLACE_COMPARISONS, ()),
}
# Reductions whose ``keepdim`` exists only in an overload with a ``dim``: ``x.sum(keepdim=True)``
# fits none of them and PyTorch's parser refuses it. Each entry: (the method's overloads, the
# function's), each overload as (the parser's listing of it, its fewest and most arguments,
# ``self`` not counted).
_SUM_METHOD = (
    ("(*, minigrad.dtype dtype = None)", 0, 1),
    ("(tuple of ints dim, bool keepdim = False, *, minigrad.dtype dtype = None)", 1, 3),
)
_SUM_DIM = (
    "(Tensor input, tuple of ints dim, bool keepdim = False, *, minigrad.dtype dtype = None, "
    "Tensor out = None)", 2, 5,
)
_EXTREME = (
    (("()", 0, 0), ("(Tensor other)", 1, 1), ("(int dim, bool keepdim = False)", 1, 2)),
    (("(Tensor input, *, Tensor out = None)", 1, 2),
     ("(Tensor input, Tensor other, *, Tensor out = None)", 2, 3),
     ("(Tensor input, int dim, bool keepdim = False, *, tuple of Tensors out = None)", 2, 4)),
)
_MEDIAN = (
    (("()", 0, 0), ("(int dim, bool keepdim = False)", 1, 2)),
    (("(Tensor input)", 1, 1),
     ("(Tensor input, int dim, bool keepdim = False, *, tuple of Tensors out = None)", 2, 4)),
)
KEEPDIM_NEEDS_DIM: dict[str, tuple[tuple[tuple[str, int, int], ...], ...]] = {
    "sum": (_SUM_METHOD, (("(Tensor input, *, minigrad.dtype dtype = None)", 1, 2), _SUM_DIM)),
    "mean": (_SUM_METHOD, (
        ("(Tensor input, *, minigrad.dtype dtype = None, Tensor out = None)", 1, 3), _SUM_DIM)),
    "prod": (
        (("(*, minigrad.dtype dtype = None)", 0, 1),
         ("(int dim, bool keepdim = False, *, minigrad.dtype dtype = None)", 1, 3)),
        (("(Tensor input, *, minigrad.dtype dtype = None)", 1, 2),
         ("(Tensor input, int dim, bool keepdim = False, *, minigrad.dtype dtype = None, "
          "Tensor out = None)", 2, 5)),
    ),
    "max": _EXTREME,
    "min": _EXTREME,
    "median": _MEDIAN,
    "nanmedian": _MEDIAN,
}
# Methods and functions PyTorch binds with several overloads that minigrad's one Python
# signature merges: a call that fits none of them (by count, keyword or type) gets the parser's
# listing of them. Each entry as KEEPDIM_NEEDS_DIM's.
LISTED: dict[str, tuple[tuple[tuple[str, int, int], ...] | None, ...]] = {
    "squeeze": (
        (("()", 0, 0), ("(int dim)", 1, 1), ("(tuple of ints dim)", 1, 1)),
        (("(Tensor input)", 1, 1), ("(Tensor input, int dim)", 2, 2),
         ("(Tensor input, tuple of ints dim)", 2, 2)),
    ),
    "narrow": (
        (("(int dim, Tensor start, int length)", 3, 3), ("(int dim, int start, int length)", 3, 3)),
        (("(Tensor input, int dim, Tensor start, int length)", 4, 4),
         ("(Tensor input, int dim, int start, int length)", 4, 4)),
    ),
    **dict.fromkeys(_IN_PLACE_COMPARISONS,
                    ((("(Tensor other)", 1, 1), ("(Number other)", 1, 1)), None)),
    # One overload, whose required keyword-only ``size`` the parser counts and asks for first
    # ("takes from 1 to 0 positional arguments", "missing ... "size"" before a foreign keyword)
    "nonzero_static": ((("(*, int size, int fill_value = -1)", 1, 2),),
                       (("(Tensor input, *, int size, int fill_value = -1)", 2, 3),)),
}

def _pieces_counts(listing: str) -> tuple[str, int, int]:
    """An overload as the parser lists it, with its fewest and most arguments."""
    pieces = [piece for piece in listing[1:-1].split(", ") if piece and piece != "*"]
    return listing, sum(" = " not in piece for piece in pieces), len(pieces)


# What tools/parser_overloads.py read off PyTorch 2.13, read once: the overloads below, the
# methods of no arguments, the C methods whose ``self`` PyTorch checks (_unbound_methods.py).
PARSER_TABLE: dict[str, Any] = json.loads(
    (Path(__file__).parent / "_parser_overloads.json").read_text())


def _parser_overloads() -> dict[str, dict[str, tuple[tuple[str, int, int], ...]]]:
    """PyTorch's listings of the functions and methods it binds more than once.

    Read off PyTorch 2.13 by tools/parser_overloads.py (minigrad/_parser_overloads.json), for
    the names neither KEEPDIM_NEEDS_DIM nor LISTED declares: ``{"function"|"method"|"kernel":
    {name: overloads}}`` ("kernel": those of the kernel a function PyTorch writes in Python
    calls, ``torch._VF.split``).
    """
    return {kind: {name: tuple(map(_pieces_counts, listings))
                   for name, listings in PARSER_TABLE[kind].items()}
            for kind in ("function", "method", "kernel")}


PARSER_OVERLOADS = _parser_overloads()
# The Tensor methods PyTorch binds as C methods of no arguments (tools/parser_overloads.py):
# given any, CPython's texts, ``TensorBase.relu() takes no arguments (1 given)``.
NO_ARGUMENTS = frozenset(PARSER_TABLE["no_arguments"])
# The names whose calls that fit no overload get the parser's listing (filled as the checks
# are given: tests_torch/test_misuse_sweep_torch.py asks those messages to be PyTorch's).
LISTING_NAMES: set[str] = set()
_DIM_NAMES = frozenset({"dim", "axis", "other"})
# ... of which those whose ``dim`` is an int: ``dim=None`` fits none of their overloads either.
INT_DIM = frozenset({"prod", "max", "min"})
# ... and those whose overloads differ in which options are keyword-only: sort's ``stable`` is
# in an overload whose ``dim`` and ``descending`` are keyword-only (``x.sort(0, stable=True)``
# fits neither), which minigrad's one signature cannot say. Their keyword calls are matched
# against the listing.
KEYWORD_OVERLOADS = frozenset({"sort", "argsort"})
# Parameters PyTorch's schemas make optional (sort's ``bool? stable``; argsort's is a plain
# ``bool``) that its listings print without the "?" ("bool stable"): None fits them.
NONE_FITS = {"sort": frozenset({"stable"})}
# Functions whose tensor parameters may also be numbers (PyTorch's Scalar overloads).
NUMBER_OVERLOADS = frozenset(
    {
        "pow", "float_power", "remainder", "xlogy", "where", "bitwise_and", "bitwise_or",
        "bitwise_xor", "bitwise_left_shift", "bitwise_right_shift", "lerp", "lerp_", "isin",
        "searchsorted", "bucketize", "special_xlogy", "special_xlog1py", "special_zeta",
        "result_type", "full_like",
        "scatter", "scatter_", "masked_fill", "masked_fill_", "index_fill", "index_fill_",
    }
    | {f"special_{kind}_polynomial_{letter}" for kind, letter in (
        ("chebyshev", "t"), ("chebyshev", "u"), ("chebyshev", "v"), ("chebyshev", "w"),
        ("shifted_chebyshev", "t"), ("shifted_chebyshev", "u"), ("shifted_chebyshev", "v"),
        ("shifted_chebyshev", "w"), ("hermite", "h"), ("hermite", "he"), ("laguerre", "l"),
        ("legendre", "p"))}
)  # fmt: skip
# Functions left unwrapped: their warnings point at the caller's line (``stacklevel``), which
# a wrapper's frame would move into this file (but for _warnings.warn's, which pass over it).
# They check their arguments themselves.
UNCHECKED = frozenset(
    {
        "adjoint", "cholesky", "qr", "randint", "tensor",
        "binary_cross_entropy", "cross_entropy", "huber_loss", "l1_loss", "mse_loss",
        "nll_loss", "smooth_l1_loss",
        # (and this checks its own arguments, with the name of the ATen op behind it)
        "unique",
        # (PyTorch writes Tensor.backward in Python: torch.autograd.backward's checks, which
        # autograd/engine.py's backward makes; and Tensor.split, whose kernel checks)
        "backward", "split",
    }
)  # fmt: skip
# NumPy's names PyTorch's parser also takes for four parameters (python_arg_parser.cpp):
# ``x.sum(axis=0, keepdims=True)``. Each group is one parameter, under whichever of its names
# the function uses (``linalg.vector_norm``'s ``x`` answers to ``input`` too).
NUMPY_NAMES = (("dim", "axis"), ("keepdim", "keepdims"), ("input", "x", "a", "x1"), ("other", "x2"))
# Functions and methods PyTorch writes in Python (torch/functional.py, torch/_tensor.py): no
# parser, so no NumPy names. (nn.functional passes the few it binds to the parser instead.)
PYTHON_LEVEL = frozenset({"norm", "split", "unique", "unflatten"})
# The names PyTorch's messages give some functions (the ATen op behind them).
PYTORCH_NAMES = {"unique": "_unique2", "logsigmoid": "log_sigmoid"}
_NUMBERS = (bool, int, float)


# What a parameter annotated with a Python type accepts (numpy's scalars too), as
# (types, types refused among them, PyTorch's name for it in its messages). Types rather than
# predicates: ``isinstance`` runs in C, and the checks run on every call of a public function.
# PyTorch refuses a bool where an int is wanted.
_ANNOTATED: dict[str, tuple[tuple[type, ...], tuple[type, ...], str]] = {
    "bool": ((bool, np.bool_), (), "bool"),
    "int": ((int, np.integer), (bool,), "int"),
    "float": ((int, float, np.number), (), "float"),
    "str": ((str,), (), "str"),
}
_TENSOR = (TensorBase,)
_GENERATOR = (Generator,)
_MEMORY_FORMAT = (memory_format,)
_LAYOUT = (layout,)
# A ``dtype=`` argument: a minigrad.dtype, or Python's float/int/bool (which ``to_numpy_dtype``
# sorts out, with the same message for any other class).
_DTYPE_LIKE = (dtype, type)
_TENSOR_OR_NUMBER = (TensorBase, *_NUMBERS)  # PyTorch's Scalar overloads
_NUMBER_LIKE = (TensorBase, *_NUMBERS, np.number, np.bool_)  # a Number (a 0-d tensor too)
# An operand of a binary op (numpy code passes arrays too).
_OPERAND = (*_NUMBER_LIKE, np.ndarray)
_OVERLOADS = "Tensor or Number"  # the kind of an OVERLOADED operand: the overloads' message


class _NotGiven:
    """The default of a parameter PyTorch has no None for: ``x.max()``, but not ``x.max(None)``."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "<not given>"


NOT_GIVEN: Any = _NotGiven()


def _accepts(value: Any, kind: str) -> bool:
    """Whether ``value`` is a ``kind`` (a key of ``_ANNOTATED``)."""
    types, refused, _ = _ANNOTATED[kind]
    return isinstance(value, types) and not isinstance(value, refused)


def index_tensor(value: Any, in_list: bool = False) -> bool:
    """Whether ``value`` is an integer tensor PyTorch's parser takes where it takes an int.

    An ``int`` parameter takes a 0-d one (``x.transpose(minigrad.tensor(0), 1)``); a list of
    ints, one of one element as an item (``minigrad.ones(minigrad.tensor([2]))``), which it
    reads through ``__index__``.
    """
    if not isinstance(value, TensorBase):
        return False
    array = value._array
    return array.dtype.kind in "iu" and (array.size == 1 if in_list else array.ndim == 0)


def is_int(value: Any) -> bool:
    """An item of a list of ints as PyTorch's parser takes one.

    An int (not a bool), a numpy integer, or an integer tensor of one element (``index_tensor``).
    """
    return _accepts(value, "int") or index_tensor(value, in_list=True)


# One check: (position, parameter name, accepted types, refused types, PyTorch's type name,
# None allowed).
_Check = tuple[int, str, tuple[type, ...], tuple[type, ...], str, bool]


def _checks(parameters: list[_signatures.Parameter], name: str) -> list[_Check]:
    """The checks a function's ``parameters`` call for: by name (tensors) or by annotation."""
    numbers_allowed = name.removeprefix("linalg_") in NUMBER_OVERLOADS
    found: list[_Check] = []
    for position, parameter in enumerate(parameters):
        if parameter.kind is parameter.VAR_KEYWORD:
            break
        if parameter.kind is parameter.VAR_POSITIONAL:
            # (``*size``: PyTorch's parser unpacks it with messages of its own; the
            # keyword-only parameters after it are checked as any others)
            continue
        if parameter.name == "inplace":
            # PyTorch's functions with an ``inplace`` (F.leaky_relu, F.elu, ...) are written
            # in Python and only test it for truth: ``inplace="yes"`` writes in place.
            continue
        annotation = str(parameter.annotation)
        optional = parameter.default is None or annotation.endswith("| None")
        plain = annotation.removesuffix(" | None")
        if (parameter.name in NUMBER_PARAMETERS and (name, parameter.name) not in NOT_NUMBERS
                or (name, parameter.name) in NUMBERS_OF):
            found.append((position, parameter.name, _NUMBER_LIKE, (), "Number", optional))
        elif name in NUMBERS_AS_TENSORS and (
            parameter.name == "input" or (name, parameter.name) in MORE_TENSORS
        ):  # (PyTorch's parser takes a number for their Tensor parameters: _wrapped_numbers;
            # their ``other`` takes one anyway, as the Number overloads' operand)
            found.append((position, parameter.name, TENSOR_OR_NUMBER, (), "Tensor", False))
        elif position == 1 and parameter.name in ("other", "exponent") and (
            name in WRAPPED_NUMBERS or name in OVERLOADED
        ):
            kind = "Tensor" if name in WRAPPED_NUMBERS else _OVERLOADS
            found.append((position, parameter.name, _OPERAND, (), kind, False))
        elif parameter.name == "dtype" and name not in NOT_DTYPES:
            found.append((position, "dtype", _DTYPE_LIKE, (), "minigrad.dtype", True))
        elif parameter.name == "generator":
            found.append((position, "generator", _GENERATOR, (), "minigrad.Generator", True))
        elif parameter.name == "memory_format":  # (None only where its default is None)
            found.append((position, parameter.name, _MEMORY_FORMAT, (), "minigrad.memory_format",
                          optional))
        elif parameter.name == "layout":
            found.append((position, "layout", _LAYOUT, (), "minigrad.layout", True))
        elif plain in _ANNOTATED:  # the annotation decides first: select(dim, index: int)
            types, refused, kind = _ANNOTATED[plain]
            found.append((position, parameter.name, types, refused, kind, optional))
        elif (
            (parameter.name in TENSOR_PARAMETERS and (name, parameter.name) not in NOT_TENSORS)
            or (name, parameter.name) in MORE_TENSORS
            or plain == "Tensor"
        ):
            types = _TENSOR_OR_NUMBER if numbers_allowed else _TENSOR
            found.append((position, parameter.name, types, (), "Tensor", optional))
    # A keyword-only parameter is never read off the positional arguments: a call giving it
    # there gets Python's (reworded) "takes 0 positional arguments", as from PyTorch's parser.
    keyword_only = {p.name for p in parameters if p.kind is p.KEYWORD_ONLY}
    return [(_KEYWORD_ONLY if check[1] in keyword_only else check[0], *check[1:])
            for check in found]


_KEYWORD_ONLY = 1 << 30  # (the position of a keyword-only parameter's check: none)


def _numpy_aliases(parameter_names: list[str], skip_first: bool = False) -> dict[str, str]:
    """``{other name: function's parameter}`` for NUMPY_NAMES' groups a function has.

    ``parameter_names``: the function's, in order. ``skip_first``: a method, whose first
    parameter is ``self`` whatever its name (a Tensor method made by ``record.unary_method``
    calls it ``x``): never given by keyword.
    """
    names = set(parameter_names[1 if skip_first else 0:])
    aliases = {}
    for group in NUMPY_NAMES:
        used = names.intersection(group)
        if len(used) == 1:
            (parameter,) = used
            aliases.update((name, parameter) for name in group if name != parameter)
    return aliases


def _pytorch_names(kwargs: dict[str, Any], aliases: dict[str, str]) -> dict[str, Any]:
    """``kwargs`` with NumPy's names replaced by the function's (unless both are given)."""
    renamed = {}
    for key, value in kwargs.items():
        parameter = aliases.get(key)
        renamed[key if parameter is None or parameter in kwargs else parameter] = value
    return renamed


class _Binding:
    """What ``checking_arguments`` read off one function for its calls that fail.

    The wrapper's error paths (the parser's texts) as methods of one object per function,
    rather than closures: ~1,000 functions are wrapped at import, and each closure costs a
    function, its cells and their tuple for the garbage collector to visit on every full
    collection (they were ~30 % of the objects ``import minigrad`` left). The wrapper's own
    fast path still reads its few values from its cells.
    """

    __slots__ = ("function", "name", "offset", "listed", "lenient", "aliases", "known",
                 "none_fits", "unpacked_listing", "overloads", "skip_first", "parameter_names",
                 "numpy_names", "most_positional", "number_slots", "needs_a_tensor",
                 "keywords_bind", "out_cell")

    def refuse_unlisted(self, args: tuple[Any, ...], kwargs: dict[str, Any]) -> None:
        """A check failed: the parser's listing of ``listed`` if the call fits none of them.

        (Looked at only once a check failed: a call that passes costs no matching.)
        """
        listed = self.listed
        if listed is None:
            return
        named = kwargs  # (NumPy's names as PyTorch's to match; as given in the message)
        if self.aliases and not kwargs.keys() <= self.known:
            named = _pytorch_names(kwargs, self.aliases)
        none_fits = self.none_fits
        if none_fits:  # (None as the listing's type: it fits there)
            named = {key: False if value is None and key in none_fits else value
                     for key, value in named.items()}
        offset = self.offset
        if not _fits_an_overload(args[1 - offset:], named, listed, self.lenient):
            raise TypeError(
                _no_overload_fits(self.name, args[1 - offset:], kwargs, listed)) from None

    def reword(self, error: TypeError, args: tuple[Any, ...], kwargs: dict[str, Any]) -> None:
        """The parser's text for a TypeError the function raised about the call itself."""
        self.count_first(args, kwargs)
        self.reword_in_order(error, args, kwargs)

    def reword_in_order(
        self, error: TypeError, args: tuple[Any, ...], kwargs: dict[str, Any]
    ) -> None:
        """``reword`` once the positional arguments were counted."""
        self.refuse_unlisted(args, kwargs)
        if self.unpacked_listing is not None and "unexpected keyword" in str(error):
            raise TypeError(
                _no_overload_fits(self.name, args, kwargs, self.unpacked_listing)) from None
        _raise_parser_text(error, self.name, args[1 - self.offset:], kwargs, self.overloads,
                           self.skip_first, self.parameter_names, self.numpy_names)

    def count_first(self, args: tuple[Any, ...], kwargs: dict[str, Any]) -> None:
        """The parser's text for too many positional arguments, if there are.

        PyTorch's parser counts them before it looks at keywords or types: ``kl_div(x, x,
        None, None)`` "takes from 2 to 3", not "'reduction' must be int". Asked only once a
        check failed or the call raised: Python's own count (the call without its keywords,
        which Python would look at first), reworded.
        """
        if len(args) > self.most_positional:
            # (several overloads: the parser's listing counts the keywords too)
            self.refuse_unlisted(args, kwargs)
            try:
                self.function(*args)
            except TypeError as error:
                self.reword_in_order(error, args, {})
                raise

    def route_out(self, layer: Callable[..., Any]) -> None:
        """Send the calls that give ``out`` to ``layer`` (``_out.install``)."""
        self.out_cell.cell_contents = layer


def checking_arguments(
    function: Callable[..., Any], name: str, skip_first: bool = False, numpy_names: bool = True
) -> Callable[..., Any]:
    """``function`` with PyTorch's TypeError for an argument of the wrong type.

    ``skip_first``: a method, whose ``self`` is not checked (nor counted in positions).
    ``numpy_names``: also take NumPy's names for ``dim``, ``keepdim``, ``input``, ``other``.
    """
    # (the signature read once: ~1,000 functions are wrapped at import)
    parameters = _signatures.parameters(function)
    parameter_names = [p.name for p in parameters]
    checks = [check for check in _checks(parameters, name)
              if not (skip_first and check[0] == 0)]
    aliases = _numpy_aliases(parameter_names, skip_first) if numpy_names else {}
    offset = 0 if skip_first else 1
    listed = LISTED.get(name, (None, None))[offset]
    # PyTorch's own listing otherwise; matched leniently: a type it does not know fits, and
    # None fits a "tuple of ints" that minigrad's signature makes optional (``int[1]? dim``,
    # which the listing does not mark), but for one whose default says PyTorch has no None
    # for it (NOT_GIVEN: ``squeeze_copy(x, None)`` fits none of its overloads).
    # (Not for ``*size``: PyTorch's parser unpacks those itself, with messages of its own.)
    lenient: frozenset[str] | None = None
    unpacking = any(p.kind is p.VAR_POSITIONAL for p in parameters)
    if listed is None and not unpacking:
        listed = PARSER_OVERLOADS["method" if skip_first else "function"].get(name)
        lenient = frozenset(p.name for p in parameters
                            if p.default is not p.empty and p.default is not NOT_GIVEN)
    if listed is not None:
        LISTING_NAMES.add(name)
    # A function of ``*size`` PyTorch binds several times (``rand``: with a generator too):
    # a keyword argument of a wrong type fits none of them, its listing says.
    unpacked_listing = None
    if listed is None and not skip_first and unpacking:
        unpacked_listing = PARSER_OVERLOADS["function"].get(name)
    if not checks and not aliases and listed is None:
        return function
    binding = _Binding()
    binding.function, binding.name, binding.offset = function, name, offset
    binding.listed, binding.lenient, binding.aliases = listed, lenient, aliases
    binding.unpacked_listing, binding.skip_first = unpacked_listing, skip_first
    binding.parameter_names, binding.numpy_names = parameter_names, numpy_names
    binding.none_fits = NONE_FITS.get(name, frozenset())
    binding.known = frozenset(parameter_names)
    # (for count_first)
    binding.most_positional = (1 << 30) if unpacking else sum(
        p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD) for p in parameters)
    first_checked = min((check[0] for check in checks), default=1 << 30)
    dim_overloads = KEEPDIM_NEEDS_DIM.get(name, (None, None))[offset]
    int_dim = name in INT_DIM
    if int_dim:  # (their ``dim``, argument 1, is checked below: not through the shortcut)
        first_checked = min(first_checked, 1)
    binding.overloads = dim_overloads or listed  # (for the parser's text of a call that fits none)
    # Functions whose every overload takes a tensor, though each argument may be a number
    # (PyTorch's Scalar overloads: pow, remainder, lerp, xlogy): numbers alone fit none.
    binding.needs_a_tensor = (name in NUMBER_OVERLOADS and listed is not None and not skip_first
                              and all("Tensor" in piece for piece, _, _ in listed))
    binding.keywords_bind = name in KEYWORD_OVERLOADS and listed is not None
    # The Tensor parameters PyTorch's parser also takes a number for (_wrapped_numbers):
    # (position, name) of each, a method's ``self`` left out.
    binding.number_slots = tuple(
        (position, parameter) for position, parameter in enumerate(parameter_names)
        if (parameter in ("input", "other") or (name, parameter) in MORE_TENSORS)
        and not (skip_first and position == 0)
    ) if name in NUMBERS_AS_TENSORS else ()

    # The types of positional-only calls whose every argument the checks let through as it
    # was: each check asks only its argument's type, so a call of the same types passes too.
    # (Not for the ``int_dim`` functions, whose ``dim`` test looks at the value. Not for
    # keyword calls either: a key of their names and types costs more than the checks, ~2,300
    # instructions more of ``a.clamp(min=0)``'s ~38,500.)
    passed: set[Any] = set()
    # The ``out=`` layer (minigrad/_out.py) of a function that takes or refuses ``out``, set
    # by ``route_out``: a call giving ``out`` goes there first (it takes ``out`` off and calls
    # ``checked`` again), so the other calls pass through one wrapper, not two.
    out_layer: Callable[..., Any] | None = None

    @functools.wraps(function)
    def checked(*args: Any, **kwargs: Any) -> Any:
        """``function``, after its arguments' types were checked."""
        given = len(args)
        if not kwargs:
            # (one or two arguments, the commonest calls: their types read here, without a
            # call of _types)
            if given <= first_checked:
                called = None
            elif given == 1:
                called = type(args[0])
            elif given == 2:
                called = type(args[0]), type(args[1])
            else:
                called = _types(args, given)
            if called is None or (not int_dim and called in passed):
                try:
                    return function(*args)  # no checked argument, or these types passed
                except TypeError as error:
                    binding.reword(error, args, kwargs)
                    raise
        elif out_layer is not None and "out" in kwargs:
            return out_layer(*args, **kwargs)
        if dim_overloads is not None and (
            (given <= 1 and _keepdim_without_dim(kwargs))
            or (int_dim and not _int_dim_or_other(
                args[1] if given > 1 else kwargs.get("dim", NOT_GIVEN)))
        ):
            binding.refuse_unlisted(args, kwargs)
            raise TypeError(_no_overload_fits(binding.name, args[1 - binding.offset:], kwargs,
                                              dim_overloads))
        named = kwargs  # (the call's own names stay for the listing's message)
        if aliases and not kwargs.keys() <= binding.known:
            named = _pytorch_names(kwargs, aliases)
        unchanged = not kwargs and not int_dim  # (the call's types may join ``passed``)
        for position, parameter, types, refused, kind, optional in checks:
            if position < given:
                value = args[position]
            elif parameter in named:
                value = named[parameter]
            else:
                continue
            if isinstance(value, types) and not isinstance(value, refused):
                continue
            if value is None and optional:
                continue
            if kind == "int" and index_tensor(value):  # read as the parser reads it: an int
                unchanged = False
                if position < given:
                    args = (*args[:position], int(value), *args[position + 1:])
                else:
                    named = {**named, parameter: int(value)}
                continue
            if "rounding_mode" in named:  # div's other overloads: div's own message
                continue
            _refuse(binding, args, kwargs, named, position, parameter, kind)
        if binding.number_slots and _wraps_a_number(
                args, named, binding.number_slots, binding.skip_first, binding.name):
            args, named = _wrapped_call(args, named, binding.number_slots, binding.name)
            unchanged = False  # (a call of these types has its number wrapped each time)
        if binding.needs_a_tensor and not any(
                isinstance(value, TensorBase) for value in (*args, *named.values())):
            raise TypeError(_no_overload_fits(binding.name, args, kwargs, binding.listed))
        if binding.keywords_bind and kwargs:
            binding.refuse_unlisted(args, kwargs)
        if unchanged:
            passed.add(called)
        try:
            return function(*args, **named)
        except TypeError as error:
            binding.reword(error, args, named)
            raise

    # (``route_out`` sets the wrapper's own cell: its calls read ``out_layer`` as the others)
    binding.out_cell = checked.__closure__[checked.__code__.co_freevars.index("out_layer")]
    checked.binding = binding  # type: ignore[attr-defined]
    _warnings.register_wrapper(checked.__code__)  # (warnings point past it, at the caller)
    if skip_first and all(p.kind is p.KEYWORD_ONLY for p in parameters[1:]):
        # A method whose options are all keyword-only (``x.clone()``, ``x.contiguous()``):
        # called without them, as it mostly is, it skips the checks' frame and its
        # ``function(*args)`` (~2,000 instructions: ``a.contiguous()`` cost 3,760 with them).

        @functools.wraps(function)
        def checked_alone(self: Any, *args: Any, **kwargs: Any) -> Any:
            """``function``, its arguments' types checked if any is given."""
            if not args and not kwargs:
                try:
                    return function(self)
                except TypeError as error:  # (a required keyword-only one: the parser's text)
                    binding.reword(error, (self,), kwargs)
                    raise
            return checked(self, *args, **kwargs)

        checked_alone.binding = binding  # type: ignore[attr-defined]
        _warnings.register_wrapper(checked_alone.__code__)
        return checked_alone
    return checked


def _refuse(
    binding: _Binding, args: tuple[Any, ...], kwargs: dict[str, Any], named: dict[str, Any],
    position: int, parameter: str, kind: str,
) -> None:
    """The parser's TypeError for an argument a check of ``checking_arguments`` refused."""
    value = args[position] if position < len(args) else named[parameter]
    binding.count_first(args, kwargs)
    binding.refuse_unlisted(args, kwargs)
    name, offset = binding.name, binding.offset
    if binding.unpacked_listing is not None:
        raise TypeError(_no_overload_fits(name, args, kwargs, binding.unpacked_listing))
    if kind is _OVERLOADS:
        raise TypeError(
            _overloads_message(name, args[1 - offset:], named, parameter, binding.skip_first))
    where = f" (position {position + offset})" if position < len(args) else ""
    raise TypeError(
        f"{name}(): argument '{parameter}'{where} must be {kind}, not "
        f"{errors.python_type_name(value)}"
    )


def _slot_values(
    args: tuple[Any, ...], named: dict[str, Any], slots: tuple[tuple[int, str], ...]
) -> list[Any]:
    """The values a call gives ``slots`` (by position or by name; absent ones left out)."""
    given = len(args)
    return [args[position] if position < given else named[parameter]
            for position, parameter in slots if position < given or parameter in named]


def _wraps_a_number(
    args: tuple[Any, ...], named: dict[str, Any], slots: tuple[tuple[int, str], ...],
    method: bool, name: str,
) -> bool:
    """Whether a call of a NUMBERS_AS_TENSORS function has a number to wrap into a tensor.

    A source (``x.copy_(2)``) always; an operand only if no operand is a tensor (a method's
    ``self`` is one): the ops take a number beside a tensor as it is.
    """
    values = _slot_values(args, named, slots)
    if name in WRAPPED_SOURCES:
        return any(is_number(value) for value in values)
    return not method and bool(values) and not any(
        isinstance(value, (TensorBase, np.ndarray)) for value in values)


def _wrapped_call(
    args: tuple[Any, ...], named: dict[str, Any], slots: tuple[tuple[int, str], ...], name: str
) -> tuple[tuple[Any, ...], dict[str, Any]]:
    """The call with its number wrapped as PyTorch's parser wraps it (``_wraps_a_number``).

    A source's numbers as the parser makes them (a float as a float64); else the first
    operand, in the dtype it promotes to (``minigrad.mul(2, 3)``: int64, as PyTorch's result).
    """
    source = name in WRAPPED_SOURCES
    for position, parameter in slots:
        if position < len(args):
            value = args[position]
            if is_number(value):
                args = (*args[:position], wrapped_number(value, not source), *args[position + 1:])
        elif parameter in named and is_number(named[parameter]):
            named = {**named, parameter: wrapped_number(named[parameter], not source)}
        else:
            continue
        if not source:
            break
    return args, named


_INT64_LOW, _INT64_HIGH = -(1 << 63), (1 << 63) - 1


def check_int64(value: int) -> int:
    """``value``, or the parser's ValueError for an int parameter that no int64 holds."""
    if not _INT64_LOW <= value <= _INT64_HIGH:
        raise ValueError("Overflow when unpacking long long")
    return value


def _types(args: tuple[Any, ...], given: int) -> Any:
    """The key of a positional call's types in ``checking_arguments``'s ``passed``.

    The type itself for one argument, a pair for two, a triple for three (a method with two
    options: ``x.transpose(0, 1)``) (``tuple(map(type, args))`` costs ~0.3 us more than
    writing them out, a third of a recorded ``minigrad.exp(a)``'s checks).
    """
    if given == 1:
        return type(args[0])
    if given == 2:
        return type(args[0]), type(args[1])
    if given == 3:
        return type(args[0]), type(args[1]), type(args[2])
    return tuple(map(type, args))


def parser_error(text: str) -> TypeError:
    """A TypeError whose ``text`` is PyTorch's parser's own, left as it is by the checks above.

    For an argument that is at another position in PyTorch's overload than in the function's
    signature (``arange(end)``: ``end`` is position 1 there), which the rewording would get
    wrong.
    """
    error = TypeError(text)
    error.parser_text = True  # type: ignore[attr-defined]
    return error


_MISSING = re.compile(
    r"\S+\(\) missing (\d+) required (?:positional|keyword-only) arguments?: (.*)")
_POSITIONAL_COUNT = re.compile(
    r"\S+\(\) takes (?:from (\d+) to )?(\d+) positional arguments? but (\d+) (?:was|were) given")
_UNNAMED = re.compile(r"argument '(\w+)' must be (.*)", re.S)
_UNPACKING = re.compile(r"argument '(\w+)' (failed to unpack .*)", re.S)
_POSITIONED = re.compile(r"(\w+)\(\): argument '(\w+)' \(position \d+\)( .*)", re.S)
_SAME_WORDS = re.compile(
    r"\S+\(\) (got an unexpected keyword argument '\w+'|got multiple values for argument '\w+')")


def _raise_parser_text(
    error: TypeError, name: str, args: tuple[Any, ...], kwargs: dict[str, Any],
    overloads: tuple[tuple[str, int, int], ...] | None, method: bool, parameters: list[str],
    parser_bound: bool,
) -> None:
    """PyTorch's text for ``error`` if Python raised it for the call's arguments themselves.

    Python names the function by its qualified name (``Tensor.softmax()``) and counts ``self``;
    PyTorch's parser by its name, without ``self``. A function with several overloads gets
    them listed (``x.sum(foo=1)``); else the parser words it as Python does, but for the
    missing arguments: 'logsumexp() missing 1 required positional arguments: "dim"' (its plural
    for one, its singular for more). Only an error of the call itself is rewritten: its
    traceback has no frame of the function's; or a shared helper's "argument 'dim' must be int,
    not float", which gets the function's name and the argument's position; or, for a
    function PyTorch binds to its parser (``parser_bound``: not one it writes in Python, which
    passes its arguments on by position), an inline check's complaint, whose position is the
    call's (none for a keyword). ``args``: the call's, without a method's ``self``;
    ``parameters``: the function's, in order (``self`` too).
    """
    if getattr(error, "parser_text", False):
        return  # (worded by ``parser_error``: as it is)
    traceback = error.__traceback__
    text = str(error)
    # A shared helper's check (``wrap_dim``), which does not know whose argument it checked;
    # or an inline check, which does not know how the call gave it (a function's argument is
    # a method's one position earlier; a keyword argument has none).
    unnamed = _UNNAMED.fullmatch(text)
    positioned = _POSITIONED.fullmatch(text)
    if parser_bound and positioned is not None and positioned.group(1) == name:
        parameter, rest = positioned.group(2, 3)
    elif unnamed is not None:
        parameter, rest = unnamed.group(1), " must be " + unnamed.group(2)
    else:
        parameter = None
    unpacking = _UNPACKING.fullmatch(text)
    if unpacking is not None and unpacking.group(1) in parameters:
        # (an item of a list the parser failed to unpack: named by its place in the list)
        raise TypeError(f"{name}(): argument '{unpacking.group(1)}' {unpacking.group(2)}") from None
    if parameter in parameters:
        index = parameters.index(parameter)
        given = index - method < len(args)
        where = f" (position {index + 1 - method})" if given else ""
        raise TypeError(f"{name}(): argument '{parameter}'{where}{rest}") from None
    if traceback is None or traceback.tb_next is not None:
        return  # (another error: the caller re-raises it as it is)
    missing = _MISSING.fullmatch(text)
    count = _POSITIONAL_COUNT.fullmatch(text)
    same = _SAME_WORDS.fullmatch(text)
    if missing is None and count is None and same is None:
        return
    if overloads is not None:
        raise TypeError(_no_overload_fits(name, args, kwargs, overloads)) from None
    if missing is not None:
        text = errors.missing_arguments(name, re.findall(r"'(\w+)'", missing.group(2)))
    elif count is not None:
        fewest, most, got = (None if n is None else int(n) - method for n in count.groups())
        text = errors.too_many_positional(name, most, got, fewest)
    else:
        text = f"{name}() {same.group(1)}"
    raise TypeError(text) from None


def _int_dim_or_other(dim: Any) -> bool:
    """Whether ``dim`` of prod/max/min (or NOT_GIVEN) fits one of their overloads.

    An int fits the ``dim`` overload, a tensor max/min's ``other`` (prod's own check refuses it);
    anything else (None, a tuple, a float, a bool) fits none: the parser's message.
    """
    return dim is NOT_GIVEN or isinstance(dim, TensorBase) or _accepts(dim, "int")


def _keepdim_without_dim(kwargs: dict[str, Any]) -> bool:
    """Whether ``keepdim`` (or NumPy's ``keepdims``) is given but no ``dim`` (nor ``other``)."""
    return ("keepdim" in kwargs or "keepdims" in kwargs) and _DIM_NAMES.isdisjoint(kwargs)


def _no_overload_fits(
    name: str, args: tuple[Any, ...], kwargs: dict[str, Any],
    overloads: tuple[tuple[str, int, int], ...],
) -> str:
    """PyTorch's parser's message when none of ``overloads`` fits the arguments.

    As python_arg_parser.cpp: if the number of arguments leaves one overload, the message is
    that overload's first complaint (here: its ``dim`` is missing, or not an int); otherwise all
    are listed (invalid_arguments.cpp), with a note under each one that takes as many arguments
    as were given (counted, as PyTorch does, by the pieces of its listing): the keywords it
    lacks, or else the positional arguments whose types it refuses (marked ``!...!``).
    """
    count = len(args) + len(kwargs)
    plausible = [listing for listing, fewest, most in overloads if fewest <= count <= most]
    if len(overloads) == 1:  # (one signature: the parser lists none, whatever the count)
        plausible = [overloads[0][0]]
    if len(plausible) == 1:
        return _first_complaint(name, plausible[0], args, kwargs)
    lines = []
    for listing, _, _ in overloads:
        lines.append(listing[1:-1])
        pieces = listing[1:-1].split(", ")
        if len(pieces) != count:
            continue
        # (PyTorch takes the last word of a piece as its name: "= None" is named "None".)
        names = {piece.rsplit(" ", 1)[-1] for piece in pieces[len(pieces) - len(kwargs):]}
        unmatched = [key for key in reversed(kwargs) if key not in names]
        if unmatched:
            lines[-1] += ")\n      didn't match because some of the keywords were incorrect: " + (
                ", ".join(unmatched)) + "\n("  # (closed and reopened around the listing)
        else:
            by_name = {_piece_name(piece): piece for piece in pieces}
            marks = [_marked(value, _noted_as_fitting(value, piece))
                     for value, piece in zip(args, pieces)]
            named = [_marked(kwargs[key], _noted_as_fitting(kwargs[key], by_name[key]), key)
                     for key in reversed(kwargs)]  # (in the order invalid_arguments gives them)
            if any(mark.startswith("!") for mark in marks + named):
                marked = ", ".join(marks + named) if marks else "".join(f"{m}, " for m in named)
                lines[-1] += (")\n      didn't match because some of the arguments have invalid "
                              f"types: ({marked})\n(")
    # (a note closes its line with ")" and reopens "(": the empty pair it leaves goes)
    return errors.invalid_arguments(name, args, kwargs, lines).replace("\n()\n", "\n")


def function_call_fits_none(name: str, args: tuple[Any, ...], kwargs: dict[str, Any]) -> str:
    """PyTorch's parser's text for ``name(*args, **kwargs)`` when no overload fits."""
    return _no_overload_fits(name, args, kwargs, PARSER_OVERLOADS["function"][name])


def fits_function_overloads(name: str, args: tuple[Any, ...]) -> bool:
    """Whether ``name(*args)`` binds to one of the function's overloads, by count and type.

    For a function PyTorch writes in Python, which passes its arguments on by position to
    the parser (``F.ctc_loss`` to ``torch.ctc_loss``): if not, ``function_call_fits_none``.
    """
    return _fits_an_overload(args, {}, PARSER_OVERLOADS["function"][name])


def kernel_call_fits_none(name: str, args: tuple[Any, ...]) -> str:
    """The parser's text when no overload of the kernel ``name`` fits ``args``.

    For a function PyTorch writes in Python, which passes its arguments on by position to a
    kernel (``torch._VF.split(self, split_size, dim)``).
    """
    return _no_overload_fits(name, args, {}, PARSER_OVERLOADS["kernel"][name])


def no_overload_fits(
    name: str, args: tuple[Any, ...], kwargs: dict[str, Any], complaint: TypeError
) -> TypeError:
    """The parser's error for a function that checks its arguments itself, which failed.

    ``complaint`` is the function's own, about one argument: the parser's too if the number
    of arguments leaves one of ``name``'s overloads; else it lists them all.
    """
    count = len(args) + len(kwargs)
    overloads = PARSER_OVERLOADS["function"][name]
    if sum(fewest <= count <= most for _, fewest, most in overloads) == 1:
        return complaint
    return TypeError(_no_overload_fits(name, args, kwargs, overloads))


def method_call_fits_none(
    name: str, args: tuple[Any, ...], kwargs: dict[str, Any] | None = None
) -> str:
    """PyTorch's parser's text for ``x.name(*args, **kwargs)`` when no overload fits."""
    return _no_overload_fits(name, args, kwargs or {}, PARSER_OVERLOADS["method"][name])


def _first_complaint(
    name: str, listing: str, args: tuple[Any, ...], kwargs: dict[str, Any]
) -> str:
    """The parser's complaint about the arguments to the one overload their number leaves.

    As FunctionSignature::parse: more positional arguments than it takes (counted against its
    required ones, keyword-only too: "sort() takes from 1 to 0 positional arguments"); then the
    parameters in order (the first missing one, or the first of a type it refuses), then a
    keyword it does not have.
    """
    pieces = [piece for piece in listing[1:-1].split(", ") if piece]
    positional = pieces.index("*") if "*" in pieces else len(pieces)
    if len(args) > positional:
        required = sum(" = " not in piece for piece in pieces if piece != "*")
        return errors.too_many_positional(
            name, positional, len(args), None if required == positional else required)
    for position, piece in enumerate(piece for piece in pieces if piece != "*"):
        parameter = _piece_name(piece)
        if position < positional and position < len(args):
            value, where = args[position], f" (position {position + 1})"
        elif parameter in kwargs:
            value, where = kwargs[parameter], ""
        elif " = " in piece:
            continue
        else:
            # (PyTorch's ``missing_args`` names every required one from there on, even one
            # given by keyword: 'missing 2 required positional argument: "input", "size"')
            later = [_piece_name(rest) for rest in pieces[pieces.index(piece):]
                     if rest != "*" and " = " not in rest]
            return errors.missing_arguments(name, later)
        if not _fits_piece(value, piece):
            kind = piece.split(" = ", 1)[0].rsplit(" ", 1)[0]
            return (f"{name}(): argument '{parameter}'{where} must be {kind}, not "
                    f"{errors.python_type_name(value)}")
    known = {_piece_name(piece) for piece in pieces}
    unexpected = next((key for key in kwargs if key not in known), None)
    return f"{name}() got an unexpected keyword argument '{unexpected}'"


def _fits_piece(value: Any, piece: str, lenient: frozenset[str] | None = None) -> bool:
    """Whether ``value`` has the type a piece of an overload's listing names ("int dim").

    ``lenient`` (PyTorch's listings, read off its errors): a type this does not know fits, and
    None fits a "tuple of ints" parameter among these names.
    """
    if value is None and (piece.endswith(" = None") or (
            lenient is not None and piece.startswith("tuple of ints ")
            and _piece_name(piece) in lenient)):
        return True
    if lenient is not None and piece.startswith(("Number ", "float ")):
        return isinstance(value, _NUMBER_LIKE)
    if lenient is not None and piece.split(" ", 1)[0] not in (
            "Tensor", "int", "bool", "str", "tuple", "minigrad.dtype", "minigrad.Generator",
            "minigrad.layout", "minigrad.memory_format"):
        return True
    if piece.startswith("minigrad.dtype "):
        return isinstance(value, _DTYPE_LIKE)
    if piece.startswith("minigrad.layout "):
        return isinstance(value, _LAYOUT)
    if piece.startswith("minigrad.memory_format "):
        return isinstance(value, _MEMORY_FORMAT)
    if piece.startswith("minigrad.Generator "):
        return isinstance(value, _GENERATOR)
    if piece.startswith("Tensor "):
        return isinstance(value, TensorBase)
    if piece.startswith("Number "):
        return isinstance(value, (*_NUMBERS, np.number, np.bool_))
    if piece.startswith("tuple of Tensors "):  # (a TensorList: a list or tuple of tensors)
        return isinstance(value, (tuple, list)) and all(isinstance(v, TensorBase) for v in value)
    if piece.startswith("tuple of ints "):  # (an IntArrayRef: a list too, or one int)
        return is_int(value) or (
            isinstance(value, (tuple, list)) and all(is_int(v) for v in value))
    kind = piece.split(" ", 1)[0]
    return kind in _ANNOTATED and _accepts(value, kind)


def _noted_as_fitting(value: Any, piece: str) -> bool:
    """Whether invalid_arguments.cpp's note leaves ``value`` unmarked under ``piece``.

    As _fits_piece, but stricter, as PyTorch's notes are: any value is marked under a "Number"
    (``!float!``), under a "tuple of Tensors" and under a piece with a default (``Tensor max =
    None``), a bool under a "float" (which the parser takes), and anything but a tuple under a
    "tuple of ints".
    """
    if piece.startswith(("Number ", "tuple of Tensors ")) or " = " in piece:
        return False
    if piece.startswith("float ") and isinstance(value, (bool, np.bool_)):
        return False
    if piece.startswith("tuple of ints ") and not isinstance(value, tuple):
        return False
    return _fits_piece(value, piece)


def _marked(value: Any, fits: bool, key: str | None = None) -> str:
    """An argument as invalid_arguments.cpp notes it: ``int``, ``!float!``, ``!dim=NoneType!``."""
    if fits:
        kind = errors.argument_type_name(value)
        return kind if key is None else f"{key}={kind}"
    kind = errors.mismatched_argument_description(value)
    return f"!{kind}!" if key is None else f"!{key}={kind}!"


def _piece_name(piece: str) -> str:
    """The parameter a piece of an overload's listing names: "bool keepdim = False" -> keepdim."""
    return piece.split(" = ", 1)[0].rsplit(" ", 1)[-1]


def _bound_to(
    listing: str, args: tuple[Any, ...], kwargs: dict[str, Any],
    lenient: frozenset[str] | None = None,
) -> dict[str, Any] | None:
    """The arguments by parameter name if they bind to the overload ``listing``, else None.

    They bind if their number and names fit, every required parameter is given and every
    value has its parameter's type (``_fits_piece``).
    """
    pieces = [piece for piece in listing[1:-1].split(", ") if piece]
    positional = pieces[: pieces.index("*")] if "*" in pieces else pieces
    by_name = {_piece_name(piece): piece for piece in pieces if piece != "*"}
    bound = {_piece_name(piece): value for piece, value in zip(positional, args)}
    if len(args) > len(positional) or not kwargs.keys() <= by_name.keys() - bound.keys():
        return None
    bound.update(kwargs)
    required = {name for name, piece in by_name.items() if " = " not in piece}
    if required <= bound.keys() and all(
        _fits_piece(value, by_name[name], lenient) for name, value in bound.items()
    ):
        return bound
    return None


def bind_overload(
    name: str, args: tuple[Any, ...], kwargs: dict[str, Any]
) -> tuple[int, dict[str, Any]]:
    """Which of PyTorch's overloads of the function ``name`` a call binds to, as its parser.

    For a function minigrad binds itself (``minigrad.lstm``: a sequence's and a packed
    sequence's form): the index of the first overload in PyTorch's listing the arguments bind
    to, and the arguments by parameter name; none: the parser's TypeError.
    """
    for index, (listing, _, _) in enumerate(PARSER_OVERLOADS["function"][name]):
        bound = _bound_to(listing, args, kwargs)
        if bound is not None:
            return index, bound
    raise TypeError(function_call_fits_none(name, args, kwargs))


def _fits_an_overload(
    args: tuple[Any, ...], kwargs: dict[str, Any], overloads: tuple[tuple[str, int, int], ...],
    lenient: frozenset[str] | None = None,
) -> bool:
    """Whether the arguments bind to one of ``overloads``, by count, name and type."""
    for listing, _, _ in overloads:
        pieces = [piece for piece in listing[1:-1].split(", ") if piece]
        positional = pieces[: pieces.index("*")] if "*" in pieces else pieces
        if (len(positional) == 1 and positional[0].startswith("tuple of ints ")
                and len(args) > 1 and not kwargs and _accepts(args[0], "int")):
            # Its ints given one by one (``x.squeeze(0, 1)``): the rest is checked later, by
            # the unpacking, whose complaint is the parser's own if no other overload takes
            # that many arguments (``x.var(0, None, True)`` is the listing).
            others = [(fewest, most) for other, fewest, most in overloads if other != listing]
            if all(_accepts(a, "int") for a in args) or not any(
                    fewest <= len(args) <= most for fewest, most in others):
                return True
            continue
        if _bound_to(listing, args, kwargs, lenient) is not None:
            return True
    return False


def _overloads_message(
    name: str, args: tuple[Any, ...], kwargs: dict[str, Any], parameter: str, method: bool
) -> str:
    """The parser's message when no overload of ``name`` (OVERLOADED) fits.

    ``args`` are the arguments as PyTorch's message lists them: a method's without ``self``.
    """
    given = errors.invalid_arguments(name, args, kwargs, ())
    describe = errors.mismatched_argument_description
    if not method:
        bad = describe(args[1]) if len(args) > 1 else f"{parameter}={describe(kwargs[parameter])}"
        return given + "".join(line.format(bad=bad) for line in OVERLOADED[name])
    # A method: both overloads take one argument, so each says why it did not match.
    value = args[0] if args else kwargs[parameter]
    marked = f"!{describe(value)}!" if args else f"!{parameter}={describe(value)}!, "
    why = f"      didn't match because some of the arguments have invalid types: ({marked})\n"
    return given + "".join(f" * ({kind} {parameter})\n{why}" for kind in ("Tensor", "Number"))


def check_methods(cls: type, names: Iterable[str]) -> None:
    """Give each method among ``names`` of ``cls`` the argument checks (dunders excepted).

    A method PyTorch binds as taking no arguments (NO_ARGUMENTS) gets CPython's texts for
    them instead, unless it is a recording function that has no frame of its own on purpose
    (``frameless``: ``a.sigmoid()``, ``a.exp()``, hot paths a frame would slow).
    """
    for name in names:
        method = cls.__dict__.get(name)
        if not inspect.isfunction(method) or name.startswith("_"):
            continue
        if name in NO_ARGUMENTS and len(_signatures.parameters(method)) == 1:
            if not getattr(method, "frameless", False):
                setattr(cls, name, taking_no_arguments(method, name))
            continue
        if name in UNCHECKED:
            continue
        setattr(cls, name, checking_arguments(
            method, name, skip_first=True, numpy_names=name not in PYTHON_LEVEL))


def taking_no_arguments(method: Callable[[Any], Any], name: str) -> Callable[..., Any]:
    """``method`` (of ``self`` alone) with the texts of PyTorch's C method of no arguments.

    As CPython's ``METH_NOARGS`` check: keywords first, then the positional arguments.
    """

    @functools.wraps(method)
    def alone(self: Any, *args: Any, **kwargs: Any) -> Any:
        """``method(self)``, refusing any argument as PyTorch does."""
        if kwargs:
            raise TypeError(f"TensorBase.{name}() takes no keyword arguments")
        if args:
            raise TypeError(errors.no_arguments(name, len(args)))
        return method(self)

    # (its frame is named as the method: write tracking names a write by its frame)
    alone.__code__ = alone.__code__.replace(co_name=name)
    return alone


def check_functions(
    namespace: dict[str, Any],
    names: Iterable[str],
    prefix: str = "",
    python_level: Iterable[str] = (),
    parser_bound: Iterable[str] | None = None,
) -> None:
    """Give each function among ``names`` in ``namespace`` the argument checks.

    ``prefix`` is how PyTorch's messages name the namespace's functions (``linalg_inv()``).
    ``python_level``: functions PyTorch writes in Python, which call a method of their input
    first: a non-tensor gets an AttributeError there, not the parser's TypeError, so they are
    left as they are. ``parser_bound``: the functions PyTorch binds to its argument parser,
    which take NumPy's names too (None: all but PYTHON_LEVEL).
    """
    skipped = UNCHECKED | frozenset(python_level)
    bound = None if parser_bound is None else frozenset(parser_bound)
    for name in names:
        value = namespace.get(name)
        if inspect.isfunction(value) and name not in skipped:
            message_name = PYTORCH_NAMES.get(name, prefix + name)
            numpy_names = name not in PYTHON_LEVEL if bound is None else name in bound
            namespace[name] = checking_arguments(value, message_name, numpy_names=numpy_names)
            if namespace[name] is not value:
                publish(namespace[name], namespace, name)


def check_tensor(value: Any, function: str, parameter: str, position: int | None = None) -> None:
    """PyTorch's TypeError if ``value`` is not a tensor: for functions that check inline."""
    if not isinstance(value, TensorBase):
        raise TypeError(errors.wrong_argument_type(
            function, parameter, "Tensor", errors.python_type_name(value), position
        ))


def check_tensor_sequence(values: Iterable[Any], argument: int) -> None:
    """PyTorch's TypeError for a non-tensor in a list of tensors (``cat``, ``einsum``...)."""
    for index, value in enumerate(values):
        if not isinstance(value, TensorBase):
            raise TypeError(
                f"expected Tensor as element {index} in argument {argument}, but got "
                f"{errors.python_type_name(value)}"
            )


def check_has_attribute(value: Any, attribute: str) -> None:
    """The AttributeError of PyTorch's Python-level functions for a non-tensor argument.

    ``torch.nn.functional.mse_loss("a", t)`` fails on ``"a".size()``; these functions of
    minigrad fail the same way, before any other work.
    """
    if not isinstance(value, TensorBase):
        raise AttributeError(f"'{type(value).__name__}' object has no attribute '{attribute}'")


def check_value(
    value: Any, kind: str, function: str, parameter: str, position: int | None = None
) -> None:
    """PyTorch's TypeError if ``value`` is not a ``kind`` (bool, int, float, str): inline."""
    if not _accepts(value, kind):
        name = _ANNOTATED[kind][2]
        where = "" if position is None else f" (position {position})"
        raise TypeError(
            f"{function}(): argument '{parameter}'{where} must be {name}, not "
            f"{errors.python_type_name(value)}"
        )


def unpacked_ints(
    first: Any, rest: tuple[Any, ...], function: str, parameter: str
) -> tuple[int, ...]:
    """An IntArrayRef given unpacked (``x.squeeze(0, 1)``), read as PyTorch's parser reads it.

    The parser takes ints given one by one for a lone ``tuple of ints`` parameter if the first
    is an int (not a bool; else no overload fits); the others need only convert to an int (a
    bool does), and it says "failed to unpack" for one that does not.
    """
    if not is_int(first):  # (the checks then give the parser's listing)
        raise TypeError(f"{function}(): argument '{parameter}' must be tuple of ints, not "
                        f"{errors.python_type_name(first)}")
    check_first_int64(first, function, parameter)
    check_unpacked(rest, function, parameter)
    return (int(first), *(int(value) for value in rest))


def check_unpacked(rest: Sequence[Any], function: str, parameter: str) -> None:
    """The parser's TypeError if an int list's items after the first do not convert to ints.

    (Its type check looks at the first item only; the others are converted as it unpacks the
    list, a bool too, and it counts them from 1.)
    """
    for index, value in enumerate(rest):
        if type(value) is int:
            if not _INT64_LOW <= value <= _INT64_HIGH:  # (an int no int64 holds)
                raise TypeError(errors.int_list_overflow(function, parameter, index + 2))
        elif not (isinstance(value, (int, np.integer)) or index_tensor(value, in_list=True)):
            raise TypeError(
                f"{function}(): argument '{parameter}' failed to unpack the object at pos "
                f'{index + 2} with error "type must be tuple of ints,but got '
                f'{errors.python_type_name(value)}"'
            )


def check_first_int64(first: Any, function: str, parameter: str) -> None:
    """The parser's TypeError for an int list whose first item no int64 holds."""
    if type(first) is int and not _INT64_LOW <= first <= _INT64_HIGH:
        raise TypeError(errors.int_list_overflow(function, parameter, 1))


def check_int64_arguments(*values: Any) -> None:
    """The parser's ValueError for an int among ``values`` that no int64 holds.

    For functions off the hot path, whose int arguments all go through it first (the parser
    unpacks every argument before the op looks at one). (It unpacks them last first, as
    ``check_scalar_arguments`` says: a function that checks an int list too checks the
    arguments after it first.)
    """
    for value in values:
        if type(value) is int:
            check_int64(value)


def check_int64_items(values: Sequence[Any], function: str, parameter: str) -> None:
    """The parser's TypeError for the first item of an int list that no int64 holds.

    For an op's error branch: a size past int64 is the parser's error in PyTorch, before the
    op looks at the sizes (``x.view(2**70)``).
    """
    for position, value in enumerate(values, 1):
        if type(value) is int and not _INT64_LOW <= value <= _INT64_HIGH:
            raise TypeError(errors.int_list_overflow(function, parameter, position))


def check_dim_items(values: Sequence[Any], parameter: str = "dim") -> None:
    """The parser's TypeError for the first item of a ``dim`` list that no int64 holds.

    For shared helpers, which do not know whose ``dim`` they check: the message names no
    function, and the argument checks add it (``sum(): argument 'dim' failed to unpack ...``).
    """
    for position, value in enumerate(values, 1):
        if type(value) is int and not _INT64_LOW <= value <= _INT64_HIGH:
            raise TypeError(errors.dims_item_overflow(position, parameter))


def int_tuple(value: Any) -> tuple[int, ...]:
    """An int list argument that ``check_int_sequence`` passed, as a tuple of ints.

    As PyTorch's parser reads an ``int[1]``: a lone int, or an integer tensor of one element,
    is a list of one; every item converts through ``__index__``.
    """
    if is_int(value):
        return (operator.index(value),)
    return tuple(operator.index(item) for item in value)


def check_int_sequence(value: Any, function: str, parameter: str, position: int | None,
                       lone_int: bool = True) -> None:
    """PyTorch's TypeError unless ``value`` is an int or a sequence of ints (an IntArrayRef).

    As its parser: the type check looks at the first item of a sequence, the others must only
    convert. ``position``: None for an argument given by keyword. ``lone_int``: a lone int
    counts as a list of one (``int[1]``, not ``int[]``).
    """
    if lone_int and is_int(value):
        if type(value) is int and (value > 0x3FFFFFFF or value < -0x3FFFFFFF):
            check_int64(value)  # (a lone int past int64: the parser's ValueError)
        return
    where = "" if position is None else f" (position {position})"
    if not isinstance(value, (tuple, list)):
        raise TypeError(
            f"{function}(): argument '{parameter}'{where} must be tuple of ints, "
            f"not {errors.python_type_name(value)}"
        )
    if value and not is_int(value[0]):
        raise TypeError(
            f"{function}(): argument '{parameter}'{where} must be tuple of "
            f"ints, but found element of type {errors.python_type_name(value[0])} at pos 0"
        )
    if value:
        check_first_int64(value[0], function, parameter)
    check_unpacked(value[1:], function, parameter)
