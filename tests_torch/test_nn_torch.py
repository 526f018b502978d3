"""Every layer side by side with PyTorch: same weights in, same outputs and gradients out.

Each case builds the module in both libraries, copies PyTorch's (randomly initialised) state
into minigrad's through ``load_state_dict``, feeds both the same random input and compares the
output, the input's gradient, every parameter's gradient and the buffers afterwards. Then whole
models are trained side by side, and the default initialisations are compared statistically.
"""

import numpy as np
import pytest
from _cases import parametrize_in_one

import minigrad

torch = pytest.importorskip("torch")
torch.set_num_threads(1)  # tiny tensors; and the test workers already use every core

RTOL, ATOL = 1e-4, 1e-5


def to_numpy(value):
    return value.detach().numpy() if hasattr(value, "detach") else np.asarray(value)


def copy_state(theirs, mine):
    """Load the torch module's state into the minigrad module (strict: same keys)."""
    state = {key: minigrad.tensor(to_numpy(value)) for key, value in theirs.state_dict().items()}
    assert repr(mine.load_state_dict(state)) == "<All keys matched successfully>"


def assert_close(mine, theirs, what=""):
    np.testing.assert_allclose(to_numpy(mine), to_numpy(theirs), rtol=RTOL, atol=ATOL,
                               err_msg=what)


def build(make):
    """The same module in both libraries, with PyTorch's initial state in both."""
    torch.manual_seed(0)
    theirs = make(torch)
    mine = make(minigrad)
    copy_state(theirs, mine)
    return mine, theirs


def run_both(make, inputs, train=True, output_index=None):
    """Forward (and backward through a random projection) in both; compare everything."""
    mine, theirs = build(make)
    mine.train(train)
    theirs.train(train)
    mine_inputs = [minigrad.tensor(x, requires_grad=x.dtype.kind == "f") for x in inputs]
    their_inputs = [torch.tensor(x, requires_grad=x.dtype.kind == "f") for x in inputs]
    outputs = [mine(*mine_inputs), theirs(*their_inputs)]
    if output_index is not None:
        outputs = [out[output_index] for out in outputs]
    assert_close(outputs[0], outputs[1], "output")
    if outputs[1].requires_grad:
        weights = np.random.default_rng(1).standard_normal(tuple(outputs[1].shape))
        (outputs[0] * minigrad.tensor(weights.astype(np.float32))).sum().backward()
        (outputs[1] * torch.tensor(weights.astype(np.float32))).sum().backward()
        for a, b in zip(mine_inputs, their_inputs):
            if b.grad is not None:
                assert_close(a.grad, b.grad, "input grad")
        for (name, a), (_, b) in zip(mine.named_parameters(), theirs.named_parameters()):
            assert (a.grad is None) == (b.grad is None), name
            if b.grad is not None:
                assert_close(a.grad, b.grad, f"grad of {name}")
    for (name, a), (_, b) in zip(mine.state_dict().items(), theirs.state_dict().items()):
        assert_close(a, b, f"state {name}")


def rand(*shape, seed=0):
    return np.random.default_rng(seed).standard_normal(shape).astype(np.float32)


