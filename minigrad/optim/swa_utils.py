"""``optim.swa_utils``: stochastic weight averaging and exponential moving averages of a model.

``AveragedModel`` keeps a copy of a model whose parameters are the running average (SWA's equal
weights, or an EMA) of the model's along training; ``SWALR`` anneals each group's rate to a
constant SWA rate; ``update_bn`` recomputes BatchNorm statistics for the averaged weights.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Iterable
from copy import deepcopy
from typing import Any

from minigrad import _dtype
from minigrad.autograd.grad_mode import no_grad
from minigrad.creation import tensor
from minigrad.nn.modules.instancenorm import _InstanceNorm
from minigrad.nn.modules.module import Module
from minigrad.nn.modules.normalization import _BatchNorm
from minigrad.optim.lr_scheduler import LRScheduler, _per_group
from minigrad.optim.optimizer import Optimizer
from minigrad.tensor import Tensor

__all__ = [
    "SWALR",
    "AveragedModel",
    "get_ema_avg_fn",
    "get_ema_multi_avg_fn",
    "get_swa_avg_fn",
    "get_swa_multi_avg_fn",
    "update_bn",
]


def _check_decay(decay: float) -> None:
    if decay < 0.0 or decay > 1.0:
        raise ValueError(
            f"Invalid decay value {decay} provided. Please provide a value in [0,1] range."
        )


def get_ema_multi_avg_fn(decay: float = 0.999) -> Callable[..., None]:
    """An in-place EMA update of lists of tensors: ``ema = lerp(ema, current, 1 - decay)``.

    Example:
        >>> import minigrad
        >>> from minigrad.optim.swa_utils import get_ema_multi_avg_fn
        >>> ema = [minigrad.zeros(2)]
        >>> get_ema_multi_avg_fn(0.9)(ema, [minigrad.ones(2)], 1)
        >>> ema[0]
        tensor([0.1000, 0.1000])
    """
    _check_decay(decay)

    def ema_update(ema_params: Any, current_params: Any, _: Any) -> None:
        with no_grad():
            for p_ema, p_model in zip(ema_params, current_params, strict=True):
                if p_ema.is_floating_point():
                    p_ema.lerp_(p_model, 1 - decay)
                else:
                    p_ema.copy_(p_ema * decay + p_model * (1 - decay))

    return ema_update


def get_swa_multi_avg_fn() -> Callable[..., None]:
    """An in-place running mean of lists of tensors: ``avg += (current - avg) / (n + 1)``.

    Example:
        >>> import minigrad
        >>> from minigrad.optim.swa_utils import get_swa_multi_avg_fn
        >>> avg = [minigrad.zeros(2)]
        >>> get_swa_multi_avg_fn()(avg, [minigrad.ones(2)], 3)
        >>> avg[0]
        tensor([0.2500, 0.2500])
    """

    def swa_update(averaged_params: Any, current_params: Any, num_averaged: Any) -> None:
        with no_grad():
            for p_avg, p_model in zip(averaged_params, current_params, strict=True):
                if p_avg.is_floating_point():
                    p_avg.lerp_(p_model, float(1 / (num_averaged + 1)))
                elif isinstance(num_averaged, Tensor):
                    p_avg.addcdiv_(p_model - p_avg, num_averaged + 1)
                else:
                    p_avg.add_(p_model - p_avg, alpha=1.0 / (num_averaged + 1))

    return swa_update


def get_ema_avg_fn(decay: float = 0.999) -> Callable[..., Tensor]:
    """``decay * ema + (1 - decay) * current``: the new EMA of one tensor.

    Example:
        >>> import minigrad
        >>> from minigrad.optim.swa_utils import get_ema_avg_fn
        >>> get_ema_avg_fn(0.5)(minigrad.zeros(1), minigrad.ones(1), 1)
        tensor([0.5000])
    """
    _check_decay(decay)

    def ema_update(ema_param: Tensor, current_param: Tensor, num_averaged: Any) -> Tensor:
        with no_grad():
            return decay * ema_param + (1 - decay) * current_param

    return ema_update


def get_swa_avg_fn() -> Callable[..., Tensor]:
    """``avg + (current - avg) / (n + 1)``: the new running mean of one tensor.

    Example:
        >>> import minigrad
        >>> from minigrad.optim.swa_utils import get_swa_avg_fn
        >>> get_swa_avg_fn()(minigrad.zeros(1), minigrad.ones(1), 1)
        tensor([0.5000])
    """

    def swa_update(averaged_param: Tensor, current_param: Tensor, num_averaged: Any) -> Tensor:
        with no_grad():
            return averaged_param + (current_param - averaged_param) / (num_averaged + 1)

    return swa_update


class AveragedModel(Module):
    """A deep copy of ``model`` whose parameters are the average of the model's over time.

    ``update_parameters(model)`` folds the model's current parameters in (the first call
    copies them); ``n_averaged`` (a buffer) counts the calls. By default the average is the
    equal-weight mean (SWA); ``avg_fn`` / ``multi_avg_fn`` give another (``get_ema_...``). The
    buffers are copied from the model unless ``use_buffers=True`` averages them too.

    Example:
        >>> import minigrad
        >>> from minigrad import nn
        >>> from minigrad.optim.swa_utils import AveragedModel
        >>> model = nn.Linear(1, 1, bias=False)
        >>> swa = AveragedModel(model)
        >>> for value in (1.0, 2.0, 6.0):
        ...     with minigrad.no_grad():
        ...         _ = model.weight.fill_(value)
        ...     swa.update_parameters(model)
        >>> swa.module.weight, swa.n_averaged
        (Parameter containing:
        tensor([[3.]], requires_grad=True), tensor(3))
    """

    n_averaged: Tensor

    def __init__(
        self,
        model: Module,
        device: Any = None,
        avg_fn: Callable[[Tensor, Tensor, Any], Tensor] | None = None,
        multi_avg_fn: Callable[[Any, Any, Any], None] | None = None,
        use_buffers: bool = False,
    ) -> None:
        super().__init__()
        if avg_fn is not None and multi_avg_fn is not None:
            raise AssertionError("Only one of avg_fn and multi_avg_fn should be provided")
        self.module = deepcopy(model)
        self.register_buffer("n_averaged", tensor(0, dtype=_dtype.int64))
        self.avg_fn = avg_fn
        self.multi_avg_fn = multi_avg_fn
        self.use_buffers = use_buffers

    def forward(self, *args: Any, **kwargs: Any) -> Any:
        """Run the averaged copy."""
        return self.module(*args, **kwargs)

    def update_parameters(self, model: Module) -> None:
        """Fold ``model``'s current parameters (and buffers, if ``use_buffers``) in."""
        if self.use_buffers:
            mine = itertools.chain(self.module.parameters(), self.module.buffers())
            theirs = itertools.chain(model.parameters(), model.buffers())
        else:
            mine, theirs = self.parameters(), model.parameters()
        averaged, current = [], []
        first = bool(self.n_averaged == 0)
        for p_averaged, p_model in zip(mine, theirs):
            averaged.append(p_averaged.detach())
            current.append(p_model.detach())
            if first:
                p_averaged.detach().copy_(p_model.detach())
        if self.n_averaged > 0:
            if self.multi_avg_fn is not None:
                self.multi_avg_fn(averaged, current, self.n_averaged)
            else:
                # PyTorch's CPU path: one tensor at a time, the default being the running mean
                avg_fn = self.avg_fn or get_swa_avg_fn()
                for p_averaged, p_model in zip(averaged, current, strict=True):
                    p_averaged.copy_(avg_fn(p_averaged, p_model, self.n_averaged))
        if not self.use_buffers:
            for b_swa, b_model in zip(self.module.buffers(), model.buffers(), strict=True):
                b_swa.detach().copy_(b_model.detach())
        self.n_averaged += 1


