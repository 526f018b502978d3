"""``minigrad.nn``: neural-network building blocks (PyTorch's ``torch.nn``).

- ``nn.Module`` and ``nn.Parameter``: models as trees of modules that own parameters;
- the layers (``Linear``, ``Conv2d``, ``BatchNorm1d``, ``LSTMCell``, ...), activations and
  losses as modules (``minigrad/nn/modules/``);
- ``nn.init``: PyTorch's initialisers; ``nn.utils``: gradient clipping and friends;
- ``nn.functional`` (import it as ``F``): the stateless functions the modules call.

Example:
    >>> import minigrad
    >>> from minigrad import nn
    >>> model = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 2))
    >>> model(minigrad.zeros(3, 4)).shape
    minigrad.Size([3, 2])
"""

from minigrad.nn import functional, init, utils
from minigrad.nn.modules import *  # noqa: F403 - the layer classes, listed in modules.__all__
from minigrad.nn.modules import __all__ as _module_names
from minigrad.nn.parameter import Buffer, Parameter, UninitializedBuffer, UninitializedParameter

__all__ = [
    "Buffer",
    "Parameter",
    "UninitializedBuffer",
    "UninitializedParameter",
    "functional",
    "init",
    "utils",
    *_module_names,
]
