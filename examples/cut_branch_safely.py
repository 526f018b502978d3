"""Cutting a branch out of the graph: `.detach()` is safe, `.data` is not.

A two-stage model: stage A turns the input into features, stage B turns the features into a
prediction. We want to train only B, so the features are cut out of the graph before B sees them:
backward then stops at the cut and A gets no gradient.

Both `features.detach()` and `features.data` make that cut, and as long as nobody modifies the
features they give the same gradients. The difference shows when the cut branch is modified in
place between the forward and the backward pass (here: the features are clipped in place, say
for a second consumer of A's output):

- with `.detach()` the cut tensor shares the version counter of `features`, so B's backward sees
  that the tensor it saved was changed and raises;
- with `.data` the cut tensor has a counter of its own, the write through `features` goes
  unnoticed, and B's gradient is silently computed from the clipped values: it is wrong.

All numbers are small enough to check by hand:

    input x        = [1, 2, 3]
    A.weight       = [2, 2, 2]         features = A.weight * x = [2, 4, 6]
    B.weight       = [0.5, 0.5, 0.5]   prediction = sum(B.weight * features) = 1 + 2 + 3 = 6
    label          = 5                 loss = (prediction - label) ** 2 = 1

    d loss / d B.weight = 2 * (prediction - label) * features = 2 * 1 * [2, 4, 6] = [4, 8, 12]

After `features.clamp_(max=3)` the features read [2, 3, 3]; a backward that uses them gives
2 * 1 * [2, 3, 3] = [4, 6, 6] -- the wrong gradient that `.data` lets through.

Run it with `python examples/cut_branch_safely.py` from the repository root.
"""

import minigrad as torch

RIGHT_GRADIENT_BY_HAND = [4.0, 8.0, 12.0]
WRONG_GRADIENT_BY_HAND = [4.0, 6.0, 6.0]


class Stage:
    """One stage of the model: multiplies its input elementwise by a trainable weight."""

    def __init__(self, weight):
        self.weight = torch.tensor(weight, requires_grad=True)

    def __call__(self, x):
        return self.weight * x


def make_model():
    A = Stage([2.0, 2.0, 2.0])
    B = Stage([0.5, 0.5, 0.5])
    x = torch.tensor([1.0, 2.0, 3.0])
    label = torch.tensor(5.0)
    return A, B, x, label


def cut_with_detach():
    print("=== 1. Cut with .detach(): only B gets a gradient ===")
    A, B, x, label = make_model()
    features = A(x)
    cut = features.detach()  # same memory as `features`, no history, same version counter
    prediction = B(cut).sum()  # B's multiply saves `cut`: B.weight's gradient needs it
    loss = (prediction - label) ** 2
    loss.backward()
    print("prediction:", prediction)
    print("loss:", loss)
    print("A.weight.grad:", A.weight.grad)  # None: backward stopped at the cut
    print("B.weight.grad:", B.weight.grad)
    # [4, 8, 12], as computed by hand in the docstring:
    print("equals the hand computation:", B.weight.grad.tolist() == RIGHT_GRADIENT_BY_HAND)


def cut_with_data():
    print("=== 2. Cut with .data: the same gradients, as long as nothing is modified ===")
    A, B, x, label = make_model()
    features = A(x)
    cut = features.data  # same memory as `features`, no history, a NEW version counter
    prediction = B(cut).sum()
    loss = (prediction - label) ** 2
    loss.backward()
    print("A.weight.grad:", A.weight.grad)
    print("B.weight.grad:", B.weight.grad)
    print("equals the hand computation:", B.weight.grad.tolist() == RIGHT_GRADIENT_BY_HAND)


