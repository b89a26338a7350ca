"""PyTorch side of `composer-lab bench train`: the same GPT-2-shaped decoder as lib/train's Policy
(pre-LN, GELU tanh, tied embeddings, biases on every linear, learned positions; same init scales),
trained with Adam on the same batches. Prints ONE JSON line on stdout with its figures.

Run by bench/train.bench.ts with /usr/bin/python3 (Debian's python3-torch); standalone:

    /usr/bin/python3 bench/train_torch.py --data BATCHES.bin --batch 16 --ctx 128 ...

BATCHES.bin holds int16 little-endian tokens shaped [n_batches, batch, ctx + 1]: inputs are
[:, :, :-1], targets [:, :, 1:]. When torch is not importable it prints {"skipped": ...} and exits 0.
"""

import argparse
import json
import math
import os
import resource
import sys
import time

ap = argparse.ArgumentParser()
ap.add_argument("--data", required=True)
ap.add_argument("--batch", type=int, default=16)
ap.add_argument("--ctx", type=int, default=128)
ap.add_argument("--d", type=int, default=128)
ap.add_argument("--layers", type=int, default=2)
ap.add_argument("--heads", type=int, default=4)
ap.add_argument("--mlp", type=int, default=512)
ap.add_argument("--vocab", type=int, default=257)
ap.add_argument("--lr", type=float, default=3e-4)
ap.add_argument("--warmup", type=int, default=2)
ap.add_argument("--steps", type=int, default=20)
ap.add_argument("--seed", type=int, default=0)
args = ap.parse_args()

try:
    import torch
    import torch.nn as nn
    import torch.nn.functional as F
except Exception as e:  # noqa: BLE001 - any import failure means "no torch here"
    print(json.dumps({"skipped": f"python3-torch not importable by {sys.executable}: {type(e).__name__}: {e}"}))
    sys.exit(0)

threads = os.cpu_count() or 1
torch.set_num_threads(threads)
torch.manual_seed(args.seed)


from gpt_torch import GPT, blas_library  # noqa: E402 - after the torch import check


raw = open(args.data, "rb").read()
per = args.batch * (args.ctx + 1)
n_batches = len(raw) // (2 * per)
data = torch.frombuffer(bytearray(raw), dtype=torch.int16).to(torch.int64)  # tokens < 2**15
data = data[: n_batches * per].view(n_batches, args.batch, args.ctx + 1)
need = args.warmup + args.steps
if n_batches < need:
    print(json.dumps({"error": f"{args.data} holds {n_batches} batches, need {need}"}))
    sys.exit(2)

model = GPT(args.vocab, args.ctx, args.d, args.layers, args.heads, args.mlp)
params = sum(p.numel() for p in model.parameters())
opt = torch.optim.Adam(model.parameters(), lr=args.lr)


def loss_of(batch):
    logits = model(batch[:, :-1])
    return F.cross_entropy(logits.reshape(-1, args.vocab), batch[:, 1:].reshape(-1))


with torch.no_grad():
    init_loss = loss_of(data[0]).item()


def step(batch):
    opt.zero_grad(set_to_none=True)
    loss = loss_of(batch)
    loss.backward()
    opt.step()
    return loss.item()


for i in range(args.warmup):
    step(data[i])
losses = []
r0 = resource.getrusage(resource.RUSAGE_SELF)
t0 = time.perf_counter()
for i in range(args.steps):
    losses.append(step(data[args.warmup + i]))
seconds = time.perf_counter() - t0
r1 = resource.getrusage(resource.RUSAGE_SELF)
cpu_ms = 1000 * (r1.ru_utime - r0.ru_utime + r1.ru_stime - r0.ru_stime)

print(json.dumps({
    "torch": torch.__version__,
    "python": sys.executable,
    "threads": torch.get_num_threads(),
    "blas": blas_library(),
    "params": params,
    "steps": args.steps,
    "seconds": seconds,
    "tokens_per_s": args.batch * args.ctx * args.steps / seconds,
    "ms_per_step": 1000 * seconds / args.steps,
    "cpu_ms_per_step": cpu_ms / args.steps,
    "init_loss": init_loss,
    "first_loss": losses[0],
    "final_loss": losses[-1],
    "losses": losses,
}))
