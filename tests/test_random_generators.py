"""minigrad.Generator, generator= and minigrad.random: PyTorch's API over minigrad's generator.

The numbers differ from PyTorch's (another algorithm), so the tests check what PyTorch
promises: a seed repeats a sequence, a state restores it, a generator passed as ``generator=``
is the one drawn from (the default one does not move), and PyTorch's error texts.
"""

from __future__ import annotations

import pytest
from _cases import parametrize_in_one

import minigrad


def draws(generator: minigrad.Generator | None = None) -> list[float]:
    """One draw from each random factory and fill that takes ``generator=``."""
    values = [
        *minigrad.rand(2, generator=generator).tolist(),
        *minigrad.randn(2, generator=generator).tolist(),
        *minigrad.randint(0, 100, (2,), generator=generator).tolist(),
        *minigrad.randperm(5, generator=generator).tolist(),
        *minigrad.rand_like(minigrad.ones(2), generator=generator).tolist(),
        *minigrad.randn_like(minigrad.ones(2), generator=generator).tolist(),
        *minigrad.empty(2).normal_(generator=generator).tolist(),
        *minigrad.empty(2).uniform_(2.0, 3.0, generator=generator).tolist(),
    ]
    return values


def test_a_seed_repeats_the_draws_of_a_generator():
    generator = minigrad.Generator()
    assert generator.manual_seed(7) is generator
    first = draws(generator)
    generator.manual_seed(7)
    assert draws(generator) == first
    generator.manual_seed(8)
    assert draws(generator) != first


def test_a_generator_of_its_own_leaves_the_default_one_alone():
    minigrad.manual_seed(3)
    expected = minigrad.rand(4).tolist()
    minigrad.manual_seed(3)
    draws(minigrad.Generator().manual_seed(5))
    assert minigrad.rand(4).tolist() == expected


def test_manual_seed_returns_the_default_generator():
    generator = minigrad.manual_seed(11)
    assert generator is minigrad.default_generator
    assert minigrad.initial_seed() == 11 == minigrad.random.initial_seed()
    first = draws()
    minigrad.manual_seed(11)
    assert draws(None) == first


def test_a_state_restores_the_sequence():
    generator = minigrad.Generator().manual_seed(1)
    draws(generator)
    state = generator.get_state()
    assert state.dtype == minigrad.uint8 and state.dim() == 1
    after = draws(generator)
    assert generator.set_state(state) is generator
    assert draws(generator) == after
    # the default generator's, through the module-level functions
    saved = minigrad.get_rng_state()
    after = draws()
    minigrad.set_rng_state(saved)
    assert draws() == after


def test_fork_rng_restores_the_default_generator_on_leaving():
    minigrad.manual_seed(2)
    expected = minigrad.rand(3).tolist()
    minigrad.manual_seed(2)
    with minigrad.random.fork_rng():
        minigrad.rand(10)
    assert minigrad.rand(3).tolist() == expected
    minigrad.manual_seed(2)
    with minigrad.random.fork_rng(enabled=False):
        minigrad.rand(10)
    assert minigrad.rand(3).tolist() != expected


def test_a_new_generator_starts_from_pytorchs_fixed_seed():
    # torch.Generator().initial_seed() == 67280421310721 (c10's default_rng_seed_val)
    assert minigrad.Generator().initial_seed() == 67280421310721
    assert minigrad.rand(3, generator=minigrad.Generator()).tolist() == minigrad.rand(
        3, generator=minigrad.Generator()
    ).tolist()


def test_seeds_as_pytorch_takes_them():
    generator = minigrad.Generator()
    assert generator.manual_seed(-1).initial_seed() == 2**64 - 1  # wrapped, as PyTorch's
    assert generator.manual_seed(-(2**63)).initial_seed() == 2**63
    assert minigrad.manual_seed(1.5).initial_seed() == 1  # torch.manual_seed calls int()
    seed = minigrad.seed()
    assert minigrad.initial_seed() == seed
    assert generator.seed() == generator.initial_seed()


@parametrize_in_one(
    ("call", "error", "message"),
    [
        (lambda g: g.manual_seed(1.5), RuntimeError, "manual_seed expected a long, but got float"),
        (lambda g: g.manual_seed(True), RuntimeError, "manual_seed expected a long, but got bool"),
        (lambda g: g.manual_seed(2**64), ValueError, "Overflow when unpacking long long"),
        (lambda g: g.manual_seed(-(2**63) - 1), ValueError, "Overflow when unpacking long long"),
        (lambda g: g.set_state(minigrad.zeros(3)), TypeError,
         "RNG state must be a minigrad.ByteTensor"),
        (lambda g: g.set_state([1, 2]), TypeError, "expected a minigrad.ByteTensor, but got list"),
        (lambda g: minigrad.set_rng_state(minigrad.zeros(3)), TypeError,
         "RNG state must be a minigrad.ByteTensor"),
        (lambda g: g.set_state(minigrad.zeros(3, dtype=minigrad.uint8)), RuntimeError,
         "but found the input RNG state size to be 3"),
        (lambda g: minigrad.manual_seed(2**64), ValueError, "Overflow when unpacking long long"),
        (lambda g: minigrad.empty(2).normal_(generator=3), TypeError,
         "normal_(): argument 'generator' must be minigrad.Generator, not int"),
        (lambda g: minigrad.empty(2).uniform_(0, 1, generator="a"), TypeError,
         "uniform_(): argument 'generator' must be minigrad.Generator, not str"),
    ],
)
def test_pytorch_errors(call, error, message):
    with pytest.raises(error) as raised:
        call(minigrad.Generator())
    assert message in str(raised.value)


@pytest.mark.parametrize(
    ("call", "got"),
    [
        (lambda: minigrad.rand(2, generator=3), "got (int, generator=int)"),
        (lambda: minigrad.randn(2, 3, generator="g"), "got (int, int, generator=str)"),
        (lambda: minigrad.randperm(3, generator=3), "got (int, generator=int)"),
        (lambda: minigrad.rand_like(minigrad.ones(2), generator=3),
         "got (Tensor, generator=int)"),
        (lambda: minigrad.randint(3, (2,), generator=3), "got (int, tuple, generator=int)"),
    ],
)
def test_a_generator_that_is_not_one_fits_no_overload(call, got):
    with pytest.raises(TypeError) as raised:
        call()
    text = str(raised.value)
    assert "received an invalid combination of arguments - " + got in text
    assert "minigrad.Generator generator" in text


def test_the_generator_is_on_the_cpu_only():
    assert minigrad.Generator("cpu").device == minigrad.device("cpu")
    with pytest.raises(Exception, match="CUDA|cuda"):
        minigrad.Generator("cuda")
