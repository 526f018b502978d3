"""``add_``'s fast branch for an optimizer's update (autograd/inplace.py's ``write_plain``).

``p.add_(g, alpha=-lr)`` under no_grad, with ``g`` of ``p``'s shape and floating dtype in
other memory, skips ``apply_inplace``'s checks and ``record``'s general steps. Each case below
runs twice from equal inputs, with the branch and with it refused (``is_plain_update`` False:
the general path, which the rest of the suite checks against PyTorch): the values, dtypes,
versions, aliasing and error texts must be identical. The cases cover the branch's
conditions from both sides; tests_torch/test_plain_update_torch.py compares every answer, and
an SGD step through the branch, with PyTorch's.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from _backend import LIB
from _backend import mg as minigrad

internals = pytest.mark.skipif(LIB != "minigrad", reason="minigrad's in-place internals")

if LIB == "minigrad":
    from minigrad.autograd import inplace
    from minigrad.autograd.debug_switches import switches
    from minigrad.ops import arithmetic


@pytest.fixture(autouse=True)
def _guard_never_used(monkeypatch: pytest.MonkeyPatch) -> None:
    """As in a fresh process: once a test used the guard, every write takes the general path."""
    if LIB == "minigrad":
        monkeypatch.setattr(switches, "guard_used", False)


def _leaf(lib: Any, array: np.ndarray, requires_grad: bool = True) -> Any:
    return lib.tensor(array.copy(), requires_grad=requires_grad)


def _cases(rng: np.random.Generator) -> dict[str, tuple[Callable[[Any], Any], bool]]:
    """Per case: a function of the library doing one update, and whether it runs under no_grad."""
    w32 = rng.standard_normal((3, 4)).astype(np.float32)
    g32 = rng.standard_normal((3, 4)).astype(np.float32)
    w64 = rng.standard_normal(5)
    g64 = rng.standard_normal(5)
    special = np.array([1.0, np.inf, -np.inf, np.nan, 0.0], dtype=np.float32)

    def update(w: np.ndarray, g: np.ndarray, alpha: Any = -0.01) -> Callable[[Any], Any]:
        return lambda lib: _leaf(lib, w).add_(_leaf(lib, g, False), alpha=alpha)

    def transposed_grad(lib: Any) -> Any:
        return _leaf(lib, w32).add_(_leaf(lib, g32.T.copy(), False).t(), alpha=-0.5)

    def view_target(lib: Any) -> Any:
        base = _leaf(lib, w32, False)
        base[1].add_(_leaf(lib, g32[0], False), alpha=0.25)
        return base

    def same_buffer(lib: Any) -> Any:
        w = _leaf(lib, w32, False)
        return w.add_(w, alpha=-0.5)

    def overlapping_view(lib: Any) -> Any:
        w = _leaf(lib, np.arange(6, dtype=np.float32), False)
        return w[:4].add_(w[2:], alpha=2.0)

    def expanded_target(lib: Any) -> Any:
        w = _leaf(lib, w32[0], False).expand(3, 4)
        return w.add_(_leaf(lib, g32, False), alpha=2.0)

    def wider_grad(lib: Any) -> Any:
        return _leaf(lib, w32).add_(_leaf(lib, g32.astype(np.float64), False), alpha=-0.01)

    return {
        "float32": (update(w32, g32), True),
        "float64": (update(w64, g64), True),
        "special values": (update(special, special[::-1].copy(), -1.5), True),
        "int alpha": (update(w32, g32, 2), True),
        "bool alpha": (update(w32, g32, True), True),
        "grad mode on, a leaf": (update(w32, g32), False),
        "grad mode on, no grad needed": (
            lambda lib: _leaf(lib, w32, False).add_(_leaf(lib, g32, False), alpha=-0.01), False),
        "broadcast grad": (update(w32, g32[0]), True),
        "transposed grad": (transposed_grad, True),
        "view target": (view_target, True),
        "same buffer": (same_buffer, True),
        "overlapping view": (overlapping_view, True),
        "expanded target": (expanded_target, True),
        "wider grad": (wider_grad, True),
    }


def _observe(lib: Any, run: Callable[[Any], Any], no_grad: bool) -> Any:
    """The update's result: values, dtype, version and gradient history, or its error."""
    try:
        if no_grad:
            with lib.no_grad():
                out = run(lib)
        else:
            out = run(lib)
    except Exception as error:  # noqa: BLE001 (the error itself is compared)
        return ("error", type(error).__name__, str(error).replace(lib.__name__, "minigrad"))
    values = out.detach().numpy()
    return (values.dtype.str, values.shape, values.tobytes(), out._version,
            out.requires_grad, None if out.grad_fn is None else out.grad_fn.name())


CASES = _cases(np.random.default_rng(0))


@internals
@pytest.mark.parametrize("name", CASES)
def test_fast_branch_matches_general_path(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    run, no_grad = CASES[name]
    fast = _observe(minigrad, run, no_grad)
    monkeypatch.setattr(arithmetic, "is_plain_update", lambda *args: False)
    general = _observe(minigrad, run, no_grad)
    assert fast == general


@internals
def test_branch_taken_only_where_allowed(monkeypatch: pytest.MonkeyPatch) -> None:
    """The cases above do test both sides: the branch runs for the plain updates only."""
    taken: list[bool] = []
    original = inplace.is_plain_update

    def spy(*args: Any) -> bool:
        taken.append(original(*args))
        return taken[-1]

    monkeypatch.setattr(arithmetic, "is_plain_update", spy)
    plain = {"float32", "float64", "special values", "transposed grad", "view target"}
    for name, (run, no_grad) in CASES.items():
        taken.clear()
        _observe(minigrad, run, no_grad)
        assert any(taken) == (name in plain), name


@pytest.mark.parametrize("method", ["add", "add_", "sub", "sub_"])
def test_bool_alpha_refused_for_float_results(method: str) -> None:
    """``alpha=True`` equals 1 but is a bool: PyTorch refuses it unless the result is bool."""
    x = minigrad.ones(2)
    with pytest.raises(RuntimeError, match="^Boolean alpha only supported for Boolean results.$"):
        getattr(x, method)(minigrad.ones(2), alpha=True)
