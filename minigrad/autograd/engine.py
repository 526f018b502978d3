"""The backward engine: an iterative walk of the graph, never a recursion.

1. From the roots, count how many edges point at each node (its dependencies).
2. Seed the roots' gradients; a node is ready when all its dependencies have delivered.
3. Run ready nodes, latest-made first (as PyTorch does): tensor hooks, then the node's backward,
   whose gradients are summed into the buffers of the nodes it points at.
4. Free each node's saved tensors as soon as it has run, unless ``retain_graph``.
Graphs a million nodes deep run in linear time with a flat stack.

Step 1 is put off until something could tell (``Run.count_remaining``). A node's inputs were
made before it, so each edge goes to an earlier sequence number: of the nodes reached so far
and not yet run, the latest-made is ready (any edge still to deliver to it would come from a
node reached later, through a path of later-made nodes, hence from a node made after it and
already reached). So the ops' nodes run in PyTorch's order without counts; only a leaf's
accumulator, which PyTorch runs as soon as its last edge delivered, needs them -- and when it
runs is seen only by Python code running in backward (hooks, a custom Function's backward), by
an error ending the backward, or by its own hooks. Until one of those may happen the engine
collects what the accumulators receive, and runs them at the end.

Arrays or tensors: one rule for every backward formula. Without ``create_graph`` (the fast
default) backward runs under no-grad and each node's saved values are unpacked as numpy arrays,
so its formula is plain numpy. With ``create_graph=True`` grad mode stays on and saved values
come as tensors, so every step that touches one of them is itself recorded -- by numpy's
protocol for operators and numpy functions (``minigrad/_numpy_protocol.py``), by
``ops._helpers.run`` for a step that is an op of its own, and by an explicit
``ops._helpers.is_tensor`` test where the two paths differ. The type of an operand decides,
nothing else: a gradient that is a constant (the seed of ones) may stay an array even under
``create_graph``, and steps on it alone need no node.
"""

from __future__ import annotations

import heapq
import operator
import threading
import warnings
from collections.abc import Callable, Mapping, Sequence
from sys import getrefcount
from typing import Any

import numpy as np

from minigrad import errors
from minigrad._warnings import warn_once
from minigrad.autograd import anomaly, collector, grad_mode
from minigrad.autograd.debug_switches import switches
from minigrad.autograd.grad_versions import add_into, counter_of, hand_on, written
from minigrad.autograd.graph import (
    AccumulateGrad,
    Node,
    check_hook_result,
    direct_call,
    direct_calls,
)
from minigrad.autograd.quiet import restore, silence
from minigrad.autograd.saved import Hooked
from minigrad.autograd.tensor_base import LONE_REFCOUNT, TensorBase, set_array, show_history
from minigrad.autograd.views import view_of_memory

Buffers = dict[Node, list[Any]]
ReadyQueue = list[tuple[float, int, Node]]


def backward(
    tensors: TensorBase | Sequence[TensorBase],
    grad_tensors: Any = None,
    retain_graph: bool | None = None,
    create_graph: bool = False,
    inputs: Any = None,
) -> None:
    """Accumulate into the leaves' ``.grad`` the gradients of ``tensors`` (PyTorch's API).

    Args:
        tensors: the outputs to differentiate.
        grad_tensors: the gradient of each output; may be omitted for scalar outputs.
        retain_graph: keep the saved tensors for another backward (default: ``create_graph``).
        create_graph: record the backward computation itself, for higher-order gradients.
        inputs: accumulate only into these tensors' ``.grad`` (default: every leaf); a
            non-leaf among them retains its gradient from then on (``retain_grad()``).
        With ``create_graph=True`` it warns once per process about the cycle a leaf's ``.grad``
        makes with its graph (PyTorch's warning; ``autograd.grad`` makes none).

    Example:
        >>> import minigrad
        >>> x = minigrad.tensor([1.0, 2.0], requires_grad=True)
        >>> minigrad.autograd.backward((x * x).sum())
        >>> x.grad
        tensor([2., 4.])
    """
    roots = _as_list(tensors)
    targets = None if inputs is None else _as_list(inputs)
    # PyTorch's order: the inputs' count, the given gradients (its Python _make_grads), the
    # flags, the outputs' history, the inputs, then the gradients' cast (its engine's).
    if targets is not None and not targets:
        raise RuntimeError("`inputs` argument to `backward()` cannot be empty.")
    given = _given_gradients(roots, grad_tensors)
    retain = create_graph if retain_graph is None else retain_graph
    retain, create_graph = _engine_flag(retain), _engine_flag(create_graph)
    edges = _root_edges(roots)
    if targets is not None:
        _check_targets(targets)
    grads, given = _seed_gradients(roots, given, create_graph)
    _running.seeds.append(_Seeds(grads, given))
    try:
        run_backward(edges, grads, retain, create_graph, targets, accumulate=True)
    finally:
        _running.seeds.pop()
        _forget_seeds(grads)


def grad(
    outputs: TensorBase | Sequence[TensorBase],
    inputs: TensorBase | Sequence[TensorBase] | dict[Any, TensorBase],
    grad_outputs: Any = None,
    retain_graph: bool | None = None,
    create_graph: bool = False,
    only_inputs: bool = True,
    allow_unused: bool | None = None,
    is_grads_batched: bool = False,
    materialize_grads: bool = False,
) -> Any:
    """The gradients of ``outputs`` with respect to ``inputs``, without touching any ``.grad``.

    Only the part of the graph between them runs. An input the outputs do not depend on is an
    error, unless ``allow_unused`` (its gradient is then None, or zeros with
    ``materialize_grads``, which implies ``allow_unused``). ``inputs`` may be a dict: the
    result is then a dict of the same keys. ``only_inputs`` is deprecated and ignored, as in
    PyTorch. With ``is_grads_batched`` the first dimension of each of ``grad_outputs`` is a
    batch: the result stacks one gradient per row (PyTorch vmaps one backward; minigrad has no
    vmap and runs one backward per row, so hooks run once per row).

    Example:
        >>> import minigrad
        >>> x = minigrad.tensor([1.0, 2.0], requires_grad=True)
        >>> minigrad.autograd.grad((x * x).sum(), x)
        (tensor([2., 4.]),)
    """
    if materialize_grads and allow_unused is False:
        raise ValueError(
            "Expected allow_unused to be True or not passed when materialize_grads=True, "
            "but got: allow_unused=False."
        )
    if allow_unused is None:
        allow_unused = materialize_grads
    if type(inputs) is dict:
        targets: list[Any] = list(inputs.values())
    elif isinstance(inputs, Mapping):
        raise TypeError(
            f"`inputs` argument to `grad()` must be a dict, not {type(inputs).__name__}. "
            "Other Mapping types are not supported."
        )
    else:
        targets = _as_list(inputs)
    if not targets:
        raise RuntimeError("`inputs` argument to `grad()` cannot be empty.")
    if not only_inputs:
        warnings.warn(
            "only_inputs argument is deprecated and is ignored now (defaults to True). To "
            "accumulate gradient for other parts of the graph, please use "
            "minigrad.autograd.backward.",
            FutureWarning,
            stacklevel=2,
        )
    if is_grads_batched:
        from minigrad.autograd.batched_grads import grad_rows  # (it builds on this module)

        results = grad_rows(
            _as_list(outputs), targets, grad_outputs, retain_graph, create_graph, allow_unused
        )
    else:
        results = _grad(
            _as_list(outputs), targets, grad_outputs, retain_graph, create_graph, allow_unused
        )
    if materialize_grads:
        results = tuple(
            _zeros_like(tensor, create_graph) if value is None else value
            for tensor, value in zip(targets, results)
        )
    return dict(zip(inputs, results)) if type(inputs) is dict else results


