"""Handwritten digits: an MLP and a small CNN trained with minigrad, or the same script on PyTorch.

The data is scikit-learn's bundled 8x8 digits (1797 images, shipped inside the package: nothing
is downloaded). 80% train, 20% test, a fixed split. The training code is plain PyTorch code:
``nn.Module`` subclasses, ``nn.CrossEntropyLoss``, ``optim.Adam`` with a ``StepLR`` schedule,
``model.train()`` / ``model.eval()`` around Dropout and BatchNorm, ``torch.no_grad()`` for
evaluation. Run it with ``--torch`` and the very same code runs on PyTorch
(``import torch`` instead of ``import minigrad as torch``).

    python examples/training/digits_classifier.py                  # both models, minigrad
    python examples/training/digits_classifier.py --torch          # the same on PyTorch
    python examples/training/digits_classifier.py --model mlp --epochs 5 --plot mlp.png

Each epoch shows a progress bar (on a terminal) and ends with a line of figures; the losses and
accuracies are plotted to a PNG file (matplotlib). Needs the ``examples`` extra:
``pip install -e '.[examples]'``.
"""

import os

# Small matrices: numpy's BLAS is fastest on one thread (more threads fight over few cores).
# Set before numpy is first imported; it does not affect PyTorch.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import argparse  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402

import numpy as np  # noqa: E402

if "--torch" in sys.argv:
    import torch
else:
    import minigrad as torch

nn = torch.nn


class MLP(nn.Module):
    """64 pixels -> 128 -> 64 -> 10 classes, with ReLU and Dropout."""

    def __init__(self):
        super().__init__()
        self.layers = nn.Sequential(
            nn.Flatten(),
            nn.Linear(64, 128), nn.ReLU(), nn.Dropout(0.1),
            nn.Linear(128, 64), nn.ReLU(),
            nn.Linear(64, 10),
        )

    def forward(self, images):
        return self.layers(images)


class CNN(nn.Module):
    """Two 3x3 convolutions (with BatchNorm and max pooling) and a linear classifier."""

    def __init__(self):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(1, 16, 3, padding=1, bias=False), nn.BatchNorm2d(16), nn.ReLU(),
            nn.MaxPool2d(2),  # 16 x 4 x 4
            nn.Conv2d(16, 32, 3, padding=1), nn.ReLU(),
            nn.MaxPool2d(2),  # 32 x 2 x 2
        )
        self.classifier = nn.Sequential(nn.Flatten(), nn.Dropout(0.1), nn.Linear(128, 10))

    def forward(self, images):
        return self.classifier(self.features(images))


MODELS = {"mlp": MLP, "cnn": CNN}


def load_data(seed=0):
    """The digits as float32 images (N, 1, 8, 8) in [0, 1], and int64 labels; 80/20 split."""
    from sklearn.datasets import load_digits

    digits = load_digits()
    images = (digits.images / 16.0).astype(np.float32)[:, None]
    order = np.random.default_rng(seed).permutation(len(images))
    split = int(0.8 * len(images))
    train, test = order[:split], order[split:]
    return images[train], digits.target[train], images[test], digits.target[test]


class ProgressBar:
    """A one-line progress bar on stderr, redrawn in place on a terminal."""

    def __init__(self, total, label, width=30):
        self.total, self.label, self.width = total, label, width
        self.live = sys.stderr.isatty()

    def update(self, done, text=""):
        if not self.live:
            return
        filled = self.width * done // self.total
        bar = "#" * filled + "-" * (self.width - filled)
        sys.stderr.write(f"\r{self.label} [{bar}] {done}/{self.total} {text}")
        sys.stderr.flush()

    def close(self):
        if self.live:
            sys.stderr.write("\r" + " " * (self.width + len(self.label) + 40) + "\r")


def accuracy(model, images, labels):
    """The fraction of correctly classified images (evaluation mode, no graph)."""
    model.eval()
    with torch.no_grad():
        predictions = model(torch.tensor(images)).argmax(dim=1)
    model.train()
    return float((predictions == torch.tensor(labels)).float().mean().item())


