"""minigrad/_parser_overloads.json (the overloads PyTorch's parser lists, which
minigrad/_arguments.py shows for a call that fits none) is what the installed PyTorch says:
regenerate it with tools/parser_overloads.py."""

from __future__ import annotations

import importlib
import sys
from pathlib import Path

import pytest

pytest.importorskip("torch")
ROOT = Path(__file__).resolve().parents[1]


def test_the_committed_overloads_are_current() -> None:
    sys.path.insert(0, str(ROOT / "tools"))
    try:
        tool = importlib.import_module("parser_overloads")
    finally:
        sys.path.pop(0)
    assert tool.OUTPUT.read_text() == tool.render(), "run python tools/parser_overloads.py"
