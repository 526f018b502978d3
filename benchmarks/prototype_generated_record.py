"""Prototype (issue 7): recording functions GENERATED from an op's declarations.

Not part of the library: a measured sketch of the next step for the recording targets
(record add/mul <= 0.7x PyTorch). ``record_fast`` is one routine for every one- and two-input
op, so every call pays its generic tests (unary or binary, isinstance, which ctx, result
dtype, saved or not). Here a small code generator writes, once per op class, a function that
has only the tests that op needs, from what the op declares:

* its ``forward`` staticmethod: the body is *inlined* (parsed with ``ast``), the options bound
  to their defaults (the operator passes none) and the ``if``/``... if ... else ...`` on them
  folded away. ``Add.forward`` becomes ``ctx.alpha = 1; return x + y``. The formula is still
  the one in ``ops/arithmetic.py``: the generator copies nothing by hand and falls back to
  calling ``forward`` when the body is not of a form it can inline;
* whether forward can save anything: if ``ctx`` is only ever the target of attribute stores
  in the folded body (Add), the packing of saved values is left out; otherwise (Mul hands
  ``ctx`` to ``save_for_the_other``) ``saved.pack_fast`` runs as in ``record_fast``;
* ``num_inputs`` (two here), its node class, and the op's public function (``arithmetic.add``)
  as the fallback for every call that is not "two plain tensors of one dtype and shape, no
  view, anomaly off": that function is what ``a + b`` would call for those.

The script builds ``gen_add`` and ``gen_mul``, checks on a set of cases that results, grad_fn
names, edges, saved values, versions and gradients equal those of ``a + b`` / ``a * b``, then
times both against minigrad's operators, PyTorch and numpy in one process (timeit, gc off,
min and median of repeats, ratios).

    python benchmarks/prototype_generated_record.py [--repeats 7] [--number 20000]
"""

from __future__ import annotations

import argparse
import ast
import inspect
import os
import statistics
import sys
import textwrap
import timeit
from collections.abc import Callable
from typing import Any

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import numpy as np  # noqa: E402

import minigrad  # noqa: E402
from minigrad.autograd import anomaly, grad_mode, saved, tensor_base  # noqa: E402
from minigrad.autograd.graph import sequence_numbers  # noqa: E402
from minigrad.autograd.quiet import restore, silence  # noqa: E402
from minigrad.autograd.record import (  # noqa: E402
    NO_GRAD_CTX,
    _broadcast_error,
    _connect,
    _untracked_outputs,
)
from minigrad.autograd.tensor_base import TensorBase  # noqa: E402
from minigrad.autograd.version import VersionCounter  # noqa: E402
from minigrad.ops import arithmetic  # noqa: E402

# ----------------------------------------------------------------------------------------
# The generator
# ----------------------------------------------------------------------------------------