LAYER_CASES = {
    "linear": (lambda t: t.nn.Linear(5, 3), [rand(4, 5)]),
    "linear-3d-no-bias": (lambda t: t.nn.Linear(5, 3, bias=False), [rand(2, 4, 5)]),
    "bilinear": (lambda t: t.nn.Bilinear(3, 4, 2), [rand(5, 3), rand(5, 4, seed=1)]),
    "conv1d": (lambda t: t.nn.Conv1d(4, 6, 3, stride=2, padding=1, groups=2), [rand(2, 4, 9)]),
    "conv1d-same-circular": (lambda t: t.nn.Conv1d(2, 3, 4, padding="same", dilation=2,
                                                    padding_mode="circular"), [rand(2, 2, 9)]),
    "conv2d": (lambda t: t.nn.Conv2d(3, 4, (3, 2), stride=(1, 2), padding=(1, 0)),
               [rand(2, 3, 6, 7)]),
    "conv2d-reflect": (lambda t: t.nn.Conv2d(2, 2, 3, padding=2, padding_mode="reflect"),
                       [rand(1, 2, 5, 5)]),
    "conv2d-replicate-unbatched": (lambda t: t.nn.Conv2d(2, 3, 3, padding=1,
                                                          padding_mode="replicate"),
                                   [rand(2, 5, 4)]),
    "convtranspose1d": (lambda t: t.nn.ConvTranspose1d(4, 6, 3, stride=2, padding=1,
                                                      output_padding=1, groups=2),
                        [rand(2, 4, 5)]),
    "convtranspose2d-unbatched": (lambda t: t.nn.ConvTranspose2d(3, 2, (3, 2), dilation=2,
                                                                  bias=False), [rand(3, 4, 5)]),
    "maxpool2d": (lambda t: t.nn.MaxPool2d(3, stride=2, padding=1, ceil_mode=True),
                  [rand(2, 3, 7, 7)]),
    "avgpool2d": (lambda t: t.nn.AvgPool2d(2, stride=1, padding=1, count_include_pad=False),
                  [rand(2, 3, 5, 5)]),
    "adaptiveavgpool2d": (lambda t: t.nn.AdaptiveAvgPool2d((3, None)), [rand(2, 3, 5, 4)]),
    "adaptivemaxpool1d": (lambda t: t.nn.AdaptiveMaxPool1d(3), [rand(2, 3, 7)]),
    "avgpool1d": (lambda t: t.nn.AvgPool1d(3, 2, padding=1), [rand(2, 3, 8)]),
    "maxpool1d": (lambda t: t.nn.MaxPool1d(2, dilation=2), [rand(3, 7)]),
    "batchnorm1d-train": (lambda t: t.nn.BatchNorm1d(4), [rand(8, 4)]),
    "batchnorm1d-3d": (lambda t: t.nn.BatchNorm1d(3, momentum=0.3), [rand(4, 3, 5)]),
    "batchnorm2d-train": (lambda t: t.nn.BatchNorm2d(3), [rand(4, 3, 2, 2)]),
    "layernorm": (lambda t: t.nn.LayerNorm((3, 4)), [rand(2, 3, 4)]),
    "flatten": (lambda t: t.nn.Flatten(), [rand(2, 3, 4)]),
    "unflatten": (lambda t: t.nn.Unflatten(1, (2, 3)), [rand(4, 6)]),
    "dropout-p0": (lambda t: t.nn.Dropout(0.0), [rand(3, 4)]),
    "rnncell": (lambda t: t.nn.RNNCell(4, 3), [rand(5, 4), rand(5, 3, seed=1)]),
    "rnncell-relu-unbatched": (lambda t: t.nn.RNNCell(4, 3, nonlinearity="relu"), [rand(4)]),
    "grucell": (lambda t: t.nn.GRUCell(4, 3), [rand(5, 4), rand(5, 3, seed=1)]),
    "grucell-no-bias": (lambda t: t.nn.GRUCell(4, 3, bias=False), [rand(5, 4)]),
    "sequential": (lambda t: t.nn.Sequential(t.nn.Linear(4, 8), t.nn.GELU(), t.nn.LayerNorm(8),
                                             t.nn.Linear(8, 2)), [rand(3, 4)]),
}


@parametrize_in_one("case", sorted(LAYER_CASES))
def test_layer_matches_pytorch(case):
    make, inputs = LAYER_CASES[case]
    run_both(make, inputs)


def test_batchnorm_eval_uses_the_running_statistics():
    mine, theirs = build(lambda t: t.nn.BatchNorm2d(3))
    for step in range(3):
        x = rand(4, 3, 2, 2, seed=step)
        mine(minigrad.tensor(x))
        theirs(torch.tensor(x))
    mine.eval()
    theirs.eval()
    x = rand(2, 3, 2, 2, seed=9)
    assert_close(mine(minigrad.tensor(x)), theirs(torch.tensor(x)))
    for name in ("running_mean", "running_var", "num_batches_tracked"):
        assert_close(getattr(mine, name), getattr(theirs, name), name)


