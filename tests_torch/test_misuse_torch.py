"""Issue 10's misuse programs (tests/misuse_scenarios.py) in minigrad and PyTorch 2.13, live."""

import pytest
from _cases import parametrize_in_one
from misuse_scenarios import SCENARIOS

import minigrad

torch = pytest.importorskip("torch")


@parametrize_in_one("name", sorted(SCENARIOS))
def test_scenario_matches_pytorch(name):
    assert SCENARIOS[name](minigrad) == SCENARIOS[name](torch)