_TEMPLATE = '''
def generated(x, y):
    """{name}: ``x {symbol} y`` recorded by a function generated from {name}'s declarations."""
    if type(x) is not _Tensor or type(y) is not _Tensor:
        return _general(x, y)  # numbers, subclasses (Parameter): the op's function
    x_array = x._array
    y_array = y._array
    if y_array.dtype is not x_array.dtype:
        return _general(x, y)  # promotion
    if _grad_state.enabled:
        if x._base is not None or y._base is not None:
            return _general(x, y)  # a view first catches up with its base's history
        x_needs = x._grad_fn is not None or x._requires_grad
        y_needs = y._grad_fn is not None or y._requires_grad
        if x_needs or y_needs:
            if _anomaly_state.enabled or y_array.shape != x_array.shape:
                return _general(x, y)  # broadcasting, or a forward stack to capture
            node = _Node()
            node._saved = ()
            node.needs_input_grad = needs = _NEEDS[x_needs + 2 * y_needs]
            _token = _silence()
            try:
{recorded_forward}
            finally:
                _restore(_token)
            if type(raw) is not _ndarray or raw.dtype is not x_array.dtype:
                return _connect(_function, node, (x, y), [x_array, y_array], raw, needs, None)
            node._input_meta = None  # same shape and dtype in and out: gradients fit as they are
            node._sequence_nr = _next_sequence_nr()
            nrs = _ZEROS
            x_node = x._grad_fn
            if x_node is not None:
                if x._output_nr:
                    nrs = (x._output_nr, 0)
            elif x_needs:
                meta = x._meta
                x_node = None if meta is None else meta.accumulator
                if x_node is None:
                    x_node = x._gradient_edge()[0]
            y_node = y._grad_fn
            if y_node is not None:
                if y._output_nr:
                    nrs = (nrs[0], y._output_nr)
            elif y_needs:
                meta = y._meta
                y_node = None if meta is None else meta.accumulator
                if y_node is None:
                    y_node = y._gradient_edge()[0]
            node._next_nodes = (x_node, y_node)
            node._next_nrs = nrs
            output = _new(_Tensor)
            output._array = raw
            factory = _tensor_base.new_counter  # swapped while a thread is in inference mode
            output._counter = None if factory is _VersionCounter else factory()
            output._requires_grad = False
            output._grad_fn = node
            output._output_nr = 0
            output._meta = None
            output._base = None
            output._view = None
{pack}
            return output
    # the no-grad path: forward with the no-grad ctx, a tensor without history around the result
    _token = _silence()
    try:
{untracked_forward}
    except ValueError as error:
        raise _broadcast_error(error, (x_array, y_array)) from None
    finally:
        _restore(_token)
    if type(raw) is not _ndarray:
        return _untracked(raw)
    output = _new(_Tensor)
    output._array = raw
    factory = _tensor_base.new_counter
    output._counter = None if factory is _VersionCounter else factory()
    output._requires_grad = False
    output._grad_fn = None
    output._output_nr = 0
    output._meta = None
    output._base = None
    output._view = None
    return output
'''

_PACK = """\
            if node._saved:
                _pack_fast(node, node._saved, x, y, raw, output)"""


class _BindOptions(ast.NodeTransformer):
    """Options (forward's arguments after the inputs) replaced by their default values."""

    def __init__(self, defaults: dict[str, Any]) -> None:
        self.defaults = defaults

    def visit_Name(self, node: ast.Name) -> ast.AST:
        if isinstance(node.ctx, ast.Load) and node.id in self.defaults:
            return ast.copy_location(ast.Constant(self.defaults[node.id]), node)
        return node


class _Fold(ast.NodeTransformer):
    """``if`` statements and ``a if t else b`` with a constant test ``t``: the branch taken."""

    @staticmethod
    def _constant(test: ast.expr) -> tuple[bool, Any]:
        if any(isinstance(n, ast.Name) for n in ast.walk(test)):
            return False, None
        try:
            return True, eval(compile(ast.Expression(test), "<fold>", "eval"), {})  # noqa: S307
        except Exception:  # noqa: BLE001 - not foldable: keep the test
            return False, None

    def visit_If(self, node: ast.If) -> Any:
        self.generic_visit(node)
        known, value = self._constant(node.test)
        if not known:
            return node
        return node.body if value else (node.orelse or None)

    def visit_IfExp(self, node: ast.IfExp) -> Any:
        self.generic_visit(node)
        known, value = self._constant(node.test)
        if not known:
            return node
        return node.body if value else node.orelse


