"""Random generators: ``minigrad.Generator`` and the default one behind ``rand``, ``randn`` ...

A ``Generator`` is PyTorch's API (``manual_seed``, ``seed``, ``initial_seed``, ``get_state``,
``set_state``) over numpy's PCG64, so seeded runs repeat, but the numbers differ from PyTorch's
(its Mersenne Twister and its sampling algorithms are not reproduced). The state is a uint8
tensor, as PyTorch's, of this generator's own layout: a state taken from one minigrad generator
restores any other (``set_rng_state``, ``fork_rng``), not a PyTorch state.
"""

from __future__ import annotations

import contextlib
import secrets
import threading
import warnings
from collections.abc import Iterator
from typing import Any

import numpy as np

from minigrad import errors
from minigrad._device import as_device, check_available, device
from minigrad.autograd.tensor_base import TensorBase

_STATE_FIELDS = (("state", 16), ("inc", 16), ("has_uint32", 1), ("uinteger", 4), ("seed", 8))
_STATE_SIZE = sum(size for _, size in _STATE_FIELDS)
_SEED_LIMIT = 2**64  # PyTorch's seeds are uint64; a negative one wraps around
# A new Generator starts from PyTorch's fixed default seed (c10's default_rng_seed_val): two
# fresh generators draw the same numbers. Only the default generator is seeded at random.
DEFAULT_SEED = 67280421310721


class Generator:
    """A random generator: pass it as ``generator=`` to draw from it instead of the default.

    Example:
        >>> import minigrad
        >>> g = minigrad.Generator().manual_seed(0)
        >>> a = minigrad.rand(2, generator=g)
        >>> _ = g.manual_seed(0)
        >>> bool((a == minigrad.rand(2, generator=g)).all())
        True
    """

    __slots__ = ("_initial_seed", "numpy")

    def __init__(self, device: Any = "cpu") -> None:
        check_available(as_device(device, "Generator"))  # (the CPU only)
        self._initial_seed = DEFAULT_SEED
        self.numpy: np.random.Generator = np.random.default_rng(DEFAULT_SEED)

    @property
    def device(self) -> Any:
        """Where the generator's numbers are made: the CPU."""
        return device("cpu")

    def manual_seed(self, seed: Any) -> Generator:
        """Seed the generator (any int64 or uint64 value); returns the generator."""
        if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)):
            raise RuntimeError(f"manual_seed expected a long, but got {_kind(seed)}")
        seed = int(seed)
        if not -(2**63) <= seed < _SEED_LIMIT:
            raise ValueError("Overflow when unpacking long long")
        self._initial_seed = seed % _SEED_LIMIT
        self.numpy = np.random.default_rng(self._initial_seed)
        return self

    def seed(self) -> int:
        """Seed the generator from the operating system's randomness; returns the seed."""
        seed = secrets.randbits(63)  # (a non-negative int64, as PyTorch's default seeds)
        self.manual_seed(seed)
        return seed

    def initial_seed(self) -> int:
        """The seed the generator was last seeded with."""
        return self._initial_seed

    def get_state(self) -> Any:
        """The generator's state as a uint8 tensor (``set_state`` takes it back)."""
        state = self.numpy.bit_generator.state
        values = {**state["state"], "has_uint32": state["has_uint32"],
                  "uinteger": state["uinteger"], "seed": self._initial_seed}
        data = b"".join(int(values[name]).to_bytes(size, "little") for name, size in _STATE_FIELDS)
        return TensorBase.output_class._make(np.frombuffer(data, dtype=np.uint8).copy())

    def set_state(self, new_state: Any) -> Generator:
        """Restore a state ``get_state`` gave; returns the generator."""
        if not isinstance(new_state, TensorBase):
            raise TypeError(f"expected a minigrad.ByteTensor, but got {_kind(new_state)}")
        array = new_state._array
        if array.dtype != np.uint8:
            raise TypeError("RNG state must be a minigrad.ByteTensor")
        if array.size != _STATE_SIZE:
            raise RuntimeError(
                f"Expected a CPUGeneratorImplState of size {_STATE_SIZE} but found the input "
                f"RNG state size to be {array.size}")
        data, values = array.reshape(-1).tobytes(), {}
        start = 0
        for name, size in _STATE_FIELDS:
            values[name] = int.from_bytes(data[start:start + size], "little")
            start += size
        numpy = np.random.default_rng(0)
        numpy.bit_generator.state = {
            "bit_generator": "PCG64",
            "state": {"state": values["state"], "inc": values["inc"]},
            "has_uint32": values["has_uint32"], "uinteger": values["uinteger"]}
        self.numpy, self._initial_seed = numpy, values["seed"]
        return self

    def __repr__(self) -> str:
        return f"<minigrad.Generator object at {hex(id(self))}>"


