"""``minigrad.kl_div`` and ``minigrad.binary_cross_entropy_with_logits``: PyTorch's parser texts.

The top-level forms are ATen's, bound to PyTorch's argument parser (``reduction`` a number,
``pos_weight`` a Tensor): a wrong argument is a TypeError of the parser's, and too many
positional arguments are counted before any type is looked at. (nn.functional's forms of the
same names are Python in PyTorch: Python's own texts, test_parser_texts_torch.py.)
"""

from __future__ import annotations

from typing import Any

import pytest

import minigrad

torch = pytest.importorskip("torch")

ARGUMENTS = [
    "(x)", "(x, x, foo=1)", "(x, x, 1, 2, 3)", "(x, 'a')", "(x, x, 'mean')",
    "(x, x, 1, log_target=2)", "(x, x, reduction=1.5)", "(x, x, None, None)", "(x, x, x, x, 1)",
    "(x, x, x, 'a')", "(input=x, target=x)", "(x, x, 2)", "(1, x)", "(x, x, reduction=None)",
    "(x, x, x, None, 1)", "(x, x, pos_weight=2)", "(x, x, weight=x, pos_weight=x, reduction=0)",
]
FUNCTIONS = ["kl_div", "binary_cross_entropy_with_logits"]


def _outcome(call: str, lib: Any) -> tuple[str, str]:
    x = lib.full((2,), 0.25)
    try:
        result = eval(call, {"lib": lib, "x": x})  # noqa: S307 - fixed texts
    except Exception as error:  # noqa: BLE001 - the outcome is compared, whatever it is
        return type(error).__name__, str(error).replace("torch.", "minigrad.")
    return "result", f"{result.tolist()} {result.dtype}".replace("torch.", "minigrad.")


@pytest.mark.parametrize("name", FUNCTIONS)
def test_aten_loss_arguments_as_pytorch(name: str) -> None:
    calls = [f"lib.{name}{arguments}" for arguments in ARGUMENTS]
    differ = [(call, _outcome(call, minigrad), theirs) for call in calls
              if _outcome(call, minigrad) != (theirs := _outcome(call, torch))]
    assert not differ, "\n".join(map(str, differ))