def update_bn(loader: Iterable[Any], model: Module, device: Any = None) -> None:
    """Recompute the BatchNorm running statistics of ``model`` over one pass of ``loader``.

    The statistics are reset and averaged over all the batches (momentum ``None`` meanwhile);
    a batch that is a list or tuple contributes its first element. The model's training mode
    is restored afterwards.

    Example:
        >>> import minigrad
        >>> from minigrad import nn
        >>> from minigrad.optim.swa_utils import update_bn
        >>> model = nn.BatchNorm1d(1)
        >>> update_bn([minigrad.tensor([[1.0], [3.0]]), minigrad.tensor([[5.0], [7.0]])], model)
        >>> model.running_mean
        tensor([4.])
    """
    with no_grad():
        momenta = {}
        for module in model.modules():
            if isinstance(module, _BatchNorm) and not isinstance(module, _InstanceNorm):
                module.reset_running_stats()
                momenta[module] = module.momentum
        if not momenta:
            return
        was_training = model.training
        model.train()
        for module in momenta:
            module.momentum = None
        for batch in loader:
            if isinstance(batch, (list, tuple)):
                batch = batch[0]
            model(batch)
        for module, momentum in momenta.items():
            module.momentum = momentum
        model.train(was_training)


class SWALR(LRScheduler):
    """Anneal each group's rate to ``swa_lr`` over ``anneal_epochs`` steps, then hold it.

    ``anneal_strategy`` is ``"cos"`` (default) or ``"linear"``.

    Example:
        >>> import minigrad
        >>> from minigrad import nn, optim
        >>> opt = optim.SGD([nn.Parameter(minigrad.zeros(1))], lr=1.0)
        >>> schedule = optim.swa_utils.SWALR(opt, swa_lr=0.1, anneal_epochs=2,
        ...                                  anneal_strategy="linear")
        >>> rates = []
        >>> for _ in range(3):
        ...     opt.step()
        ...     schedule.step()
        ...     rates.append(round(schedule.get_last_lr()[0], 4))
        >>> rates
        [0.55, 0.1, 0.1]
    """

    def __init__(
        self,
        optimizer: Optimizer,
        swa_lr: float,
        anneal_epochs: int = 10,
        anneal_strategy: str = "cos",
        last_epoch: int = -1,
    ) -> None:
        for lr, group in zip(_per_group("swa_lr", optimizer, swa_lr), optimizer.param_groups):
            group["swa_lr"] = lr
        if anneal_strategy not in ("cos", "linear"):
            raise ValueError(
                f"anneal_strategy must be one of 'cos' or 'linear', instead got {anneal_strategy}"
            )
        self._set_anneal_func(anneal_strategy)
        if not isinstance(anneal_epochs, int) or anneal_epochs < 0:
            raise ValueError(f"anneal_epochs must be equal or greater than 0, got {anneal_epochs}")
        self.anneal_epochs = anneal_epochs
        super().__init__(optimizer, last_epoch)

    @staticmethod
    def _linear_anneal(t: float) -> float:
        return t

    @staticmethod
    def _cosine_anneal(t: float) -> float:
        return (1 - math.cos(math.pi * t)) / 2

    @staticmethod
    def _get_initial_lr(lr: float, swa_lr: float, alpha: float) -> float:
        """The rate the previous step started from (inverting its interpolation)."""
        if alpha == 1:
            return swa_lr
        return (lr - alpha * swa_lr) / (1 - alpha)

    def get_lr(self) -> list[Any]:
        """``swa_lr * alpha + lr * (1 - alpha)`` with ``alpha`` the annealed fraction."""
        self._warn_if_called_outside_step()
        step = self._step_count - 1
        if self.anneal_epochs == 0:
            step = max(1, step)
        prev_t = max(0, min(1, (step - 1) / max(1, self.anneal_epochs)))
        prev_alpha = self.anneal_func(prev_t)
        prev_lrs = [
            self._get_initial_lr(group["lr"], group["swa_lr"], prev_alpha)
            for group in self.optimizer.param_groups
        ]
        t = max(0, min(1, step / max(1, self.anneal_epochs)))
        alpha = self.anneal_func(t)
        return [
            group["swa_lr"] * alpha + lr * (1 - alpha)
            for group, lr in zip(self.optimizer.param_groups, prev_lrs, strict=True)
        ]

    def _set_anneal_func(self, anneal_strategy: str) -> None:
        self._anneal_strategy = anneal_strategy
        self.anneal_func = self._cosine_anneal if anneal_strategy == "cos" else self._linear_anneal

    def state_dict(self) -> dict[str, Any]:
        """Every attribute except the optimizer and the annealing function."""
        return {
            key: value
            for key, value in self.__dict__.items()
            if key not in ("optimizer", "anneal_func")
        }

    def load_state_dict(self, state_dict: dict[str, Any]) -> None:
        """Restore the attributes of ``state_dict`` (and the annealing function)."""
        self.__dict__.update(state_dict)
        self._set_anneal_func(self._anneal_strategy)
