"""Two networks in a row, A -> B: train only B, or only A (the second seed document, made real).

The seed post "pytorch 中 .detach() .detach_() 和 .data的区别", one of the two documents this
project started from, sketches it:

    a = A(input)
    a = a.detach()          # or a.detach_()
    out = B(a)
    loss = criterion(out, labels)
    loss.backward()         # only B's parameters get gradients

    for param in B.parameters():
        param.requires_grad = False     # to train A but not B

This script runs that program with real modules (nn.Linear, nn.ReLU, nn.MSELoss) and a real
optimizer (optim.SGD), takes three steps in each set-up, and prints which parameters moved:

1. ``detach()`` between A and B: backward stops at the cut, A gets no gradient, only B moves;
2. ``detach_()``: the same, done in place on A's output (which becomes a leaf);
3. B frozen with ``requires_grad_(False)``: the gradient flows *through* B to A, only A moves;
4. why ``.data`` is the unsafe way to cut: when A's output is changed in place before the
   backward (here: rescaled for another consumer), ``.detach()`` makes backward raise, while
   ``.data`` lets B's gradient be computed from the changed values, silently wrong.

All numbers are chosen so that the arithmetic is exact in float32 (halves and quarters), so
minigrad and PyTorch print the same digits. Run it from the repository root:
``python examples/freeze_one_network.py``.
"""

import minigrad as torch

x = torch.tensor([[1.0, 2.0, 0.5], [0.0, 1.0, 1.0]])
labels = torch.tensor([[1.0], [0.0]])
criterion = torch.nn.MSELoss()


def make_networks():
    """A: Linear(3, 2) + ReLU; B: Linear(2, 1); with fixed weights (so both libraries agree)."""
    A = torch.nn.Sequential(torch.nn.Linear(3, 2), torch.nn.ReLU())
    B = torch.nn.Linear(2, 1)
    with torch.no_grad():
        A[0].weight.copy_(torch.tensor([[0.5, -0.25, 1.0], [0.25, 0.5, -0.5]]))
        A[0].bias.copy_(torch.tensor([0.0, 0.5]))
        B.weight.copy_(torch.tensor([[1.0, -0.5]]))
        B.bias.copy_(torch.tensor([0.25]))
    return A, B


def named_parameters(A, B):
    return [("A." + name, p) for name, p in A.named_parameters()] + [
        ("B." + name, p) for name, p in B.named_parameters()
    ]


def train(A, B, cut, steps=3):
    """SGD on all parameters of A and B; ``cut`` turns A's output into B's input."""
    optimizer = torch.optim.SGD(list(A.parameters()) + list(B.parameters()), lr=0.125)
    before = {name: p.detach().clone() for name, p in named_parameters(A, B)}
    for _ in range(steps):
        optimizer.zero_grad()
        loss = criterion(B(cut(A(x))), labels)
        loss.backward()
        optimizer.step()
    for name, p in named_parameters(A, B):
        moved = "unchanged" if bool((p == before[name]).all()) else "moved    "
        print(f"  {name:10} {moved} grad: {'None' if p.grad is None else 'yes'}")
    print("  final loss:", round(loss.item(), 6))


def detach_between():
    print("=== 1. a = A(x).detach(): backward stops at the cut, only B trains ===")
    A, B = make_networks()
    train(A, B, lambda a: a.detach())


def detach_in_place():
    print("=== 2. a.detach_(): the same cut, made in place on A's output ===")
    A, B = make_networks()

    def cut(a):
        a.detach_()
        return a

    train(A, B, cut)
    a = A(x)
    print("  before detach_(): is_leaf", a.is_leaf, "requires_grad", a.requires_grad)
    a.detach_()
    print("  after detach_():  is_leaf", a.is_leaf, "requires_grad", a.requires_grad)


def freeze_b():
    print("=== 3. B.requires_grad_(False): gradients pass through B, only A trains ===")
    A, B = make_networks()
    B.requires_grad_(False)  # the same as: for param in B.parameters(): param.requires_grad = False
    train(A, B, lambda a: a)
    print("  B's weight, still the initial one:", B.weight)
    print("  A's weight after three steps:", A[0].weight)
    print("  versions: A.0.weight", A[0].weight._version, "B.weight", B.weight._version,
          "(each step is an in-place update, as every copy_ above)")


def why_not_data():
    print("=== 4. Why .data is the unsafe way to cut ===")
    A, B = make_networks()
    features = A(x)
    reference = criterion(B(features.detach().clone()), labels)
    reference.backward()
    right = B.weight.grad.clone()
    print("  B.weight.grad from the unchanged features:", right)

    for how in ("detach()", "data"):
        B.zero_grad()
        features = A(x)
        cut = features.detach() if how == "detach()" else features.data
        loss = criterion(B(cut), labels)  # B's matmul saves its input, the cut tensor
        with torch.no_grad():
            features.mul_(0.5)  # A's output rescaled in place for another consumer
        try:
            loss.backward()
            print(f"  with .{how}: no error, B.weight.grad =", B.weight.grad)
            print("    wrong: it was computed from the rescaled features, and nothing said so")
        except RuntimeError as error:
            print(f"  with .{how}: RuntimeError: {error}")
    print("  .detach() shares the version counter of A's output, so the in-place write is seen;")
    print("  .data has a counter of its own, so the same write goes unnoticed.")


if __name__ == "__main__":
    detach_between()
    detach_in_place()
    freeze_b()
    why_not_data()
