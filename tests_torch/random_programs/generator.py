"""Small random autograd programs over the seeds' vocabulary.

A program is a list of ``Statement``s: Python source using the name ``torch`` and tensors
``t0, t1, ...``. The generator tracks each tensor's shape so that most statements are valid
(an invalid one is still a fine test: both libraries must raise the same error). The same seed
always gives the same program.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

Shape = tuple[int, ...]

# Values chosen to hit special points too (0 for log, sqrt, division; negatives for sqrt).
_VALUES = (-2.0, -1.5, -1.0, -0.5, 0.0, 0.5, 1.0, 1.5, 2.0, 3.0)
_SHAPES: tuple[Shape, ...] = ((2, 3), (3,), (2, 2), (1,), (), (3, 1), (1, 3))


@dataclass(frozen=True)
class Statement:
    """One line (or ``with`` block) of a program.

    ``kind`` names the vocabulary item (``"inplace_binary"``, ``"view"``, ...); ``target`` is
    the tensor the statement creates or writes, ``operands`` the other tensors it reads. The
    runner uses them to record facts (does an in-place op's operand share the written tensor's
    version counter?) that ``known.py`` classifies by.
    """

    code: str
    kind: str
    target: str | None = None
    operands: tuple[str, ...] = field(default=())


def _literal(rng: random.Random, shape: Shape) -> str:
    if not shape:
        return repr(rng.choice(_VALUES))
    inner = shape[1:]
    return "[" + ", ".join(_literal(rng, inner) for _ in range(shape[0])) + "]"


def _broadcast(a: Shape, b: Shape) -> Shape | None:
    result = []
    for x, y in zip(reversed((1,) * (len(b) - len(a)) + a), reversed((1,) * (len(a) - len(b)) + b)):
        if x != y and 1 not in (x, y):
            return None
        result.append(max(x, y))
    return tuple(reversed(result))


class _Builder:
    """The program being generated, with the shapes of the tensors made so far."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.statements: list[Statement] = []
        self.shapes: dict[str, Shape] = {}
        self.count = 0
        self.defined: set[str] = set()  # the custom Functions defined so far
        self.leaves: list[str] = []  # the tensors made by ``leaf`` (an optimizer's parameters)
        self.optimizers = 0

    def new_name(self) -> str:
        name = f"t{self.count}"
        self.count += 1
        return name

    def pick(self) -> str:
        return self.rng.choice(list(self.shapes))

    def pick_other(self, name: str) -> str:
        """Another tensor, preferring one whose shape broadcasts with ``name``'s (or itself)."""
        rng = self.rng
        if rng.random() < 0.15:
            return name  # the aliasing case: x.mul_(x)
        fitting = [n for n in self.shapes if _broadcast(self.shapes[n], self.shapes[name])]
        return rng.choice(fitting) if fitting and rng.random() < 0.9 else self.pick()

    def add(self, statement: Statement, shape: Shape | None = None) -> None:
        if statement.kind in _MAY_RUN_IN_NO_GRAD:
            draw = self.rng.random()
            for bound, modes in _GRAD_MODES:
                if draw < bound:
                    for mode in reversed(modes):
                        indented = statement.code.replace("\n", "\n    ")
                        statement = Statement(
                            f"with {mode}:\n    {indented}",
                            statement.kind,
                            statement.target,
                            statement.operands,
                        )
                    break
        self.statements.append(statement)
        if shape is not None and statement.target is not None:
            self.shapes[statement.target] = shape

    # -- the vocabulary ------------------------------------------------------------------------

    def leaf(self, shape: Shape | None = None) -> str:
        """A new tensor of ``shape`` (a random one if None); its name."""
        rng = self.rng
        shape = rng.choice(_SHAPES) if shape is None else shape
        name = self.new_name()
        requires_grad = rng.random() < 0.7
        flag = ", requires_grad=True" if requires_grad else ""
        dtype = ", dtype=torch.float64" if rng.random() < 0.1 else ""
        if rng.random() < 0.2 and shape:
            maker = rng.choice(("ones", "zeros"))
            code = f"{name} = torch.{maker}({shape}{dtype}{flag})"
        else:
            code = f"{name} = torch.tensor({_literal(rng, shape)}{dtype}{flag})"
        self.add(Statement(code, "leaf", name), shape)
        self.leaves.append(name)
        return name

    def fitting(self, shapes: tuple[Shape, ...]) -> str:
        """A tensor of one of ``shapes``: an existing one most of the time, else a new leaf."""
        found = [n for n in self.shapes if self.shapes[n] in shapes]
        if found and self.rng.random() < 0.7:
            return self.rng.choice(found)
        return self.leaf(shapes[0])

    def unary(self) -> None:
        rng = self.rng
        source = self.pick()
        shape = self.shapes[source]
        choice = rng.random()
        if choice < 0.15:
            reduction = rng.choice(("sum", "mean", "nansum", "var", "std", "amax", "logsumexp",
                                    "prod"))
            if rng.random() < 0.5:
                expression, shape = f"{{}}.{reduction}(-1, keepdim=True)", (*shape[:-1], 1)
            else:
                expression, shape = f"{{}}.{reduction}(0)", shape[1:]
            if not self.shapes[source]:
                shape = ()  # (dim 0 and -1 of a 0-d tensor are the tensor)
        elif choice < 0.22:
            function = rng.choice(tuple(_FUNCTIONS))
            self.define(function)
            expression = f"{function}.apply({{}})"
        else:
            expression = rng.choice(_UNARY)
            if expression in _FULL_REDUCTIONS:
                shape = ()
        name = self.new_name()
        code = f"{name} = {expression.format(source)}"
        self.add(Statement(code, "unary", name, (source,)), shape)

    def define(self, function: str) -> None:
        """Define the custom Function ``function`` before its first use."""
        if function not in self.defined:
            self.defined.add(function)
            self.statements.append(Statement(_FUNCTIONS[function], "define"))

    def binary(self) -> None:
        left = self.pick()
        right = self.pick_other(left)
        name = self.new_name()
        shape = _broadcast(self.shapes[left], self.shapes[right]) or self.shapes[left]
        code = f"{name} = {self.rng.choice(_BINARY).format(left, right)}"
        self.add(Statement(code, "binary", name, (left, right)), shape)

    def view(self) -> None:
        source = self.pick()
        shape = self.shapes[source]
        options = _views(shape)
        expression, new_shape = self.rng.choice(options)
        name = self.new_name()
        code = f"{name} = {expression.format(source)}"
        self.add(Statement(code, "view", name, (source,)), new_shape)

    def inplace(self) -> None:
        rng = self.rng
        target = self.pick()
        shape = self.shapes[target]
        if rng.random() < 0.5:
            other = self.pick_other(target)
            code = rng.choice(_INPLACE_BINARY).format(target, other)
            self.add(Statement(code, "inplace_binary", target, (other,)))
        elif rng.random() < 0.05 and shape:  # an index repeated: the last write wins
            self.add(Statement(f"{target}[[0, 0]] = {rng.choice(('2.0', '-1.0'))}",
                               "inplace_unary", target))
        elif rng.random() < 0.25 and shape:
            index = "0" if len(shape) == 1 or rng.random() < 0.5 else "0, 0"
            value = rng.choice(("2.0", "-1.0", f"{self.pick()}.sum()"))
            operands = (value.split(".")[0],) if value.startswith("t") else ()
            kind = "inplace_binary" if operands else "inplace_unary"
            self.add(Statement(f"{target}[{index}] = {value}", kind, target, operands))
        else:
            code = rng.choice(_INPLACE_UNARY).format(target)
            self.add(Statement(code, "inplace_unary", target))

    def detach_family(self) -> None:
        rng = self.rng
        source = self.pick()
        choice = rng.random()
        if choice < 0.35:
            self.add(Statement(f"{source}.detach_()", "detach_", source))
        elif choice < 0.55:
            name = self.new_name()
            self.add(Statement(f"{name} = {source}.detach()", "view", name, (source,)),
                     self.shapes[source])
        elif choice < 0.75:
            name = self.new_name()
            self.add(Statement(f"{name} = {source}.data", "data", name, (source,)),
                     self.shapes[source])
        elif choice < 0.9:
            self.add(Statement(f"{source}.requires_grad_()", "requires_grad_", source))
        else:
            self.add(Statement(f"{source}.requires_grad_(False)", "requires_grad_", source))

    def backward(self) -> None:
        rng = self.rng
        source = self.pick()
        retain = ", retain_graph=True" if rng.random() < 0.4 else ""
        choice = rng.random()
        if choice < 0.45:
            code = f"{source}.sum().backward({retain[2:]})"
        elif choice < 0.6:
            code = f"{source}.backward(torch.ones_like({source}){retain})"
        elif choice < 0.7:
            code = f"{source}.backward({retain[2:]})"
        else:
            wrt = self.pick()
            name = self.new_name()
            create = ", create_graph=True" if rng.random() < 0.3 else ""
            output = f"{source}.sum()"
            if rng.random() < 0.3:  # a given seed, maybe requiring grad (differentiable again)
                same = [n for n in self.shapes if self.shapes[n] == self.shapes[source]]
                output = f"{source}, {rng.choice(same)}"
            code = (
                f"{name} = torch.autograd.grad({output}, {wrt}{retain}{create}, "
                f"allow_unused=True)[0]"
            )
            self.add(Statement(code, "grad", name, (source, wrt)), self.shapes[wrt])
            return
        if rng.random() < 0.1:
            code = f"with torch.autograd.detect_anomaly():\n    {code}"
        self.add(Statement(code, "backward", None, (source,)))

    def linear(self) -> None:
        """``F.linear`` of a tensor, with a weight (and maybe a bias) of fitting shapes."""
        rng = self.rng
        source = self.pick()
        shape = self.shapes[source]
        features, outputs = (shape[-1] if shape else 1), rng.choice((1, 2, 3))
        weight = self.fitting(((outputs, features),))
        operands = [source, weight]
        if rng.random() < 0.6:
            operands.append(self.fitting(((outputs,), ())))
        name = self.new_name()
        code = f"{name} = torch.nn.functional.linear({', '.join(operands)})"
        self.add(Statement(code, "linear", name, tuple(operands)), (*shape[:-1], outputs))

    def cross_entropy(self) -> None:
        """``F.cross_entropy`` of logits and class indices (a tensor of its own), or probabilities.

        The indices are a new int64 tensor, which later statements may use and write too.
        """
        rng = self.rng
        source = self.pick()
        shape = self.shapes[source]
        classes = shape[1] if len(shape) == 2 else (shape[0] if shape else 1)
        if rng.random() < 0.15:
            target = self.fitting((shape,))  # class probabilities (or a mismatch that raises)
        else:
            # (out of range, or no classes at all: raises)
            bound = max(classes + 1 if rng.random() < 0.03 else classes, 1)
            indices: object = rng.randrange(bound)
            if len(shape) == 2:
                indices = [rng.randrange(bound) for _ in range(shape[0])]
            target = self.new_name()
            self.add(Statement(f"{target} = torch.tensor({indices})", "leaf", target),
                     (shape[0],) if len(shape) == 2 else ())
        options = ""
        if rng.random() < 0.4:
            options += f", reduction={rng.choice(_REDUCTIONS)!r}"
        if rng.random() < 0.2:
            options += ", label_smoothing=0.25"
        if rng.random() < 0.1:
            options += ", ignore_index=0"
        reduced = "reduction='none'" not in options
        name = self.new_name()
        code = f"{name} = torch.nn.functional.cross_entropy({source}, {target}{options})"
        result = () if reduced else (shape[0],) if len(shape) == 2 else ()
        self.add(Statement(code, "cross_entropy", name, (source, target)), result)

    def optimize(self) -> None:
        """An optimizer step over some leaves (made first if none is yet), maybe backward again.

        The step writes its parameters in place (under no_grad): a graph that saved one of
        them raises at its next backward.
        """
        rng = self.rng
        if self.optimizers == 0 or rng.random() < 0.2:
            pool = self.leaves if rng.random() < 0.9 else list(self.shapes)
            params = rng.sample(pool, min(len(pool), rng.choice((1, 1, 2))))
            name = f"o{self.optimizers}"
            self.optimizers += 1
            maker = rng.choice(_OPTIMIZERS).format(f"[{', '.join(params)}]")
            self.statements.append(Statement(f"{name} = torch.optim.{maker}", "optimizer"))
        optimizer = f"o{rng.randrange(self.optimizers)}"
        if rng.random() < 0.2:
            self.statements.append(Statement(f"{optimizer}.zero_grad()", "zero_grad"))
        self.statements.append(Statement(f"{optimizer}.step()", "step"))
        if rng.random() < 0.5:
            self.backward()

    def hook(self) -> None:
        rng = self.rng
        source = self.pick()
        choice = rng.random()
        if choice < 0.4:
            code = f"{source}.retain_grad()"
        elif choice < 0.6:
            code = f"{source}.register_hook(lambda g: g * 2)"
        elif choice < 0.65:
            code = f"{source}.register_hook(lambda g: None)"
        elif choice < 0.7:
            code = f"{source}.register_post_accumulate_grad_hook(lambda p: p.grad.mul_(0.5))"
        elif choice < 0.85:
            name = self.new_name()
            self.add(Statement(f"{name} = {source}.grad", "read_grad", name, (source,)),
                     self.shapes[source])
            return
        else:
            code = f"{source}.grad = None"
        self.add(Statement(code, "hook", source))


