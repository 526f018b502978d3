"""Regenerate tests/expected/torch_api_names.json: which of minigrad's public names PyTorch has.

Run ``python tools/torch_api_names.py`` (PyTorch installed) after adding a public op;
tests/test_op_consistency.py reads the file so that it runs without torch, and
tests_torch/test_op_consistency_torch.py checks that the file is up to date.

For every bare name minigrad makes public (``names``: a function in ``minigrad.__all__`` or a
Tensor method or property), the file says whether ``torch.<name>`` and ``torch.Tensor.<name>``
exist.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
OUTPUT = ROOT / "tests" / "expected" / "torch_api_names.json"


def minigrad_names() -> list[str]:
    """Every public bare name of minigrad: its ``__all__`` and the Tensor's public attributes."""
    import minigrad

    methods = {name for name in dir(minigrad.Tensor) if not name.startswith("_")}
    # The out-of-place name of each in-place method too (does PyTorch have ``copy``?).
    out_of_place = {name[:-1] for name in methods if name.endswith("_")}
    return sorted(set(minigrad.__all__) | methods | out_of_place)


def torch_names(names: list[str]) -> dict[str, Any]:
    """Which of ``names`` are attributes of ``torch`` and of ``torch.Tensor``."""
    import torch

    return {
        "version": torch.__version__.split("+")[0],
        "names": names,
        "torch": [name for name in names if hasattr(torch, name)],
        "torch.Tensor": [name for name in names if hasattr(torch.Tensor, name)],
    }


def render() -> str:
    """The file's text."""
    return json.dumps(torch_names(minigrad_names()), indent=1) + "\n"


def main() -> int:
    """Write the file."""
    OUTPUT.write_text(render())
    print(f"wrote {OUTPUT.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