def _inline_forward(function: type, ctx_name: str, indent: str) -> tuple[str, bool] | None:
    """``function.forward``'s body with options at their defaults, as statements assigning ``raw``.

    Returns the source and whether ``ctx`` escapes (is used other than as the target of an
    attribute store: it may then have saved values), or None when the body is not of the
    form inlined here (one ``return``, the last statement, after folding).
    """
    source = textwrap.dedent(inspect.getsource(function.forward))
    definition = ast.parse(source).body[0]
    assert isinstance(definition, ast.FunctionDef)
    parameters = [a.arg for a in definition.args.args]
    ctx, inputs = parameters[0], parameters[1 : 1 + function.num_inputs]
    options = parameters[1 + function.num_inputs :]
    defaults = dict(zip(options, [d.value for d in definition.args.defaults[-len(options) :]]))
    if options and any(not isinstance(d, ast.Constant) for d in definition.args.defaults):
        return None
    body = ast.Module(body=definition.body, type_ignores=[])
    body = _Fold().visit(_BindOptions(defaults).visit(body))
    statements = body.body
    if not statements or not isinstance(statements[-1], ast.Return):
        return None
    if any(isinstance(n, ast.Return) for s in statements[:-1] for n in ast.walk(s)):
        return None
    if any(isinstance(n, ast.Name) and n.id.startswith("_") for n in ast.walk(body)):
        return None  # a name that could clash with the template's own
    stores = sum(
        1
        for n in ast.walk(body)
        if isinstance(n, ast.Attribute)
        and isinstance(n.ctx, ast.Store)
        and isinstance(n.value, ast.Name)
        and n.value.id == ctx
    )
    uses = sum(1 for n in ast.walk(body) if isinstance(n, ast.Name) and n.id == ctx)
    escapes = uses > stores  # ctx passed somewhere (``save_for_the_other(ctx, ...)``)
    # The template's names for ctx and the inputs' arrays.
    renames = {ctx: ctx_name, inputs[0]: "x_array", inputs[1]: "y_array"}
    for node in ast.walk(body):
        if isinstance(node, ast.Name) and node.id in renames:
            node.id = renames[node.id]
    result = statements[-1].value
    statements[-1] = ast.Assign(targets=[ast.Name("raw", ast.Store())], value=result)
    ast.fix_missing_locations(body)
    code = ast.unparse(body)
    return textwrap.indent(code, indent), escapes


def generate_record(function: type, general: Callable[[Any, Any], Any], symbol: str,
                    inline: bool = True) -> Callable[[Any, Any], Any]:
    """A function recording ``function`` on two same-dtype tensors, generated from its declarations.

    ``general``: the op's public function, which every call outside the fast case goes to.
    ``inline=False``: forward is called, not inlined (for comparison).
    """
    assert function.num_inputs == 2, "the prototype's template is for two-input ops"
    indent_recorded, indent_untracked = " " * 16, " " * 8
    inlined = _inline_forward(function, "node", indent_recorded) if inline else None
    if inlined is None:
        recorded = indent_recorded + "raw = _forward(node, x_array, y_array)"
        escapes = True
    else:
        recorded, escapes = inlined
    plain = _inline_forward(function, "_NO_GRAD_CTX", indent_untracked) if inline else None
    untracked = (
        plain[0] if plain is not None
        else indent_untracked + "raw = _forward(_NO_GRAD_CTX, x_array, y_array)"
    )
    source = _TEMPLATE.format(
        name=function.__name__, symbol=symbol, recorded_forward=recorded,
        untracked_forward=untracked, pack=_PACK if escapes else "",
    )
    if not function.broadcasts:
        source = source.replace(
            "raise _broadcast_error(error, (x_array, y_array)) from None", "raise")
    namespace = dict(vars(inspect.getmodule(function)))  # the formula's own globals
    namespace.update(
        _Tensor=TensorBase.output_class, _general=general, _grad_state=grad_mode._state,
        _anomaly_state=anomaly._state, _Node=function._Node, _function=function,
        _forward=function.forward, _NEEDS=((False, False), (True, False), (False, True),
                                           (True, True)),
        _ZEROS=(0, 0), _silence=silence, _restore=restore, _ndarray=np.ndarray,
        _connect=_connect, _next_sequence_nr=sequence_numbers.__next__,
        _new=object.__new__, _tensor_base=tensor_base, _VersionCounter=VersionCounter,
        _pack_fast=saved.pack_fast, _NO_GRAD_CTX=NO_GRAD_CTX, _broadcast_error=_broadcast_error,
        _untracked=_untracked_outputs,
    )
    exec(compile(source, f"<generated record of {function.__name__}>", "exec"), namespace)  # noqa: S102
    generated = namespace["generated"]
    generated.source = source
    return generated