def _zeros_like(tensor: TensorBase, requires_grad: bool) -> TensorBase:
    """``materialize_grads``'s gradient of an unused input: PyTorch's ``zeros_like``."""
    zeros = _as_tensor(np.zeros_like(tensor._array))
    zeros._requires_grad = requires_grad
    return zeros


def _grad(
    roots: list[TensorBase],
    targets: list[TensorBase],
    grad_outputs: Any,
    retain_graph: bool | None,
    create_graph: bool,
    allow_unused: bool,
) -> tuple[Any, ...]:
    """``grad`` once its arguments are sorted out: one backward, None for an unused input."""
    # PyTorch's order: the given gradients, the flags, the outputs' history, the inputs, then
    # the gradients' cast.
    given = _given_gradients(roots, grad_outputs)
    retain = create_graph if retain_graph is None else retain_graph
    retain, create_graph = _engine_flag(retain), _engine_flag(create_graph)
    edges = _root_edges(roots)
    _check_targets(targets)
    for tensor in targets:
        if not tensor.requires_grad:
            raise RuntimeError("One of the differentiated Tensors does not require grad")
    grads, given = _seed_gradients(roots, given, create_graph)
    seeds = _Seeds(grads, given)  # (the hooks' tensors and the results view the same tensors)
    _running.seeds.append(seeds)
    try:
        captured = run_backward(edges, grads, retain, create_graph, targets, accumulate=False)
    finally:
        _running.seeds.pop()
        _forget_seeds(grads)
    results = []
    for index, value in enumerate(captured):
        if value is None:
            if not allow_unused:
                raise RuntimeError(
                    f"The differentiated Tensor at index {index} appears to not have been used "
                    "in the graph. Set allow_unused=True if this is the desired behavior."
                )
            results.append(None)
        else:
            results.append(_writable(value) if create_graph else seeds.result(value))
    return tuple(results)


class _Seeds:
    """The roots' gradients, to hand back a result that is a view as such a view.

    PyTorch returns its backward formulas' tensors as they are, views included, made with grad
    mode off: ``x.sum()``'s gradient is an expanded view (stride 0) of the seed, and the
    gradient of a broadcast operand is a view of the sum that undid the broadcast (sum_to:
    a sum keeping dims, then ``view``). Writing one element of the first writes all, in-place
    ops with an operand that requires grad are refused on both (a view made under no_grad),
    ``detach_()`` too. Backward formulas on arrays make the same numpy views; a result that is
    one becomes a view, under no_grad, of the seed's tensor (the ``grad_outputs`` tensor
    itself, or a fresh one) or of a fresh tensor on the array it views (one per array, so two
    results that view one array share it, as PyTorch's do). Any other result is a fresh
    dense tensor, as PyTorch's are.
    """

    def __init__(self, arrays: list[Any], given: list[TensorBase | None]) -> None:
        self.arrays = arrays
        # A given gradient (cast to the root's dtype) is the seed's tensor; None: made on use.
        self.owners = given
        self.bases: dict[int, TensorBase] = {}  # id of a viewed array -> its tensor

    def result(self, value: Any) -> TensorBase:
        """``value`` (an array the engine captured) as the tensor ``grad`` returns."""
        if isinstance(value, TensorBase):  # a tensor hook's result: PyTorch returns it as is
            return value
        view = self.view(value)
        if view is not None:
            return view
        return TensorBase.output_class._make(np.array(value), counter=counter_of(value))

    def view(self, value: np.ndarray) -> TensorBase | None:
        """``value`` as a tensor if it is a seed or a view (see the class), else None."""
        for index, seed in enumerate(self.arrays):
            # (an empty array shares no memory, so identity and numpy's base tell: an empty
            # seed, or an empty expand of it, is the seed or its view in PyTorch too)
            if type(seed) is np.ndarray and (
                value is seed
                or np.may_share_memory(value, seed)
                or getattr(value, "base", None) is seed
            ):
                owner = self.owners[index]
                if owner is None:
                    owner = self.owners[index] = _as_tensor(seed)
                if value is seed:
                    return owner
                # (a given gradient that is a view: the result views its base, as PyTorch's)
                return _no_grad_view(owner if owner._base is None else owner._base, value)
        base = getattr(value, "base", None)
        if type(base) is np.ndarray and base.base is None:
            owner = self.bases.get(id(base))
            if owner is None:
                owner = self.bases[id(base)] = _as_tensor(base)
            return _no_grad_view(owner, value)
        return None


class _Running(threading.local):
    """This thread's backward runs' seeds, innermost last (a hook may run another backward)."""

    def __init__(self) -> None:
        self.seeds: list[_Seeds] = []


_running = _Running()


def _no_grad_view(base: TensorBase, array: np.ndarray) -> TensorBase:
    """A view of ``base`` on ``array``'s elements, made under no_grad as the engine's are."""
    with grad_mode.no_grad():
        return view_of_memory(base, array)


def _engine_flag(value: Any) -> bool:
    """``retain_graph`` or ``create_graph`` as PyTorch's engine takes it: an integer 0-255.

    (Its C entry parses them with the ``b`` format: ``"s"`` is "'str' object cannot be
    interpreted as an integer", 300 an OverflowError; bools and small ints pass.)
    """
    if type(value) is bool:  # (the common case: nothing to check)
        return value
    number = operator.index(value)
    if number < 0:
        raise OverflowError("unsigned byte integer is less than minimum")
    if number > 255:
        raise OverflowError("unsigned byte integer is greater than maximum")
    return bool(number)


