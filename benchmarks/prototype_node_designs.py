"""Candidate designs for a graph node the garbage collector does not track (issue 7, gc rows).

``benchmarks/prototype_untracked_nodes.py`` showed that the deep chains' collector time follows
the tracked objects each op leaves alive (minigrad 1.51 per op on ``y = y*w; y = y+b``, of
which 1.00 is the node; PyTorch 0.50). This script measures, for each way a node could be kept
out of the collector's view, what it costs per node against today's slots node:

* **made**: ns to make a node of the chain's Mul (six fields written, as the recorder does);
* **read**: ns to read one field (the engine reads ~6 per node);
* **untracked**: whether a node of a 2000-op chain is untracked after ``gc.collect()``, and the
  tracked objects such a chain keeps per node.

Designs:

* ``slots node`` -- today's: a class with ``__slots__`` (``graph.Node``'s eleven).
* ``int subclass``, ``ndarray subclass``, ``tuple subclass`` with ``__slots__ = ()`` and the
  state in an untracked container: on CPython 3.11 every instance of a class defined in Python
  is tracked (``type_new_alloc`` gives every heap type ``Py_TPFLAGS_HAVE_GC``: an instance
  refers to its class, which may refer back), whatever the base and the slots. Ruled out: no
  Python class can be the graph's storage; only exact builtins can.
* ``exact tuple, edges inline`` -- the collector untracks an exact tuple of untracked objects
  at a collection it survives, but a tuple holding a (still tracked) tuple stays tracked: of a
  2000-node chain, 1401 are untracked by the first full collection, then one more by each.
  And a node's saved input tensors and class are tracked objects: a tuple holding them stays
  tracked for good, so they must go into an array anyway (next design).
* ``exact tuple, edges in an array`` -- prototype_untracked_nodes.py's node: the edges in a
  2-element object ``ndarray``, a type the collector does not know (numpy arrays, even of
  objects, are never tracked nor traversed), so the tuple holds untracked objects only. A
  real node's saved tensors and mutable state (saved values freed after backward) would go
  into that array too: the same making cost, a longer array.
* ``object ndarray`` -- the node *is* a 1-D object array: never tracked, and mutable (backward
  can free saved values and hooks can be added in place).
* ``int handle + arena`` -- the node is an exact int indexing an object-array arena: untracked,
  but nothing tells the arena when the last handle dies (an int has no finalizer), so entries
  are never freed. Ruled out (measured only for its costs).

Then the price of the public object a design of exact builtins must make on demand
(``grad_fn``'s identity is stable across reads, so it is made once and cached): the first
read, a later read (the node keeps a weakref to it), and **cycles**. A reference cycle through
an untracked object is never collected, since the collector counts that object's reference as
one from outside. Today, a hook whose closure holds its tensor (``y.register_hook(lambda g:
... y ...)``) makes such a cycle: tensor -> node -> hooks -> closure -> tensor, and the
collector frees it (tests/test_graph_cycles.py; PyTorch 2.13 does not). The last section shows
the cycle through an ``object ndarray`` node leaking, and freed again once the tensor refers to
the node's public object (a tracked Python object) instead, which is how a real design keeps
today's behaviour: a node that gets state that can close a cycle (hooks, metadata, retained
gradients, a custom Function's ctx) is reached through its public object.

Last, what the two untracked designs would cost the rows issue 7 already meets, estimated in
one process from the table: minigrad's and PyTorch's record add (``x + y``, (8,) float32, both
requiring grad, gc off) and the chain ``y = sigmoid(y*w+b)`` x100 forward+backward, each with
the node's extra making cost added per node (one node per add; three per chain step, each also
read ``READS`` more times in backward at the read delta).

Run: ``python benchmarks/prototype_node_designs.py`` (~30 s; PyTorch for the last section).
``--instructions``: instead, callgrind's count of the instructions to make one node of each
design (inside ``functools.reduce`` only, 20000 nodes, freed as made; the figure load cannot
move: compare with ``count_record_instructions.py add mul``). Needs valgrind; ~2 min.
"""

from __future__ import annotations

import functools
import gc
import os
import re
import statistics
import subprocess
import sys
import time
import timeit
import weakref
from collections.abc import Callable
from typing import Any

import numpy as np

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if REPO not in sys.path:
    sys.path.insert(0, REPO)  # run from a checkout without installing

