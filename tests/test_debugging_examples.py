"""The debugging examples (examples/debugging/) run to the end and print what they promise.

They use minigrad's own debugging aids, so they run against minigrad only; the PyTorch side of
the guard example (the silently wrong gradient) is checked live in
tests_torch/test_debugging_torch.py.
"""
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from _backend import LIB
from _dot import parse

pytestmark = pytest.mark.skipif(LIB != "minigrad", reason="minigrad's own debugging aids")

REPO_ROOT = Path(__file__).resolve().parents[1]
DEBUGGING_DIR = REPO_ROOT / "examples" / "debugging"


def run(script, *args) -> list[str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(REPO_ROOT), env.get("PYTHONPATH")]))
    env["OMP_NUM_THREADS"] = "1"
    result = subprocess.run(
        [sys.executable, str(DEBUGGING_DIR / script), *args],
        cwd=REPO_ROOT, env=env, capture_output=True, encoding="utf-8", timeout=300, check=False,
    )
    assert result.returncode == 0, result.stderr
    return result.stdout.splitlines()


def test_guard_the_data_hole():
    lines = run("guard_the_data_hole.py")
    assert lines[0] == "=== 1. The seed's .data program, three ways ==="
    pytorch, plain, guarded, right = lines[1:5]
    assert pytorch.startswith("PyTorch ")
    assert "a.grad = [0.0, 0.0, 0.0]" in pytorch or "not installed" in pytorch
    assert plain.endswith("a.grad = [0.0, 0.0, 0.0]   (the same: PyTorch's semantics)")
    assert guarded.endswith("RuntimeError at `data_c.zero_()`")
    assert right.endswith("a.grad = [0.1966, 0.105, 0.0452]   (sigmoid'(a) = out * (1 - out))")
    assert lines[7] == (
        "guard_saved_tensors: this in-place write bypasses autograd's version counter."
    )
    routes = {line.split(":")[0]: line for line in lines if line.startswith("through_")}
    assert routes["through_numpy"].endswith(
        "ValueError at `out.detach().numpy()[0] = 0.0`")
    assert routes["through_array_protocol"].endswith(
        "ValueError at `np.asarray(out.detach())[:] = 0.0`")
    assert routes["through_from_numpy"].endswith("ValueError at `array *= 0`")
    assert routes["through_an_older_view"].endswith("RuntimeError at `y.sum().backward()`")
    assert lines[-1].startswith("RuntimeError: one of the variables needed for gradient")


def test_where_was_it_modified():
    lines = run("where_was_it_modified.py")
    here = "examples/debugging/where_was_it_modified.py"
    error = lines.index("=== 1. The version error, with write tracking on ===") + 1
    assert lines[error].startswith("RuntimeError: one of the variables needed")
    assert re.fullmatch(rf"saved by SigmoidBackward0 at {here}:\d+ \(version 0\): "
                        r"out = a\.sigmoid\(\)", lines[error + 1])
    assert re.match(rf"modified by clamp_\(\) at {here}:\d+ \(version 0 -> 1\): "
                    r"clipped\.clamp_\(max=0\.9\)", lines[error + 2])
    assert re.match(rf"modified by \+= at {here}:\d+ \(version 1 -> 2\): out \+= 0\.0",
                    lines[error + 3])
    assert "Backward graph of loss: 5 nodes, from the output back to the leaves." in lines
    assert "    writing to `x` in place will break MulBackward0: it saved x at version 0" in lines
    assert lines[-2:] == ["a.clone(): nobody saved it: write freely",
                          "after backward: nothing saved any more"]


def test_seed_graph_pictures(tmp_path):
    lines = run("seed_graph_pictures.py", "--out", str(tmp_path), "--dot-only")
    assert lines[:2] == [
        "seed_before: output out [minigrad.FloatTensor [3]] | saved v0, now v0 (fresh)",
        "seed_after: output out [minigrad.FloatTensor [3]] | saved v0, now v1 | STALE: backward "
        "will raise (stale)",
    ]
    nodes, _ = parse((tmp_path / "seed_after.dot").read_text())
    (stale,) = [v for v in nodes.values() if v["class"] == "saved stale"]
    assert stale["color"] == "red"
    nodes, _ = parse((tmp_path / "seed_after_backward.dot").read_text())
    assert [v["class"] for v in nodes.values() if v["class"].startswith("saved")] == [
        "saved freed"
    ]
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "seed_after.dot", "seed_after_backward.dot", "seed_before.dot"
    ]