def _check_targets(targets: list[Any]) -> None:
    for target in targets:
        if not isinstance(target, TensorBase):
            raise RuntimeError(errors.input_not_tensor(errors.python_type_name(target)))


def _as_list(values: Any) -> list[TensorBase]:
    return [values] if isinstance(values, TensorBase) else list(values)


def _given_gradients(roots: list[TensorBase], given: Any) -> list[TensorBase | None]:
    """The gradients given for ``roots``, checked as PyTorch's ``_make_grads`` checks them.

    None stands for a gradient not given (1 for a one-element root that requires grad).
    """
    if given is None:
        given = [None] * len(roots)
    elif isinstance(given, TensorBase):
        given = [given]
    else:  # (PyTorch's tuple(): "'int' object is not iterable"; a string's characters)
        given = tuple(given)
    # PyTorch checks the pairs it can zip first, the counts after.
    for index, (root, grad) in enumerate(zip(roots, given)):
        if not isinstance(root, TensorBase):
            raise AssertionError(errors.OUTPUT_NOT_TENSOR)
        if grad is None:
            # Only an output that requires grad is checked here; one without history fails
            # later, with "element i of tensors does not require grad".
            if root._array.size != 1 and root.requires_grad:
                raise RuntimeError(errors.IMPLICIT_GRAD_NOT_SCALAR)
        elif not isinstance(grad, TensorBase):
            raise TypeError(
                "gradients can be either Tensors or None, but got "
                f"{errors.python_type_name(grad)}"
            )
        elif grad._array.shape != root._array.shape:
            raise RuntimeError(
                errors.grad_shape_mismatch(index, grad._array.shape, root._array.shape)
            )
    # (PyTorch's _make_grads zips: gradients past the last output are ignored.)
    if len(given) < len(roots):
        raise RuntimeError(f"got {len(roots)} tensors and {len(given)} gradients")
    return list(given[: len(roots)])


def _seed_gradients(
    roots: list[TensorBase], given: list[TensorBase | None], create_graph: bool
) -> tuple[list[Any], list[TensorBase | None]]:
    """The gradient each root starts with: the one given, or 1 for a one-element root.

    Also the given gradients as tensors in the roots' dtypes (None where none was given).
    """
    grads: list[Any] = []
    tensors: list[TensorBase | None] = []
    for root, grad in zip(roots, given):
        if grad is None:
            seed = np.ones_like(root._array)
            # With create_graph, backward formulas run on tensors: their views of the seed
            # are then tensors' views, as PyTorch's.
            grads.append(_as_tensor(seed) if create_graph else seed)
            tensors.append(None)
            continue
        if grad._array.dtype != root._array.dtype:
            # The engine works in the output's dtype: backward formulas and the fitting of
            # their results rely on it. PyTorch casts with ``to`` in the caller's grad mode
            # (its validate_outputs), so a seed that requires grad gets ToCopyBackward0.
            grad = grad.to(root.dtype)
        elif not create_graph:
            # The caller's own tensor: a hook gets it itself, as in PyTorch (``_as_tensor``),
            # and a leaf's accumulator copies it rather than take the caller's memory.
            _seed_tensors[id(grad._array)] = grad
        grads.append(grad if create_graph else grad._array)
        tensors.append(grad)
    return grads, tensors


# id of the array of a gradient given to backward -> that tensor, while its backward runs.
_seed_tensors: dict[int, TensorBase] = {}


def _forget_seeds(grads: list[Any]) -> None:
    for grad in grads:
        if type(grad) is np.ndarray:
            _seed_tensors.pop(id(grad), None)


class _Targets:
    """The tensors whose gradients were asked for (``grad``'s or ``backward``'s ``inputs``)."""

    def __init__(self, tensors: list[TensorBase], accumulate: bool) -> None:
        self.tensors = tensors
        self.edges = [tensor._gradient_edge() for tensor in tensors]
        self.nodes = {node for node, _ in self.edges}
        self.accumulate = accumulate  # backward(inputs=...): into .grad; grad(): returned
        self.captured: list[Any] = [None] * len(tensors)

    def capture(self, node: Node, grads: list[Any]) -> None:
        """Record the gradients arriving at ``node`` for the targets whose edge it is."""
        for index, (target_node, output_nr) in enumerate(self.edges):
            if target_node is node and grads[output_nr] is not None:
                self.captured[index] = grads[output_nr]


def run_backward(
    edges: Sequence[tuple[Node, int]],
    root_grads: Sequence[Any],
    retain_graph: bool,
    create_graph: bool,
    inputs: Sequence[TensorBase] | None = None,
    accumulate: bool = True,
) -> list[Any]:
    """Propagate ``root_grads`` along the roots' gradient ``edges`` (the engine's core).

    Without ``inputs`` every leaf reached accumulates its gradient. With ``inputs`` only the
    part of the graph that leads to them runs, and their gradients are returned (and, with
    ``accumulate``, added to their ``.grad``).
    """
    if inputs is not None and accumulate:
        # PyTorch: backward's inputs retain their gradient (for good: ``retains_grad`` stays
        # True); a leaf's retain_grad() does nothing, and one that does not require grad raises.
        for tensor in inputs:
            tensor.retain_grad()
    targets = None if inputs is None else _Targets(list(inputs), accumulate)
    roots = [node for node, _ in edges]
    # Counting put off (module docstring) on the common path: every leaf wanted, no anomaly
    # mode, and no root a leaf's accumulator (which PyTorch would run first).
    # Python code that may run inside a node's backward on this path: a tensor subclass's
    # methods (create_graph's formulas on tensors), saved-tensor unpack hooks, the guard.
    count = (targets is not None or anomaly._state.enabled or create_graph
             or Hooked.ever_made or switches.guarded
             or any(type(node) is AccumulateGrad for node in roots))
    graph = _Graph(roots, None if targets is None else targets.nodes, count)
    if create_graph and accumulate:  # (the checks above raise before it, as in PyTorch)
        warn_once(errors.BACKWARD_CREATE_GRAPH_CYCLE)  # a leaf's .grad would hold its graph
    buffers: Buffers = {}
    for (node, output_nr), grad in zip(edges, root_grads):
        buffers[node] = _add(buffers.get(node), node, output_nr, grad)
    for node, slots in buffers.items():
        if len(slots) > node._num_outputs:  # a root given twice: its sum's count to the array
            hand_on(slots, node._num_outputs)
    if create_graph:
        # The gradients will hold graphs that may lead back to their leaves through nodes
        # that saved them: the collector must see those cycles (autograd/collector.py).
        collector.pause()
        collector.show_graph(roots)
    # (``quiet_floats()``'s work written out: its generator costs more than the two calls.)
    with grad_mode.set_grad_enabled(create_graph):
        token = silence()
        try:
            if targets is not None and len(edges) == 1 and edges[0][0] not in graph.runs:
                # PyTorch's engine starts at a lone root's node (no GraphRoot before it) even
                # if no input is reached through it: the node's tensor hooks (register_hook,
                # retain_grad) run on the seed, then the node is skipped.
                node = edges[0][0]
                _apply_tensor_hooks(node, buffers[node], create_graph)
            _execute(graph, buffers, retain_graph, create_graph, targets)
        finally:
            restore(token)
            if create_graph:
                collector.resume()
            if anomaly.ever_enabled:  # (else no node has a stack)
                anomaly.release_accumulators([node for node, _ in edges])
    return [] if targets is None else targets.captured


