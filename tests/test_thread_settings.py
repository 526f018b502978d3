"""set_num_threads and friends: PyTorch's API, acting on numpy's BLAS threads.

Run in a subprocess each: the thread settings are process-wide (and the inter-op count may be
set only once per process, as in PyTorch).
"""

from __future__ import annotations

import subprocess
import sys
import textwrap

import pytest


def run(code: str) -> str:
    result = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True,
                            text=True, check=True)
    return result.stdout.strip()


def test_set_num_threads_limits_blas():
    out = run("""
        import minigrad
        from threadpoolctl import threadpool_info
        minigrad.set_num_threads(1)
        blas = [p["num_threads"] for p in threadpool_info() if p["user_api"] == "blas"]
        print(minigrad.get_num_threads(), set(blas) <= {1})
    """)
    assert out == "1 True"


def test_interop_threads_are_set_once():
    out = run("""
        import os, minigrad
        print(minigrad.get_num_interop_threads() == os.cpu_count())
        minigrad.set_num_interop_threads(3)
        print(minigrad.get_num_interop_threads())
        try:
            minigrad.set_num_interop_threads(2)
        except RuntimeError as error:
            print(error)
    """)
    assert out.splitlines() == [
        "True", "3",
        "Error: cannot set number of interop threads after parallel work has started or "
        "set_num_interop_threads called"]


@pytest.mark.parametrize(("value", "message"), [
    (0, "set_num_threads expects a positive integer"),
    (-1, "set_num_threads expects a positive integer"),
    (1.5, "set_num_threads expects an int, but got float"),
    ("a", "set_num_threads expects an int, but got str"),
    (True, "set_num_threads expects an int, but got bool"),
])
def test_pytorch_errors(value, message):
    import minigrad

    with pytest.raises(RuntimeError) as raised:
        minigrad.set_num_threads(value)
    assert str(raised.value) == message
    with pytest.raises(RuntimeError) as raised:
        minigrad.set_num_interop_threads(value)
    assert str(raised.value) == message.replace("set_num_threads", "set_num_interop_threads")