def test_lstm_cell_matches_pytorch():
    hidden = (rand(5, 3, seed=1), rand(5, 3, seed=2))
    for output_index in (0, 1):
        mine, theirs = build(lambda t: t.nn.LSTMCell(4, 3))
        x = rand(5, 4)
        mine_out = mine(minigrad.tensor(x), tuple(minigrad.tensor(h) for h in hidden))
        their_out = theirs(torch.tensor(x), tuple(torch.tensor(h) for h in hidden))
        assert_close(mine_out[output_index], their_out[output_index])
        mine_out[output_index].sum().backward()
        their_out[output_index].sum().backward()
        for (name, a), (_, b) in zip(mine.named_parameters(), theirs.named_parameters()):
            assert_close(a.grad, b.grad, name)


def test_embedding_matches_pytorch():
    indices = np.array([[0, 2, 2], [4, 1, 0]])
    for options in ({}, {"padding_idx": 2}, {"max_norm": 1.0}, {"scale_grad_by_freq": True}):
        mine, theirs = build(lambda t, options=options: t.nn.Embedding(5, 3, **options))
        mine_out = mine(minigrad.tensor(indices))
        their_out = theirs(torch.tensor(indices))
        assert_close(mine_out, their_out)
        (mine_out * 2).sum().backward()
        (their_out * 2).sum().backward()
        assert_close(mine.weight.grad, theirs.weight.grad)
        # max_norm renormalises the used rows in place: one version bump in both (minigrad's
        # count is one higher from copy_state's load_state_dict).
        assert mine.weight._version - 1 == theirs.weight._version


ACTIVATIONS = ["ReLU", "ReLU6", "LeakyReLU", "ELU", "SELU", "GELU", "SiLU", "Mish", "Softplus",
               "Tanh", "Sigmoid", "Hardtanh", "Hardsigmoid", "Hardswish", "LogSigmoid"]


@parametrize_in_one("name", ACTIVATIONS)
def test_activation_matches_pytorch(name):
    run_both(lambda t: getattr(t.nn, name)(), [rand(3, 5) * 3])


@pytest.mark.parametrize("name", ["Softmax", "LogSoftmax"])
def test_softmax_modules_match_pytorch(name):
    run_both(lambda t: getattr(t.nn, name)(dim=1), [rand(3, 5)])


# (constructor, whether to run in training mode): RReLU is compared in eval mode, where its slope
# is fixed (in training each library draws from its own generator).
MORE_MODULES = {
    "CELU": (lambda t: t.nn.CELU(0.5), True),
    "CELU-inplace": (lambda t: t.nn.Sequential(t.nn.Linear(5, 4), t.nn.CELU(inplace=True)), True),
    "Threshold": (lambda t: t.nn.Threshold(0.1, 20.0), True),
    "Threshold-inplace": (lambda t: t.nn.Sequential(t.nn.Linear(5, 4),
                                                    t.nn.Threshold(0.1, -1, inplace=True)), True),
    "Softsign": (lambda t: t.nn.Softsign(), True),
    "Tanhshrink": (lambda t: t.nn.Tanhshrink(), True),
    "Hardshrink": (lambda t: t.nn.Hardshrink(0.3), True),
    "Softshrink": (lambda t: t.nn.Softshrink(), True),
    "GLU": (lambda t: t.nn.GLU(0), True),
    "PReLU": (lambda t: t.nn.PReLU(), True),
    "PReLU-channels": (lambda t: t.nn.PReLU(5, init=0.1), True),
    "RReLU-eval": (lambda t: t.nn.RReLU(0.1, 0.3), False),
    "RReLU-inplace-eval": (lambda t: t.nn.Sequential(t.nn.Linear(5, 4),
                                                     t.nn.RReLU(inplace=True)), False),
    "Softmin": (lambda t: t.nn.Softmin(dim=1), True),
    "RMSNorm": (lambda t: t.nn.RMSNorm(5), True),
    "RMSNorm-eps-no-affine": (lambda t: t.nn.RMSNorm([4, 5], 1e-3, elementwise_affine=False),
                              True),
    "GroupNorm": (lambda t: t.nn.Sequential(t.nn.Unflatten(0, (2, 2)), t.nn.GroupNorm(2, 2)),
                  True),
    "GroupNorm-no-bias": (lambda t: t.nn.GroupNorm(1, 5, 1e-3, bias=False), True),
    "GroupNorm-no-affine": (lambda t: t.nn.GroupNorm(1, 5, affine=False), True),
    "ConstantPad1d": (lambda t: t.nn.ConstantPad1d((1, 2), 3.5), True),
    "ConstantPad1d-int": (lambda t: t.nn.ConstantPad1d(2, -1), True),
    "ConstantPad2d": (lambda t: t.nn.ConstantPad2d([1, 0, 2, 1], 0.5), True),
    "ZeroPad1d": (lambda t: t.nn.ZeroPad1d((0, 3)), True),
    "ZeroPad2d": (lambda t: t.nn.ZeroPad2d(1), True),
    "ZeroPad2d-tuple": (lambda t: t.nn.ZeroPad2d((1, 2, 0, 1)), True),
}


