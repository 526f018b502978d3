"""minigrad._signatures: the parameters inspect.signature would read, read faster."""

import copy
import functools
import inspect
import pickle
import sys
import threading

import minigrad
from minigrad import _signatures
from minigrad._signatures import SignaturePlus


def _as_inspect_reads(function):
    """``inspect.signature(function)``'s parameters as comparable tuples (None if it fails)."""
    try:
        found = inspect.signature(function).parameters.values()
    except (TypeError, ValueError):
        return None
    return [(p.name, p.kind, id(p.default), p.annotation) for p in found]


def _as_read(function):
    """``function``'s parameters as ``_signatures.parameters`` reads them, comparable."""
    return [(p.name, p.kind, id(p.default), p.annotation)
            for p in _signatures.parameters(function)]


def _every_callable():
    """Every function and method the package defines, each class's bound classmethods too."""
    for module in list(sys.modules.values()):
        if not getattr(module, "__name__", "").startswith("minigrad"):
            continue
        for value in list(vars(module).values()):
            if inspect.isfunction(value):
                yield value
            elif isinstance(value, type) and value.__module__.startswith("minigrad"):
                for name, member in list(vars(value).items()):
                    if isinstance(member, (staticmethod, classmethod, type(len))) or (
                            inspect.isfunction(member)):
                        yield getattr(value, name)


def test_the_parameters_are_inspects_for_every_function_of_the_package():
    compared = 0
    for function in _every_callable():
        expected = _as_inspect_reads(function)
        if expected is None:
            continue
        assert _as_read(function) == expected, function
        compared += 1
    assert compared > 5000


def test_every_kind_of_parameter_and_wrapper():
    def plain(a, /, b: int, c=2, *rest: "float", d, e=None, **more: str) -> int: ...

    def no_defaults(x, *, y): ...

    @functools.wraps(plain)
    def wrapper(*args, **kwargs): ...

    class Owner:
        @classmethod
        def make(cls, size, fill=0): ...

        @classmethod
        def odd(*args): ...

    signed = lambda *args: None  # noqa: E731
    signed.__signature__ = inspect.signature(no_defaults)
    for function in (plain, no_defaults, wrapper, Owner.make, Owner.odd, signed,
                     functools.partial(plain, 1), len, Owner):
        assert _as_read(function) == _as_inspect_reads(function), function


def test_a_signature_plus_out_is_built_when_read_and_equals_the_eager_one():
    def function(input, dim=None, *, keepdim=False, **kwargs): ...

    out = inspect.Parameter("out", inspect.Parameter.KEYWORD_ONLY, default=None)
    lazy = SignaturePlus(function, out, inspect.Parameter.VAR_KEYWORD)
    parameters = list(inspect.signature(function).parameters.values())
    eager = inspect.signature(function).replace(parameters=[*parameters[:3], out, parameters[3]])
    assert lazy == eager and str(lazy) == str(eager) and hash(lazy) == hash(eager)
    assert isinstance(lazy, inspect.Signature)
    assert pickle.loads(pickle.dumps(lazy)) == eager and copy.copy(lazy) == eager
    assert lazy.bind(1, out=2).arguments == {"input": 1, "out": 2}


def test_two_threads_reading_a_new_signature_at_once_see_the_same():
    def function(a, b=1): ...

    out = inspect.Parameter("out", inspect.Parameter.KEYWORD_ONLY, default=None)
    for _ in range(50):
        lazy = SignaturePlus(function, out, inspect.Parameter.VAR_KEYWORD)
        barrier, seen = threading.Barrier(2), []

        def read(lazy=lazy, barrier=barrier, seen=seen):
            barrier.wait()
            seen.append(str(lazy))

        threads = [threading.Thread(target=read) for _ in range(2)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert seen == ["(a, b=1, *, out=None)"] * 2


def test_public_functions_show_out_in_their_signature():
    assert str(inspect.signature(minigrad.exp)) == (
        "(input: 'Any', *, out: 'Tensor | None' = None) -> 'Any'")
    assert "out: 'Tensor | None' = None" in str(inspect.signature(minigrad.linalg.inv))
