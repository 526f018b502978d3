"""tests/expected/torch_api_names.json (what tests/test_op_consistency.py knows of PyTorch's
names) is what the installed PyTorch says: regenerate it with tools/torch_api_names.py."""

from __future__ import annotations

import importlib
import sys
from pathlib import Path

import pytest

pytest.importorskip("torch")
ROOT = Path(__file__).resolve().parents[1]


def test_the_committed_list_of_pytorch_names_is_current() -> None:
    sys.path.insert(0, str(ROOT / "tools"))
    try:
        tool = importlib.import_module("torch_api_names")
    finally:
        sys.path.pop(0)
    assert tool.OUTPUT.read_text() == tool.render(), "run python tools/torch_api_names.py"
