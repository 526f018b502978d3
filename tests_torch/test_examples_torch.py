"""Live differential check: each example prints under PyTorch exactly its recorded output.

The example's source runs with ``import torch`` instead of ``import minigrad as torch``; PyTorch's
output, with ``torch.`` type names renamed to ``minigrad.``, must equal the recording in
tests/expected/ exactly. tests/test_examples.py (in the README's test command, which CI runs
before this) checks that minigrad prints exactly that recording and exits with 0: together, that
minigrad prints what PyTorch prints live, without running every example under minigrad a second
time. The substitution, the renaming and the way the processes are started come from
tests/expected/record.py, so this checks the same thing the recorded outputs were made with.
"""

import importlib.util
import sys
from pathlib import Path

import pytest

pytest.importorskip("torch")

RECORD_PATH = Path(__file__).resolve().parents[1] / "tests" / "expected" / "record.py"


def load_record_module():
    spec = importlib.util.spec_from_file_location("examples_record", RECORD_PATH)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


record = load_record_module()
EXAMPLES = record.example_paths()


def test_there_are_examples():
    assert EXAMPLES, f"no examples found in {record.EXAMPLES_DIR}"


def test_renaming_keeps_cpp_node_names():
    text = (
        "[torch.FloatTensor [3]], which is output 0 of torch::autograd::CopyBackwards; "
        "dtype=torch.float64, torch.Size([2]), torch.autograd.set_detect_anomaly(True). "
        "PyTorch, torch/optim/optimizer.py, import torch."
    )
    assert record.to_minigrad_names(text) == (
        "[minigrad.FloatTensor [3]], which is output 0 of torch::autograd::CopyBackwards; "
        "dtype=minigrad.float64, minigrad.Size([2]), minigrad.autograd.set_detect_anomaly(True). "
        "PyTorch, torch/optim/optimizer.py, import torch."
    )


@pytest.mark.parametrize("example", EXAMPLES, ids=[example.stem for example in EXAMPLES])
def test_recording_is_up_to_date(example):
    torch_run = record.run_under_torch(example)
    assert torch_run.returncode == 0, f"under PyTorch:\n{torch_run.stderr}"
    recording = record.expected_path(example)
    assert recording.exists(), f"no recording for {example.name}: run {RECORD_PATH}"
    assert recording.read_text(encoding="utf-8") == record.to_minigrad_names(torch_run.stdout), (
        f"{recording.name} is stale: run python3 {RECORD_PATH}"
    )