def _root_edges(roots: Sequence[TensorBase]) -> list[tuple[Node, int]]:
    """Each output's gradient edge; an output without history is an error."""
    edges = []
    for index, root in enumerate(roots):
        node, output_nr = root._gradient_edge()
        if node is None:
            raise RuntimeError(errors.no_grad_fn(index))
        if anomaly._state.enabled:  # a leaf's own backward: PyTorch may make its accumulator
            anomaly.renew_accumulator(node)
        edges.append((node, output_nr))
    return edges


class _Graph:
    """The nodes backward will run, and how many edges into each are still to deliver."""

    def __init__(self, roots: list[Node], targets: set[Node] | None, count: bool) -> None:
        """The nodes and their counts; ``count`` False: None, counted later (``Run``)."""
        self.runs: dict[Node, int] | set[Node] | None
        self.dependencies: dict[Node, int] | None
        if targets is None:
            self.runs = self.dependencies = _count_dependencies(roots) if count else None
        else:
            # Only nodes from which a target can be reached do useful work; the others never
            # run (and so never check their saved tensors), as in PyTorch.
            self.runs = _leading_to(list(_count_dependencies(roots)), targets)
            dependencies = self.dependencies = dict.fromkeys(self.runs, 0)
            for node in self.runs:
                for next_node in node._next_nodes:
                    if next_node in dependencies:
                        dependencies[next_node] += 1
        self.roots = [node for node in dict.fromkeys(roots)
                      if self.runs is None or node in self.runs]
        self.targets = targets or set()

    def must_execute(self, node: Node, accumulate: bool) -> bool:
        """Whether ``node``'s backward must run.

        ``backward(inputs=...)`` runs every input's node, as PyTorch's engine marks it needed:
        a non-leaf's ``grad_fn`` too (its custom backward runs, its saved values are checked
        and freed, a node without a derivative raises), its gradients going on only where
        needed. For ``autograd.grad`` an input's node runs only if needed further on.
        """
        if node not in self.targets or accumulate:
            return True
        if isinstance(node, AccumulateGrad):
            return False
        return any(child in self.runs for child in node._next_nodes)


def _count_dependencies(roots: list[Node]) -> dict[Node, int]:
    """Every node reachable from ``roots``, with how many edges point at it (one DFS).

    The node found last from a node is walked next without the stack (the one it would pop
    next): a chain's walk makes no push and no pop per node.
    """
    dependencies = dict.fromkeys(roots, 0)
    stack = list(dependencies)
    pop = stack.pop
    push = stack.append
    get = dependencies.get
    while stack:
        node: Node | None = pop()
        while node is not None:
            found = None  # the last node found from ``node``: walked next
            for next_node in node._next_nodes:
                if next_node is not None:
                    count = get(next_node)
                    if count is None:  # found now: walk on from it
                        dependencies[next_node] = 1
                        if found is not None:
                            push(found)
                        found = next_node
                    else:
                        dependencies[next_node] = count + 1
            node = found
    return dependencies


def _leading_to(nodes: list[Node], targets: set[Node]) -> set[Node]:
    """The nodes among ``nodes`` from which some target is reachable (targets included)."""
    parents: dict[Node, list[Node]] = {}
    for node in nodes:
        for next_node in node._next_nodes:
            if next_node is not None:
                parents.setdefault(next_node, []).append(node)
    found = set(targets) & set(nodes)
    stack = list(found)
    while stack:
        for parent in parents.get(stack.pop(), ()):
            if parent not in found:
                found.add(parent)
                stack.append(parent)
    return found