@pytest.mark.parametrize("keepdim", [False, True])
@pytest.mark.parametrize("p", [2.0, 1.0, 3.0])
def test_pairwise_distance_module_matches_pytorch(p, keepdim):
    run_both(lambda t: t.nn.PairwiseDistance(p, keepdim=keepdim), [rand(4, 5), rand(4, 5, seed=1)])
    mine, theirs = build(lambda t: t.nn.PairwiseDistance(p, 1e-3, keepdim))
    assert repr(mine) == repr(theirs) and mine.__constants__ == theirs.__constants__
    assert (mine.norm, mine.eps, mine.keepdim) == (theirs.norm, theirs.eps, theirs.keepdim)


@pytest.mark.parametrize("dim", [1, 0, -1])
def test_cosine_similarity_module_matches_pytorch(dim):
    run_both(lambda t: t.nn.CosineSimilarity(dim, eps=1e-6), [rand(4, 4), rand(4, 4, seed=1)])
    mine, theirs = build(lambda t: t.nn.CosineSimilarity(dim))
    assert repr(mine) == repr(theirs) and mine.__constants__ == theirs.__constants__
    assert (mine.dim, mine.eps) == (theirs.dim, theirs.eps)


@parametrize_in_one("case", sorted(MORE_MODULES))
def test_more_modules_match_pytorch(case):
    make, train = MORE_MODULES[case]
    run_both(make, [rand(4, 5) * 2], train=train)
    mine, theirs = build(make)
    assert repr(mine) == repr(theirs)
    module = mine[-1] if isinstance(mine, minigrad.nn.Sequential) else mine
    their_module = theirs[-1] if isinstance(theirs, torch.nn.Sequential) else theirs
    assert getattr(module, "__constants__", None) == getattr(their_module, "__constants__", None)
    assert {k: v for k, v in vars(module).items() if not k.startswith("_")} == {
        k: v for k, v in vars(their_module).items() if not k.startswith("_")}


def test_rrelu_module_draws_slopes_in_training_only():
    layer = minigrad.nn.RReLU(0.1, 0.3)
    x = -minigrad.ones(1000)
    slopes = -layer(x)
    assert slopes.min().item() >= 0.1 and slopes.max().item() <= 0.3 and slopes.std() > 0.05
    assert layer.eval()(x).tolist() == pytest.approx([-0.2] * 1000)


def probabilities(*shape):
    return 1 / (1 + np.exp(-rand(*shape, seed=3)))


