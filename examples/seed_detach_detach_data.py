"""`.detach()`, `.detach_()` and `.data`.

Reproduces, in order, every program of the blog post
"pytorch 中 .detach() .detach_() 和 .data的区别"
("The difference between .detach(), .detach_() and .data in PyTorch"),
one of the two documents this project was founded on. Its programs print unlabelled values; here
every printed line says what it shows.

The post walks through three ways to cut a tensor out of the autograd graph:

- `.detach()` returns a NEW tensor that shares memory (and the version counter) with the
  original, with requires_grad=False and no grad_fn. Backward stops there. Modifying it in place
  is detected by autograd.
- `.data` also shares memory, but with a fresh version counter: modifying it in place is NOT
  detected, and backward silently computes wrong gradients.
- `.detach_()` detaches the tensor ITSELF: it becomes a leaf without grad_fn, for good.

Two of the post's snippets are pseudo-code (a network A feeding a network B); here they are made
runnable with two one-weight "networks" whose gradients can be checked by hand. Where the post's
printed output differs from PyTorch 2.13, a comment says so and the script prints what PyTorch
really prints. Programs that raise catch the error and print it, so the script runs to the end.
Run it with `python examples/seed_detach_detach_data.py` from the repository root.
"""

import minigrad as torch


def backward_through_sigmoid():
    print("=== 1. The starting point: backward through sigmoid ===")
    a = torch.tensor([1, 2, 3.], requires_grad=True)
    print("a.grad:", a.grad)  # no backward yet: None
    out = a.sigmoid()
    out.sum().backward()
    print("a.grad:", a.grad)  # sigmoid'(a) = sigmoid(a) * (1 - sigmoid(a))


def detach_without_changes():
    print("=== 2. detach() without changing the result does not affect backward ===")
    a = torch.tensor([1, 2, 3.], requires_grad=True)
    print("a.grad:", a.grad)
    out = a.sigmoid()
    # The post prints grad_fn=<SigmoidBackward> (older PyTorch); 2.13 names it SigmoidBackward0.
    print("out:", out)
    # detach() added: c has requires_grad = False (and prints without grad_fn).
    c = out.detach()
    print("c:", c)
    # c has not been changed, so backward is not affected.
    out.sum().backward()
    print("a.grad:", a.grad)


def backward_from_detached_tensor():
    print("=== 3. Backward from the detached tensor c raises ===")
    a = torch.tensor([1, 2, 3.], requires_grad=True)
    print("a.grad:", a.grad)
    out = a.sigmoid()
    print("out:", out)
    # detach() added: c has requires_grad = False.
    c = out.detach()
    print("c:", c)
    # Backpropagate from the new tensor: c.sum() has no graph at all, so there is nothing to do.
    try:
        c.sum().backward()
    except RuntimeError as error:
        print(f"RuntimeError: {error}")
    print("a.grad:", a.grad)


def detached_tensor_requires_grad_again():
    print("=== 4. c.requires_grad = True: c becomes a new leaf, a still gets nothing ===")
    a = torch.tensor([1, 2, 3.], requires_grad=True)
    print("a.grad:", a.grad)
    out = a.sigmoid()
    print("out:", out)
    # detach() added: c has requires_grad = False.
    c = out.detach()
    print("c:", c)
    # Let c require grad again and backpropagate from it.
    # The post shows "RuntimeError: element 0 of tensors does not require grad ..." here, but that
    # output was copied from the previous program: in PyTorch 2.13 this runs without error.
    # c is a leaf now, so c.sum() has a graph -- but the graph starts at c, not at a: the
    # gradient lands in c.grad, and a.grad stays None (as the post's text says).
    c.requires_grad = True
    c.sum().backward()
    print("a.grad:", a.grad)
    print("c.grad:", c.grad)  # added: where the gradient went