# ----------------------------------------------------------------------------------------
# The next step, measured by hand: the packing generated too
# ----------------------------------------------------------------------------------------

_SAVE_CALL = "                save_for_the_other(node, x_array, y_array)\n"
_PACK_CALL = """\
            if node._saved:
                _pack_fast(node, node._saved, x, y, raw, output)"""
# What a generator that also inlined ``save_for_the_other`` and wrote the saved entries itself
# would produce (``saved.pack_fast``'s entries for two inputs, no loop, no identity search).
# Written by hand here, as an upper bound of that step: NOT a form for the library.
_PACK_INLINE = """\
            if x_array is y_array or (_hooks_active[0] and _hooks_state.stack) or _switches.saves:
                node.save_for_backward(x_array if y_needs else None, y_array if x_needs else None)
                _pack_fast(node, node._saved, x, y, raw, output)  # a * a, hooks: pack's way
            else:
                if y_needs:
                    counter = x._counter or x._version_counter()
                    if counter.is_inference:
                        raise RuntimeError(_errors.INFERENCE_TENSOR_SAVED)
                    first = (x_array, counter, counter.version, x, x._grad_fn is not None, 0)
                else:
                    first = _NOTHING
                if x_needs:
                    counter = y._counter or y._version_counter()
                    if counter.is_inference:
                        raise RuntimeError(_errors.INFERENCE_TENSOR_SAVED)
                    node._saved = first + (
                        y_array, counter, counter.version, y, y._grad_fn is not None, 1)
                else:
                    node._saved = first + _NOTHING"""


def hand_packed_mul(gen_mul: Callable[[Any, Any], Any]) -> Callable[[Any, Any], Any]:
    """``gen_mul`` with its saving written out (by hand: the measured bound of the next step)."""
    source = gen_mul.source
    assert _SAVE_CALL in source and _PACK_CALL in source
    source = source.replace(_SAVE_CALL, "").replace(_PACK_CALL, _PACK_INLINE)
    namespace = dict(gen_mul.__globals__)
    namespace.update(_hooks_active=saved._hooks_active, _hooks_state=saved._hooks_state,
                     _switches=saved.switches, _errors=saved.errors, _NOTHING=saved._NOTHING)
    exec(compile(source, "<hand-packed record of Mul>", "exec"), namespace)  # noqa: S102
    return namespace["generated"]


# ----------------------------------------------------------------------------------------
# Checks: the generated functions against the normal path
# ----------------------------------------------------------------------------------------


def _summary(tensor: Any) -> tuple:
    """What recording left behind for ``tensor``: values, history, saved values, versions."""
    node = tensor.grad_fn
    described: list[Any] = [tensor.detach().numpy().tolist(), str(tensor.dtype),
                            tensor.requires_grad, tensor._version]
    if node is None:
        return tuple(described)
    described.append(type(node).__name__)
    described.append(tuple(None if n is None else (type(n).__name__, nr)
                           for n, nr in node.next_functions))
    described.append(node.needs_input_grad if hasattr(node, "needs_input_grad") else None)
    described.append(node._input_meta)
    packed = []
    for value in node._saved:
        if isinstance(value, np.ndarray):
            packed.append(("array", value.tolist()))
        elif isinstance(value, VersionCounter):
            packed.append("counter")
        elif isinstance(value, TensorBase):
            packed.append("tensor")
        else:
            packed.append(value)
    described.append(tuple(packed))
    for name in ("_saved_self", "_saved_other", "_saved_alpha"):
        if hasattr(node, name):
            value = getattr(node, name)
            described.append((name, None if value is None else
                              (value.tolist() if isinstance(value, TensorBase) else value)))
    return tuple(described)


