"""PyTorch side of `composer-lab bench generate`: batched sampling with a key/value cache from the
same GPT-2-shaped decoder as lib/train's Policy (bench/gpt_torch.py): prefill the prompts once, then
one token per step for every row, temperature sampling. Prints ONE JSON line on stdout.

    /usr/bin/python3 bench/generate_torch.py --prompts PROMPTS.bin --batch 16 --prompt-len 32 --new 64 ...

PROMPTS.bin holds int16 little-endian tokens shaped [batch, prompt_len]. When torch is not
importable it prints {"skipped": ...} and exits 0.
"""

import argparse
import json
import os
import resource
import sys
import time

ap = argparse.ArgumentParser()
ap.add_argument("--prompts", required=True)
ap.add_argument("--batch", type=int, default=16)
ap.add_argument("--prompt-len", type=int, default=32)
ap.add_argument("--new", type=int, default=64)
ap.add_argument("--ctx", type=int, default=128)
ap.add_argument("--d", type=int, default=128)
ap.add_argument("--layers", type=int, default=2)
ap.add_argument("--heads", type=int, default=4)
ap.add_argument("--mlp", type=int, default=512)
ap.add_argument("--vocab", type=int, default=257)
ap.add_argument("--repeats", type=int, default=3)
ap.add_argument("--seed", type=int, default=0)
args = ap.parse_args()

try:
    import torch
except Exception as e:  # noqa: BLE001 - any import failure means "no torch here"
    print(json.dumps({"skipped": f"python3-torch not importable by {sys.executable}: {type(e).__name__}: {e}"}))
    sys.exit(0)

from gpt_torch import GPT  # noqa: E402 - after the torch import check

torch.set_num_threads(os.cpu_count() or 1)
torch.manual_seed(args.seed)
model = GPT(args.vocab, args.ctx, args.d, args.layers, args.heads, args.mlp).eval()
raw = open(args.prompts, "rb").read()
prompts = torch.frombuffer(bytearray(raw), dtype=torch.int16).to(torch.int64).view(args.batch, args.prompt_len)


@torch.no_grad()
def generate():
    logits, cache = model.forward_cached(prompts, None, 0)
    out = []
    for i in range(args.new):
        probs = torch.softmax(logits[:, -1], dim=-1)
        tok = torch.multinomial(probs, 1)  # [B, 1]
        out.append(tok)
        if i + 1 < args.new:
            logits, cache = model.forward_cached(tok, cache, args.prompt_len + i)
    return torch.cat(out, 1)


generate()  # warm-up
times = []
r0 = resource.getrusage(resource.RUSAGE_SELF)
for _ in range(args.repeats):
    t0 = time.perf_counter()
    generate()
    times.append(time.perf_counter() - t0)
r1 = resource.getrusage(resource.RUSAGE_SELF)
cpu_s = r1.ru_utime - r0.ru_utime + r1.ru_stime - r0.ru_stime
best = min(times)
print(json.dumps({
    "torch": torch.__version__,
    "threads": torch.get_num_threads(),
    "repeats": args.repeats,
    "seconds": times,
    "tokens": args.batch * args.new,
    "tokens_per_s": args.batch * args.new / best,
    "ms_per_token_step": 1000 * best / args.new,
    "cpu_us_per_token": 1e6 * cpu_s / (args.repeats * args.batch * args.new),
}))