def inplace_change_after_detach():
    print("=== 5. Changing c in place after detach() makes backward raise ===")
    a = torch.tensor([1, 2, 3.], requires_grad=True)
    print("a.grad:", a.grad)
    out = a.sigmoid()
    print("out:", out)
    # detach() added: c has requires_grad = False.
    c = out.detach()
    print("c:", c)
    c.zero_()  # modify c in place: out changes with it, and so does their shared version counter
    print("c:", c)
    print("out:", out)
    # c was changed, which would corrupt backward (sigmoid saved `out`), so backward raises.
    # The post quotes "... which is output 0 of SigmoidBackward0, ... set_detect_anomaly(True)."
    # PyTorch 2.13 says "output 0 of Sigmoid" and "set_detect_anomaly(True, check_nan=False)".
    try:
        out.sum().backward()
    except RuntimeError as error:
        print(f"RuntimeError: {error}")
    print("a.grad:", a.grad)


# The post's pseudo-code for "detach controls which network is updated":
#
#     a = A(input)
#     a = a.deatch()  # or a.detach_() in place   [sic: "deatch" is a typo for detach]
#     out = B(a)
#     loss = criterion(out, labels)
#     loss.backward()
#
# To make it runnable, A and B are tiny "networks" with one weight vector each, and the criterion
# is a summed squared error. With input = [1, 2, 3], A.weight = [2, 2, 2], B.weight = [0.5, 0.5,
# 0.5] and labels = [0.5, 1, 1.5]:
#     a = A(input) = [2, 4, 6];  out = B(a) = [1, 2, 3];  out - labels = [0.5, 1, 1.5]
#     loss = 0.25 + 1 + 2.25 = 3.5
#     d loss / d B.weight = 2 * (out - labels) * a            = [2, 8, 18]
#     d loss / d A.weight = 2 * (out - labels) * B.weight * input = [0.5, 2, 4.5]


class Scale:
    """A one-layer "network": multiplies its input elementwise by a trainable weight."""

    def __init__(self, weight):
        self.weight = torch.tensor(weight, requires_grad=True)

    def __call__(self, x):
        return self.weight * x

    def parameters(self):
        return [self.weight]


def criterion(out, labels):
    return ((out - labels) ** 2).sum()


def make_networks():
    A = Scale([2., 2., 2.])
    B = Scale([0.5, 0.5, 0.5])
    input = torch.tensor([1., 2., 3.])
    labels = torch.tensor([0.5, 1., 1.5])
    return A, B, input, labels


def train_only_b_with_detach():
    print("=== 6. A feeds B: a.detach() updates only B ===")
    A, B, input, labels = make_networks()
    a = A(input)
    a = a.detach()  # backward will stop here: A gets no gradient
    out = B(a)
    loss = criterion(out, labels)
    loss.backward()
    print("loss:", loss)
    print("A.weight.grad:", A.weight.grad)  # None: A is not updated
    print("B.weight.grad:", B.weight.grad)  # [2, 8, 18], as computed by hand above


def train_only_b_with_detach_():
    print("=== 7. A feeds B: a.detach_() (in place) does the same ===")
    A, B, input, labels = make_networks()
    a = A(input)
    a.detach_()  # `a` itself loses its grad_fn and becomes a leaf that does not require grad
    print("a.is_leaf:", a.is_leaf, "a.requires_grad:", a.requires_grad)
    out = B(a)
    loss = criterion(out, labels)
    loss.backward()
    print("A.weight.grad:", A.weight.grad)
    print("B.weight.grad:", B.weight.grad)


def train_only_a_by_freezing_b():
    print("=== 8. To update only A, freeze B's parameters instead ===")
    # Detaching between A and B would stop the gradient before it reaches A, so neither would be
    # updated. Instead, switch off requires_grad on B's parameters:
    A, B, input, labels = make_networks()
    for param in B.parameters():
        param.requires_grad = False
    a = A(input)
    out = B(a)
    loss = criterion(out, labels)
    loss.backward()
    print("A.weight.grad:", A.weight.grad)  # [0.5, 2, 4.5], as computed by hand above
    print("B.weight.grad:", B.weight.grad)  # None: B is not updated


