"""minigrad.distributions side by side with torch.distributions (PyTorch 2.13).

Each case builds the same distributions from the same parameters in both libraries and
compares what does not depend on the random numbers: errors (type and text), reprs, shapes,
values and dtypes of log_prob / cdf / entropy / moments / KL divergences, the grad_fn names
of the results, the gradients that reach the parameters, and the shapes of samples.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from _cases import parametrize_in_one
from test_ops_torch import assert_same_outcome, run

import minigrad

torch = pytest.importorskip("torch")


def dists(lib: Any) -> Any:
    return importlib.import_module(f"{lib.__name__}.distributions")


# --- errors and reprs -------------------------------------------------------------------------

CALLS: dict[str, Callable[[Any, Any], Any]] = {
    "normal negative scale": lambda lib, D: D.Normal(lib.zeros(2), lib.tensor([1.0, -1.0])),
    "normal nan loc": lambda lib, D: D.Normal(float("nan"), 1.0),
    "normal string": lambda lib, D: D.Normal("a", 1.0),
    "bernoulli probs above 1": lambda lib, D: D.Bernoulli(1.5),
    "bernoulli neither": lambda lib, D: D.Bernoulli(),
    "bernoulli both": lambda lib, D: D.Bernoulli(0.5, 0.0),
    "categorical 0-d": lambda lib, D: D.Categorical(lib.tensor(1.0)),
    "categorical logits 0-d": lambda lib, D: D.Categorical(logits=lib.tensor(1.0)),
    "categorical negative": lambda lib, D: D.Categorical(lib.tensor([-1.0, 2.0])),
    "categorical nan logits": lambda lib, D: D.Categorical(logits=lib.tensor([float("nan"), 2.0])),
    "uniform low above high": lambda lib, D: D.Uniform(1.0, 0.0),
    "exponential negative rate": lambda lib, D: D.Exponential(lib.tensor([1.0, -1.0])),
    "exponential value outside": lambda lib, D: D.Exponential(1.0).log_prob(lib.tensor(-1.0)),
    "laplace zero scale": lambda lib, D: D.Laplace(0.0, 0.0),
    "log_prob of a number": lambda lib, D: D.Normal(0.0, 1.0).log_prob(1.0),
    "log_prob of a wrong shape": lambda lib, D: D.Normal(lib.zeros(2), 1.0).log_prob(lib.zeros(3)),
    "bernoulli value outside": lambda lib, D: D.Bernoulli(0.3).log_prob(lib.tensor(0.5)),
    "categorical value outside": lambda lib, D: D.Categorical(lib.ones(3)).log_prob(
        lib.tensor(3)),
    "uniform value outside": lambda lib, D: D.Uniform(0.0, 1.0).log_prob(lib.tensor(2.0)),
    "unchecked value": lambda lib, D: D.Uniform(0.0, 1.0, validate_args=False).log_prob(
        lib.tensor(2.0)),
    "kl of two families": lambda lib, D: D.kl_divergence(D.Normal(0.0, 1.0), D.Bernoulli(0.3)),
    "kl not registered": lambda lib, D: D.kl_divergence(D.Categorical(lib.ones(2)),
                                                        D.Normal(0.0, 1.0)),
    "kl normal uniform": lambda lib, D: D.kl_divergence(D.Normal(lib.zeros(2), 1.0),
                                                        D.Uniform(0.0, 1.0)),
    "independent too many dims": lambda lib, D: D.Independent(D.Normal(0.0, 1.0), 1),
    "independent value shape": lambda lib, D: D.Independent(D.Normal(lib.zeros(2, 3), 1.0), 1)
    .log_prob(lib.ones(3, 3)),
    "independent kl of other dims": lambda lib, D: D.kl_divergence(
        D.Independent(D.Normal(lib.zeros(2, 3), 1.0), 2),
        D.Independent(D.Normal(lib.zeros(2, 3), 1.0), 1)),
    "independent enumeration": lambda lib, D: D.Independent(D.Bernoulli(lib.ones(2) / 2), 1)
    .enumerate_support(),
    "reprs": lambda lib, D: [D.Independent(D.Normal(lib.zeros(2, 3), 1.0), 1),
                             D.Normal(0.0, 1.0), D.Normal(lib.zeros(2), 1.0), D.Bernoulli(0.3),
                             D.Bernoulli(logits=lib.zeros(3)), D.Categorical(lib.ones(2, 3)),
                             D.Uniform(0.0, 2.0), D.Exponential(lib.ones(2)),
                             D.Laplace(0.0, 1.0)],
    "constraints": lambda lib, D: [
        D.constraints.real, D.constraints.positive, D.constraints.nonnegative,
        D.constraints.greater_than_eq(1.0), D.constraints.unit_interval,
        D.constraints.boolean, D.constraints.integer_interval(0, 2), D.constraints.simplex,
        D.constraints.interval(0.0, 2.0), D.constraints.independent(D.constraints.real, 1),
        D.Independent(D.Normal(lib.zeros(2, 3), 1.0), 1).support,
        D.Uniform(lib.tensor(0.0), 1.0).arg_constraints],
}


@parametrize_in_one("name", list(CALLS))
def test_errors_and_reprs_are_pytorchs(name: str) -> None:
    mine, my_error = run(lambda: CALLS[name](minigrad, dists(minigrad)))
    theirs, their_error = run(lambda: CALLS[name](torch, dists(torch)))
    assert_same_outcome(my_error, their_error)
    if their_error is None:
        assert repr(mine) == repr(theirs).replace("torch", "minigrad")


# --- values, nodes and gradients --------------------------------------------------------------


def _results(lib: Any) -> tuple[list[Any], list[Any]]:
    """Every quantity of the four distributions on fixed parameters, and the parameters."""
    D, t = dists(lib), lib.tensor
    loc = t([0.3, -1.2], requires_grad=True)
    scale = t([0.7, 1.9], requires_grad=True)
    normal = D.Normal(loc, scale)
    value = t([0.5, 0.1])
    other = D.Normal(t([0.0, 1.0]), t([1.0, 2.0]))
    probs = t([0.2, 0.9], requires_grad=True)
    coin = D.Bernoulli(probs)
    logits = t([[0.1, 2.0, -1.0], [0.5, 0.5, 0.0]], requires_grad=True)
    classes = D.Categorical(logits=logits)
    low = t([0.0, 1.0], requires_grad=True)
    box = D.Uniform(low, 3.0)
    diagonal = D.Independent(D.Normal(loc.unsqueeze(0) * t([[1.0], [2.0]]), scale), 1)
    standard = D.Independent(D.Normal(lib.zeros(2, 2), 1.0), 1)
    rate = t([0.5, 2.0], requires_grad=True)
    waiting = D.Exponential(rate)
    spread = t([0.8, 1.5], requires_grad=True)
    double = D.Laplace(loc, spread)
    results = [
        normal.log_prob(value), normal.cdf(value), normal.entropy(), normal.mean, normal.stddev,
        normal.variance, normal.mode, normal.perplexity(), D.kl_divergence(normal, other),
        D.kl_divergence(other, normal),
        coin.log_prob(t([1.0, 0.0])), coin.entropy(), coin.mean, coin.variance, coin.logits,
        coin.mode, coin.enumerate_support(), coin.enumerate_support(False),
        D.Bernoulli(logits=t([-0.5, 2.0])).probs,
        D.kl_divergence(D.Bernoulli(0.3), D.Bernoulli(logits=t(0.5))),
        classes.log_prob(t([1, 2])), classes.entropy(), classes.probs, classes.mode,
        classes.mean, classes.enumerate_support(),
        D.kl_divergence(classes, D.Categorical(probs=t([0.2, 0.3, 0.5]))),
        D.Categorical(probs=t([[1.0, 3.0], [2.0, 2.0]])).logits,
        box.log_prob(t([1.5, 2.5])), box.cdf(t([1.5, 2.5])), box.entropy(), box.mean,
        box.stddev, box.variance, box.icdf(t([0.5, 0.25])),
        D.kl_divergence(box, D.Uniform(t([-1.0, 0.0]), 4.0)),
        D.kl_divergence(box, D.Uniform(t([0.5, 0.0]), 4.0)),
        D.kl_divergence(box, D.Normal(0.5, 2.0)),
        diagonal.log_prob(t([[0.5, 0.1], [1.0, -1.0]])), diagonal.entropy(),
        D.kl_divergence(diagonal, standard),
        normal.icdf(t([0.1, 0.75])),
        waiting.log_prob(value), waiting.cdf(value), waiting.icdf(t([0.1, 0.75])),
        waiting.entropy(), waiting.mean, waiting.stddev, waiting.variance, waiting.mode,
        D.kl_divergence(waiting, D.Exponential(t([1.0, 3.0]))),
        double.log_prob(value), double.cdf(value), double.icdf(t([0.1, 0.75])),
        double.entropy(), double.mean, double.stddev, double.variance, double.mode,
        D.kl_divergence(double, D.Laplace(t([0.0, 1.0]), t([1.0, 2.0]))),
    ]
    return results, [loc, scale, probs, logits, low, rate, spread]


def test_values_nodes_and_gradients_are_pytorchs() -> None:
    mine, my_params = _results(minigrad)
    theirs, their_params = _results(torch)
    for index, (m, t) in enumerate(zip(mine, theirs)):
        assert str(m.dtype).split(".")[1] == str(t.dtype).split(".")[1], index
        assert (m.grad_fn and m.grad_fn.name()) == (t.grad_fn and t.grad_fn.name()), index
        np.testing.assert_allclose(m.detach().numpy(), t.detach().numpy(), rtol=1e-5,
                                   atol=1e-6, equal_nan=True, err_msg=str(index))
    for lib, results in ((minigrad, mine), (torch, theirs)):
        floats = [r for r in results if r.dtype.is_floating_point and r.isfinite().all()]
        lib.stack([(r * (i + 1)).sum() for i, r in enumerate(floats)]).sum().backward()
    for m, t in zip(my_params, their_params):
        np.testing.assert_allclose(m.grad.numpy(), t.grad.numpy(), rtol=1e-5, atol=1e-6)


def _samples(lib: Any) -> list[Any]:
    D, t = dists(lib), lib.tensor
    normal = D.Normal(t([0.0, 1.0], requires_grad=True), t([1.0, 2.0]))
    classes = D.Categorical(probs=t([[0.2, 0.8], [0.5, 0.5], [1.0, 0.0]]))
    return [normal.rsample((3,)), normal.sample((2,)), normal.sample(),
            D.Normal(0.0, 1.0).sample((2, 4)), classes.sample((4,)), classes.sample(),
            D.Bernoulli(t([0.3, 0.6])).sample((5,)), D.Uniform(0.0, t([1.0, 2.0])).rsample(),
            D.Uniform(0.0, 1.0).sample(),
            D.Exponential(t([0.5, 2.0], requires_grad=True)).rsample((3,)),
            D.Exponential(1.0).sample((2,)),
            D.Laplace(t([0.0, 1.0], requires_grad=True), 2.0).rsample((3,)),
            D.Laplace(0.0, 1.0).sample()]


def test_samples_have_pytorchs_shapes_dtypes_and_nodes() -> None:
    for m, t in zip(_samples(minigrad), _samples(torch)):
        assert (tuple(m.shape), str(m.dtype)[9:], m.requires_grad) == (
            tuple(t.shape), str(t.dtype)[6:], t.requires_grad)
        assert (m.grad_fn and m.grad_fn.name()) == (t.grad_fn and t.grad_fn.name())
