"""``minigrad.optim``: optimizers and learning-rate schedules (PyTorch's ``torch.optim``).

Every ``step()`` updates the parameters in place under ``no_grad``, with the same in-place ops
as PyTorch's single-tensor implementations: the trajectories match PyTorch's to float32
precision, and each step bumps the parameters' versions exactly as PyTorch's does.

Example:
    >>> import minigrad
    >>> from minigrad import nn, optim
    >>> model = nn.Linear(3, 1)
    >>> opt = optim.Adam(model.parameters(), lr=0.01)
    >>> loss = model(minigrad.ones(4, 3)).pow(2).mean()
    >>> opt.zero_grad()
    >>> loss.backward()
    >>> opt.step()
    >>> model.weight._version
    2
"""

from minigrad.optim import lr_scheduler, swa_utils
from minigrad.optim.adadelta import Adadelta
from minigrad.optim.adafactor import Adafactor
from minigrad.optim.adagrad import Adagrad
from minigrad.optim.adam import Adam
from minigrad.optim.adam_variants import Adamax, NAdam, RAdam
from minigrad.optim.adamw import AdamW
from minigrad.optim.asgd import ASGD
from minigrad.optim.lbfgs import LBFGS
from minigrad.optim.muon import Muon
from minigrad.optim.optimizer import Optimizer
from minigrad.optim.rmsprop import RMSprop
from minigrad.optim.rprop import Rprop
from minigrad.optim.sgd import SGD
from minigrad.optim.sparse_adam import SparseAdam

__all__ = [
    "ASGD", "LBFGS", "SGD", "Adadelta", "Adafactor", "Adagrad", "Adam", "AdamW", "Adamax", "Muon",
    "NAdam", "Optimizer", "RAdam", "RMSprop", "Rprop", "SparseAdam", "lr_scheduler", "swa_utils",
]  # fmt: skip
