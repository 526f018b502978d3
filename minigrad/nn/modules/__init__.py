"""The layer classes of ``minigrad.nn`` (PyTorch's ``torch.nn.modules``), one file per family."""

from minigrad.nn.modules.activation import (
    ELU,
    GELU,
    SELU,
    Hardsigmoid,
    Hardswish,
    Hardtanh,
    LeakyReLU,
    LogSigmoid,
    LogSoftmax,
    Mish,
    ReLU,
    ReLU6,
    Sigmoid,
    SiLU,
    Softmax,
    Softplus,
    Tanh,
)
from minigrad.nn.modules.container import ModuleDict, ModuleList, Sequential
from minigrad.nn.modules.conv import Conv1d, Conv2d
from minigrad.nn.modules.dropout import Dropout
from minigrad.nn.modules.flatten import Flatten, Unflatten
from minigrad.nn.modules.linear import Bilinear, Identity, Linear
from minigrad.nn.modules.loss import (
    BCELoss,
    BCEWithLogitsLoss,
    CrossEntropyLoss,
    HuberLoss,
    KLDivLoss,
    L1Loss,
    MSELoss,
    NLLLoss,
    SmoothL1Loss,
)
from minigrad.nn.modules.module import Module
from minigrad.nn.modules.normalization import BatchNorm1d, BatchNorm2d, LayerNorm
from minigrad.nn.modules.pooling import AvgPool2d, MaxPool2d
from minigrad.nn.modules.rnn import GRUCell, LSTMCell, RNNCell, RNNCellBase
from minigrad.nn.modules.sparse import Embedding

__all__ = [
    "ELU", "GELU", "SELU", "AvgPool2d", "BCELoss", "BCEWithLogitsLoss", "BatchNorm1d",
    "BatchNorm2d", "Bilinear", "Conv1d", "Conv2d", "CrossEntropyLoss", "Dropout", "Embedding",
    "Flatten", "GRUCell", "Hardsigmoid", "Hardswish", "Hardtanh", "HuberLoss", "Identity",
    "KLDivLoss", "L1Loss", "LSTMCell", "LayerNorm", "LeakyReLU", "Linear", "LogSigmoid",
    "LogSoftmax", "MSELoss", "MaxPool2d", "Mish", "Module", "ModuleDict", "ModuleList",
    "NLLLoss", "RNNCell", "RNNCellBase", "ReLU", "ReLU6", "SiLU", "Sequential", "Sigmoid",
    "SmoothL1Loss", "Softmax", "Softplus", "Tanh", "Unflatten",
]
