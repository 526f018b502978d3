"""Views, the version counter they share, and CopySlices: writing through a view safely.

A *view* is a tensor that looks at (part of) another tensor's memory: ``x[0]``, ``x[1:]``,
``x.t()``, ``x.view(6)``, ``x.split(2)``... It remembers that other tensor, its *base*, and it
shares the base's *version counter*: every in-place write, through the base or through any of
its views, moves that one counter. This is how autograd notices that a value it saved for
backward was changed behind its back, whichever tensor the change went through.

Writing through a view into a tensor that has a history cannot simply be recorded on the view:
the base changed too. Autograd gives the base a new node, CopySlices ("the gradient of the base
is the old gradient, except in the region of the view, where the in-place op's backward decides
it"), and the view's own history is regenerated from the base (AsStridedBackward0).

The programs are small enough to check by hand:

    a = [1, 2, 3] (requires grad);  x = a * 2 = [2, 4, 6];  x[0].mul_(3) -> x = [6, 4, 6]
    d sum(x) / d a = [2 * 3, 2, 2] = [6, 2, 2]

    buf = [0, 0, 0];  buf[1:] = a[:2] * 2 -> buf = [0, 2, 4]
    d sum(buf * [1, 10, 100]) / d a = [10 * 2, 100 * 2, 0] = [20, 200, 0]

Run it with `python examples/views_and_copyslices.py` from the repository root.
"""

import minigrad as torch


def show(name, t):
    """A tensor's values, version, and whether it is a view of something."""
    print(f"{name} = {t.tolist()}   version {t._version}   view: {t._is_view()}")


def error_of(program):
    try:
        program()
    except RuntimeError as error:
        print(f"RuntimeError: {error}")


def a_view_shares_memory_and_the_counter():
    print("=== 1. A view shares its base's memory and version counter ===")
    x = torch.tensor([[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]])
    row = x[0]
    cell = row[1:]  # a view of a view: its base is the root, x
    print("row._base is x:", row._base is x, " cell._base is x:", cell._base is x)
    show("x", x)
    show("row", row)
    row[1] = 100.0  # a write through the view...
    show("x", x)  # ...is seen by the base, and counted once, on the one shared counter
    show("cell", cell)
    x.t().mul_(2)  # a write through another view of x moves the same counter
    show("row", row)
    d = row.detach()  # detach() shares the counter too, but it is not a view
    print("detached is a view:", d._is_view(), " version:", d._version)


def which_ops_make_views():
    print("=== 2. Which operations make views ===")
    x = torch.tensor([[0.0, 1.0, 2.0, 3.0], [4.0, 5.0, 6.0, 7.0], [8.0, 9.0, 10.0, 11.0]])
    for name, result in [
        ("x[1:]", x[1:]),
        ("x[:, 0]", x[:, 0]),
        ("x[None]", x[None]),
        ("x.t()", x.t()),
        ("x.view(2, 6)", x.view(2, 6)),
        ("x.reshape(2, 6)", x.reshape(2, 6)),
        ("x.t().reshape(12)", x.t().reshape(12)),
        ("x.diagonal()", x.diagonal()),
        ("x.unbind(1)[0]", x.unbind(1)[0]),
        ("x[[0, 2]]", x[[0, 2]]),
        ("x[x > 5]", x[x > 5]),
    ]:
        print(f"{name:<20} view of x: {result._base is x!s:<6} stride {result.stride()}")
    # A view needs a compatible memory layout: x.t() is not contiguous.
    print("x.t().is_contiguous():", x.t().is_contiguous())
    error_of(lambda: x.t().view(12))


def augmented_assignment_through_a_slice():
    print("=== 3. x[1:3] += y writes twice ===")
    x = torch.zeros(5)
    y = torch.ones(2)
    # Python runs: tmp = x[1:3] (a view); tmp += y (write 1); x[1:3] = tmp (write 2).
    x[1:3] += y
    show("x", x)


def a_saved_view_is_checked():
    print("=== 4. A value saved for backward is checked, whichever view changed it ===")
    a = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    b = a * 1
    c = b[1:]
    d = c.log()  # log saves its input, the view c, at version 0
    b[0] = 5.0  # b[0] and c are different elements, but the same counter
    show("c", c)
    print("c.grad_fn:", c.grad_fn.name())  # regenerated from b's new history
    error_of(lambda: d.sum().backward())


def copy_slices():
    print("=== 5. CopySlices: writing through a view of a tensor with a history ===")
    a = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    x = a * 2
    first = x[0]
    print("before:", x.grad_fn.name(), "/", first.grad_fn.name())
    first.mul_(3)
    show("x", x)
    print("after:", x.grad_fn.name(), "/", first.grad_fn.name())
    print("x.grad_fn.next_functions:",
          [(None if f is None else f.name(), n) for f, n in x.grad_fn.next_functions])
    x.sum().backward()
    print("a.grad:", a.grad.tolist())  # [6, 2, 2], as computed in the docstring


def writing_into_a_plain_buffer():
    print("=== 6. Writing a tensor that requires grad into a plain buffer ===")
    a = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    buf = torch.zeros(3)
    head = buf[:2]  # a view made before buf had any history
    print("buf requires grad:", buf.requires_grad, " is leaf:", buf.is_leaf)
    buf[1:] = a[:2] * 2
    show("buf", buf)
    print("buf requires grad:", buf.requires_grad, " is leaf:", buf.is_leaf,
          " grad_fn:", buf.grad_fn.name())
    print("head requires grad:", head.requires_grad, " grad_fn:", head.grad_fn.name())
    (buf * torch.tensor([1.0, 10.0, 100.0])).sum().backward()
    print("a.grad:", a.grad.tolist())  # [20, 200, 0], as computed in the docstring


def forbidden_writes():
    print("=== 7. Writes autograd refuses (before anything changes) ===")
    a = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    print("-- a view of a leaf that requires grad:")
    error_of(lambda: a[:2].add_(1))
    print("a =", a.tolist(), " version", a._version)
    b = a * 1
    print("-- an output of split (or chunk, unbind):")
    error_of(lambda: b.split(2)[0].add_(1))
    print("-- a view made under no_grad, written with grad enabled:")
    with torch.no_grad():
        v = b[:2]
    error_of(lambda: v.add_(1))
    print("-- an expanded tensor (several elements share one memory location):")
    error_of(lambda: b[:1].expand(3).add_(1))
    show("b", b)


def main():
    a_view_shares_memory_and_the_counter()
    print()
    which_ops_make_views()
    print()
    augmented_assignment_through_a_slice()
    print()
    a_saved_view_is_checked()
    print()
    copy_slices()
    print()
    writing_into_a_plain_buffer()
    print()
    forbidden_writes()


if __name__ == "__main__":
    main()
