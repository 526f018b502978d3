"""A small MLP fits a noisy curve, fed by ``utils.data.DataLoader`` in shuffled mini-batches.

The data (512 points of ``y = sin(3x) + x/2`` plus noise) sit in a ``TensorDataset``; a
``DataLoader`` with ``batch_size`` and ``shuffle=True`` (a seeded ``Generator``, so every epoch
is a new order, the same on every run) hands out the batches, and a ``random_split`` keeps a
quarter apart for validation. ``optim.Adam`` trains; each epoch prints the mean training loss
and the validation loss, both of which fall.

    python examples/training/dataloader_regression.py            # minigrad
    python examples/training/dataloader_regression.py --torch    # the same code on PyTorch

Runs in about a second; only numpy (and minigrad or PyTorch) is needed.
"""

import os

# Small matrices: numpy's BLAS is fastest on one thread (more threads fight over few cores).
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import argparse  # noqa: E402
import sys  # noqa: E402

import numpy as np  # noqa: E402

if "--torch" in sys.argv:
    import torch
else:
    import minigrad as torch

nn = torch.nn
data = torch.utils.data


def make_dataset(count, rng):
    """``count`` points of the noisy curve, as a TensorDataset of (x, y) column vectors."""
    x = rng.uniform(-2.0, 2.0, (count, 1))
    y = np.sin(3 * x) + x / 2 + rng.normal(0.0, 0.1, (count, 1))
    return data.TensorDataset(
        torch.tensor(x, dtype=torch.float32), torch.tensor(y, dtype=torch.float32)
    )


def mean_loss(model, loader, loss_fn):
    """The loss over every batch of ``loader``, weighted by batch size, without a graph."""
    model.eval()
    total, count = 0.0, 0
    with torch.no_grad():
        for inputs, targets in loader:
            total += loss_fn(model(inputs), targets).item() * len(inputs)
            count += len(inputs)
    model.train()
    return total / count


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--torch", action="store_true", help="run on PyTorch instead")
    parser.add_argument("--epochs", type=int, default=8)
    parser.add_argument("--batch-size", type=int, default=32)
    args = parser.parse_args()

    torch.manual_seed(0)
    dataset = make_dataset(512, np.random.default_rng(0))
    training, validation = data.random_split(
        dataset, [384, 128], generator=torch.Generator().manual_seed(1)
    )
    loader = data.DataLoader(
        training,
        batch_size=args.batch_size,
        shuffle=True,
        generator=torch.Generator().manual_seed(2),
    )
    validation_loader = data.DataLoader(validation, batch_size=128)
    model = nn.Sequential(
        nn.Linear(1, 32), nn.Tanh(), nn.Linear(32, 32), nn.Tanh(), nn.Linear(32, 1)
    )
    optimizer = torch.optim.Adam(model.parameters(), lr=0.01)
    loss_fn = nn.MSELoss()

    library = "torch" if args.torch else "minigrad"
    print(f"{library}: {len(training)} training and {len(validation)} validation points, "
          f"{len(loader)} batches of {args.batch_size} per epoch")  # fmt: skip
    for epoch in range(1, args.epochs + 1):
        total, count = 0.0, 0
        for inputs, targets in loader:
            optimizer.zero_grad()
            loss = loss_fn(model(inputs), targets)
            loss.backward()
            optimizer.step()
            total += loss.item() * len(inputs)
            count += len(inputs)
        validation_loss = mean_loss(model, validation_loader, loss_fn)
        print(f"epoch {epoch:2d}  train loss {total / count:.4f}  "
              f"validation loss {validation_loss:.4f}")  # fmt: skip


if __name__ == "__main__":
    main()
