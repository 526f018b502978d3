"""Where was my tensor modified? Write tracking, explain and who_saved on the seed program.

PyTorch's version error says *that* a saved tensor was modified, never *where*. With
`minigrad.autograd.set_track_writes(True)` (or in anomaly mode) minigrad appends, after
PyTorch's exact message, where the tensor was saved and every in-place write since then, with
the line of your code that made it. `minigrad.autograd.explain(out)` prints what each node of
the graph saved and which writes would break it; `minigrad.autograd.who_saved(t)` answers the
question to ask *before* writing into `t` in place.

Run it with `python examples/debugging/where_was_it_modified.py` from the repository root.
"""

import minigrad as torch


def a_training_step_gone_wrong():
    print("=== 1. The version error, with write tracking on ===")
    with torch.autograd.set_track_writes(True):
        a = torch.tensor([1, 2, 3.0], requires_grad=True)
        out = a.sigmoid()
        clipped = out.detach()
        clipped.clamp_(max=0.9)  # "just a harmless clip of a detached copy"...
        out += 0.0  # ...and a no-op add: both are in-place writes to what sigmoid saved
        try:
            out.sum().backward()
        except RuntimeError as error:
            print(f"RuntimeError: {error}")


def explain_before_writing():
    print()
    print("=== 2. explain: what each node saved, and what would break it ===")
    w = torch.tensor([1.0, -1.0, 2.0], requires_grad=True)
    x = torch.tensor([0.5, 1.5, -2.0])
    hidden = (x * w).tanh()
    loss = (hidden * hidden).sum()
    torch.autograd.explain(loss)


def who_saved_before_writing():
    print()
    print("=== 3. who_saved: ask before writing in place ===")
    a = torch.tensor([1, 2, 3.0], requires_grad=True)
    out = a.sigmoid()
    square = out * out
    for saver in torch.autograd.who_saved(out):
        print(f"out: {saver}")
    for saver in torch.autograd.who_saved(out.data):
        print(f"out.data: {saver}")
    print("a.clone():", torch.autograd.who_saved(a.clone()) or "nobody saved it: write freely")
    square.sum().backward()
    print("after backward:", torch.autograd.who_saved(out) or "nothing saved any more")


if __name__ == "__main__":
    a_training_step_gone_wrong()
    explain_before_writing()
    who_saved_before_writing()