LOSS_CASES = {
    "mse": (lambda t: t.nn.MSELoss(), [rand(4, 3), rand(4, 3, seed=1)]),
    "l1-sum": (lambda t: t.nn.L1Loss(reduction="sum"), [rand(4, 3), rand(4, 3, seed=1)]),
    "smooth-l1": (lambda t: t.nn.SmoothL1Loss(beta=0.5), [rand(4, 3), rand(4, 3, seed=1)]),
    "huber-none": (lambda t: t.nn.HuberLoss(reduction="none", delta=0.3),
                   [rand(4, 3), rand(4, 3, seed=1)]),
    "cross-entropy": (lambda t: t.nn.CrossEntropyLoss(label_smoothing=0.2),
                      [rand(6, 4), np.array([0, 3, 1, 1, 2, 0])]),
    "cross-entropy-weighted": (
        lambda t: t.nn.CrossEntropyLoss(weight=t.tensor([1.0, 0.5, 2.0, 1.0]), ignore_index=1),
        [rand(6, 4), np.array([0, 3, 1, 1, 2, 0])]),
    "nll": (lambda t: t.nn.NLLLoss(reduction="sum"), [rand(6, 4), np.array([0, 3, 1, 1, 2, 0])]),
    "bce": (lambda t: t.nn.BCELoss(), [probabilities(4, 3), (rand(4, 3, seed=1) > 0)
                                       .astype(np.float32)]),
    "bce-logits": (lambda t: t.nn.BCEWithLogitsLoss(pos_weight=t.tensor([1.0, 2.0, 0.5])),
                   [rand(4, 3), (rand(4, 3, seed=1) > 0).astype(np.float32)]),
    "kl-div": (lambda t: t.nn.KLDivLoss(reduction="batchmean", log_target=True),
               [rand(4, 3), rand(4, 3, seed=1)]),
}


@parametrize_in_one("case", sorted(LOSS_CASES))
def test_loss_module_matches_pytorch(case):
    make, inputs = LOSS_CASES[case]
    run_both(make, inputs)


# --- whole models trained side by side ----------------------------------------------------------


class SequenceModel:
    """An embedding, an LSTM cell unrolled over time and a linear head, for both libraries."""

    @staticmethod
    def make(t):
        nn = t.nn

        class Model(nn.Module):
            def __init__(self):
                super().__init__()
                self.embed = nn.Embedding(6, 4)
                self.cell = nn.LSTMCell(4, 8)
                self.head = nn.Linear(8, 6)

            def forward(self, tokens):
                state = None
                for step in range(tokens.shape[1]):
                    state = self.cell(self.embed(tokens[:, step]), state)
                return self.head(state[0])

        return Model()


MODELS = {
    "mlp": (lambda t: t.nn.Sequential(t.nn.Linear(6, 16), t.nn.ReLU(), t.nn.Dropout(0.0),
                                      t.nn.Linear(16, 3)),
            lambda rng: rng.standard_normal((16, 6)).astype(np.float32), 3),
    # (No conv bias before BatchNorm: its gradient is zero up to rounding noise, which Adam
    # would amplify into steps of size lr in either library.)
    "cnn": (lambda t: t.nn.Sequential(t.nn.Conv2d(1, 4, 3, padding=1, bias=False),
                                      t.nn.BatchNorm2d(4),
                                      t.nn.ReLU(), t.nn.MaxPool2d(2), t.nn.Flatten(),
                                      t.nn.Linear(16, 3)),
            lambda rng: rng.standard_normal((8, 1, 4, 4)).astype(np.float32), 3),
    "lstm": (SequenceModel.make, lambda rng: rng.integers(0, 6, (8, 5)), 6),
}


@pytest.mark.parametrize("model_name", sorted(MODELS))
@pytest.mark.parametrize("optimizer", ["SGD", "Adam"])
def test_training_matches_pytorch(model_name, optimizer):
    make, make_inputs, classes = MODELS[model_name]
    mine, theirs = build(make)
    options = {"SGD": {"lr": 0.1, "momentum": 0.9}, "Adam": {"lr": 0.01}}[optimizer]
    mine_opt = getattr(minigrad.optim, optimizer)(mine.parameters(), **options)
    their_opt = getattr(torch.optim, optimizer)(theirs.parameters(), **options)
    rng = np.random.default_rng(0)
    inputs, targets = make_inputs(rng), rng.integers(0, classes, len(make_inputs(rng)))
    losses, version_steps = [], []
    for lib, model, opt in ((minigrad, mine, mine_opt), (torch, theirs, their_opt)):
        start = [p._version for p in model.parameters()]
        x, y = lib.tensor(inputs), lib.tensor(targets)
        trajectory = []
        for _ in range(20):
            opt.zero_grad()
            loss = lib.nn.functional.cross_entropy(model(x), y)
            loss.backward()
            opt.step()
            trajectory.append(loss.item())
        losses.append(trajectory)
        version_steps.append([p._version - v for p, v in zip(model.parameters(), start)])
    np.testing.assert_allclose(losses[0], losses[1], rtol=1e-4, atol=1e-5)
    for (name, a), (_, b) in zip(mine.state_dict().items(), theirs.state_dict().items()):
        np.testing.assert_allclose(to_numpy(a), to_numpy(b), rtol=1e-3, atol=1e-4, err_msg=name)
    assert version_steps[0] == version_steps[1]