class Run:
    """One backward's state, as a node's delivery sees it: where its gradients go.

    ``deliver`` puts a gradient on one edge; a built-in op's backward runner calls it for each
    of its edges (autograd/function.py ``backward_runner``), the engine loop for every other
    node, so the rule is written once. ``following`` is the first node made ready by the
    node now running, with its gradients in ``handed``: alone in the queue it would be the
    next out of it, so the engine runs it next without the queue (a chain's common case).
    """

    __slots__ = ("dependencies", "buffers", "ready", "arrival", "following", "handed",
                 "pending", "watched")

    def __init__(self, dependencies: dict[Node, int] | None, buffers: Buffers) -> None:
        # Edges still to deliver, per node; None: not counted yet (the module docstring).
        self.dependencies = dependencies
        self.buffers = buffers  # the gradients of the nodes waiting for more
        self.ready: ReadyQueue = []
        self.arrival = 0  # breaks ties between nodes of equal priority (leaf accumulators): FIFO
        self.following: Node | None = None
        self.handed: list[Any] | None = None
        # Uncounted: the accumulators reached so far, with their gradients, in that order; and
        # the node that reached one whose running can be seen (hooks, a leaf that changed):
        # then counted, from the next node on.
        self.pending: Buffers = {}
        self.watched: Node | None = None

    def queue(self, node: Node, slots: list[Any] | None) -> None:
        """Put the ready ``node`` (with the gradients it received) in the queue."""
        if slots is not None:
            self.buffers[node] = slots
        self.arrival += 1
        # Latest-made first: a node's consumers were all made after it, so run before it.
        heapq.heappush(self.ready, (-node._sequence_nr, self.arrival, node))

    def deliver(self, next_node: Node, grad: Any, node: Node, index: int) -> None:
        """Hand ``grad`` (None: nothing) along edge ``index`` of ``node``, to ``next_node``.

        The gradient is added to what ``next_node`` received so far, and its count of edges
        still to deliver goes down; at zero it is ready: it becomes ``following`` (a node made
        ready before it by the same node goes to the queue first, keeping their order).
        Uncounted, a node reached for the first time is handled as a ready one (the latest-made
        reached runs next), and an accumulator waits in ``pending``.
        """
        dependencies = self.dependencies
        if dependencies is None:
            if type(next_node) is AccumulateGrad:
                slots = self.pending.get(next_node)
                if slots is None:
                    if not _unseen_accumulator(next_node):
                        self.watched = node
                        if next_node._buffer_changed and grad is not None:
                            grad = next_node.fit_recorded(grad, node, index)
                    self.pending[next_node] = [grad]
                elif self.watched is not None and next_node._buffer_changed:
                    # (a second edge of the node that reached it, which watched it)
                    if grad is not None:
                        add_into(slots, 0, 1, next_node.fit_recorded(grad, node, index))
                elif grad is not None:
                    # (Uncounted, every node that ran is a built-in op's common runner: its
                    # gradients fit the leaf, unseen or reached now: ``_unseen_accumulator``.)
                    add_into(slots, 0, 1, grad, True)
                return
            slots = self.handed if next_node is self.following else self.buffers.get(next_node)
            if slots is None:  # reached now
                if self.following is not None:
                    self.queue(self.following, self.handed)
                self.following = next_node
                self.handed = ([grad] if next_node._output_meta is None
                               else _add(None, next_node, node._next_nrs[index], grad))
            elif grad is not None:
                outputs = next_node._num_outputs
                add_into(slots, 0 if outputs == 1 else node._next_nrs[index], outputs, grad)
            return
        count = dependencies.get(next_node)
        if count is None:  # a node that does not lead to a target
            return
        if type(next_node) is AccumulateGrad and next_node._buffer_changed and grad is not None:
            grad = next_node.fit_recorded(grad, node, index)  # (counted: the checked path)
        if count == 1:  # its last edge delivers now: ready, with its gradients
            slots = self.buffers.pop(next_node, None)  # what earlier edges summed, if any
            if slots is None:
                if grad is not None:
                    # (One output: a node with several has ``_output_meta``; a slot reads
                    # faster.)
                    slots = ([grad] if next_node._output_meta is None
                             else _add(None, next_node, node._next_nrs[index], grad))
            else:
                outputs = next_node._num_outputs
                if grad is not None:
                    add_into(slots, 0 if outputs == 1 else node._next_nrs[index], outputs, grad)
                if len(slots) > outputs:  # the sums' counts go to their arrays
                    hand_on(slots, outputs)
            if self.following is not None:
                self.queue(self.following, self.handed)
            self.following = next_node
            self.handed = slots
            return
        dependencies[next_node] = count - 1
        if grad is not None:
            buffers = self.buffers
            slots = buffers.get(next_node)
            if slots is None:
                buffers[next_node] = _add(None, next_node, node._next_nrs[index], grad)
            else:  # (a leaf's accumulator, once per use of the leaf)
                outputs = next_node._num_outputs
                add_into(slots, 0 if outputs == 1 else node._next_nrs[index], outputs, grad)

    def count_remaining(self, graph: _Graph, node: Node | None, grads: list[Any] | None) -> None:
        """Count the edges still to deliver (``node``'s, about to run, included).

        The counts are those PyTorch's engine has at this point, counted from the start.
        An accumulator whose edges all delivered by now would have run already: it is queued,
        to run before anything else; the others wait for their count. Nodes reached but not
        ready leave the queue until their count is complete. PyTorch ran the accumulators in
        the order they became ready; only one with hooks (``watched``, its reaching node
        having just run) can tell: the ones that node completed run in its edges' order,
        after all the others.
        """
        waiting = [entry[2] for entry in self.ready]
        if self.following is not None:
            self.queue(self.following, self.handed)
            waiting.append(self.following)
            self.following = self.handed = None
        if node is not None:
            waiting.append(node)
        dependencies = _count_dependencies(waiting)
        self.ready[:] = [entry for entry in self.ready if dependencies[entry[2]] == 0]
        heapq.heapify(self.ready)
        for entry in self.ready:  # (complete: the sums' counts go to their arrays)
            _handed_on(self.buffers.get(entry[2]), entry[2])
        self.dependencies = graph.runs = graph.dependencies = dependencies
        complete = []
        for accumulator, slots in self.pending.items():
            if dependencies.get(accumulator):
                self.buffers[accumulator] = slots
            else:
                dependencies[accumulator] = 0
                complete.append(accumulator)
        if self.watched is not None:  # (ready at the reaching node's last edge into it)
            last_edge = {edge: index for index, edge in enumerate(self.watched._next_nodes)}
            complete.sort(key=lambda accumulator: last_edge.get(accumulator, -1))
        for accumulator in complete:
            self.queue(accumulator, _handed_on(self.pending[accumulator], accumulator))
        self.pending = {}
        if node is not None:
            self.queue(node, _handed_on(grads, node))

    def deliver_all(self, node: Node, results: Sequence[Any]) -> None:
        """Hand each of ``results`` along its edge of ``node`` (``()``: nothing on any)."""
        index = 0
        for next_node in node._next_nodes:
            if next_node is not None:
                self.deliver(next_node, results[index] if results else None, node, index)
            index += 1  # noqa: SIM113  (an enumerate object costs more on one or two edges)


