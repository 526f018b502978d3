"""The README's code blocks print what the README says.

The first block prints what PyTorch 2.13 prints for it; the debugging section's blocks (minigrad's
own aids) print the text shown under each of them.
"""
import contextlib
import io
import os
import re
import subprocess
import sys
from pathlib import Path

from _backend import LIB, text

README = Path(__file__).resolve().parents[1] / "README.md"

# What PyTorch 2.13 printed for the block (with torch renamed to minigrad in type names).
EXPECTED = text(
    "one of the variables needed for gradient computation has been modified by an inplace "
    "operation: [minigrad.FloatTensor [3]], which is output 0 of Sigmoid, is at version 1; "
    "expected version 0 instead. Hint: enable anomaly detection to find the operation that "
    "failed to compute its gradient, with minigrad.autograd.set_detect_anomaly(True, "
    "check_nan=False).\n"
    "tensor([0., 0., 0.])\n"
)


def first_code_block() -> str:
    match = re.search(r"```python\n(.*?)```", README.read_text(encoding="utf-8"), re.S)
    assert match, "README has no python code block"
    return match.group(1)


def test_readme_first_block_prints_the_silently_wrong_gradient():
    source = first_code_block().replace("import minigrad as torch", f"import {LIB} as torch")
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        exec(compile(source, "README.md", "exec"), {})
    assert printed.getvalue() == EXPECTED


def debugging_examples() -> list[tuple[str, str]]:
    """The (python, printed text) block pairs of the README's debugging section."""
    readme = README.read_text(encoding="utf-8")
    start = readme.index("## Debugging that PyTorch lacks")
    section = readme[start:readme.index("\n## ", start + 1)]
    block = r"((?:(?!```).)*)```"  # a block's text: anything up to its closing fence
    return re.findall(rf"```python\n{block}\n```text\n{block}", section, re.S)


def test_readme_debugging_examples_print_what_the_readme_shows(tmp_path):
    if LIB != "minigrad":
        return  # minigrad's own debugging aids: PyTorch has none of them
    pairs = debugging_examples()
    assert len(pairs) == 3
    repo = Path(__file__).resolve().parents[1]
    env = dict(os.environ, PYTHONPATH=str(repo))
    for source, shown in pairs:
        (tmp_path / "train.py").write_text(source, encoding="utf-8")
        result = subprocess.run(
            [sys.executable, "train.py"], cwd=tmp_path, env=env, capture_output=True,
            encoding="utf-8", timeout=120, check=False,
        )
        assert result.returncode == 0, result.stderr
        assert result.stdout == shown


def test_readme_saved_tensors_example_prints_what_pytorch_prints():
    readme = README.read_text(encoding="utf-8")
    start = readme.index("## Looking at what autograd saved")
    section = readme[start:readme.index("\n## ", start + 1)]
    block = r"((?:(?!```).)*)```"
    ((source, shown),) = re.findall(rf"```python\n{block}\n```text\n{block}", section, re.S)
    source = source.replace("import minigrad as torch", f"import {LIB} as torch")
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        exec(compile(source, "README.md", "exec"), {})
    assert printed.getvalue() == shown