def inplace_change_through_data():
    print("=== 9. .data: the same in-place change is NOT detected, the gradient is wrong ===")
    a = torch.tensor([1, 2, 3.], requires_grad=True)
    print("a.grad:", a.grad)
    out = a.sigmoid()
    print("out:", out)
    c = out.data
    print("c:", c)
    c.zero_()  # modify c in place ...
    # ... and out changes too.
    print("c:", c)
    print("out:", out)
    # .data changes are not tracked by autograd (c has its own version counter), so backward does
    # not raise -- it returns a wrong gradient: sigmoid's backward computes out * (1 - out) from
    # the zeroed `out`, giving zeros instead of [0.1966, 0.1050, 0.0452].
    out.sum().backward()
    print("a.grad:", a.grad)


def inplace_change_of_unsaved_result():
    print("=== 10. .data on the result of sum(): nothing saved was changed, gradient right ===")
    # Autograd's correctness check: a tensor saved for backward and later modified in place
    # makes backward raise. If backward does not raise, the gradient is right -- unless, as in
    # program 9, the modification went through .data and escaped the check.
    # Here the modified tensor is the result of sum(), which nothing saved for backward
    # (sum's backward only needs the input's shape), so the gradient is correct.
    a = torch.tensor([1, 2, 3.], requires_grad=True)
    print("a.grad:", a.grad)
    out = a.sigmoid().sum()  # sum() here, not right before backward(): the result is correct
    print("out:", out)
    c = out.data
    print("c:", c)
    c.zero_()  # modify c in place ...
    # ... and out changes too.
    print("c:", c)
    print("out:", out)
    out.backward()  # not out.sum().backward() this time
    print("a.grad:", a.grad)


def detach_can_be_undone():
    print("=== 11. x -> m -> y with m.detach(): the original graph is still there ===")
    # The post's last section has no program; these two illustrate its text.
    # detach() makes a new tensor and leaves m alone, so m is still connected to x:
    # you can "change your mind" and backpropagate through m after all.
    x = torch.tensor([1., 2., 3.], requires_grad=True)
    m = x * 2
    m_detached = m.detach()
    print(
        "m_detached.is_leaf:", m_detached.is_leaf,
        "m_detached.requires_grad:", m_detached.requires_grad,
    )
    print("m:", m)  # unchanged: still has its grad_fn
    y = (m * m).sum()
    y.backward()
    print("x.grad:", x.grad)  # dy/dx = 2 * m * 2 = 8 * x


def detach_in_place_is_final():
    print("=== 12. x -> m -> y with m.detach_(): m itself becomes a leaf, for good ===")
    # detach_() sets m's grad_fn to None and requires_grad to False: the relation becomes
    # "x, m -> y", m is a leaf, and there is no way back to x.
    x = torch.tensor([1., 2., 3.], requires_grad=True)
    m = x * 2
    m.detach_()
    print("m.is_leaf:", m.is_leaf, "m.requires_grad:", m.requires_grad)
    print("m:", m)  # no grad_fn any more
    y = (m * m).sum()
    try:
        y.backward()
    except RuntimeError as error:
        print(f"RuntimeError: {error}")
    print("x.grad:", x.grad)


def main():
    programs = [
        backward_through_sigmoid,
        detach_without_changes,
        backward_from_detached_tensor,
        detached_tensor_requires_grad_again,
        inplace_change_after_detach,
        train_only_b_with_detach,
        train_only_b_with_detach_,
        train_only_a_by_freezing_b,
        inplace_change_through_data,
        inplace_change_of_unsaved_result,
        detach_can_be_undone,
        detach_in_place_is_final,
    ]
    for number, program in enumerate(programs):
        if number:
            print()
        program()


if __name__ == "__main__":
    main()
