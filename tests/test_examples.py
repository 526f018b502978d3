"""Every example prints exactly its recorded output under minigrad, and exits with 0.

The recorded outputs in tests/expected/ are what PyTorch 2.13 prints for the same programs (with
``torch.`` type names renamed to ``minigrad.``); tests/expected/record.py makes them.
"""

import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parents[1]
EXAMPLES_DIR = REPO_ROOT / "examples"
EXPECTED_DIR = REPO_ROOT / "tests" / "expected"
EXAMPLES = sorted(EXAMPLES_DIR.glob("*.py"))
TIMEOUT_SECONDS = 300


def run_example(example: Path) -> subprocess.CompletedProcess:
    env = dict(os.environ)
    env["PYTHONIOENCODING"] = "utf-8"  # the seed examples print Chinese text
    # `python examples/x.py` puts examples/ on sys.path, not the repository root.
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(REPO_ROOT), env.get("PYTHONPATH")]))
    return subprocess.run(
        [sys.executable, str(example)],
        cwd=REPO_ROOT,
        env=env,
        capture_output=True,
        encoding="utf-8",
        timeout=TIMEOUT_SECONDS,
        check=False,
    )


def test_there_are_examples():
    assert EXAMPLES, f"no examples found in {EXAMPLES_DIR}"


def test_every_recording_belongs_to_an_example():
    example_names = {example.stem for example in EXAMPLES}
    recording_names = {recording.stem for recording in EXPECTED_DIR.glob("*.txt")}
    assert recording_names <= example_names, "stale recordings in tests/expected/"


@pytest.mark.parametrize("example", EXAMPLES, ids=[example.stem for example in EXAMPLES])
def test_example_prints_recorded_output(example):
    recording = EXPECTED_DIR / f"{example.stem}.txt"
    assert recording.exists(), (
        f"no recorded output for {example.name}: run python3 tests/expected/record.py"
    )
    expected = recording.read_text(encoding="utf-8")

    result = run_example(example)

    assert result.returncode == 0, f"exited with {result.returncode}:\n{result.stderr}"
    assert result.stdout == expected, f"printed something else; stderr:\n{result.stderr}"
