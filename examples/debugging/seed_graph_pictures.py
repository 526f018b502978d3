"""The seed program's backward graph, pictured before and after `out.detach().zero_()`.

    a = tensor([1, 2, 3.], requires_grad=True);  out = a.sigmoid();  out.detach().zero_()

Sigmoid saves its result `out` for backward (d out / d a = out * (1 - out)). Before the write,
the picture shows that saved value at version 0, and its counter at version 0. `.detach()`
shares the counter, so zeroing it moves the counter to 1: the picture after the write shows the
saved value in red, stale, exactly where backward will raise. After a backward with
`retain_graph=False` the saved values are freed (grey).

The script writes `seed_before.dot`, `seed_after.dot` and `seed_after_backward.dot` into the
output folder (`--out`, default `docs/images`), and the same pictures as `.svg` when Graphviz
is installed (`pip install graphviz` and the Graphviz programs); it prints each picture's saved
values. Run it with `python examples/debugging/seed_graph_pictures.py` from the repository root.
"""

import argparse
import os
import re

import minigrad as torch
from minigrad import viz


def write_picture(out, params, folder, name, draw_svg):
    """Write the picture as .dot (and .svg if possible); print what its saved boxes say."""
    dot = viz.to_dot({"out": out}, params)
    viz.render({"out": out}, os.path.join(folder, f"{name}.dot"), params)
    if draw_svg:
        viz.render({"out": out}, os.path.join(folder, f"{name}.svg"), params)
    saved = re.findall(r'label="([^"]*)", class="saved ([a-z]+)"', dot)
    print(f"{name}: " + "; ".join(f"{label.replace(chr(92) + 'n', ' | ')} ({kind})"
                                  for label, kind in saved))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default=os.path.join("docs", "images"),
                        help="the folder to write the pictures into")
    parser.add_argument("--dot-only", action="store_true", help="write no .svg files")
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)
    draw_svg = not args.dot_only
    if draw_svg:
        try:
            viz.render(torch.ones(1), os.path.join(args.out, "probe.svg"))
            os.remove(os.path.join(args.out, "probe.svg"))
        except RuntimeError as error:  # Graphviz is not installed: the .dot files still are
            print(f"(no .svg: {str(error).split(':')[0]})")
            draw_svg = False

    a = torch.tensor([1, 2, 3.0], requires_grad=True)
    out = a.sigmoid()
    params = {"a": a}
    write_picture(out, params, args.out, "seed_before", draw_svg)

    out.detach().zero_()
    write_picture(out, params, args.out, "seed_after", draw_svg)
    try:
        out.sum().backward()
    except RuntimeError as error:
        print(f"backward: RuntimeError: {str(error)[:110]}...")

    a = torch.tensor([1, 2, 3.0], requires_grad=True)
    out = a.sigmoid()
    out.sum().backward()
    write_picture(out, {"a": a}, args.out, "seed_after_backward", draw_svg)
    print(f"pictures written to {args.out}")


if __name__ == "__main__":
    main()
