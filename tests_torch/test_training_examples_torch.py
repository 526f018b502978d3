"""The digits MLP reaches at least 97% test accuracy with minigrad and with PyTorch.

The full default training of the example (20 epochs), once per library; the figures are the
ones quoted in examples/README.md.
"""

import os
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("torch")

REPO_ROOT = Path(__file__).resolve().parents[1]
SCRIPT = REPO_ROOT / "examples" / "training" / "digits_classifier.py"


@pytest.mark.parametrize("library", ["minigrad", "torch"])
def test_digits_mlp_reaches_97_percent(library, tmp_path):
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(REPO_ROOT), env.get("PYTHONPATH")]))
    env["OMP_NUM_THREADS"] = "1"  # PyTorch's threads only fight the other test workers
    flag = ["--torch"] if library == "torch" else []
    result = subprocess.run(
        [sys.executable, str(SCRIPT), *flag, "--model", "mlp", "--plot", str(tmp_path / "a.png")],
        cwd=REPO_ROOT, env=env, capture_output=True, encoding="utf-8", timeout=600, check=False,
    )
    assert result.returncode == 0, result.stderr
    line = next(line for line in result.stdout.splitlines() if line.startswith("mlp: test"))
    assert float(line.split()[-1]) >= 0.97, result.stdout
