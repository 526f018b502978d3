"""Random sampling: normal, bernoulli, multinomial, poisson and the random in-place fills.

Every draw comes from minigrad's generators (``minigrad/_random.py``: the default one, or the
one passed as ``generator=``): seeded runs repeat, the numbers differ from PyTorch's. What
PyTorch's autograd records is reproduced: a sample's gradient is zero for its inputs (PyTorch
does not reparameterize), under the node names of each overload (``NormalBackward1..3``,
``BernoulliBackward0..2``, ``RandomBackward0..2`` ...), and ``bernoulli(input, p)`` has no
derivative at all. ``normal_`` and ``uniform_`` live with the other fills in ``fill.py``.
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np

from minigrad import _arguments, _dtype, _random, errors
from minigrad._dtype import checked_value
from minigrad._layout import contiguous_result
from minigrad.autograd import grad_mode
from minigrad.autograd.function import Op
from minigrad.autograd.inplace import apply_inplace
from minigrad.autograd.tensor_base import TensorBase
from minigrad.errors import double_text
from minigrad.ops._helpers import (
    NoDerivativeOf,
    broadcast_shapes,
    dtype_name,
    operand,
    zeros_like_grad,
)
from minigrad.ops.fill import check_floating_kernel, check_normal_std, normal_

# --- in-place fills -------------------------------------------------------------------------


class _Fill(Op):
    """y = a sample of x's shape and dtype, drawn by ``draw``;  dx = 0.  Saves nothing."""

    checks_input_overlap = False  # (nothing is read from the other arguments' memory)

    @classmethod
    def forward(cls, ctx: Any, x: np.ndarray, *options: Any) -> np.ndarray:
        *parameters, generator = options
        values = cls.draw(_random.generator(generator), x.shape, *parameters)
        return np.asarray(values).astype(x.dtype, copy=False)

    @classmethod
    def backward(cls, ctx: Any, grad: Any) -> tuple[Any, ...]:
        return (zeros_like_grad(grad), *(None,) * cls.option_count)

    option_count: ClassVar[int]

    @staticmethod
    def draw(numpy: np.random.Generator, shape: tuple[int, ...], *parameters: Any) -> Any:
        """The sample, of ``shape``, as any numeric array (cast to the tensor's dtype after)."""
        raise NotImplementedError


class Exponential(_Fill):
    """y ~ Exponential(lambd);  dx = 0."""

    option_count = 2

    @staticmethod
    def draw(numpy: np.random.Generator, shape: tuple[int, ...], lambd: float) -> Any:
        return numpy.exponential(1.0 / lambd, size=shape)


class Geometric(_Fill):
    """y ~ Geometric(p), the number of Bernoulli(p) trials up to the first success;  dx = 0."""

    option_count = 2

    @staticmethod
    def draw(numpy: np.random.Generator, shape: tuple[int, ...], p: float) -> Any:
        return numpy.geometric(p, size=shape)


class LogNormal(_Fill):
    """y = exp(z) with z ~ Normal(mean, std);  dx = 0."""

    option_count = 3

    @staticmethod
    def draw(numpy: np.random.Generator, shape: tuple[int, ...], mean: float, std: float) -> Any:
        return numpy.lognormal(mean, std, size=shape)


class Cauchy(_Fill):
    """y ~ Cauchy(median, sigma);  dx = 0."""

    option_count = 3

    @staticmethod
    def draw(numpy: np.random.Generator, shape: tuple[int, ...], median: float,
             sigma: float) -> Any:
        return median + sigma * numpy.standard_cauchy(size=shape)


class _RandomIntegers(_Fill):
    """y ~ the integers of [low, high) uniformly;  dx = 0."""

    option_count = 3

    @staticmethod
    def draw(numpy: np.random.Generator, shape: tuple[int, ...], low: int, high: int) -> Any:
        return numpy.integers(low, high, size=shape, dtype=np.int64, endpoint=False)


class RandomFromTo(_RandomIntegers):
    """``random_(from, to)``: PyTorch's ``RandomBackward0``."""

    node_name = "RandomBackward0"