_new = object.__new__
_empty = np.empty
_array_new = np.ndarray.__new__
_int_new = int.__new__
CHAIN = 2000  # nodes of the chain whose tracked objects are counted
READS = 6  # field reads per node in backward (edges, sequence number, saved values, meta...)


class SlotsNode:
    """Today's node layout (``graph.Node``'s slots)."""

    __slots__ = ("_next0", "_next1", "_next_nrs", "_sequence_nr", "_saved", "_input_meta",
                 "_input0", "_input1", "_output_counter", "__dict__", "__weakref__")


class IntNode(int):
    """A node as an int subclass (the state would live in a table indexed by it)."""

    __slots__ = ()


class ArrayNode(np.ndarray):
    """A node as an ndarray subclass holding its fields."""

    __slots__ = ()


class TupleNode(tuple):
    """A node as a tuple subclass."""

    __slots__ = ()


def make_slots(previous: Any) -> Any:
    """Today's node of a Mul: its fields written one by one."""
    node = _new(SlotsNode)
    node._next0 = previous
    node._next1 = None
    node._next_nrs = (0, 0)
    node._sequence_nr = 1
    node._saved = ()
    node._input_meta = None
    return node


def make_int_subclass(previous: Any) -> Any:
    """An int-subclass handle (its fields would go into a table: not counted here)."""
    return _int_new(IntNode, 1)


def make_array_subclass(previous: Any) -> Any:
    """An ndarray-subclass node holding its six fields."""
    node = _array_new(ArrayNode, 6, object)
    node[0] = previous
    node[1:] = None, (0, 0), 1, (), None
    return node


def make_tuple_subclass(previous: Any) -> Any:
    """A tuple-subclass node."""
    return TupleNode((previous, None, (0, 0), 1, (), None))


def make_tuple_inline(previous: Any) -> Any:
    """An exact tuple with its edges inline."""
    return ("mul", previous, None, 1, (), None)


def make_tuple_array_edges(previous: Any) -> Any:
    """An exact tuple with its edges in a 2-element object array (prototype_untracked_nodes)."""
    edges = _empty(2, object)
    edges[0] = previous
    edges[1] = None
    return ("mul", edges, (0, 0), 1, (), None)


def make_object_array(previous: Any) -> Any:
    """The node as an exact 1-D object array (fields by index)."""
    node = _empty(6, object)
    node[0] = previous
    node[1] = None
    node[2] = (0, 0)
    node[3] = 1
    node[4] = ()
    node[5] = None
    return node


_arena = _empty(1 << 16, object)  # (the int handle's table; entries are never freed)
_next_handle = iter(range(1 << 62)).__next__


def make_int_handle(previous: Any) -> Any:
    """An exact int indexing the arena, whose row holds the fields."""
    handle = _next_handle() & 0xFFFF
    _arena[handle] = ("mul", previous, None, 1, (), None)
    return handle


DESIGNS: dict[str, tuple[Callable[[Any], Any], str]] = {
    # name: (maker, an expression reading the first edge of ``n``)
    "slots node (today)": (make_slots, "n._next0"),
    "int subclass": (make_int_subclass, "a[n][1]"),
    "ndarray subclass": (make_array_subclass, "n[0]"),
    "tuple subclass": (make_tuple_subclass, "n[0]"),
    "exact tuple, edges inline": (make_tuple_inline, "n[1]"),
    "exact tuple, edges in an array": (make_tuple_array_edges, "n[1][0]"),
    "object ndarray": (make_object_array, "n[0]"),
    "int handle + arena": (make_int_handle, "a[n][1]"),
}


def nanoseconds(timers: dict[str, tuple[timeit.Timer, int]]) -> dict[str, float]:
    """ns per call of each timer: 9 rounds going round the timers in turn (a slow spell of
    the machine touches all alike), the lowest of each timer's rounds."""
    samples: dict[str, list[float]] = {name: [] for name in timers}
    for _ in range(9):
        for name, (timer, number) in timers.items():
            samples[name].append(timer.timeit(number) / number * 1e9)
    return {name: min(values) for name, values in samples.items()}


def tracked_after_collection(maker: Callable[[Any], Any]) -> tuple[bool, float]:
    """Whether the newest node of a CHAIN-node chain is tracked after gc.collect(), and the
    tracked objects the chain keeps per node."""
    gc.collect()
    before = len(gc.get_objects())
    node = None
    nodes = []  # (one tracked list: the nodes of designs that do not chain stay alive too)
    for _ in range(CHAIN):
        node = maker(node)
        nodes.append(node)
    gc.collect()
    per_node = (len(gc.get_objects()) - before) / CHAIN
    return gc.is_tracked(node), per_node


