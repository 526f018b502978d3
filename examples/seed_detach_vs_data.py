"""`.detach()` versus `.data`, and in-place operations.

Reproduces, in order, every program of the blog post
"『PyTorch』tensor.detach()和tensor.data的区别以及就地操作"
("The difference between tensor.detach() and tensor.data in PyTorch, and in-place operations"),
one of the two documents this project was founded on. Its programs print unlabelled values and
the word 梯度 ("gradient"); here every printed line says what it shows.

The post's claim, in one sentence: both `.data` and `.detach()` give a tensor that shares memory
with the original and has requires_grad=False, but only `.detach()` is *safe*. If the detached
tensor is modified in place, autograd notices and refuses to compute a gradient; with `.data` the
change goes unnoticed and backward silently returns a wrong gradient.

The mechanism behind it is the version counter. Every in-place operation adds one to the counter
of the tensor it writes to. When an operation saves a tensor for its backward pass (sigmoid saves
its own result), it also remembers the counter's value; backward compares the two. `.detach()`
shares the counter with the original tensor, so a write through it is seen; `.data` gets a fresh
counter of its own, so a write through it is invisible.

The printed output is what PyTorch 2.13 prints (run the script with `import torch` instead of
`import minigrad as torch` to see); where the post's text differs from real PyTorch, a comment
says so. Programs that raise in PyTorch catch the error and print it, so the script
runs to the end. Run it with `python examples/seed_detach_vs_data.py` from the repository root.
"""

import os
import warnings

import minigrad as torch


def data_is_unsafe():
    print("=== 1. .data is unsafe: an in-place change goes unnoticed, the gradient is wrong ===")
    a = torch.tensor([1, 2, 3.], requires_grad=True)
    out = a.sigmoid()  # sigmoid saves its result `out`: d out/d a = out * (1 - out)

    # Detached with .data: shares memory with `out`, requires_grad = False.
    data_c = out.data

    # An in-place operation: change one, and the other changes too.
    # `out` is now all zeros, but the version counter of `out` did not move:
    # .data has a counter of its own, so autograd never hears about the write.
    data_c.zero_()

    print("data_c.requires_grad:", data_c.requires_grad)
    print("data_c:", data_c)
    print("out.requires_grad:", out.requires_grad)
    print("out:", out)

    # Backpropagate from `out`. No error, but the result is wrong: sigmoid's backward reads the
    # saved (now zeroed) result and computes 0 * (1 - 0) = 0 instead of sigmoid'(a).
    # The right answer would be tensor([0.1966, 0.1050, 0.0452]). That is why .data is unsafe.
    out.sum().backward()
    print("a.grad, silently wrong:", a.grad)  # the post prints "梯度:" ("gradient:") first
    print("----------------------------------------------")


def data_without_inplace_is_fine():
    print("=== 2. .data with an out-of-place operation instead: no harm done ===")
    # The post's first program has an alternative line, commented out:
    #     d = data_c.add(torch.ones_like(data_c))
    # An out-of-place operation writes a NEW tensor, so data_c and `out` keep their values
    # and the gradient is right.
    a = torch.tensor([1, 2, 3.], requires_grad=True)
    out = a.sigmoid()
    data_c = out.data
    d = data_c.add(torch.ones_like(data_c))

    print("data_c.requires_grad:", data_c.requires_grad)
    print("data_c:", data_c)
    print("d:", d)
    print("out.requires_grad:", out.requires_grad)
    print("out:", out)

    out.sum().backward()
    print("a.grad, right:", a.grad)  # the true sigmoid'(a) = out * (1 - out)
    print("----------------------------------------------")


def detach_is_safe():
    print("=== 3. .detach() is safe: the same in-place change makes backward raise ===")
    a = torch.tensor([1, 2, 3.], requires_grad=True)
    out = a.sigmoid()

    # Detached with .detach(): shares memory with `out`, requires_grad = False,
    # and -- unlike .data -- shares the version counter of `out` as well.
    detach_c = out.detach()

    # The same in-place operation. `out` changes too, and so does its version: 0 -> 1.
    detach_c.zero_()

    print("detach_c.requires_grad:", detach_c.requires_grad)
    print("detach_c:", detach_c)
    print("out.requires_grad:", out.requires_grad)
    print("out:", out)

    # Backpropagate from `out`: sigmoid's backward finds its saved result at version 1 although
    # it saved it at version 0, and refuses to compute a wrong gradient.
    # The post quotes an older, shorter message ("...has been modified by an inplace operation.
    # Hint: ... set_detect_anomaly(True)."); PyTorch 2.13 names the tensor, the operation that
    # saved it and both versions, and its hint reads set_detect_anomaly(True, check_nan=False).
    try:
        out.sum().backward()
    except RuntimeError as error:
        print(f"RuntimeError: {error}")
    # The error stopped backward before it reached `a`, so `a` has no gradient at all.
    print("a.grad, after the error:", a.grad)
    print("----------------------------------------------")