class RandomTo(_RandomIntegers):
    """``random_(to)``: PyTorch's ``RandomBackward1``."""

    node_name = "RandomBackward1"


class RandomAll(_RandomIntegers):
    """``random_()``, over the dtype's whole range of exact integers: ``RandomBackward2``."""

    node_name = "RandomBackward2"


class BernoulliTensorFill(_Fill):
    """``bernoulli_(p)`` with a tensor of probabilities: PyTorch's ``BernoulliBackward1``."""

    node_name = "BernoulliBackward1"
    num_inputs = 2  # (the probabilities: an input, whose gradient is zero too)
    option_count = 2
    fields = ("p_shape",)

    @classmethod
    def forward(cls, ctx: Any, x: np.ndarray, p: np.ndarray, generator: Any) -> np.ndarray:
        ctx.p_shape = p.shape
        return super().forward(ctx, x, p, generator)

    @classmethod
    def backward(cls, ctx: Any, grad: Any) -> tuple[Any, ...]:
        p_zeros = np.zeros(ctx.p_shape, dtype=grad.dtype) if ctx.needs_input_grad[1] else None
        return zeros_like_grad(grad), p_zeros, None

    @staticmethod
    def draw(numpy: np.random.Generator, shape: tuple[int, ...], p: np.ndarray) -> Any:
        return numpy.random(shape) < np.broadcast_to(p, shape)


class BernoulliFill(_Fill):
    """``bernoulli_(p)`` with a number: PyTorch's ``BernoulliBackward2``."""

    node_name = "BernoulliBackward2"
    option_count = 2

    @staticmethod
    def draw(numpy: np.random.Generator, shape: tuple[int, ...], p: float) -> Any:
        return numpy.random(shape) < p


def _check_floating(input: Any, message: str) -> None:
    if input._array.dtype.kind != "f":
        raise RuntimeError(message)


def exponential_(input: Any, lambd: float = 1.0, *,
                 generator: _random.Generator | None = None) -> Any:
    """Fill ``input`` with samples of Exponential(``lambd``) (rate ``lambd``), in place."""
    if not lambd > 0.0:
        raise RuntimeError(
            f"exponential_ expects lambda > 0.0, but found lambda={double_text(lambd)}")
    _check_floating(input, "Exponential distribution is a continuous probability distribution. "
                           f"dtype must be a floating point but you specified {dtype_name(input)}")
    return apply_inplace(Exponential, input, lambd, generator)


def geometric_(input: Any, p: float, *, generator: _random.Generator | None = None) -> Any:
    """Fill ``input`` with samples of Geometric(``p``): trials up to the first success."""
    if not 0 < p < 1:
        raise RuntimeError(f"geometric_ expects p to be in (0, 1), but got p={double_text(p)}")
    if input._array.dtype == np.bool_:
        raise NotImplementedError(errors.not_implemented_for("geometric_cpu", "Bool"))
    return apply_inplace(Geometric, input, p, generator)


def log_normal_(input: Any, mean: float = 1.0, std: float = 2.0, *,
                generator: _random.Generator | None = None) -> Any:
    """Fill ``input`` with ``exp`` of Normal(``mean``, ``std``) samples, in place."""
    check_floating_kernel(input, "log_normal_cpu")
    if not std > 0.0:
        raise RuntimeError(f"log_normal_ expects std > 0.0, but found std={double_text(std)}")
    return apply_inplace(LogNormal, input, mean, std, generator)


def cauchy_(input: Any, median: float = 0.0, sigma: float = 1.0, *,
            generator: _random.Generator | None = None) -> Any:
    """Fill ``input`` with samples of Cauchy(``median``, ``sigma``), in place."""
    if not sigma > 0.0:
        raise RuntimeError(f"cauchy_ expects sigma > 0.0, but found sigma={double_text(sigma)}")
    _check_floating(input, "Cauchy distribution is a continuous probability distribution. "
                           "dtype must be a floating point but you specified "
                           f"{errors.CPP_TYPE_NAMES[input._array.dtype.name]}")
    return apply_inplace(Cauchy, input, median, sigma, generator)