def _program(op: Callable[[Any, Any], Any], case: str) -> tuple:
    """Run one case with ``op`` standing for ``a + b`` or ``a * b``; describe what it left."""
    rng = np.random.default_rng(0)
    x = rng.standard_normal((2, 3)).astype(np.float32)
    y = rng.standard_normal((2, 3)).astype(np.float32)
    a = minigrad.tensor(x, requires_grad=True)
    b = minigrad.tensor(y, requires_grad=True)
    c = minigrad.tensor(y)  # no grad
    results: list[Any] = []
    if case == "both leaves":
        z = op(a, b)
    elif case == "one leaf":
        z = op(a, c)
    elif case == "other leaf":
        z = op(c, a)
    elif case == "neither":
        z = op(c, c)
    elif case == "same tensor":
        z = op(a, a)
    elif case == "non-leaves, second output":
        _, second = minigrad.max(a * 1.0, dim=0)[0], minigrad.max(b * 1.0, dim=0)[0]
        z = op(a.sum(0), second)  # an input that is an op's first output, one from max
    elif case == "no_grad":
        with minigrad.no_grad():
            z = op(a, b)
    elif case == "view":
        z = op(a[0], b[1])
    elif case == "broadcast":
        z = op(a, b[0])
    elif case == "number":
        z = op(a, 2.0)
    elif case == "promotion":
        z = op(a, minigrad.tensor(y.astype(np.float64), requires_grad=True))
    elif case == "int":
        z = op(minigrad.tensor([1, 2]), minigrad.tensor([3, 4]))
    elif case == "chain and in-place write":
        z = op(op(a, b), b)
        results.append(_summary(z))
        b.data.mul_(1)  # a write that bumps no version: the graph stays usable
        a.detach().add_(1)  # a version bump on a's buffer
        try:
            z.sum().backward()
            results.append(("grads", a.grad.tolist(), b.grad.tolist()))
        except RuntimeError as error:
            results.append(("error", str(error)))
        return tuple(results)
    else:
        raise ValueError(case)
    results.append(_summary(z))
    if z.requires_grad:
        z.sum().backward()
        results.append(("grads", None if a.grad is None else a.grad.tolist(),
                        None if b.grad is None else b.grad.tolist()))
    results.append(("versions", a._version, b._version))
    return tuple(results)


CASES = ("both leaves", "one leaf", "other leaf", "neither", "same tensor",
         "non-leaves, second output", "no_grad", "view", "broadcast", "number", "promotion",
         "int", "chain and in-place write")


def check(
    generated: Callable[[Any, Any], Any], normal: Callable[[Any, Any], Any], name: str
) -> None:
    """Every case gives the same description through ``generated`` and the normal operator."""
    for case in CASES:
        expected = _program(normal, case)
        got = _program(generated, case)
        assert got == expected, f"{name}, {case}:\n  generated {got}\n  normal    {expected}"
    # errors are the same too: a broadcasting failure
    messages = []
    for op in (generated, normal):
        try:
            op(minigrad.ones(2, requires_grad=True), minigrad.ones(3))
        except RuntimeError as error:
            messages.append(str(error))
    assert len(messages) == 2 and messages[0] == messages[1], messages
    print(f"{name}: {len(CASES)} cases + broadcast error identical to the normal path")


# ----------------------------------------------------------------------------------------
# Timing
# ----------------------------------------------------------------------------------------


