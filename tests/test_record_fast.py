"""Recording's fast branch (``autograd/record.py``, ``record_fast``) against its general path.

Every sample of every op of the op table runs twice, once with the fast branch and once with it
turned off (``FAST_BRANCH`` false: every call goes the general way), from the same seed and on
equal inputs: values, dtypes, ``grad_fn`` names, saved values with their versions and origins,
gradients and error texts must be identical. The expected side is the general path, which the
rest of the suite checks against PyTorch.
"""
from __future__ import annotations

import warnings
from typing import Any

import numpy as np
import pytest
from _backend import LIB
from _backend import mg as minigrad
from opinfo import OpInfo, Sample
from test_ops import ALL_OPS, build_args, iter_cases

pytestmark = pytest.mark.skipif(LIB != "minigrad", reason="minigrad's recording internals")

if LIB == "minigrad":
    from minigrad.autograd import record as recording
    from minigrad.autograd.saved import saved_values


def _array(value: Any) -> Any:
    if isinstance(value, np.ndarray):
        return (value.dtype.str, value.shape, value.tobytes())
    return repr(value)


def _node(node: Any, args: list[Any]) -> Any:
    """A node as comparable data: name, edges' names, needs, saved values and versions."""
    if node is None:
        return None
    saved = []
    for index, value, counter, version, origin in (
        saved_values(node) if hasattr(node, "_saved") else ()
    ):
        if isinstance(origin, minigrad.Tensor):
            # an argument by position; an intermediate tensor (hardtanh_'s copy) by its data
            positions = [i for i, a in enumerate(args) if a is origin]
            origin = ("input", positions) if positions else ("tensor", _array(origin._array))
        saved.append((index, _array(value), counter is None, version, repr(origin)))
    edges = tuple(None if n is None else n.name() for n in node._next_nodes)
    # (CopySlices, AccumulateGrad: nodes that are not a Function's have fewer of these)
    needs = getattr(node, "needs_input_grad", None)
    return (node.name(), edges, getattr(node, "_next_nrs", None),
            None if needs is None else tuple(needs), saved, getattr(node, "_input_meta", None))


def _run(row: OpInfo, sample: Sample, fast: bool, monkeypatch: pytest.MonkeyPatch,
         grad_mode: bool = True) -> Any:
    """Forward, then backward of a weighted sum of the float outputs: everything observable."""
    general_calls = [0]  # calls that went the general way, fast branch or not
    original = recording._general

    def counting(function: Any, args: Any, target: Any) -> Any:
        general_calls[0] += 1
        return original(function, args, target)

    with monkeypatch.context() as patch:
        patch.setattr(recording, "FAST_BRANCH", fast)
        patch.setattr(recording, "_general", counting)
        minigrad.manual_seed(0)
        args, kwargs, positions = build_args(minigrad, row, sample, "float32")
        seen: list[Any] = []
        with warnings.catch_warnings(), minigrad.set_grad_enabled(grad_mode):
            warnings.simplefilter("ignore")
            try:
                result = row.call(minigrad, *args, **kwargs)
            except Exception as error:  # noqa: BLE001 (the error itself is compared)
                return [("error", type(error).__name__, str(error))], False
            # (not counting the weighted sum below)
            taken_by_the_op = fast and general_calls[0] == 0
            outputs = result if isinstance(result, tuple) else (result,)
            total = None
            for output in outputs:
                if not isinstance(output, minigrad.Tensor):
                    seen.append(("value", repr(output)))
                    continue
                seen.append(("output", _array(output.detach().numpy()), output.requires_grad,
                             output._version, _node(output.grad_fn, args)))
                if output.grad_fn is not None:
                    weight = minigrad.full(output.shape, 0.5, dtype=output.dtype)
                    term = (output * weight).sum()
                    total = term if total is None else total + term
            if total is not None:
                try:
                    total.backward()
                except RuntimeError as error:
                    seen.append(("backward error", str(error)))
            for position in positions:
                grad = args[position].grad
                seen.append(("grad", position, None if grad is None else _array(grad.numpy())))
    return seen, taken_by_the_op


# Rows whose "same"-shape sample must take the fast branch: the test can fail if it never runs.
MUST_TAKE = {"add", "add_operator", "mul", "exp", "sigmoid", "tanh", "relu", "neg", "sin"}


@pytest.mark.parametrize("grad_mode", [True, False], ids=["grad", "no_grad"])
@pytest.mark.parametrize(("row", "sample"), list(iter_cases(ALL_OPS)))
def test_fast_branch_agrees_with_the_general_path(
    row: OpInfo, sample: Sample, grad_mode: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    general, _ = _run(row, sample, False, monkeypatch, grad_mode)
    fast, taken = _run(row, sample, True, monkeypatch, grad_mode)
    assert fast == general
    if row.name in MUST_TAKE and sample.name in ("same", "1d", "2d", "3d"):
        assert taken, f"{row.name} did not take the fast branch"