# --- default initialisation, versions and state-dict layout -------------------------------------

INIT_CASES = {
    "linear": lambda t: t.nn.Linear(300, 200),
    "conv1d": lambda t: t.nn.Conv1d(8, 64, 5),
    "conv2d-groups": lambda t: t.nn.Conv2d(8, 64, 3, groups=2),
    "bilinear": lambda t: t.nn.Bilinear(20, 30, 50),
    "embedding": lambda t: t.nn.Embedding(500, 40, padding_idx=3),
    "rnncell": lambda t: t.nn.RNNCell(30, 100),
    "lstmcell": lambda t: t.nn.LSTMCell(30, 50),
    "grucell": lambda t: t.nn.GRUCell(30, 60),
    "multiheadattention-kdim-vdim": lambda t: t.nn.MultiheadAttention(64, 4, kdim=32, vdim=16),
    "lstm-2-layers-bidirectional-proj": lambda t: t.nn.LSTM(30, 50, 2, bidirectional=True,
                                                             proj_size=20),
    "batchnorm": lambda t: t.nn.BatchNorm1d(10),
    "layernorm": lambda t: t.nn.LayerNorm(10),
}


@parametrize_in_one("case", sorted(INIT_CASES))
def test_default_initialisation_matches_pytorch_statistically(case):
    torch.manual_seed(0)
    minigrad.manual_seed(0)
    theirs, mine = INIT_CASES[case](torch), INIT_CASES[case](minigrad)
    assert list(mine.state_dict()) == list(theirs.state_dict())
    for (name, a), (_, b) in zip(mine.named_parameters(), theirs.named_parameters()):
        a, b = to_numpy(a).astype(np.float64), to_numpy(b).astype(np.float64)
        assert a.shape == b.shape, name
        # Same distribution: the same spread and centre within ~5 standard errors of the
        # estimates (the samples differ: the generators do) and, for the uniform ones, the same
        # range (the largest of n samples falls short of the bound by ~bound / n).
        noise = 1 / np.sqrt(a.size)
        assert abs(a.std() - b.std()) <= 3.5 * noise * b.std() + 1e-12, name
        assert abs(a.mean() - b.mean()) <= 7 * noise * b.std() + 1e-12, name
        if case != "embedding":  # N(0, 1): no bound
            gap = max(0.02, 10 / a.size) * np.abs(b).max()
            assert abs(np.abs(a).max() - np.abs(b).max()) <= gap + 1e-12, name
        assert np.array_equal(a == 0, b == 0) or case == "embedding", name
    for (name, a), (_, b) in zip(mine.state_dict(keep_vars=True).items(),
                                 theirs.state_dict(keep_vars=True).items()):
        assert a._version == b._version, name
    assert repr(mine) == repr(theirs)


def test_a_pytorch_state_dict_loads_into_the_same_minigrad_model():
    make = MODELS["cnn"][0]
    theirs = make(torch)
    mine = make(minigrad)
    assert list(mine.state_dict()) == list(theirs.state_dict())
    copy_state(theirs, mine)
    x = np.random.default_rng(0).standard_normal((2, 1, 4, 4)).astype(np.float32)
    mine.eval()
    theirs.eval()
    assert_close(mine(minigrad.tensor(x)), theirs(torch.tensor(x)))
