"""Where the size_average/reduce deprecation warnings point, against PyTorch 2.13, live.

PyTorch's ``_Reduction.legacy_get_string`` warns with ``stacklevel=2``: the warning names the
library's line that asked for the legacy reduction (torch/nn/functional.py, _reduction.py,
modules/loss.py), never the user's. minigrad's point inside minigrad the same way, for every
loss and module (with ``warnings.catch_warnings``, by the warning's filename).
"""

from __future__ import annotations

import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from _cases import parametrize_in_one

import minigrad

torch = pytest.importorskip("torch")

CALLS: dict[str, Callable[[Any], Any]] = {
    "mse_loss": lambda lib: lib.nn.functional.mse_loss(_x(lib), _x(lib), size_average=False),
    "l1_loss": lambda lib: lib.nn.functional.l1_loss(_x(lib), _x(lib), reduce=False),
    "smooth_l1_loss": lambda lib: lib.nn.functional.smooth_l1_loss(
        _x(lib), _x(lib), size_average=False),
    "binary_cross_entropy": lambda lib: lib.nn.functional.binary_cross_entropy(
        _x(lib), _x(lib), size_average=False),
    "binary_cross_entropy_with_logits": lambda lib: (
        lib.nn.functional.binary_cross_entropy_with_logits(_x(lib), _x(lib), reduce=False)),
    "kl_div": lambda lib: lib.nn.functional.kl_div(_x(lib), _x(lib), size_average=False),
    "nll_loss": lambda lib: lib.nn.functional.nll_loss(_x(lib), _classes(lib), reduce=False),
    "cross_entropy": lambda lib: lib.nn.functional.cross_entropy(
        _x(lib), _classes(lib), size_average=False),
    "MSELoss": lambda lib: lib.nn.MSELoss(size_average=False),
    "L1Loss": lambda lib: lib.nn.L1Loss(reduce=False),
    "CrossEntropyLoss": lambda lib: lib.nn.CrossEntropyLoss(size_average=False),
    "NLLLoss": lambda lib: lib.nn.NLLLoss(reduce=False),
    "BCELoss": lambda lib: lib.nn.BCELoss(size_average=False),
    "BCEWithLogitsLoss": lambda lib: lib.nn.BCEWithLogitsLoss(size_average=False),
    "KLDivLoss": lambda lib: lib.nn.KLDivLoss(size_average=False),
    "SmoothL1Loss": lambda lib: lib.nn.SmoothL1Loss(size_average=False),
}


def _x(lib: Any) -> Any:
    return lib.full((3, 4), 0.5)


def _classes(lib: Any) -> Any:
    return lib.tensor([0, 1, 2])


def _warnings(lib: Any, call: Callable[[Any], Any]) -> list[tuple[str, bool]]:
    """Each warning's text and whether it points inside ``lib``'s package."""
    package = Path(lib.__file__).resolve().parent
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        call(lib)
    return [(str(w.message), package in Path(w.filename).resolve().parents) for w in caught]


@parametrize_in_one("name", CALLS)
def test_deprecation_warning_points_where_pytorchs_does(name: str) -> None:
    theirs = _warnings(torch, CALLS[name])
    assert theirs and all("size_average" in text for text, _ in theirs)
    assert _warnings(minigrad, CALLS[name]) == theirs
