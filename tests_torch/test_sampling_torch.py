"""Random sampling side by side with PyTorch 2.13: normal, bernoulli, multinomial, poisson and
the random in-place fills (exponential_, geometric_, log_normal_, cauchy_, random_, ...).

The numbers come from different generators, so each call is compared by what does not depend
on them: the error (type and text), or the result's shape, dtype, grad_fn (name, edges and
saved sizes), values that are certain (probabilities 0 and 1) and the gradient of a sum.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from _cases import parametrize_in_one
from test_ops_torch import assert_same_outcome, run

import minigrad

torch = pytest.importorskip("torch")


def _float(lib: Any, values: Any, grad: bool = False, dtype: str = "float32") -> Any:
    return lib.tensor(values, dtype=getattr(lib, dtype), requires_grad=grad)


def _filled(method: str, *args: Any, dtype: str = "float32", grad: bool = False) -> Callable:
    """``lib.zeros(3).method(*args)``, on a non-leaf that requires grad if ``grad``."""

    def call(lib: Any) -> Any:
        base = lib.zeros(3, dtype=getattr(lib, dtype), requires_grad=grad)
        return getattr(base.clone() if grad else base, method)(*args)

    return call


CALLS: dict[str, Callable[[Any], Any]] = {
    # normal's overloads
    "normal_tensor_tensor": lambda lib: lib.normal(_float(lib, [[0.0], [1.0]], True),
                                                   _float(lib, [1.0, 2.0, 0.5], True)),
    "normal_tensor_float": lambda lib: lib.normal(_float(lib, [0.0, 1.0], True), 2.0),
    "normal_float_tensor": lambda lib: lib.normal(1.0, _float(lib, [1.0, 2.0], True)),
    "normal_sizes": lambda lib: lib.normal(0.0, 1.0, (2, 3)),
    "normal_sizes_dtype": lambda lib: lib.normal(0.0, 1.0, (2,), dtype=lib.float64),
    "normal_zero_std": lambda lib: lib.normal(_float(lib, [3.0, -1.0]), 0.0),
    "normal_negative_std": lambda lib: lib.normal(_float(lib, [0.0]), -1.0),
    "normal_negative_std_tensor": lambda lib: lib.normal(_float(lib, [0.0, 0.0]),
                                                         _float(lib, [1.0, -1.0])),
    "normal_shapes": lambda lib: lib.normal(lib.zeros(2), lib.ones(3)),
    "normal_integer_mean": lambda lib: lib.normal(lib.tensor([1, 2]), 1.0),
    # bernoulli
    "bernoulli": lambda lib: lib.bernoulli(_float(lib, [0.0, 1.0, 1.0], True)),
    "bernoulli_method": lambda lib: _float(lib, [1.0, 0.0], True).bernoulli(),
    "bernoulli_p": lambda lib: lib.bernoulli(_float(lib, [0.2, 0.5], True), 1.0),
    "bernoulli_p_method": lambda lib: _float(lib, [0.2, 0.5], True).bernoulli(0.0),
    "bernoulli_out_of_range": lambda lib: lib.bernoulli(_float(lib, [2.0])),
    "bernoulli_integer": lambda lib: lib.bernoulli(lib.tensor([1, 0])),
    "bernoulli__float": _filled("bernoulli_", 1.0, grad=True),
    "bernoulli__tensor": lambda lib: lib.zeros(3, requires_grad=True).clone().bernoulli_(
        _float(lib, [0.0, 1.0, 1.0])),
    "bernoulli__integer": _filled("bernoulli_", 0.0, dtype="int64"),
    "bernoulli__bad_p": _filled("bernoulli_", 1.5),
    # multinomial
    "multinomial": lambda lib: lib.multinomial(_float(lib, [0.0, 1.0, 0.0], True), 1),
    "multinomial_rows": lambda lib: _float(lib, [[0.0, 1.0], [1.0, 0.0]]).multinomial(1),
    "multinomial_replacement": lambda lib: lib.multinomial(_float(lib, [0.0, 1.0, 0.0]), 4,
                                                           replacement=True),
    "multinomial_negative": lambda lib: lib.multinomial(_float(lib, [0.0, -1.0]), 1),
    "multinomial_nan": lambda lib: lib.multinomial(_float(lib, [1.0, float("nan")]), 1),
    "multinomial_zero_sum": lambda lib: lib.multinomial(_float(lib, [0.0, 0.0]), 1),
    "multinomial_too_many": lambda lib: lib.multinomial(_float(lib, [1.0, 1.0]), 3),
    "multinomial_no_samples": lambda lib: lib.multinomial(_float(lib, [1.0, 1.0]), 0),
    "multinomial_integer": lambda lib: lib.multinomial(lib.tensor([1, 1]), 1),
    "multinomial_3d": lambda lib: lib.multinomial(lib.ones(2, 2, 2), 1),
    # poisson
    "poisson": lambda lib: lib.poisson(_float(lib, [0.0, 0.0], True)),
    "poisson_negative": lambda lib: lib.poisson(_float(lib, [-1.0])),
    "poisson_integer": lambda lib: lib.poisson(lib.tensor([1, 2])),
    # the in-place fills, their nodes and their checks
    "exponential_": _filled("exponential_", grad=True),
    "exponential__bad_lambda": _filled("exponential_", -1.0),
    "exponential__integer": _filled("exponential_", dtype="int64"),
    "exponential__integer_bad_lambda": _filled("exponential_", -1.0, dtype="int64"),
    "geometric_": _filled("geometric_", 0.5, grad=True),
    "geometric__integer": _filled("geometric_", 0.5, dtype="int64"),
    "geometric__bad_p": _filled("geometric_", 1.5),
    "geometric__bool": _filled("geometric_", 0.5, dtype="bool"),
    "log_normal_": _filled("log_normal_", grad=True),
    "log_normal__bad_std": _filled("log_normal_", 1.0, -2.0),
    "log_normal__integer": _filled("log_normal_", dtype="int64"),
    "cauchy_": _filled("cauchy_", grad=True),
    "cauchy__bad_sigma": _filled("cauchy_", 0.0, -1.0),
    "cauchy__integer": _filled("cauchy_", dtype="int64"),
    "random_": _filled("random_", grad=True),
    "random__to": _filled("random_", 1, grad=True),
    "random__from_to": _filled("random_", 2, 3, grad=True),
    "random__bad_range": _filled("random_", 5, 2),
    "random__uint8_too_large": _filled("random_", 300, dtype="uint8"),
    "random__uint8_negative": _filled("random_", -1, 3, dtype="uint8"),
    "random__bool": _filled("random_", 1, dtype="bool"),
    "normal__integer": _filled("normal_", dtype="int64"),
    "normal__bad_std": _filled("normal_", 0.0, -1.5),
    "uniform__integer": _filled("uniform_", dtype="int64"),
    "uniform__bad_range": _filled("uniform_", 2.0, 1.0),
    "uniform__empty_range": _filled("uniform_", 1.0, 1.0),
}


def _shown(lib: Any, result: Any) -> dict[str, Any]:
    """What a random result shows that does not depend on the generator's numbers."""
    node = result.grad_fn
    return {
        "shape": tuple(result.shape),
        "dtype": str(result.dtype).split(".")[-1],
        "requires_grad": result.requires_grad,
        "node": None if node is None else node.name(),
        "edges": None if node is None else [fn is not None for fn, _ in node.next_functions],
        "sizes": None if node is None else {
            name: tuple(getattr(node, name)) for name in dir(node)
            if name.endswith("_sym_sizes")},
    }