def random_(input: Any, from_: int | None = None, to: int | None = None, *,
            generator: _random.Generator | None = None) -> Any:
    """Fill ``input`` with integers drawn uniformly, in place.

    ``random_()``: from the integers the dtype holds exactly (``[0, 2^24]`` for float32, the
    whole non-negative range for integers); ``random_(to)``: ``[0, to)``; ``random_(from,
    to)``: ``[from, to)``.
    """
    _arguments.check_int64_arguments(from_, to)  # (the parser's error comes first)
    dtype = input._array.dtype
    if from_ is None and to is None:
        low, high, op = 0, _whole_range_end(dtype), RandomAll
    elif from_ is None or to is None:  # (one argument: PyTorch's ``random_(to)``)
        low, high, op = 0, int(to if from_ is None else from_), RandomTo
    else:
        low, high, op = int(from_ or 0), int(to), RandomFromTo
    if op is not RandomAll:
        _random.check_random_range(low, high, dtype)
    return apply_inplace(op, input, low, high, generator)


def _whole_range_end(dtype: np.dtype) -> int:
    """One past the largest value ``random_()`` draws for ``dtype``."""
    if dtype == np.bool_:
        return 2
    if dtype.kind == "f":
        return 2 ** (np.finfo(dtype).nmant + 1) + 1
    return int(np.iinfo(dtype).max) + 1


def _check_probability(p: float) -> None:
    if not 0 <= p <= 1:
        raise RuntimeError(f"bernoulli_ expects p to be in [0, 1], but got p={double_text(p)}")


def bernoulli_(input: Any, p: Any = 0.5, *, generator: _random.Generator | None = None) -> Any:
    """Fill ``input`` with 1 with probability ``p`` (a number, or a tensor of them), else 0."""
    if isinstance(p, TensorBase):
        return apply_inplace(BernoulliTensorFill, input, p, generator)
    _check_probability(p)
    return apply_inplace(BernoulliFill, input, p, generator)


# --- new tensors ----------------------------------------------------------------------------


class Bernoulli(Op):
    """y ~ Bernoulli(x) elementwise (1 with probability x);  dx = 0.  Saves nothing."""

    saves = ()  # (it saves nothing: its node has no slot for saved values)
    result_layout = staticmethod(contiguous_result)

    @staticmethod
    def forward(ctx: Any, probabilities: np.ndarray, generator: Any) -> np.ndarray:
        if not ((probabilities >= 0) & (probabilities <= 1)).all():
            raise RuntimeError(
                "Expected p_in >= 0 && p_in <= 1 to be true, but got false.  (Could this error "
                "message be improved?  If so, please report an enhancement request to "
                "PyTorch.)")
        draws = _random.generator(generator).random(probabilities.shape)
        return (draws < probabilities).astype(probabilities.dtype)

    @staticmethod
    def backward(ctx: Any, grad: Any) -> tuple[Any, None]:
        return zeros_like_grad(grad), None


def bernoulli(input: Any, p: float | None = None, *,
              generator: _random.Generator | None = None) -> Any:
    """1 with probability ``input`` (or ``p``, if given) in each element, else 0.

    Example:
        >>> import minigrad
        >>> minigrad.bernoulli(minigrad.tensor([0.0, 1.0]))
        tensor([0., 1.])
    """
    array = operand(input)
    if array.dtype.kind != "f":
        raise NotImplementedError(
            errors.not_implemented_for("bernoulli_tensor_cpu_p_", dtype_name(input)))
    if p is None:
        return Bernoulli.apply(input, generator)
    _check_probability(p)
    draws = _random.generator(generator).random(array.shape) < p
    values = draws.astype(array.dtype)
    if grad_mode.is_grad_enabled() and input.requires_grad:
        return NoDerivativeOf.apply(input, values, "aten::bernoulli")
    return TensorBase.output_class._make(values)


