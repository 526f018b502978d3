"""Issue 10's misuse programs (tests/misuse_scenarios.py) in minigrad and PyTorch 2.13, live."""

import pytest
from misuse_scenarios import SCENARIOS

import minigrad

torch = pytest.importorskip("torch")


@pytest.mark.parametrize("name", sorted(SCENARIOS))
def test_scenario_matches_pytorch(name):
    assert SCENARIOS[name](minigrad) == SCENARIOS[name](torch)