def _execute(
    graph: _Graph,
    buffers: Buffers,
    retain_graph: bool,
    create_graph: bool,
    targets: _Targets | None,
) -> None:
    run = Run(graph.dependencies, buffers)
    ready = run.ready
    for node in graph.roots:
        if graph.dependencies is None or graph.dependencies[node] == 0:
            run.queue(node, None)  # (its gradients are in ``buffers`` already)
    pop = heapq.heappop
    take = buffers.pop
    # Read once: flipping anomaly mode from inside a backward hook does not change this run.
    anomaly_on = anomaly._state.enabled
    lean = targets is None and not anomaly_on  # the common path may run (node permitting)
    release = not retain_graph
    # The node to run next when it is known without the queue, and the gradients it received.
    # A node in the queue has its gradients in ``buffers``; one handed over directly carries
    # them here, so a chain's gradients never go through the dict.
    node: Node | None = None
    grads: list[Any] | None = None
    uncounted = run.dependencies is None
    while True:
        if node is None:
            if not ready:
                if not run.pending:
                    break
                # Uncounted, every node ran: the accumulators' turn, in the order reached.
                if run.watched is None:  # none can be seen: no counts, no queue
                    _run_pending(run.pending, create_graph)
                    break
                run.count_remaining(graph, None, None)
                uncounted = False
            node = pop(ready)[2]
            grads = take(node, None)
        common = lean and node._lean and node._output_meta is None
        if uncounted and (run.watched or not (common and node._builtin)):
            # Python code may run next, or an accumulator with hooks was reached: from now on
            # accumulators run when PyTorch's do, counted.
            run.count_remaining(graph, node, grads)
            node = grads = None
            uncounted = False
            continue
        try:
            if common:
                # The common node: one output, no hook of any kind, no anomaly mode, every
                # leaf wanted. Without a gradient the node has nothing to compute and only
                # releases its dependants (its saved values stay, as PyTorch's do when it
                # does not run).
                if grads is None or grads[0] is None:
                    run.deliver_all(node, ())
                elif type(node) is AccumulateGrad:
                    # (Nothing else may hold the gradient from the previous steps, the results
                    # of a node the engine delivered: ``_run_accumulator`` counts references.)
                    results = None
                    _run_accumulator(node, grads, create_graph)
                else:
                    if len(grads) != 1:  # (uncounted, a sum's count waits for the node's turn)
                        hand_on(grads, 1)
                    # A built-in op's runner delivers its gradients itself and returns None;
                    # other nodes return theirs. (Without retain_graph the node frees its
                    # saved values itself once its gradients are complete: no second call.)
                    results = node._backward(grads, create_graph, release, run)
                    if results is not None:
                        run.deliver_all(node, results)
            else:
                # (No local keeps the results: an accumulator they reach counts references.)
                run.deliver_all(node, _run_general(
                    node, grads, graph, targets, retain_graph, create_graph, anomaly_on
                ))
        except BaseException:
            if uncounted:
                # PyTorch ran the accumulators whose edges had all delivered before this
                # node failed: run them, only them, before the error goes on. (Uncounted,
                # none has hooks or a changed leaf: nothing in them can fail.)
                run.count_remaining(graph, node, None)
                while ready and type(ready[0][2]) is AccumulateGrad:
                    accumulator = pop(ready)[2]
                    _run_accumulator(accumulator, take(accumulator), create_graph)
            raise
        # Alone in the queue, the one node made ready would be the next out of it: run it
        # without the queue (a chain's common case). Otherwise it queues, in its turn.
        node = run.following
        grads = run.handed
        if node is not None:
            run.following = run.handed = None  # (the count of a gradient an accumulator may steal)
            if ready:
                run.queue(node, grads)
                node = grads = None


def _run_pending(pending: Buffers, create_graph: bool) -> None:
    """Run the accumulators ``pending`` holds, in its order, at the end of an uncounted run."""
    for accumulator, slots in pending.items():
        if slots[0] is not None:
            _run_accumulator(accumulator, _handed_on(slots, accumulator), create_graph)


def _run_accumulator(node: AccumulateGrad, grads: list[Any], create_graph: bool) -> None:
    """Run a leaf's accumulator on the gradient in ``grads`` (a ready node's buffer)."""
    grad = grads[0]
    grads.clear()  # (the gradient's count is then exact: see below)
    variable = node._variable()
    hooks = None if variable is None or variable._meta is None else variable._meta.hooks
    if hooks:  # (what they return, or the same gradient if they return None)
        grad = _call_hooks(hooks, grad)
    # Held only by ``grad`` (the count of a lone local, autograd/tensor_base.py): nobody else
    # can see the array, so it may become ``.grad`` itself (PyTorch steals it too).
    owned = not create_graph and getrefcount(grad) == LONE_REFCOUNT
    if not owned and not create_graph and isinstance(grad, TensorBase):
        grad = grad._array  # a hook's tensor that someone holds: .grad copies it
    node._accumulate(grad, owned)


def _run_checked_accumulator(
    node: AccumulateGrad, grads: list[Any], create_graph: bool, kept: bool
) -> None:
    """Run a leaf's accumulator off the common path, its hooks already run on ``grads``.

    The same test as ``_run_accumulator``'s: the gradient is taken out of ``grads``, the
    only list of the engine's that holds it, so that its reference count tells whether
    anything else does (a hook that stashed it, a gradient the user gave, another node's
    buffer); ``kept``: the node's post hooks hold it too, which PyTorch allows for.
    """
    grad = grads[0]
    grads.clear()
    owned = not create_graph and getrefcount(grad) == LONE_REFCOUNT + kept
    if not owned and not create_graph and isinstance(grad, TensorBase):
        grad = grad._array  # (someone holds the hook's tensor: .grad copies it)
    node._accumulate(grad, owned)


def _add(slots: list[Any] | None, node: Node, output_nr: int, grad: Any) -> list[Any]:
    """``slots`` (the gradients ``node`` received so far, or None) with ``grad`` added."""
    if slots is None:
        if node._num_outputs == 1:
            return [grad]
        slots = [None] * node._num_outputs
        slots[output_nr] = grad
        return slots
    add_into(slots, output_nr, node._num_outputs, grad)
    return slots


def _run_general(
    node: Node,
    grads: list[Any] | None,
    graph: _Graph,
    targets: _Targets | None,
    retain_graph: bool,
    create_graph: bool,
    anomaly_on: bool,
) -> tuple[Any, ...]:
    """Run one node with whatever may surround it.

    Tensor and node hooks, retained gradients, a leaf's accumulation, several outputs,
    ``inputs=`` targets, anomaly mode: everything the engine loop's common case leaves out.
    """
    # In anomaly mode, nodes made while this one runs (create_graph) name it as their parent.
    previous = anomaly.set_evaluating(node) if anomaly_on else None
    try:
        if grads is None:
            grads = [None] * node._num_outputs
        # (The hooks' results go into ``grads`` itself, the buffer: a leaf's accumulator may
        # steal its gradient only if nothing else holds it, ``_run_checked_accumulator``.)
        try:
            if node._pre_hooks or node._retained or type(node) is AccumulateGrad:
                grads = _apply_tensor_hooks(node, grads, create_graph)
            if node._node_pre_hooks:
                grads[:] = _apply_node_hooks(node._node_pre_hooks, grads, grads, create_graph)
        except Exception:
            if anomaly_on:  # (a hook's error is its node's, as in PyTorch: _run_node's too)
                anomaly.warn_backward_error(node)
            raise
        if targets is None:
            return _run_node(node, grads, graph, retain_graph, create_graph, anomaly_on)
        if node in graph.targets and not targets.accumulate:
            # (``backward(inputs=...)`` returns nothing: its non-leaf inputs retain their
            # gradient, its leaves accumulate it, and a capture would hold it.)
            targets.capture(node, grads)
        if graph.must_execute(node, targets.accumulate):
            return _run_node(node, grads, graph, retain_graph, create_graph, anomaly_on)
        return ()
    finally:
        if anomaly_on:
            anomaly.set_evaluating(previous)