class _NormalOf(Op):
    """y ~ Normal(mean, std), its tensor parameters first;  d(each) = 0 of its shape.

    ``parameters`` names the tensor inputs in order (PyTorch's ``next_functions``: a number
    has no edge), then the other parameter and the generator follow.
    """

    result_layout = staticmethod(contiguous_result)
    fields = ("shapes",)
    parameters: ClassVar[tuple[str, ...]]

    @classmethod
    def forward(cls, ctx: Any, first: Any, second: Any, generator: Any) -> np.ndarray:
        named = dict(zip(cls.parameters, (first, second)))
        if len(cls.parameters) == 1:
            named["std" if "mean" in named else "mean"] = second
        mean, std = named["mean"], named["std"]
        ctx.shapes = tuple(np.shape(named[name]) for name in cls.parameters)
        shape = np.broadcast_shapes(np.shape(mean), np.shape(std))
        dtype = first.dtype  # (a tensor's: the number is cast to it)
        return _random.generator(generator).normal(mean, std, size=shape).astype(dtype)

    @classmethod
    def backward(cls, ctx: Any, grad: Any) -> tuple[Any, ...]:
        zeros = [np.zeros(shape, dtype=grad.dtype) if need else None
                 for shape, need in zip(ctx.shapes, ctx.needs_input_grad)]
        return (*zeros, *(None,) * (3 - len(zeros)))


class NormalTensorFloat(_NormalOf):
    """``normal(mean tensor, std number)``: PyTorch's ``NormalBackward1``."""

    node_name = "NormalBackward1"
    parameters = ("mean",)
    num_inputs = 1
    saved_options = {"mean_sym_sizes": lambda node: node.shapes[0]}


class NormalFloatTensor(_NormalOf):
    """``normal(mean number, std tensor)``: PyTorch's ``NormalBackward2`` (std given first)."""

    node_name = "NormalBackward2"
    parameters = ("std",)
    num_inputs = 1
    saved_options = {"std_sym_sizes": lambda node: node.shapes[0]}


class NormalTensorTensor(_NormalOf):
    """``normal(mean tensor, std tensor)``: PyTorch's ``NormalBackward3``."""

    node_name = "NormalBackward3"
    parameters = ("mean", "std")
    num_inputs = 2
    saved_options = {"mean_sym_sizes": lambda node: node.shapes[0],
                     "std_sym_sizes": lambda node: node.shapes[1]}


def normal(mean: Any, std: Any = 1.0, size: Any = None, *,
           generator: _random.Generator | None = None, dtype: Any = None,
           requires_grad: bool = False) -> Any:
    """Samples of Normal(``mean``, ``std``): tensors of parameters, or numbers and a ``size``.

    Example:
        >>> import minigrad
        >>> minigrad.normal(minigrad.zeros(2, 3), 1.0).shape
        minigrad.Size([2, 3])
    """
    mean_is_tensor, std_is_tensor = isinstance(mean, TensorBase), isinstance(std, TensorBase)
    if not (mean_is_tensor or std_is_tensor):
        numpy_dtype = _dtype.to_numpy_dtype(dtype or _dtype.get_default_dtype(), "normal")
        result = TensorBase.output_class._make(np.empty(_size_of(size), dtype=numpy_dtype))
        return normal_(result, mean, std, generator=generator).requires_grad_(requires_grad)
    for value in (mean, std):
        if isinstance(value, TensorBase) and value._array.dtype.kind != "f":
            raise NotImplementedError(
                errors.not_implemented_for("normal_kernel_cpu", dtype_name(value)))
    if std_is_tensor:
        if (operand(std) < 0).any():
            raise RuntimeError("normal expects all elements of std >= 0.0")
    else:
        check_normal_std(std)
    if mean_is_tensor and std_is_tensor:
        broadcast_shapes(mean.shape, std.shape)  # (PyTorch's error where they don't broadcast)
        return NormalTensorTensor.apply(mean, std, generator)
    if mean_is_tensor:
        return NormalTensorFloat.apply(mean, checked_value(std, mean._array.dtype), generator)
    return NormalFloatTensor.apply(std, checked_value(mean, std._array.dtype), generator)