def _times(
    statements: dict[str, str], namespace: dict, repeats: int, number: int
) -> dict[str, list[float]]:
    """µs per run of each statement, one figure per repeat (timeit turns gc off).

    The statements take turns within each repeat, so a change of load on the shared machine
    hits them all alike and the ratios stay comparable.
    """
    timers = {label: timeit.Timer(stmt, globals=namespace) for label, stmt in statements.items()}
    times: dict[str, list[float]] = {label: [] for label in statements}
    for _ in range(repeats):
        for label, timer in timers.items():
            times[label].append(timer.timeit(number) / number * 1e6)
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=7)
    parser.add_argument("--number", type=int, default=20000)
    parser.add_argument("--show-source", action="store_true", help="print the generated code")
    options = parser.parse_args()

    gen_add = generate_record(arithmetic.Add, arithmetic.add, "+")
    gen_mul = generate_record(arithmetic.Mul, arithmetic.mul, "*")
    call_add = generate_record(arithmetic.Add, arithmetic.add, "+", inline=False)
    call_mul = generate_record(arithmetic.Mul, arithmetic.mul, "*", inline=False)
    if options.show_source:
        print(gen_add.source, gen_mul.source)
    check(gen_add, lambda p, q: p + q, "gen_add")
    check(gen_mul, lambda p, q: p * q, "gen_mul")
    check(call_add, lambda p, q: p + q, "gen_add (forward called)")
    check(call_mul, lambda p, q: p * q, "gen_mul (forward called)")
    hand_mul = hand_packed_mul(gen_mul)
    check(hand_mul, lambda p, q: p * q, "gen_mul, saving written out by hand")

    import torch

    torch.set_num_threads(1)
    x = np.random.default_rng(0).standard_normal(8).astype(np.float32)
    y = x + 1
    ns = {
        "a": minigrad.tensor(x, requires_grad=True), "b": minigrad.tensor(y, requires_grad=True),
        "c": minigrad.tensor(x), "d": minigrad.tensor(y),
        "ta": torch.tensor(x, requires_grad=True), "tb": torch.tensor(y, requires_grad=True),
        "tc": torch.tensor(x), "td": torch.tensor(y),
        "x": x, "y": y, "gen_add": gen_add, "gen_mul": gen_mul,
        "call_add": call_add, "call_mul": call_mul, "hand_mul": hand_mul,
    }
    rows = [
        ("record add", [("numpy", "x + y"), ("torch", "ta + tb"), ("minigrad a + b", "a + b"),
                        ("generated, forward called", "call_add(a, b)"),
                        ("generated, forward inlined", "gen_add(a, b)")]),
        ("record mul", [("numpy", "x * y"), ("torch", "ta * tb"), ("minigrad a * b", "a * b"),
                        ("generated, forward called", "call_mul(a, b)"),
                        ("generated, forward inlined", "gen_mul(a, b)"),
                        ("+ saving written out by hand", "hand_mul(a, b)")]),
        ("no-grad add", [("numpy", "x + y"), ("torch", "tc + td"), ("minigrad c + d", "c + d"),
                         ("generated, forward called", "call_add(c, d)"),
                         ("generated, forward inlined", "gen_add(c, d)")]),
        ("no-grad mul", [("numpy", "x * y"), ("torch", "tc * td"), ("minigrad c * d", "c * d"),
                         ("generated, forward called", "call_mul(c, d)"),
                         ("generated, forward inlined", "gen_mul(c, d)")]),
    ]
    load = os.getloadavg()
    print(f"\n(8,) float32, timeit min / median of {options.repeats} x {options.number}, gc off, "
          "statements interleaved; "
          f"load average {load[0]:.1f} {load[1]:.1f} {load[2]:.1f}")
    print(f"{'':38}{'min µs':>8}{'med µs':>8}{'/torch min':>11}{'/torch med':>11}")
    for title, entries in rows:
        print(title)
        timed = _times(dict(entries), ns, options.repeats, options.number)
        torch_min, torch_med = min(timed["torch"]), statistics.median(timed["torch"])
        for label, values in timed.items():
            low, mid = min(values), statistics.median(values)
            ratios = f"{low / torch_min:10.2f}x{mid / torch_med:10.2f}x"
            print(f"  {label:36}{low:8.2f}{mid:8.2f}{ratios}")


if __name__ == "__main__":
    main()
