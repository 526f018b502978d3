"""The seed's `.data` hole, side by side: PyTorch's silent wrong gradient, and minigrad's guard.

The founding blog post's first program: after `out = a.sigmoid()`, zeroing `out.data` in place
goes unnoticed (`.data` has a version counter of its own) and backward silently returns a zero
gradient, because sigmoid's backward reads the saved, now zeroed, result. minigrad reproduces
PyTorch's behaviour by default. With `minigrad.autograd.guard_saved_tensors()` on, the same
write fails at its own line, naming the tensor and the node that saved it; writes through
`.numpy()`, `__array__` or a `from_numpy` array raise numpy's read-only error at their line.

Run it with `python examples/debugging/guard_the_data_hole.py` from the repository root. The
PyTorch column is computed live when PyTorch is installed.
"""

import traceback

import numpy as np

import minigrad

try:
    import torch
except ImportError:
    torch = None


def seed_data_program(lib):
    """The seed program, in PyTorch's API: `lib` is torch or minigrad."""
    a = lib.tensor([1, 2, 3.0], requires_grad=True)
    out = a.sigmoid()
    data_c = out.data
    data_c.zero_()  # the write autograd cannot see
    out.sum().backward()
    return a.grad.tolist()


def rounded(values):
    return [round(v, 4) for v in values]


def run_guarded(program):
    """Run ``program`` under the guard: the result, or the error and the line that raised."""
    with minigrad.autograd.guard_saved_tensors():
        try:
            return f"a.grad = {rounded(program())}", None
        except (RuntimeError, ValueError) as error:
            frame = traceback.extract_tb(error.__traceback__)
            line = next(f.line for f in reversed(frame) if f.filename == __file__)
            return f"{type(error).__name__} at `{line.split('  #')[0]}`", error


def side_by_side():
    print("=== 1. The seed's .data program, three ways ===")
    right = rounded(minigrad.tensor([1, 2, 3.0]).sigmoid().mul(
        1 - minigrad.tensor([1, 2, 3.0]).sigmoid()).tolist())
    if torch is not None:
        pytorch = f"a.grad = {rounded(seed_data_program(torch))}   (silently wrong)"
    else:
        pytorch = "PyTorch is not installed here (it prints a.grad = [0.0, 0.0, 0.0])"
    plain = f"a.grad = {rounded(seed_data_program(minigrad))}   (the same: PyTorch's semantics)"
    guarded, error = run_guarded(lambda: seed_data_program(minigrad))
    rows = [
        ("PyTorch", pytorch),
        ("minigrad", plain),
        ("minigrad + guard", guarded),
        ("the right answer", f"a.grad = {right}   (sigmoid'(a) = out * (1 - out))"),
    ]
    width = max(len(name) for name, _ in rows)
    for name, result in rows:
        print(f"{name.ljust(width)}  {result}")
    print()
    print("The guard's message:")
    print(error)


def other_routes():
    print()
    print("=== 2. The other routes around the version counter ===")

    def through_numpy():
        a = minigrad.tensor([1, 2, 3.0], requires_grad=True)
        out = a.sigmoid()
        out.detach().numpy()[0] = 0.0  # numpy writes into the saved buffer
        out.sum().backward()
        return a.grad.tolist()

    def through_array_protocol():
        a = minigrad.tensor([1, 2, 3.0], requires_grad=True)
        out = a.sigmoid()
        np.asarray(out.detach())[:] = 0.0  # __array__ hands numpy the same buffer
        out.sum().backward()
        return a.grad.tolist()

    def through_from_numpy():
        array = np.array([1, 2, 3.0], dtype=np.float32)
        w = minigrad.tensor([1.0, 1.0, 1.0], requires_grad=True)
        y = minigrad.from_numpy(array) * w  # mul saves the input x = array
        array *= 0  # the user's own array is the saved buffer
        y.sum().backward()
        return w.grad.tolist()

    def through_an_older_view():
        array = np.array([1, 2, 3.0], dtype=np.float32)
        older = array[:]  # a numpy view made before the save: the read-only flag misses it
        w = minigrad.tensor([1.0, 1.0, 1.0], requires_grad=True)
        y = minigrad.from_numpy(array) * w
        older[0] = 100.0
        y.sum().backward()  # the checksum taken at the save catches it here
        return w.grad.tolist()

    for program in (through_numpy, through_array_protocol, through_from_numpy,
                    through_an_older_view):
        outcome, error = run_guarded(program)
        print(f"{program.__name__}: {outcome}")
        print(f"    {str(error).splitlines()[0][:120]}")


def counted_writes_are_untouched():
    print()
    print("=== 3. Writes autograd sees behave exactly as in PyTorch ===")
    with minigrad.autograd.guard_saved_tensors():
        a = minigrad.tensor([1, 2, 3.0], requires_grad=True)
        out = a.sigmoid()
        out.detach().zero_()  # counted: allowed, and backward raises PyTorch's error
        try:
            out.sum().backward()
        except RuntimeError as error:
            print(f"RuntimeError: {str(error)[:96]}...")


if __name__ == "__main__":
    side_by_side()
    other_routes()
    counted_writes_are_untouched()