def detach_without_inplace_is_fine():
    print("=== 4. .detach() with an out-of-place operation instead: no error, right gradient ===")
    # The alternative line of the post's second program:
    #     d = detach_c.add(torch.ones_like(detach_c))
    a = torch.tensor([1, 2, 3.], requires_grad=True)
    out = a.sigmoid()
    detach_c = out.detach()
    d = detach_c.add(torch.ones_like(detach_c))

    print("detach_c.requires_grad:", detach_c.requires_grad)
    print("detach_c:", detach_c)
    print("d:", d)
    print("out.requires_grad:", out.requires_grad)
    print("out:", out)

    out.sum().backward()
    print("a.grad, right:", a.grad)
    print("----------------------------------------------")


def augmented_assignment_is_inplace():
    print("=== 5. x += res is an in-place operation too (x = x + res is not) ===")
    # The post notes that Python's `x += res` is in place while `x = x + res` is not.
    # Sigmoid saved `out`, so `out += 1` breaks backward exactly like zero_() did ...
    a = torch.tensor([1, 2, 3.], requires_grad=True)
    out = a.sigmoid()
    out += 1
    print("out after out += 1:", out)
    try:
        out.sum().backward()
    except RuntimeError as error:
        print(f"RuntimeError: {error}")
    print("a.grad:", a.grad)

    # ... while `out = out + 1` makes a new tensor and leaves the saved result alone.
    a = torch.tensor([1, 2, 3.], requires_grad=True)
    out = a.sigmoid()
    out = out + 1
    print("out after out = out + 1:", out)
    out.sum().backward()
    print("a.grad:", a.grad)


def anomaly_detection():
    print("=== 6. Anomaly detection: set_detect_anomaly(True) finds the failing operation ===")
    # The post suggests anomaly detection to find where the bad in-place operation happened.
    # In anomaly mode every operation remembers the forward line that created it. When its
    # backward fails, PyTorch first issues a UserWarning showing that line ("Error detected in
    # SigmoidBackward0. Traceback of forward call that caused the error: ..."), then raises the
    # usual error, whose hint now points to that warning ("the backtrace further above").
    # We catch the warning and print its first line and the forward call it points at (the
    # last frame of its traceback; the file is shown by name, as the folder differs from machine
    # to machine). Real code would simply let the warning print itself.
    caught_error = None
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        with torch.autograd.set_detect_anomaly(True):
            a = torch.tensor([1, 2, 3.], requires_grad=True)
            # The forward call the warning will point at:
            out = a.sigmoid()
            detach_c = out.detach()
            detach_c.zero_()
            try:
                out.sum().backward()
            except RuntimeError as error:
                caught_error = error
    for warning in caught:
        lines = str(warning.message).splitlines()
        print(f"{warning.category.__name__}: {lines[0]}")
        frames = [n for n, line in enumerate(lines) if line.lstrip().startswith('File "')]
        if frames:
            where, source = lines[frames[-1]].strip(), lines[frames[-1] + 1].strip()
            path, line_number, function = where.split(", ")
            file_name = os.path.basename(path[len('File "'):-1])
            print(f"  forward call: {source}  ({file_name}, {line_number}, {function})")
    # PyTorch's message is one line. minigrad, which tracks in-place writes in anomaly mode,
    # appends where `out` was saved and where it was modified since
    # (examples/debugging/where_was_it_modified.py shows them); this prints PyTorch's line only.
    print(f"RuntimeError: {str(caught_error).splitlines()[0]}")


def main():
    programs = [
        data_is_unsafe,
        data_without_inplace_is_fine,
        detach_is_safe,
        detach_without_inplace_is_fine,
        augmented_assignment_is_inplace,
        anomaly_detection,
    ]
    for number, program in enumerate(programs):
        if number:
            print()
        program()


if __name__ == "__main__":
    main()
