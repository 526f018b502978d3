"""The training examples (examples/training/) run to the end with short settings.

Under MINIGRAD_TEST_REFERENCE=torch they run with ``--torch``: the same scripts on PyTorch.
Their full-length accuracy is checked in tests_torch/test_training_examples_torch.py.
"""

import os
import subprocess
import sys
from pathlib import Path

from _backend import LIB

REPO_ROOT = Path(__file__).resolve().parents[1]
TRAINING_DIR = REPO_ROOT / "examples" / "training"


def run(script, *args):
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(REPO_ROOT), env.get("PYTHONPATH")]))
    env["OMP_NUM_THREADS"] = "1"  # PyTorch's threads (with --torch) only fight the test workers
    library = ["--torch"] if LIB == "torch" else []
    result = subprocess.run(
        [sys.executable, str(TRAINING_DIR / script), *library, *args],
        cwd=REPO_ROOT,
        env=env,
        capture_output=True,
        encoding="utf-8",
        timeout=300,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    return result.stdout


def test_digits_classifier_trains_both_models_and_plots(tmp_path):
    plot = tmp_path / "digits.png"
    out = run("digits_classifier.py", "--epochs", "2", "--plot", str(plot))
    lines = out.splitlines()
    assert lines[0] == f"{LIB}: 1437 training and 360 test images of 8x8 digits"
    assert [line[:14] for line in lines[1:5]] == [
        "mlp epoch  1/2",
        "mlp epoch  2/2",
        "cnn epoch  1/2",
        "cnn epoch  2/2",
    ]
    for name in ("mlp", "cnn"):
        summary = next(line for line in lines if line.startswith(f"{name}: test accuracy"))
        assert float(summary.split()[-1]) > 0.5  # two epochs: well above chance (0.1)
    assert plot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_char_lstm_trains_and_generates():
    out = run("char_lstm.py", "--steps", "50")
    lines = out.splitlines()
    assert lines[0] == f"{LIB}: 28 characters, 23260 parameters"
    assert lines[1].startswith("step   50  loss ")
    assert lines[-1].startswith("generated: 'the ")


def test_dataloader_regression_loss_falls():
    out = run("dataloader_regression.py", "--epochs", "4")
    lines = out.splitlines()
    assert lines[0] == (
        f"{LIB}: 384 training and 128 validation points, 12 batches of 32 per epoch"
    )
    epochs = [line.split() for line in lines[1:]]
    assert [fields[1] for fields in epochs] == ["1", "2", "3", "4"]
    train = [float(fields[4]) for fields in epochs]
    validation = [float(fields[7]) for fields in epochs]
    assert train[-1] < 0.6 * train[0] and validation[-1] < 0.6 * validation[0]