def _size_of(size: Any) -> tuple[int, ...]:
    if size is None:
        raise TypeError("normal() missing required argument 'size'")
    _arguments.check_int64_items(size, "normal", "size")  # (past int64: the parser's error)
    return tuple(size)


class Poisson(Op):
    """y ~ Poisson(x) elementwise (x the rates);  dx = 0.  Saves nothing."""

    saves = ()  # (it saves nothing: its node has no slot for saved values)
    result_layout = staticmethod(contiguous_result)

    @staticmethod
    def forward(ctx: Any, rates: np.ndarray, generator: Any) -> np.ndarray:
        return _random.generator(generator).poisson(rates).astype(rates.dtype)

    @staticmethod
    def backward(ctx: Any, grad: Any) -> tuple[Any, None]:
        return zeros_like_grad(grad), None


def poisson(input: Any, generator: _random.Generator | None = None) -> Any:
    """Samples of Poisson(``input``), one per element (the rates must be >= 0).

    Example:
        >>> import minigrad
        >>> minigrad.poisson(minigrad.zeros(3))
        tensor([0., 0., 0.])
    """
    array = operand(input)
    if array.dtype.kind != "f":
        raise NotImplementedError(errors.not_implemented_for("poisson_cpu", dtype_name(input)))
    if (array < 0).any():
        raise RuntimeError("invalid Poisson rate, expected rate to be non-negative")
    return Poisson.apply(input, generator)


def multinomial(input: Any, num_samples: int, replacement: bool = False, *,
                generator: _random.Generator | None = None) -> Any:
    """Indices drawn from the categories weighted by ``input``'s last dimension (int64).

    Without ``replacement`` each row draws distinct indices (categories of weight 0 come last,
    once the others are used up, as in PyTorch). Not differentiable: the result is integers.

    Example:
        >>> import minigrad
        >>> minigrad.multinomial(minigrad.tensor([0.0, 1.0, 0.0]), 1)
        tensor([1])
    """
    _arguments.check_int64_arguments(num_samples)  # (the parser's error comes first)
    weights = operand(input)
    if weights.dtype.kind != "f":
        raise RuntimeError("multinomial only supports floating-point dtypes for input, got: "
                           f"{dtype_name(input)}")
    if num_samples <= 0:
        raise RuntimeError("cannot sample n_sample <= 0 samples")
    if weights.ndim not in (1, 2):
        raise RuntimeError("prob_dist must be 1 or 2 dim")
    categories = weights.shape[-1]
    if not replacement and num_samples > categories:
        raise RuntimeError(
            "cannot sample n_sample > prob_dist.size(-1) samples without replacement")
    rows = weights.reshape(-1, categories).astype(np.float64)
    if not np.isfinite(rows).all() or (rows < 0).any():
        raise RuntimeError("probability tensor contains either `inf`, `nan` or element < 0")
    totals = rows.sum(axis=1, keepdims=True)
    if (totals <= 0).any():
        raise RuntimeError("invalid multinomial distribution (sum of probabilities <= 0)")
    numpy = _random.generator(generator)
    if replacement:
        # inverse transform sampling on each row's cumulative weights
        edges = np.cumsum(rows / totals, axis=1)
        draws = numpy.random((rows.shape[0], num_samples))
        picked = np.stack([np.searchsorted(row, u, side="right") for row, u in zip(edges, draws)])
        picked = np.minimum(picked, categories - 1)
    else:
        # PyTorch's draw without replacement: the largest weight / Exponential(1) keys
        keys = rows / numpy.exponential(1.0, size=rows.shape)
        picked = np.argsort(-keys, axis=1, kind="stable")[:, :num_samples]
    indices = picked.reshape(*weights.shape[:-1], num_samples).astype(np.int64)
    return TensorBase.output_class._make(indices)

