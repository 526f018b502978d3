"""Train word embeddings, export them with ``detach()``, and see a write into the export caught.

The seed post "pytorch 中 .detach() .detach_() 和 .data的区别" lists exporting embeddings as a use
of ``detach()``. This script does it for real:

1. trains a tiny skip-gram model: an ``nn.Embedding`` whose weight also scores the context
   words (weight tying: ``scores = F.linear(vector, embedding.weight)``);
2. exports the table with ``weight.detach()`` to a ``.npy`` file (``np.save`` writes a copy) and
   reads it back for a nearest-neighbour query;
3. shows what ``detach()`` does *not* do: it does not copy. Normalising the export in place
   while a forward pass's graph is alive writes into the model's own weight, which the tied
   output layer saved for backward: ``detach()`` shares the weight's version counter, so
   backward raises instead of using the changed values;
4. shows the same write through ``.data``: no error, a silently wrong gradient, and a model
   whose weights were changed behind its back;
5. shows the safe way: ``detach().clone()`` before changing the export.

Writes through ``.numpy()`` bypass the version counter as ``.data`` does; ``np.save`` and
``clone()`` copy, so the model never sees writes into what they produce. Run it from the
repository root: ``python examples/embedding_export.py``.
"""

import os
import tempfile

import numpy as np

import minigrad as torch

WORDS = ["cat", "dog", "pet", "car", "bus", "road"]
PAIRS = [("cat", "pet"), ("dog", "pet"), ("pet", "cat"), ("pet", "dog"), ("cat", "dog"),
         ("dog", "cat"), ("car", "road"), ("bus", "road"), ("road", "car"), ("road", "bus"),
         ("car", "bus"), ("bus", "car")]
CENTERS = torch.tensor([WORDS.index(center) for center, _ in PAIRS])
CONTEXTS = torch.tensor([WORDS.index(context) for _, context in PAIRS])


class SkipGram(torch.nn.Module):
    """Predict a context word from a center word with one table of vectors (tied weights)."""

    def __init__(self, vocabulary, dim):
        super().__init__()
        self.embedding = torch.nn.Embedding(vocabulary, dim)
        with torch.no_grad():  # a fixed start, so that minigrad and PyTorch agree
            start = (torch.arange(vocabulary * dim * 1.0).reshape(vocabulary, dim) % 7 - 3) / 4
            self.embedding.weight.copy_(start)

    def forward(self, centers):
        vectors = self.embedding(centers)
        return torch.nn.functional.linear(vectors, self.embedding.weight)  # saves weight.t()


def loss_of(model):
    return torch.nn.functional.cross_entropy(model(CENTERS), CONTEXTS)


def train(model, steps=150):
    optimizer = torch.optim.SGD(model.parameters(), lr=0.5, momentum=0.5)
    for _ in range(steps):
        optimizer.zero_grad()
        loss = loss_of(model)
        loss.backward()
        optimizer.step()
    return loss.item()


def nearest(vectors, word):
    """The other word whose vector has the largest cosine similarity with ``word``'s."""
    unit = vectors / np.linalg.norm(vectors, axis=1, keepdims=True)
    similarity = unit @ unit[WORDS.index(word)]
    similarity[WORDS.index(word)] = -np.inf
    return WORDS[int(np.argmax(similarity))]


def export_and_reload(model, folder):
    print("=== 1. Train, then export the table with detach() to a .npy file ===")
    print("  final loss:", round(train(model), 3))
    vectors = model.embedding.weight.detach()  # no copy: same memory, same version counter
    print("  exported tensor requires_grad:", vectors.requires_grad, "| grad_fn:", vectors.grad_fn)
    path = os.path.join(folder, "embeddings.npy")
    np.save(path, vectors.numpy())  # np.save writes a copy of the values to disk
    table = np.load(path)
    print("  file holds", table.shape, table.dtype, "| equal to the model's weight:",
          bool(np.array_equal(table, model.embedding.weight.detach().numpy())))
    for word in WORDS:
        print(f"  nearest to {word!r}: {nearest(table, word)!r}")
    table[:] = 0.0  # a write into the loaded copy: the model never sees it
    print("  after zeroing the loaded array, the model's weight is untouched:",
          bool(model.embedding.weight.abs().sum() > 0))


def write_into_detached_export(model):
    print("=== 2. Writing into the detach()-ed export while the graph is alive is caught ===")
    loss = loss_of(model)  # the graph is alive: the tied output layer saved weight.t()
    version = model.embedding.weight._version
    export = model.embedding.weight.detach()
    export /= export.norm(dim=1, keepdim=True)  # normalise rows in place, for cosine search
    print("  weight version before / after the write:", version, "/",
          model.embedding.weight._version)
    try:
        loss.backward()
    except RuntimeError as error:
        print("  RuntimeError:", error)
    print("  (the write also changed the model itself: a detached tensor is not a copy)")


def write_into_data_export():
    print("=== 3. The same write through .data is not caught: a wrong gradient ===")
    right_model, data_model = SkipGram(len(WORDS), 3), SkipGram(len(WORDS), 3)
    loss_of(right_model).backward()
    loss = loss_of(data_model)
    export = data_model.embedding.weight.data  # the same memory, a fresh version counter
    export /= export.norm(dim=1, keepdim=True)
    loss.backward()  # no error
    difference = (data_model.embedding.weight.grad - right_model.embedding.weight.grad).abs()
    print("  backward ran; the gradient differs from the right one by up to",
          round(difference.max().item(), 2))
    print("  and the model's weights were normalised behind its back: row norms",
          [round(n, 2) for n in data_model.embedding.weight.norm(dim=1).tolist()])


def safe_export():
    print("=== 4. The safe way to change an export: detach().clone() ===")
    model = SkipGram(len(WORDS), 3)
    loss = loss_of(model)
    export = model.embedding.weight.detach().clone()  # a copy: its own memory and counter
    export /= export.norm(dim=1, keepdim=True)
    loss.backward()
    print("  backward ran; weight version", model.embedding.weight._version,
          "| export rows have norm 1:", bool(((export.norm(dim=1) - 1).abs() < 1e-6).all()))


if __name__ == "__main__":
    with tempfile.TemporaryDirectory() as folder:
        model = SkipGram(len(WORDS), 3)
        export_and_reload(model, folder)
        write_into_detached_export(model)
    write_into_data_export()
    safe_export()