def train(name, data, epochs, batch_size=64, seed=0):
    """Train one model; return its per-epoch history and final test accuracy."""
    train_x, train_y, test_x, test_y = data
    torch.manual_seed(seed)
    model = MODELS[name]()
    loss_fn = nn.CrossEntropyLoss()
    optimizer = torch.optim.Adam(model.parameters(), lr=3e-3)
    scheduler = torch.optim.lr_scheduler.StepLR(optimizer, step_size=max(1, epochs // 2),
                                                gamma=0.3)
    rng = np.random.default_rng(seed)
    batches = range(0, len(train_x), batch_size)
    history = {"loss": [], "train": [], "test": []}
    for epoch in range(1, epochs + 1):
        order = rng.permutation(len(train_x))
        bar = ProgressBar(len(batches), f"{name} epoch {epoch:2d}/{epochs}")
        total_loss, start = 0.0, time.perf_counter()
        for i, first in enumerate(batches, 1):
            batch = order[first:first + batch_size]
            optimizer.zero_grad()
            loss = loss_fn(model(torch.tensor(train_x[batch])), torch.tensor(train_y[batch]))
            loss.backward()
            optimizer.step()
            total_loss += loss.item() * len(batch)
            bar.update(i, f"loss {loss.item():.4f}")
        bar.close()
        scheduler.step()
        history["loss"].append(total_loss / len(train_x))
        history["train"].append(accuracy(model, train_x, train_y))
        history["test"].append(accuracy(model, test_x, test_y))
        print(f"{name} epoch {epoch:2d}/{epochs}  loss {history['loss'][-1]:.4f}  "
              f"train acc {history['train'][-1]:.4f}  test acc {history['test'][-1]:.4f}  "
              f"({time.perf_counter() - start:.2f} s)", flush=True)
    return history


def plot(histories, path, library):
    """Loss and accuracy curves of every model, side by side, saved as a PNG."""
    import matplotlib

    matplotlib.use("Agg")  # no display needed
    import matplotlib.pyplot as plt

    figure, (loss_axes, accuracy_axes) = plt.subplots(1, 2, figsize=(10, 4))
    for color, (name, history) in zip(("tab:blue", "tab:orange"), histories.items()):
        epochs = range(1, len(history["loss"]) + 1)
        loss_axes.plot(epochs, history["loss"], color=color, label=name)
        accuracy_axes.plot(epochs, history["train"], "--", color=color, label=f"{name} train")
        accuracy_axes.plot(epochs, history["test"], color=color, label=f"{name} test")
    loss_axes.set(title="training loss", xlabel="epoch", yscale="log")
    accuracy_axes.set(title="accuracy", xlabel="epoch", ylim=(0.8, 1.0))
    for axes in (loss_axes, accuracy_axes):
        axes.legend()
        axes.grid(alpha=0.3)
    figure.suptitle(f"8x8 digits with {library}")
    figure.tight_layout()
    figure.savefig(path, dpi=100)
    plt.close(figure)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--torch", action="store_true", help="run on PyTorch instead")
    parser.add_argument("--model", choices=["mlp", "cnn", "both"], default="both")
    parser.add_argument("--epochs", type=int, default=20)
    parser.add_argument("--plot", default="digits_training.png", help="PNG file to write")
    args = parser.parse_args()

    library = torch.__name__
    data = load_data()
    print(f"{library}: {len(data[0])} training and {len(data[2])} test images of 8x8 digits")
    names = ["mlp", "cnn"] if args.model == "both" else [args.model]
    histories = {name: train(name, data, args.epochs) for name in names}
    plot(histories, args.plot, library)
    for name, history in histories.items():
        print(f"{name}: test accuracy {history['test'][-1]:.4f}")
    print(f"plot saved to {args.plot}")


if __name__ == "__main__":
    main()
