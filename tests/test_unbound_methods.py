"""``Tensor.<method>`` through the class: one check wrapper per method, whatever the threads.

minigrad/_unbound_methods.py makes the wrapper on first access; two threads' first accesses
must keep one of them (``Tensor.abs is Tensor.abs`` in every thread, as PyTorch's descriptors).
"""

from __future__ import annotations

import subprocess
import sys

# Eight threads take every public method through the class at once, in a fresh interpreter
# (nothing made yet), switching threads as often as CPython allows; prints the names for which
# the threads got different objects.
PROGRAM = """
import sys, threading
import minigrad
names = [n for n in dir(minigrad.Tensor) if not n.startswith("_")]
barrier = threading.Barrier(8)
seen = [{} for _ in range(8)]
def take(i):
    barrier.wait()
    for name in names:
        seen[i][name] = getattr(minigrad.Tensor, name)
sys.setswitchinterval(1e-6)
threads = [threading.Thread(target=take, args=(i,)) for i in range(8)]
for thread in threads:
    thread.start()
for thread in threads:
    thread.join()
print([n for n in names if len({id(s[n]) for s in seen}) > 1])
"""


def test_first_accesses_from_threads_keep_one_wrapper_per_method() -> None:
    result = subprocess.run([sys.executable, "-c", PROGRAM], capture_output=True, text=True,
                            check=True)
    assert result.stdout.strip() == "[]"