def _run_node(
    node: Node,
    grads: list[Any],
    graph: _Graph,
    retain_graph: bool,
    create_graph: bool,
    anomaly_on: bool,
) -> tuple[Any, ...]:
    """The node's backward; returns one gradient per edge (``_next_nodes`` entry)."""
    if grads[0] is None and all(grad is None for grad in grads):
        return ()
    check_nan = anomaly_on and anomaly._state.check_nan
    # PyTorch's order: backward, its post hooks, the release of the saved values, then
    # anomaly mode's nan check on what the hooks left; an error in any of them is the node's.
    try:
        if type(node) is AccumulateGrad:
            # PyTorch's engine keeps the gradients for the node's post hooks and still lets
            # the accumulator steal (it expects that one more reference).
            kept = list(grads) if node._post_hooks else None
            _run_checked_accumulator(node, grads, create_graph, kept is not None)
            results: tuple[Any, ...] = ()
            if kept is not None:
                grads = kept  # (what the post hooks see)
        else:
            results = _node_backward(node, grads, create_graph)
        if node._computes_needed_edges_only and (check_nan or node._post_hooks):
            results = _needed_edges_only(node, results, graph)
        if node._post_hooks:
            results = tuple(
                _apply_node_hooks(node._post_hooks, results, grads, create_graph, True)
            )
        if not retain_graph:
            node._release_saved()
        if check_nan:
            _check_nan(node, results)
    except Exception:
        if anomaly_on:
            anomaly.warn_backward_error(node)
        raise
    return results


def _node_backward(node: Node, grads: list[Any], create_graph: bool) -> tuple[Any, ...]:
    """The node's formula on ``grads`` (one per output, some may be None): one per edge.

    What running one node takes besides hooks and bookkeeping: the outputs that received no
    gradient get zeros, and without ``create_graph`` the formulas take arrays.
    """
    if node._output_meta is not None:  # several outputs: some may have received no gradient
        grads = _materialize(node, grads)
    if not create_graph:  # a tensor hook's result (``_call_hooks``): the formulas take arrays
        grads = [grad._array if isinstance(grad, TensorBase) else grad for grad in grads]
    return node._backward(grads, create_graph)


def call_node(node: Node, grads: tuple[Any, ...], keywords: dict[str, Any]) -> Any:
    """``node(*grads)``: the node's backward run by itself, as PyTorch's ``grad_fn(grad)``.

    One gradient per output of the node (tensors, or None). The node runs as the engine runs
    it, without its hooks or the tensors' (PyTorch calls none of them, but a leaf's
    post-accumulate hooks, part of accumulating) and without freeing its saved values; nor
    is a broadcast input's gradient summed to the input's shape, which PyTorch's engine does
    in a backward pass only (ops declare it: ``Op.unsummed_when_called``). With grad mode
    on the formula runs on tensors and is recorded (the result has history where the saved
    values or the gradients require grad), else on arrays. Returns one gradient per edge
    (``next_functions`` entry): that one alone for a node of one edge, else a tuple (an
    accumulator, which has none, returns ``()``).
    """
    if keywords:
        raise TypeError(errors.NODE_CALL_KEYWORDS)
    expected = node._num_outputs
    if len(grads) != expected:
        raise TypeError(errors.node_call_count(expected, len(grads)))
    for index, grad in enumerate(grads):
        if grad is not None and not isinstance(grad, TensorBase):
            raise TypeError(errors.node_call_not_tensor(index))
    edges = node._next_nodes
    if all(grad is None for grad in grads):  # (nothing to compute: no gradient for any edge)
        results: tuple[Any, ...] = (None,) * len(edges)
    else:
        # The formula's gradients as they are: a broadcast input's is not summed to its
        # shape, nor cast to its dtype (PyTorch fits them only in a backward pass).
        thread = threading.get_ident()
        outer = direct_call.active
        direct_call.active = direct_calls[thread] = True
        try:
            results = _node_backward(node, list(grads), grad_mode._state.enabled)
        finally:
            direct_call.active = outer
            if not outer:
                del direct_calls[thread]
        # (An edge to nowhere gets None, as PyTorch computes no gradient for it.)
        results = tuple(
            None if grad is None or edge is None else _writable(grad)
            for edge, grad in zip(edges, results)
        )
    return results[0] if len(edges) == 1 else results


def _apply_tensor_hooks(node: Node, grads: list[Any], create_graph: bool) -> list[Any]:
    if isinstance(node, AccumulateGrad):
        variable = node.variable
        meta = None if variable is None else variable._meta
        if meta is not None and meta.hooks and grads[0] is not None:
            grads[0] = _call_hooks(meta.hooks, grads[0])
        return grads
    # (Over copies: a hook may read a view's grad_fn, whose regeneration moves the view's
    # retain request to its new node.)
    if node._pre_hooks:
        for output_nr, lists in list(node._pre_hooks.items()):
            for hooks in tuple(lists):
                if grads[output_nr] is not None:
                    grads[output_nr] = _call_hooks(hooks, grads[output_nr])
    if node._retained:
        for output_nr, tensor_ref in list(node._retained.items()):
            tensor = tensor_ref()
            # (After an in-place write the tensor has a new grad_fn, which retains instead.
            # ``detach_()`` leaves the request here: PyTorch's hook stays on the old node. So
            # does a view's whose base was written since, until its grad_fn is read: the slot,
            # not ``grad_fn``, whose reading would regenerate it here.)
            if (
                tensor is not None
                and grads[output_nr] is not None
                and (tensor._grad_fn is None or tensor._grad_fn is node)
            ):
                _retain(tensor, grads[output_nr])
    return grads


def _apply_node_hooks(
    hooks: list[Callable[..., Any]],
    grads: Any,
    grad_outputs: Any,
    create_graph: bool,
    post: bool = False,
) -> list[Any]:
    """Run a node's pre-hooks or post-hooks on ``grads``.

    Pre-hooks are called as ``hook(grad_outputs)``, post-hooks as ``hook(grad_inputs,
    grad_outputs)``; a hook may return a tuple of the same length to replace ``grads``.
    """
    grads = list(grads)
    for hook in list(hooks):  # a hook may remove itself
        arguments = (_hook_view(grads), _hook_view(grad_outputs)) if post else (_hook_view(grads),)
        result = hook(*arguments)
        if result is None:
            continue
        if not isinstance(result, tuple):
            kind = errors.python_type_name(result)
            raise TypeError(f"expected tuple, but hook returned '{kind}'")
        if len(result) != len(grads):
            name = getattr(hook, "__name__", repr(hook))
            raise RuntimeError(
                f"hook '{name}' has returned an incorrect number of values (got {len(result)}, "
                f"but expected {len(grads)})"
            )
        for new, old in zip(result, grads):
            if new is not None and old is not None:
                check_hook_result(hook, new, old)  # a tensor of the same dtype and size
        grads = [g if g is None or create_graph else g._array for g in result]
        if not post:
            grad_outputs = grads
    return grads


