"""Record the expected output of every example by running it under real PyTorch.

Each script in examples/ starts with ``import minigrad as torch`` and is otherwise plain PyTorch
code. This tool runs its source with that line replaced by ``import torch`` in a fresh Python
process, renames PyTorch's type names in the output to minigrad's (see ``to_minigrad_names``), and
writes the result to tests/expected/<example>.txt. tests/test_examples.py then checks that the
example prints exactly that under minigrad.

Usage, from anywhere (needs PyTorch 2.13 installed):

    python3 tests/expected/record.py                      # every example
    python3 tests/expected/record.py cut_branch_safely    # only the named ones

tests_torch/test_examples_torch.py imports this file to check the recordings against PyTorch live.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

EXPECTED_DIR = Path(__file__).resolve().parent
REPO_ROOT = EXPECTED_DIR.parents[1]
EXAMPLES_DIR = REPO_ROOT / "examples"

MINIGRAD_IMPORT = "import minigrad as torch"
TORCH_IMPORT = "import torch"
_MINIGRAD_IMPORT_LINE = re.compile(rf"^{re.escape(MINIGRAD_IMPORT)}$", re.MULTILINE)

# A Python-level name in the torch namespace: "torch." followed by an identifier, as in
# torch.FloatTensor, torch.float64, torch.Size([3]) and torch.autograd.set_detect_anomaly(...).
# Deliberately NOT matched: C++ node names such as torch::autograd::CopyBackwards and
# torch::autograd::CopySlices (minigrad prints those unchanged, as PyTorch does), file paths such
# as torch/optim/optimizer.py, a sentence ending in "torch.", and words like "PyTorch".
_TORCH_NAME = re.compile(r"\btorch\.(?=[A-Za-z_])")

SUBPROCESS_TIMEOUT_SECONDS = 300


def example_paths() -> list[Path]:
    """Every example script, sorted by name."""
    return sorted(EXAMPLES_DIR.glob("*.py"))


def expected_path(example: Path) -> Path:
    """Where the recorded output of ``example`` lives."""
    return EXPECTED_DIR / f"{example.stem}.txt"


def torch_source(example: Path) -> str:
    """The example's source with its one ``import minigrad as torch`` line made ``import torch``."""
    source = example.read_text(encoding="utf-8")
    source, count = _MINIGRAD_IMPORT_LINE.subn(TORCH_IMPORT, source)
    if count != 1:
        raise ValueError(
            f"{example.name}: expected exactly one line {MINIGRAD_IMPORT!r}, found {count}"
        )
    return source


def to_minigrad_names(text: str) -> str:
    """Rename PyTorch's Python-level names to minigrad's: ``torch.FloatTensor`` -> ``minigrad.``."""
    return _TORCH_NAME.sub("minigrad.", text)


def _python_env() -> dict[str, str]:
    env = dict(os.environ)
    # The examples print Chinese text; make the output encoding independent of the locale.
    env["PYTHONIOENCODING"] = "utf-8"
    # `python examples/x.py` puts examples/ first on sys.path, not the repository root: make the
    # repository's minigrad importable without installing it.
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(REPO_ROOT), env.get("PYTHONPATH")]))
    return env


def _run(args: list[str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, *args],
        cwd=REPO_ROOT,
        env=_python_env(),
        capture_output=True,
        encoding="utf-8",
        timeout=SUBPROCESS_TIMEOUT_SECONDS,
        check=False,
    )


def run_under_torch(example: Path) -> subprocess.CompletedProcess[str]:
    """Run the example's source with real PyTorch; its stdout is raw (``torch.`` names).

    The source runs from a file of the example's own name (in a temporary folder), so that
    tracebacks it prints name the same file and show the same source lines as minigrad's run.
    """
    with tempfile.TemporaryDirectory() as folder:
        script = Path(folder) / example.name
        script.write_text(torch_source(example), encoding="utf-8")
        return _run([str(script)])


def run_under_minigrad(example: Path) -> subprocess.CompletedProcess[str]:
    """Run the example file as it is, with minigrad."""
    return _run([str(example)])


def record(example: Path) -> Path:
    """Run ``example`` under PyTorch and write its normalized stdout; return the file written."""
    result = run_under_torch(example)
    if result.returncode != 0:
        raise RuntimeError(
            f"{example.name} exited with {result.returncode} under PyTorch:\n{result.stderr}"
        )
    if result.stderr:
        print(f"note: {example.name} wrote to stderr under PyTorch:\n{result.stderr}")
    target = expected_path(example)
    target.write_text(to_minigrad_names(result.stdout), encoding="utf-8")
    return target


def main(names: list[str]) -> int:
    """Record the named examples (file stems), or all of them."""
    import torch  # noqa: F401 - fail early and clearly if PyTorch is missing

    examples = example_paths()
    if names:
        by_name = {example.stem: example for example in examples}
        unknown = sorted(set(names) - set(by_name))
        if unknown:
            print(f"unknown examples: {', '.join(unknown)}", file=sys.stderr)
            return 2
        examples = [by_name[name] for name in names]
    for example in examples:
        target = record(example)
        line_count = len(target.read_text(encoding="utf-8").splitlines())
        print(f"{target.relative_to(REPO_ROOT)}: {line_count} lines")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
