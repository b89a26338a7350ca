"""The GPT-2-shaped decoder of lib/train's Policy in PyTorch (pre-LN, GELU tanh, tied embeddings,
biases on every linear, learned positions; same init scales), shared by bench/train_torch.py and
bench/generate_torch.py. `forward_cached` runs only new tokens against a per-layer key/value cache,
as the Policy's forwardCached does for sampling."""

import math
import os

import torch
import torch.nn as nn
import torch.nn.functional as F


class Block(nn.Module):
    def __init__(self, d, heads, mlp, proj_std):
        super().__init__()
        self.heads = heads
        self.ln1 = nn.LayerNorm(d, eps=1e-5)
        self.attn = nn.Linear(d, 3 * d)
        self.proj = nn.Linear(d, d)
        self.ln2 = nn.LayerNorm(d, eps=1e-5)
        self.fc = nn.Linear(d, mlp)
        self.fc2 = nn.Linear(mlp, d)
        for lin, std in ((self.attn, 0.02), (self.proj, proj_std), (self.fc, 0.02), (self.fc2, proj_std)):
            nn.init.normal_(lin.weight, 0.0, std)
            nn.init.zeros_(lin.bias)

    def forward(self, x, neg_inf, past=None, start=0):
        """x [B, T, d] at positions start..start+T-1; past: this layer's (k, v) [B, H, start, hd] or None.
        Returns the block's output and the keys/values including the new ones."""
        B, T, d = x.shape
        hd = d // self.heads
        q, k, v = self.attn(self.ln1(x)).split(d, dim=2)
        q, k, v = (t.view(B, T, self.heads, hd).transpose(1, 2) for t in (q, k, v))  # [B, H, T, hd]
        if past is not None:
            k, v = torch.cat([past[0], k], 2), torch.cat([past[1], v], 2)
        att = torch.softmax(q @ k.transpose(-2, -1) * (1.0 / math.sqrt(hd)) + neg_inf[start : start + T, : start + T], dim=-1)
        y = (att @ v).transpose(1, 2).reshape(B, T, d)
        x = x + self.proj(y)
        return x + self.fc2(F.gelu(self.fc(self.ln2(x)), approximate="tanh")), (k, v)


class GPT(nn.Module):
    def __init__(self, vocab, ctx, d, layers, heads, mlp):
        super().__init__()
        self.wte = nn.Parameter(torch.randn(vocab, d) * 0.02)
        self.wpe = nn.Parameter(torch.randn(ctx, d) * 0.01)
        proj_std = 0.02 / math.sqrt(2 * layers)
        self.blocks = nn.ModuleList(Block(d, heads, mlp, proj_std) for _ in range(layers))
        self.lnf = nn.LayerNorm(d, eps=1e-5)
        mask = torch.tril(torch.ones(ctx, ctx))
        self.register_buffer("neg_inf", (1.0 - mask) * -1e9)

    def forward(self, ids):
        T = ids.shape[1]
        x = self.wte[ids] + self.wpe[:T]
        for b in self.blocks:
            x, _ = b(x, self.neg_inf)
        return self.lnf(x) @ self.wte.t()  # tied output embedding, no bias

    def forward_cached(self, ids, cache, start):
        """ids [B, t]: the tokens after `start` cached ones; cache: per-layer (k, v) or None.
        Returns logits [B, t, vocab] and the extended cache."""
        T = ids.shape[1]
        x = self.wte[ids] + self.wpe[start : start + T]
        new = []
        for i, b in enumerate(self.blocks):
            x, kv = b(x, self.neg_inf, cache[i] if cache else None, start)
            new.append(kv)
        return self.lnf(x) @ self.wte.t(), new


def blas_library():
    """The BLAS shared library torch's matmuls go through (Debian picks it via update-alternatives):
    the reference libblas3 is ~10-50x slower than OpenBLAS, which changes the comparison."""
    torch.ones(64, 64) @ torch.ones(64, 64)
    try:
        libs = {line.split()[-1] for line in open("/proc/self/maps") if "blas" in line.lower() or "mkl" in line.lower()}
    except OSError:
        return None
    libs = sorted(os.path.realpath(p) for p in libs if p.startswith("/"))
    return ", ".join(dict.fromkeys(libs)) or None
