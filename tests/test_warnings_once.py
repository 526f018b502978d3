"""Warnings PyTorch gives once per process (TORCH_WARN_ONCE): text, and given once only.

Each is checked in a fresh process (a test run may have given it already). The expected texts
were printed by PyTorch 2.13 (run with MINIGRAD_TEST_REFERENCE=torch to check them against it).
"""

import subprocess
import sys

import pytest
from _backend import LIB, text

CASES = {
    "mkldnn device": (
        "mg.device('mkldnn')",
        "'mkldnn' is no longer used as device type. So minigrad.device('mkldnn') will be "
        "deprecated and removed in the future. Please use other valid device types instead.",
    ),
    "conv same padding, even kernel": (
        "mg.nn.functional.conv1d(mg.ones(1, 1, 5), mg.ones(1, 1, 2), padding='same')",
        "Using padding='same' with even kernel lengths and odd dilation may require a "
        "zero-padded copy of the input be created",
    ),
    "meshgrid without indexing": (
        "mg.meshgrid(mg.ones(2), mg.ones(3))",
        "torch.meshgrid: in an upcoming release, it will be required to pass the indexing "
        "argument.",
    ),
}


@pytest.mark.parametrize("case", list(CASES))
def test_a_once_per_process_warning_has_pytorchs_text_and_comes_once(case):
    statement, expected = CASES[case]
    script = (
        f"import warnings\nimport {LIB} as mg\n"
        "with warnings.catch_warnings(record=True) as caught:\n"
        "    warnings.simplefilter('always')\n"
        f"    {statement}\n"
        f"    {statement}\n"
        "for warning in caught:\n"
        "    print(warning.category.__name__, str(warning.message).split(' (Triggered')[0])\n"
    )
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                            check=True)
    assert result.stdout.splitlines() == ["UserWarning " + text(expected)]
