"""A character-level LSTM learns a sentence, with a one-cycle learning-rate schedule.

The model reads characters one at a time (``nn.Embedding`` -> ``nn.LSTMCell`` unrolled over the
sequence -> ``nn.Linear``) and learns to predict the next one. Training uses ``optim.Adam``
driven by ``lr_scheduler.OneCycleLR`` (stepped after every batch) and
``nn.utils.clip_grad_norm_``, the usual recipe for recurrent networks. At the end the model
writes the text back, one greedy character at a time, from its first few characters.

    python examples/training/char_lstm.py            # minigrad
    python examples/training/char_lstm.py --torch    # the same code on PyTorch

Runs in a few seconds; only numpy (and minigrad or PyTorch) is needed.
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
TEXT = "the quick brown fox jumps over the lazy dog. pack my box with five dozen liquor jugs. "
CHARS = sorted(set(TEXT))


class CharLSTM(nn.Module):
    """Embedding -> LSTMCell (unrolled) -> Linear over the characters."""

    def __init__(self, vocabulary, embedding=16, hidden=64):
        super().__init__()
        self.embed = nn.Embedding(vocabulary, embedding)
        self.cell = nn.LSTMCell(embedding, hidden)
        self.head = nn.Linear(hidden, vocabulary)

    def forward(self, tokens, state=None):
        """Scores for the next character after each position: (batch, time, vocabulary)."""
        outputs = []
        for t in range(tokens.shape[1]):
            state = self.cell(self.embed(tokens[:, t]), state)
            outputs.append(self.head(state[0]))
        return torch.stack(outputs, dim=1), state


def batches(encoded, length, batch_size, rng):
    """Random windows of the (cyclic) text: inputs and the next characters as targets."""
    starts = rng.integers(0, len(encoded), batch_size)
    cyclic = np.concatenate([encoded, encoded[: length + 1]])
    windows = np.stack([cyclic[s:s + length + 1] for s in starts])
    return torch.tensor(windows[:, :-1]), torch.tensor(windows[:, 1:])


def generate(model, prompt, count):
    """Extend ``prompt`` by ``count`` characters, each the model's most likely next one."""
    model.eval()
    with torch.no_grad():
        tokens = torch.tensor([[CHARS.index(c) for c in prompt]])
        scores, state = model(tokens)
        text = prompt
        for _ in range(count):
            next_index = int(scores[0, -1].argmax().item())
            text += CHARS[next_index]
            scores, state = model(torch.tensor([[next_index]]), state)
    model.train()
    return text


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--torch", action="store_true", help="run on PyTorch instead")
    parser.add_argument("--steps", type=int, default=300)
    parser.add_argument("--length", type=int, default=12, help="characters per training window")
    args = parser.parse_args()

    torch.manual_seed(0)
    rng = np.random.default_rng(0)
    encoded = np.array([CHARS.index(c) for c in TEXT])
    model = CharLSTM(len(CHARS))
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-2)
    scheduler = torch.optim.lr_scheduler.OneCycleLR(optimizer, max_lr=2e-2, total_steps=args.steps)
    loss_fn = nn.CrossEntropyLoss()
    print(f"{torch.__name__}: {len(CHARS)} characters, {sum(p.numel() for p in model.parameters())}"
          " parameters")
    for step in range(1, args.steps + 1):
        inputs, targets = batches(encoded, args.length, 32, rng)
        scores, _ = model(inputs)
        loss = loss_fn(scores.reshape(-1, len(CHARS)), targets.reshape(-1))
        optimizer.zero_grad()
        loss.backward()
        norm = nn.utils.clip_grad_norm_(model.parameters(), max_norm=1.0)
        optimizer.step()
        scheduler.step()
        if step % 50 == 0 or step == args.steps:
            accuracy = (scores.argmax(dim=2) == targets).float().mean().item()
            print(f"step {step:4d}  loss {loss.item():.4f}  next-char accuracy {accuracy:.3f}  "
                  f"grad norm {norm.item():6.3f}  lr {scheduler.get_last_lr()[0]:.5f}", flush=True)
    print("generated:", repr(generate(model, TEXT[:4], len(TEXT) - 4)))


if __name__ == "__main__":
    main()