@parametrize_in_one("name", list(CALLS))
def test_sampling_matches_pytorch(name: str) -> None:
    theirs, their_error = run(lambda: CALLS[name](torch))
    mine, my_error = run(lambda: CALLS[name](minigrad))
    assert_same_outcome(my_error, their_error)
    if their_error is not None:
        return
    assert _shown(minigrad, mine) == _shown(torch, theirs)
    if name in ("bernoulli", "bernoulli_method", "normal_zero_std", "multinomial",
                "multinomial_rows", "multinomial_replacement", "bernoulli__float",
                "bernoulli__tensor", "random__to", "random__from_to", "uniform__empty_range",
                "poisson", "bernoulli_p", "bernoulli_p_method"):
        # probabilities of 0 and 1, a zero deviation, a range of one value: certain
        np.testing.assert_array_equal(mine.detach().numpy(), theirs.detach().numpy())


GRADIENT_CALLS: dict[str, Callable[[Any, Any, Any], Any]] = {
    "normal_tensor_tensor": lambda lib, a, b: lib.normal(a, b),
    "normal_tensor_float": lambda lib, a, b: lib.normal(a, 2.0) + b,
    "normal_float_tensor": lambda lib, a, b: lib.normal(1.0, a.exp()) + b,
    "bernoulli": lambda lib, a, b: lib.bernoulli(a.sigmoid()) + b,
    "poisson": lambda lib, a, b: lib.poisson(a.exp()) + b,
}


@pytest.mark.parametrize("name", list(GRADIENT_CALLS))
def test_the_gradient_of_a_sample_is_zero(name: str) -> None:
    def gradients(lib: Any) -> list[Any]:
        a = lib.tensor([0.5, -0.5, 1.0], requires_grad=True)
        b = lib.tensor([1.0, 2.0, 3.0], requires_grad=True)
        result = GRADIENT_CALLS[name](lib, a, b)
        gradient_of_a = lib.autograd.grad(result.sum(), a)[0]
        return [gradient_of_a.numpy()]

    for mine, theirs in zip(gradients(minigrad), gradients(torch), strict=True):
        np.testing.assert_array_equal(mine, theirs)


def test_bernoulli_with_p_has_no_derivative() -> None:
    def error(lib: Any) -> BaseException | None:
        x = lib.tensor([0.2, 0.5], requires_grad=True)
        return run(lambda: lib.bernoulli(x, 0.5).sum().backward())[1]

    assert_same_outcome(error(minigrad), error(torch))
