"""SciPy is imported by the first kernel that needs it, not by ``import minigrad``.

Run in a subprocess: a test process has SciPy loaded already.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap

import pytest
from _backend import LIB

pytestmark = pytest.mark.skipif(LIB != "minigrad", reason="minigrad's imports")


def test_scipy_loads_on_the_first_kernel_that_needs_it():
    code = """
        import sys
        import minigrad
        before = "scipy.special" in sys.modules
        y = minigrad.tensor([0.0, 2.0]).sigmoid()
        print(before, "scipy.special" in sys.modules, y.tolist())
    """
    result = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)], capture_output=True, text=True, check=True
    )
    assert result.stdout.split(maxsplit=2)[:2] == ["False", "True"]
    assert result.stdout.split(maxsplit=2)[2].strip() == "[0.5, 0.8807970285415649]"
