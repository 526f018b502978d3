"""A/B of one recurrent-cell step (forward + backward) for the tree given on the command line.

Run it once per tree, alternating, e.g. ``python benchmarks/ab_cells.py /tmp/main/minigrad`` and
``python benchmarks/ab_cells.py .``: it imports minigrad from that tree and prints, per cell,
the median and the minimum over 7 rounds of the mean time of 200 steps (µs).
"""

import statistics
import sys
import time

root = sys.argv[1] if len(sys.argv) > 1 else "."
sys.path.insert(0, root)

import minigrad  # noqa: E402 - from the tree asked for
from minigrad import nn  # noqa: E402

CELLS = {
    "LSTMCell": lambda: nn.LSTMCell(32, 64),
    "GRUCell": lambda: nn.GRUCell(32, 64),
    "RNNCell": lambda: nn.RNNCell(32, 64),
}


def main() -> None:
    """Time each cell's step and print the figures."""
    minigrad.manual_seed(0)
    print(minigrad.__file__)
    for name, make in CELLS.items():
        cell = make()
        x = minigrad.randn(16, 32)

        def step(cell=cell, x=x) -> None:
            h = cell(x)
            (h[0] if isinstance(h, tuple) else h).sum().backward()

        for _ in range(50):
            step()
        times = []
        for _ in range(7):
            start = time.perf_counter()
            for _ in range(200):
                step()
            times.append((time.perf_counter() - start) / 200 * 1e6)
        print(f"{name:10s} median {statistics.median(times):9.1f}  min {min(times):9.1f}")


if __name__ == "__main__":
    main()
