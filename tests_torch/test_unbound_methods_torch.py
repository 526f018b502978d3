"""``minigrad.Tensor.mul(2, t)``: PyTorch's descriptor TypeError, against torch live.

PyTorch's Tensor methods are C methods of ``torch._C.TensorBase``, which refuse a ``self``
that is not a tensor when called through the class; its Python methods (``backward``) and a
subclass's own methods take anything. minigrad/_unbound_methods.py checks through the class
only: ``t.mul`` is the method itself.
"""

from __future__ import annotations

import json
import pickle
from pathlib import Path
from typing import Any

import pytest

import minigrad

torch = pytest.importorskip("torch")

TABLE = Path(minigrad.__file__).parent / "_parser_overloads.json"
NAMES = [name for name in json.loads(TABLE.read_text())["descriptors"] if name[0] != "_"]
FIRST = ["2", "2.5", "None", "[1]", "'a'"]


def _outcome(lib: Any, call: str) -> str:
    x = lib.ones(2)
    try:
        eval(call, {"lib": lib, "x": x})  # noqa: S307 - fixed texts
    except Exception as error:  # noqa: BLE001 - the outcome is compared, whatever it is
        return f"{type(error).__name__}: {error}".replace("torch.", "minigrad.")
    return "result"


def test_methods_through_the_class_refuse_another_self_as_pytorch() -> None:
    assert len(NAMES) > 400  # (the table lists PyTorch's C methods)
    differ = []
    for name in NAMES:
        calls = [f"lib.Tensor.{name}({first}, x)" for first in FIRST]
        calls += [f"lib.Tensor.{name}()", f"lib.nn.Parameter.{name}(1)"]
        for call in calls:
            ours, theirs = _outcome(minigrad, call), _outcome(torch, call)
            if ours != theirs:
                differ.append((call, ours, theirs))
    assert not differ, "\n".join(map(str, differ[:40]))


@pytest.mark.parametrize("call", [
    "lib.Tensor.mul(x, 2)", "lib.Tensor.add(x, x, alpha=2)", "lib.Tensor.sum(x)",
    "lib.Tensor.sigmoid(x)", "lib.Tensor.add_(x.clone(), 1)", "lib.Tensor.backward",
    "lib.Tensor.numel(x)", "lib.Tensor.float(x, memory_format=lib.preserve_format)",
])
def test_methods_through_the_class_take_a_tensor(call: str) -> None:
    def value(lib: Any) -> Any:
        x = lib.arange(3.0)
        result = eval(call, {"lib": lib, "x": x})  # noqa: S307 - fixed texts
        return result.tolist() if isinstance(result, lib.Tensor) else result
    ours, theirs = value(minigrad), value(torch)
    assert ours == theirs or callable(ours) == callable(theirs)


def test_a_subclass_own_method_takes_any_self() -> None:
    results = []
    for lib in (minigrad, torch):
        class Mine(lib.Tensor):  # type: ignore[misc, name-defined]
            def mul(self: Any, other: Any) -> Any:
                return ("mine", self, other)

        results.append((Mine.mul(2, 3), _outcome(lib, "lib.Tensor.mul(2, x)")))
    assert results[0] == results[1]


def test_monkeypatching_a_method_and_undoing_it(monkeypatch: pytest.MonkeyPatch) -> None:
    x = minigrad.ones(2)
    original = minigrad.Tensor.__dict__["exp"]
    monkeypatch.setattr(minigrad.Tensor, "exp", lambda self: "patched")
    assert x.exp() == "patched" and minigrad.Tensor.exp(2) == "patched"
    monkeypatch.undo()
    assert minigrad.Tensor.__dict__["exp"] is original and x.exp().tolist() == [
        pytest.approx(2.718281828)] * 2
    with pytest.raises(TypeError, match="descriptor 'exp'"):
        minigrad.Tensor.exp(2)


def test_methods_through_the_class_pickle_and_keep_their_signature() -> None:
    assert pickle.loads(pickle.dumps(minigrad.Tensor.add)) is minigrad.Tensor.add
    assert minigrad.Tensor.add is minigrad.Tensor.add
    assert minigrad.Tensor.add.__qualname__ == "Tensor.add"
    assert minigrad.Tensor.add.__doc__ == minigrad.Tensor.__dict__["add"].__doc__