def designs_table() -> dict[str, tuple[float, float]]:
    """Print made / read / tracked for each design; return each one's (made, read) ns."""
    makers, readers = {}, {}
    for name, (maker, read) in DESIGNS.items():
        makers[name] = timeit.Timer(lambda maker=maker: maker(None)), 50_000
        node = 0 if name == "int subclass" else maker(None)
        table = [(None, None)] if name == "int subclass" else _arena
        readers[name] = timeit.Timer(read, globals={"n": node, "a": table}), 200_000
    made, read = nanoseconds(makers), nanoseconds(readers)
    print(f"{'design':32} {'made ns':>8} {'read ns':>8} {'tracked':>8} {'tracked/node':>12}")
    for name, (maker, _) in DESIGNS.items():
        tracked, per_node = tracked_after_collection(maker)
        print(f"{name:32} {made[name]:8.0f} {read[name]:8.1f} {tracked!s:>8} {per_node:12.2f}")
    return {name: (made[name], read[name]) for name in DESIGNS}


def seconds_per_call(call: Callable[[], Any], number: int) -> float:
    """Median of 7 timings of ``number`` calls (CPU time, gc off), seconds per call."""
    timer = timeit.Timer(call, timer=time.process_time)
    return statistics.median(timer.repeat(7, number)) / number


def record_add(lib: Any) -> float:
    """Seconds per recorded ``x + y`` ((8,) float32, both requiring grad)."""
    x, y = lib.ones(8, requires_grad=True), lib.ones(8, requires_grad=True)
    return seconds_per_call(lambda: x + y, 20_000)


def chain_step(lib: Any) -> float:
    """Seconds per forward+backward of 100 steps of ``y = sigmoid(y*w+b)``."""
    x = lib.ones(8)
    w, b = lib.ones(8, requires_grad=True), lib.ones(8, requires_grad=True)

    def run() -> None:
        y = x
        for _ in range(100):
            y = (y * w + b).sigmoid()
        y.sum().backward()

    return seconds_per_call(run, 20)


def estimated_ratios(costs: dict[str, tuple[float, float]]) -> None:
    """Record add's and the chain's ratio to PyTorch, now and with each untracked design."""
    import minigrad  # (imported here: the sections above need neither library)

    try:
        import torch
    except ImportError:
        print("(PyTorch is not installed: no estimate)")
        return
    torch.set_num_threads(1)
    gc.disable()
    try:
        add = {lib.__name__: record_add(lib) for lib in (minigrad, torch)}
        chain = {lib.__name__: chain_step(lib) for lib in (minigrad, torch)}
    finally:
        gc.enable()
    made_today, read_today = costs["slots node (today)"]
    print(f"record add: minigrad {add['minigrad'] * 1e6:.2f} µs, torch {add['torch'] * 1e6:.2f}"
          f" µs; chain fwd+bwd: minigrad {chain['minigrad'] * 1e3:.3f} ms, torch "
          f"{chain['torch'] * 1e3:.3f} ms (gc off, medians of 7)")
    print(f"{'design':32} {'record add':>10} {'chain fwd+bwd':>13}   (ratios to PyTorch)")
    print(f"{'slots node (today)':32} {add['minigrad'] / add['torch']:9.2f}x "
          f"{chain['minigrad'] / chain['torch']:12.2f}x")
    for name in ("exact tuple, edges in an array", "object ndarray"):
        made, read = costs[name]
        per_node = (made - made_today) * 1e-9
        per_chain_node = per_node + READS * (read - read_today) * 1e-9
        print(f"{name:32} {(add['minigrad'] + per_node) / add['torch']:9.2f}x "
              f"{(chain['minigrad'] + 300 * per_chain_node) / chain['torch']:12.2f}x")


def inline_tuples_untracking() -> None:
    """How many nodes of an inline-edge tuple chain each full collection untracks."""
    gc.collect()
    nodes = []
    node = None
    for _ in range(CHAIN):
        node = make_tuple_inline(node)
        nodes.append(node)
    counts = []
    for _ in range(4):
        gc.collect()
        counts.append(sum(not gc.is_tracked(n) for n in nodes))
    print(f"exact tuples with inline edges: untracked of {CHAIN} after 1-4 full collections: "
          + " ".join(map(str, counts)))