def modify_after_detach():
    print("=== 3. The cut branch is modified in place: with .detach(), backward raises ===")
    A, B, x, label = make_model()
    features = A(x)
    cut = features.detach()
    prediction = B(cut).sum()
    loss = (prediction - label) ** 2
    # Before backward, A's output is clipped in place. `cut` shares its memory AND its version
    # counter, so the counter of the tensor B saved goes from 0 to 1.
    features.clamp_(max=3)
    print("features:", features)
    print("cut:", cut)
    # B's backward finds its saved tensor at version 1 instead of 0 and raises. `cut` has no
    # grad_fn, so the message names no operation: just the tensor and the two versions.
    try:
        loss.backward()
    except RuntimeError as error:
        print(f"RuntimeError: {error}")
    print("B.weight.grad:", B.weight.grad)  # None: no gradient rather than a wrong one


def modify_after_data():
    print("=== 4. The same with .data: no error, but B's gradient is silently wrong ===")
    A, B, x, label = make_model()
    features = A(x)
    cut = features.data
    prediction = B(cut).sum()
    loss = (prediction - label) ** 2
    # The same clipping. `cut` sees the new values (shared memory) but not the write: its version
    # counter is its own and stays at 0, so the check in B's backward passes.
    features.clamp_(max=3)
    print("features:", features)
    print("cut:", cut)
    loss.backward()
    # The loss was computed from [2, 4, 6], its gradient from [2, 3, 3]: the two do not match.
    print("loss:", loss)
    print("B.weight.grad:", B.weight.grad)
    # [4, 6, 6], the wrong gradient computed by hand in the docstring:
    print("equals the wrong hand computation:", B.weight.grad.tolist() == WRONG_GRADIENT_BY_HAND)
    return B.weight.grad


def modify_a_copy():
    print("=== 5. The fix: clip out of place, so the saved tensor stays intact ===")
    A, B, x, label = make_model()
    features = A(x)
    cut = features.detach()
    prediction = B(cut).sum()
    loss = (prediction - label) ** 2
    # Whoever needs clipped features gets a new tensor; `features` and `cut` keep their values.
    # (Modifying in place AFTER loss.backward() would be fine too.)
    clipped = features.clamp(max=3)
    print("clipped:", clipped)
    print("cut:", cut)
    loss.backward()
    print("B.weight.grad:", B.weight.grad)
    print("equals the hand computation:", B.weight.grad.tolist() == RIGHT_GRADIENT_BY_HAND)
    return B.weight.grad


def side_by_side(right_gradient, wrong_gradient):
    print("=== 6. Side by side: B's gradient and one SGD step, right and wrong ===")
    # One plain SGD step, weight - learning_rate * grad, starting from B.weight = [0.5, 0.5, 0.5].
    # The learning rate is a power of two so that the updated weights print exactly.
    learning_rate = 0.125
    rows = [
        ("", "right (program 5)", "wrong (program 4)"),
        ("by hand", RIGHT_GRADIENT_BY_HAND, WRONG_GRADIENT_BY_HAND),
        ("B.weight.grad", right_gradient.tolist(), wrong_gradient.tolist()),
        (
            "B.weight after the step",
            (0.5 - learning_rate * right_gradient).tolist(),
            (0.5 - learning_rate * wrong_gradient).tolist(),
        ),
    ]
    for label, right, wrong in rows:
        print(f"{label:<25}{str(right):<20}{wrong}")


def modify_the_cut_tensor_itself():
    print("=== 7. Writing to the cut tensor itself is caught either way ===")
    # .data is only blind to writes made through OTHER tensors sharing its memory. B saved `cut`
    # itself, so a write through `cut` bumps the very counter B checks -- even for .data.
    A, B, x, label = make_model()
    features = A(x)
    cut = features.data
    prediction = B(cut).sum()
    loss = (prediction - label) ** 2
    cut.clamp_(max=3)
    try:
        loss.backward()
    except RuntimeError as error:
        print(f"RuntimeError: {error}")
    print("B.weight.grad:", B.weight.grad)


def main():
    cut_with_detach()
    print()
    cut_with_data()
    print()
    modify_after_detach()
    print()
    wrong_gradient = modify_after_data()
    print()
    right_gradient = modify_a_copy()
    print()
    side_by_side(right_gradient, wrong_gradient)
    print()
    modify_the_cut_tensor_itself()


if __name__ == "__main__":
    main()