def _kind(value: Any) -> str:
    """A value's type as PyTorch's messages name it (``float``, ``str``, ``list``)."""
    return type(value).__name__


default_generator = Generator()
default_generator.seed()  # (PyTorch seeds its default generator at random at start-up)


def generator(given: Generator | None = None) -> np.random.Generator:
    """The numpy generator to draw from: ``given``'s, or the default generator's.

    Every random operation draws through here: inside ``refusing_randomness`` it raises.
    """
    if _refusal.active:
        raise RuntimeError(errors.RANDOMNESS_ERROR_MODE)
    return (given or default_generator).numpy


class _Refusal(threading.local):
    """Whether this thread refuses random operations (``refusing_randomness``)."""

    active = False


_refusal = _Refusal()


@contextlib.contextmanager
def refusing_randomness() -> Iterator[None]:
    """Random operations raise inside (``func.jacfwd``'s ``randomness="error"``).

    PyTorch's vmap refuses them in that mode.
    """
    previous = _refusal.active
    _refusal.active = True
    try:
        yield
    finally:
        _refusal.active = previous


def is_generator(value: Any) -> bool:
    """Whether ``value`` may be passed as ``generator=`` (a Generator, or None)."""
    return value is None or isinstance(value, Generator)


def manual_seed(seed: Any) -> Generator:
    """Seed the default generator, so that random tensors repeat from run to run.

    Returns the default generator, as PyTorch does. As PyTorch's, it takes anything ``int``
    takes (``manual_seed(1.5)`` seeds with 1).

    Example:
        >>> import minigrad
        >>> _ = minigrad.manual_seed(0)
        >>> a = minigrad.rand(2)
        >>> _ = minigrad.manual_seed(0)
        >>> bool((a == minigrad.rand(2)).all())
        True
    """
    return default_generator.manual_seed(int(seed))


def seed() -> int:
    """Seed the default generator from the operating system's randomness; returns the seed."""
    return default_generator.seed()


def initial_seed() -> int:
    """The seed the default generator was last seeded with."""
    return default_generator.initial_seed()


def get_rng_state() -> Any:
    """The default generator's state, a uint8 tensor (``set_rng_state`` takes it back)."""
    return default_generator.get_state()


def set_rng_state(new_state: Any) -> None:
    """Restore the default generator's state from ``get_rng_state``'s tensor."""
    default_generator.set_state(new_state)


def check_random_range(low: int, high: int, numpy_dtype: np.dtype) -> None:
    """PyTorch's checks of ``[low, high)`` for random integers of ``numpy_dtype``."""
    if low >= high:
        raise RuntimeError(
            f"random_ expects 'from' to be less than 'to', but got from={low} >= to={high}"
        )
    ctype = errors.CPP_TYPE_NAMES[numpy_dtype.name]
    if numpy_dtype.kind == "f" and numpy_dtype.itemsize > 2:
        # float and double hold every integer up to 2^24 / 2^53 only: PyTorch warns beyond.
        digits = np.finfo(numpy_dtype).nmant + 1
        for name, value in (("from", low), ("to - 1", high - 1)):
            if not -(2**digits) <= value <= 2**digits:
                warnings.warn(
                    f"{name} is out of bounds [-(2^{digits}), 2^{digits}]. Due to precision "
                    f"limitations {ctype} can support discrete uniform distribution only within "
                    "this range. This warning will become an error in version 1.7 release, "
                    "please fix the code in advance",
                    UserWarning,
                    stacklevel=3,
                )
        return
    if numpy_dtype == np.bool_:
        smallest, largest = 0, 1
    elif numpy_dtype.kind == "f":  # float16: its largest finite value
        largest = float(np.finfo(numpy_dtype).max)
        smallest = -largest
    else:
        smallest, largest = int(np.iinfo(numpy_dtype).min), int(np.iinfo(numpy_dtype).max)
    for name, value in (("from", low), ("to - 1", high - 1)):
        if not smallest <= value <= largest:
            raise RuntimeError(f"{name} is out of bounds for {ctype}")
