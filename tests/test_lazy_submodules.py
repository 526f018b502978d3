"""Subpackages few programs use (``minigrad.distributions``, ``optim``, ``special``, ``utils.data``
...) are imported on first access.

Run in subprocesses: a test process has them loaded already.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap

import pytest
from _backend import LIB

pytestmark = pytest.mark.skipif(LIB != "minigrad", reason="minigrad's imports")

LAZY = ("distributions", "func", "optim", "signal", "special", "testing", "viz")


def _run(code: str) -> list[str]:
    """The words ``code`` prints, run in a fresh interpreter."""
    result = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True,
                            text=True, check=True)
    return result.stdout.split()


def test_import_minigrad_leaves_them_unloaded_but_listed():
    out = _run(f"""
        import sys
        import minigrad
        print(*(f"minigrad.{{name}}" in sys.modules for name in {LAZY}))
        print(all(name in dir(minigrad) for name in {LAZY}))
        print(hasattr(minigrad, "__dir__") and "__dir__" not in dir(minigrad))
    """)
    assert out == ["False"] * len(LAZY) + ["True", "True"]


def test_first_access_by_attribute_import_or_from_import():
    out = _run("""
        import minigrad
        normal = minigrad.distributions.Normal(minigrad.tensor(0.0), minigrad.tensor(1.0))
        from minigrad import optim
        import minigrad.testing
        print(type(normal).__module__, optim.SGD.__module__, minigrad.testing.assert_close.__name__)
        print(minigrad.optim is optim, "distributions" in vars(minigrad))
    """)
    assert out == ["minigrad.distributions.normal", "minigrad.optim.sgd", "assert_close", "True",
                   "True"]


def test_two_threads_first_access_at_once_get_the_one_module():
    out = _run(f"""
        import threading
        import minigrad
        for name in {LAZY}:
            barrier, seen = threading.Barrier(2), []
            def read():
                barrier.wait()
                seen.append(getattr(minigrad, name))
            threads = [threading.Thread(target=read) for _ in range(2)]
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join()
            print(seen[0] is seen[1] is getattr(minigrad, name))
    """)
    assert out == ["True"] * len(LAZY)


def test_pickled_objects_of_them_load_in_a_fresh_process():
    out = _run("""
        import pickle, subprocess, sys
        import minigrad
        data = pickle.dumps((minigrad.optim.SGD, minigrad.distributions.Normal))
        code = ("import pickle, sys; "
                "print(*(c.__name__ for c in pickle.loads(sys.stdin.buffer.read())))")
        print(subprocess.run([sys.executable, "-c", code], input=data, capture_output=True,
                             check=True).stdout.decode())
    """)
    assert out == ["SGD", "Normal"]


def test_other_missing_names_still_say_why():
    out = _run("""
        import minigrad
        try:
            minigrad.compile
        except Exception as error:
            print(type(error).__name__)
    """)
    assert out == ["OutOfScopeError"]


def test_utils_data_too():
    out = _run("""
        import sys
        import minigrad
        print("minigrad.utils.data" in sys.modules, dir(minigrad.utils)[-1])
        from minigrad.utils.data import DataLoader
        print(minigrad.utils.data.DataLoader is DataLoader, "__getattr__" in dir(minigrad.utils))
    """)
    assert out == ["False", "data", "True", "False"]