_MAY_RUN_IN_NO_GRAD = {"unary", "binary", "view", "inplace_binary", "inplace_unary"}
# Grad-mode blocks around such a statement (outermost first), with cumulative odds.
_GRAD_MODES = (
    (0.12, ("torch.no_grad()",)),
    (0.15, ("torch.no_grad()", "torch.enable_grad()")),
    (0.17, ("torch.enable_grad()",)),
    (0.19, ("torch.set_grad_enabled(False)",)),
)

# Custom Functions, each defined by a statement of its own before its first use. (One that
# writes its input in place, ``mark_dirty``, finds divergences not fixed yet: benchmarks/
# README.md, fuzz5.)
_FUNCTIONS = {
    "Doubled": (
        "class Doubled(torch.autograd.Function):\n"
        "    @staticmethod\n"
        "    def forward(ctx, x):\n"
        "        y = x * 2\n"
        "        ctx.save_for_backward(y)\n"
        "        return y\n"
        "    @staticmethod\n"
        "    def backward(ctx, g):\n"
        "        (y,) = ctx.saved_tensors\n"
        "        return g * 2 + y * 0"
    ),
}

_FULL_REDUCTIONS = (
    "{}.sum()", "{}.mean()", "{}.nansum()", "torch.count_nonzero({})", "{}.var()", "{}.std()",
    "{}.prod()", "{}.amax()", "{}.norm()",
)
_UNARY = (
    "{}.sigmoid()", "{}.exp()", "{}.tanh()", "{}.relu()", "-{}", "{} * 2", "{} / 3",
    "{} ** 2", "{}.sin()", "{}.abs()", "{}.clamp(min=0)", "{}.sqrt()", "{}.log()",
    *_FULL_REDUCTIONS, "{}.clone()", "{} * 1", "{}.pow(0.5)", "1 / {}",
    "{} + True", "2 - {}", "{}.double()", "{}.float()",
    "{}.cos()", "{}.log1p()", "{}.expm1()", "{}.square()", "{}.reciprocal()", "{}.rsqrt()",
    "{}.clamp(-1, 1)", "{}.softmax(-1)", "{}.log_softmax(-1)", "{}.cumsum(-1)",
    "torch.nn.functional.softplus({})", "torch.nn.functional.elu({})",
    "torch.nn.functional.leaky_relu({}, 0.1)", "torch.nn.functional.gelu({})",
    "torch.nn.functional.silu({})", "torch.where({0} > 0, {0}, 0.5 * {0})",
)
_REDUCTIONS = ("none", "mean", "sum")
_OPTIMIZERS = (
    "SGD({}, lr=0.1)", "SGD({}, lr=0.1, momentum=0.9)", "SGD({}, lr=0.1, weight_decay=0.5)",
    "Adam({}, lr=0.1)", "Adam({}, lr=0.1, amsgrad=True)",
)
_BINARY = (
    "{} + {}", "{} - {}", "{} * {}", "{} / {}", "torch.maximum({}, {})", "torch.atan2({}, {})",
    "{} ** {}", "torch.minimum({}, {})",
)
_INPLACE_BINARY = (
    "{}.add_({})", "{}.sub_({})", "{}.mul_({})", "{}.div_({})", "{}.copy_({})",
    "{} += {}", "{} *= {}", "{} /= {}", "{}.add_({}, alpha=2)",
)
_INPLACE_UNARY = (
    "{}.mul_(-0.5)", "{}.add_(1)", "{} *= 2", "{}.sigmoid_()", "{}.exp_()", "{}.tanh_()",
    "{}.relu_()", "{}.zero_()", "{}.fill_(0.5)", "{}.clamp_(min=0)", "{}.neg_()", "{}.sqrt_()",
    "{}.abs_()", "{}.pow_(2)",
)