def _call_hooks(hooks: list[Callable[[Any], Any]], grad: Any) -> Any:
    """Run a gradient's tensor hooks in order, each given what the one before returned.

    Returns a tensor: the one the hooks were given if they all returned None, as PyTorch's
    buffer holds that tensor (a hook that keeps it keeps ``autograd.grad``'s result, and a
    leaf's accumulator then copies it rather than steal it).
    The hooks registered when the gradient arrives all run, as PyTorch's: one that another
    removes meanwhile still runs, one added meanwhile waits for the next backward.
    """
    for hook in tuple(hooks):
        grad = _as_tensor(grad)
        result = hook(grad)
        if result is None:
            continue
        check_hook_result(hook, result, grad)
        # The tensor itself, as PyTorch's buffer holds it: the next hook, autograd.grad and a
        # leaf's .grad see it (its identity, its base, its counter); a node's formula gets its
        # array (``_run_node``).
        grad = result
    return grad


def _retain(tensor: TensorBase, grad: Any) -> None:
    meta = tensor._autograd_meta()
    # A row-major copy, as PyTorch's retain_grad hook clones (recorded under create_graph):
    # the gradient may be the caller's seed, which they can still write.
    if isinstance(grad, TensorBase):
        from minigrad.ops.unary import contiguous_copy  # (the ops build on this module)

        new = contiguous_copy(grad)
    else:
        new = _as_tensor(np.array(grad))
    with meta.lock:  # backward may run in several threads over a shared graph
        meta.grad = new if meta.grad is None else meta.grad + new
    if isinstance(grad, TensorBase):  # (create_graph: its graph may lead back to the tensor)
        show_history(meta.grad)


def _materialize(node: Node, grads: list[Any]) -> list[Any]:
    # Outputs that received no gradient get zeros, so every backward sees full arguments;
    # unless a custom Function asked for None (``ctx.set_materialize_grads(False)``).
    if not getattr(node, "_materialize_grads", True) or all(g is not None for g in grads):
        return grads
    meta = node._output_meta  # (None for a custom Function's output that is not a tensor)
    zeros = np.zeros if node._builtin else _written_zeros
    return [
        zeros(*meta[i]) if g is None and meta[i] is not None else g for i, g in enumerate(grads)
    ]


def _written_zeros(shape: tuple[int, ...], dtype: np.dtype) -> np.ndarray:
    """Zeros as a custom backward sees them: PyTorch's ``at::zeros`` (then ``zero_()``): v1."""
    return written(np.zeros(shape, dtype), 1)


def _needed_edges_only(node: Node, results: Sequence[Any], graph: _Graph) -> tuple[Any, ...]:
    """``results`` as PyTorch's node of a built-in op computes them, for hooks and anomaly mode.

    One gradient per edge (a formula also returns one per option, which has no edge), None on
    an edge that is not valid (an input without a gradient edge: a constant, a view made under
    no_grad) or whose node this backward does not run (``autograd.grad``'s other inputs): such
    an output is never computed there, so a post hook gets None and a nan in it is no anomaly.
    The engine delivers the same gradients either way: only along edges to running nodes.
    """
    runs = graph.runs
    return tuple(
        result if next_node is not None and next_node in runs else None
        for next_node, result in zip(node._next_nodes, results)
    )


def _check_nan(node: Node, results: tuple[Any, ...]) -> None:
    for index, grad in enumerate(results):
        array = grad._array if isinstance(grad, TensorBase) else grad
        if array is not None and np.isnan(array).any():
            raise RuntimeError(errors.nan_in_backward(node.name(), index))


def _writable(grad: Any) -> TensorBase:
    """A recorded gradient handed to the user, on a buffer they can write to.

    A backward formula may return numpy's read-only broadcast of a smaller gradient (sum's);
    PyTorch's gradient here is an ordinary tensor. The tensor is fresh, so copying is safe.
    """
    tensor = _as_tensor(grad)
    if not tensor._array.flags.writeable and tensor._base is None:
        set_array(tensor, np.array(tensor._array))
    return tensor


def _as_tensor(grad: Any) -> TensorBase:
    """A gradient as the tensor a hook sees: its version counts PyTorch's in-place sums.

    The gradient given to backward is the caller's tensor itself, as in PyTorch.
    """
    if isinstance(grad, TensorBase):
        return grad
    seed = _seed_tensors.get(id(grad))
    if seed is not None and seed._array is grad:
        return seed
    # A view (sum's expanded gradient) is the view PyTorch's formula made, for the hook as for
    # the caller of ``grad``, which gets the tensor the hooks passed on (``_Seeds``).
    seeds = _running.seeds
    if seeds and type(grad) is np.ndarray and grad.base is not None:
        view = seeds[-1].view(grad)
        if view is not None:
            return view
    return TensorBase.output_class._make(grad, counter=counter_of(grad))


def _hook_view(grads: Any) -> tuple[Any, ...]:
    return tuple(None if g is None else _as_tensor(g) for g in grads)


def register_retain(tensor: TensorBase) -> None:
    """Make backward store this non-leaf's gradient in its ``.grad`` (``retain_grad``)."""
    tensor._retain_on_grad_fn()


def _unseen_accumulator(node: AccumulateGrad) -> bool:
    """Whether nothing can tell when ``node`` runs.

    No hook on its leaf, and a leaf still as recorded (``_accumulate`` raises for a leaf moved
    into the graph's interior; a view leaf first catches up with its base). The gradients such
    an accumulator receives all come from built-in ops' runners, fitted to the leaf's shape
    and dtype, which have not changed since it was made (``_buffer_changed``): ``deliver``
    sums them without comparing shapes and dtypes (``grad_versions.add_into``'s ``fitted``).
    """
    variable = node._variable()
    if variable is None:
        return True
    meta = variable._meta
    return (
        node._lean
        and not node._buffer_changed
        and variable._base is None
        and variable._grad_fn is None
        and (meta is None or not (meta.hooks or meta.post_accumulate_hooks))
    )


def _handed_on(slots: list[Any] | None, node: Node) -> list[Any] | None:
    """``node``'s gradients ``slots`` once complete: the sums' counts go to their arrays."""
    if slots is not None and len(slots) > node._num_outputs:
        hand_on(slots, node._num_outputs)
    return slots
