"""The README's first code block runs and prints what PyTorch 2.13 prints for it."""
import contextlib
import io
import re
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