def _views(shape: Shape) -> list[tuple[str, Shape]]:
    """View expressions that fit ``shape``, with the shape each gives."""
    size = 1
    for n in shape:
        size *= n
    options: list[tuple[str, Shape]] = [
        ("{0}.view(-1)", (size,)),
        ("{0}.reshape(-1)", (size,)),
        ("{0}.unsqueeze(0)", (1, *shape)),
        ("{0}.view_as({0})", shape),
        ("{0}[...]", shape),
        ("{0}.expand(2, *{0}.shape)", (2, *shape)),
        ("{0}.squeeze()", tuple(n for n in shape if n != 1)),
        ("{0}.reshape(1)", (1,)) if size == 1 else ("{0}.flatten()", (size,)),
    ]
    if len(shape) <= 2:
        options.append(("{0}.T" if len(shape) == 2 else "{0}.t()", tuple(reversed(shape))))
    if shape:
        rest = shape[1:]
        options += [
            ("{0}[0]", rest),
            ("{0}[0:1]", (1, *rest)),
            ("{0}.select(0, 0)", rest),
            ("{0}.narrow(0, 0, 1)", (1, *rest)),
            ("{0}.unbind()[0]", rest),
            ("{0}.split(1)[0]", (1, *rest)),
        ]
    if len(shape) == 2:
        options += [
            ("{0}[:, 1:]", (shape[0], shape[1] - 1)),
            ("{0}.permute(1, 0)", (shape[1], shape[0])),
            ("{0}.transpose(0, 1)", (shape[1], shape[0])),
            ("{0}.diagonal()", (min(shape),)),
            ("{0}.chunk(2, 1)[0]", (shape[0], (shape[1] + 1) // 2)),
        ]
    return options


_ACTIONS = (
    ("leaf", 12), ("unary", 14), ("binary", 12), ("view", 18), ("inplace", 22),
    ("detach_family", 9), ("backward", 8), ("hook", 5), ("linear", 3), ("cross_entropy", 3),
    ("optimize", 3),
)


def generate(seed: int) -> list[Statement]:
    """The program of ``seed``: 2-16 statements, ending with a backward most of the time."""
    rng = random.Random(seed)
    builder = _Builder(rng)
    if rng.random() < 0.04:
        builder.statements.append(
            Statement("torch.autograd.set_detect_anomaly(True)", "anomaly")
        )
    for _ in range(rng.randint(1, 2)):
        builder.leaf()
    names, weights = zip(*_ACTIONS)
    for _ in range(rng.randint(1, 12)):
        getattr(builder, rng.choices(names, weights)[0])()
    for _ in range(rng.choice((0, 1, 1, 1, 2))):
        builder.backward()
    if rng.random() < 0.2:
        builder.inplace()
        builder.backward()
    return builder.statements


def source(statements: list[Statement], header: str = "import torch") -> str:
    """The program as runnable Python text."""
    return "\n".join([header, *(s.code for s in statements)]) + "\n"