class PublicNode:
    """The public object of an untracked node (``grad_fn``), made on first read."""

    __slots__ = ("_node", "_hooks", "__weakref__")

    def __init__(self, node: np.ndarray) -> None:
        self._node = node
        self._hooks: list[Any] = []


_PUBLIC = 5  # the object-array node's field holding a weakref to its public object


def public(node: np.ndarray) -> PublicNode:
    """The node's public object: made once, then the same one at each read."""
    reference = node[_PUBLIC]
    if reference is not None:
        made = reference()
        if made is not None:
            return made
    made = PublicNode(node)
    node[_PUBLIC] = weakref.ref(made)
    return made


class Holder:
    """A tensor of the sketch: ``grad_fn`` is either the untracked node or its public object."""

    __slots__ = ("grad_fn", "__weakref__")


def public_object_costs() -> None:
    """ns of the first and of a later read of a node's public object."""
    node = make_object_array(None)
    keep = public(node)
    timings = nanoseconds({
        "first": (timeit.Timer(lambda: public(make_object_array(None))), 50_000),
        "node": (timeit.Timer(lambda: make_object_array(None)), 50_000),
        "later": (timeit.Timer(lambda: public(node)), 200_000),
    })
    print(f"public object of an object-ndarray node: first read "
          f"{timings['first'] - timings['node']:.0f} ns, later reads {timings['later']:.0f} ns "
          f"(a slots node's grad_fn: one slot read); identity stable: {public(node) is keep}")


def _hook_cycle(through_public: bool) -> weakref.ref[Holder]:
    """A tensor whose node's hooks hold it; a weakref to it (the cycle is its only owner)."""
    tensor = Holder()
    node = make_object_array(None)
    hooks = [lambda grad: tensor]  # the closure holds the tensor
    if through_public:
        made = public(node)
        made._hooks = hooks
        tensor.grad_fn = made  # the tensor reaches its node through the tracked object
    else:
        node[4] = hooks  # the hooks kept in the untracked node itself
        tensor.grad_fn = node
    return weakref.ref(tensor)


def hook_cycle_freed(through_public: bool) -> bool:
    """Whether a hook cycle (tensor -> node -> hooks -> closure -> tensor) is collected."""
    alive = _hook_cycle(through_public)
    gc.collect()
    freed = alive() is None
    if not freed:  # (break the leaked cycle by hand, so the script leaves nothing behind)
        grad_fn = alive().grad_fn
        if isinstance(grad_fn, np.ndarray):
            grad_fn[4] = None
    return freed


def make_nodes(design: str, count: int) -> None:
    """Make ``count`` nodes of ``design``, each dropped as made (the counted loop)."""
    maker = DESIGNS[design][0]
    maker(None)  # (warm-up)
    functools.reduce(lambda _, __: maker(None), range(count), None)


def instructions_per_node(design: str, count: int = 20_000) -> float:
    """Callgrind's instructions per node of ``design`` (``functools.reduce`` only)."""
    command = ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null",
               "--collect-atstart=no", "--toggle-collect=functools_reduce",
               sys.executable, __file__, "--child", design, str(count)]
    env = {**os.environ, "PYTHONHASHSEED": "0"}
    output = subprocess.run(command, capture_output=True, text=True, env=env, check=True).stderr
    collected = int(re.search(r"Collected : (\d+)", output).group(1))  # type: ignore[union-attr]
    return collected / count


def main() -> None:
    """Print the three sections (or, with ``--instructions``, the instruction counts)."""
    if sys.argv[1:2] == ["--child"]:
        make_nodes(sys.argv[2], int(sys.argv[3]))
        return
    if sys.argv[1:2] == ["--instructions"]:
        for design in DESIGNS:
            print(f"{design:32} {instructions_per_node(design):7,.0f} instructions per node",
                  flush=True)
        return
    print(f"CPython {sys.version.split()[0]}, numpy {np.__version__}")
    costs = designs_table()
    inline_tuples_untracking()
    public_object_costs()
    print("hook cycle through an untracked node collected:", hook_cycle_freed(False))
    print("... through the node's public object (tensor -> public -> hooks):",
          hook_cycle_freed(True))
    estimated_ratios(costs)


if __name__ == "__main__":
    main()
