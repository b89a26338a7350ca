"""Build round-25 payload diffs from the task snapshots."""
import os, re, subprocess, sys, ast, textwrap, shutil, json

ROOT = "/work/rt25"
OUT = f"{ROOT}/test/redteam/payloads/round25"
MS = "datasets/real-markupsafe"
J2 = "datasets/real-jinja2"
FM = "datasets/fd-micro/pool"
T = {
    "striptags": (MS, "markupsafe-function-src_markupsafe___init__.Markup.striptags", "src/markupsafe/__init__.py", "if t.TYPE_CHECKING:"),
    "unescape": (MS, "markupsafe-function-src_markupsafe___init__.Markup.unescape", "src/markupsafe/__init__.py", "if t.TYPE_CHECKING:"),
    "soft_str": (MS, "markupsafe-function-src_markupsafe__native.soft_str", "src/markupsafe/_native.py", "from . import Markup"),
    "gck": (J2, "jinja2-function-src_jinja2_bccache.BytecodeCache.get_cache_key", "src/jinja2/bccache.py", "if t.TYPE_CHECKING:"),
    "add_3": (FM, "micro_s0_000-function-micro_s0_000_funcs.add_3", "micro_s0_000/funcs.py", "\n\ndef head_1"),
    "total_3": (FM, "micro_s0_000-function-micro_s0_000_funcs.total_3", "micro_s0_000/funcs.py", "\n\ndef head_1"),
    "clamp": (FM, "micro_s0_000-function-micro_s0_000_funcs.clamp_1_8", "micro_s0_000/funcs.py", "\n\ndef head_1"),
}

def build(aid, task, body, top=""):
    pool, tid, rel, anchor = T[task]
    src_path = f"{ROOT}/{pool}/tasks/{tid}/repo/{rel}"
    src = open(src_path).read()
    lines = src.split("\n")
    idx = [i for i, l in enumerate(lines) if l.strip() == "raise NotImplementedError"]
    assert len(idx) == 1, (aid, idx)
    i = idx[0]
    ind = lines[i][: len(lines[i]) - len(lines[i].lstrip())]
    b = textwrap.dedent(body).strip("\n")
    lines[i:i + 1] = [(ind + l) if l.strip() else "" for l in b.split("\n")]
    new = "\n".join(lines)
    if top:
        topt = textwrap.dedent(top).strip("\n") + "\n\n"
        if anchor.startswith("\n"):
            k = new.index(anchor)
            new = new[:k] + "\n\n" + topt.rstrip("\n") + new[k:]
        else:
            k = new.index(anchor)
            if anchor.startswith("from . import"):
                k = k + len(anchor) + 1
                new = new[:k] + "\n" + topt + new[k:]
            else:
                new = new[:k] + topt + "\n" + new[k:]
    ast.parse(new)
    d = f"/tmp/rt25/build/{aid}"
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(f"{d}/a/{os.path.dirname(rel)}"); os.makedirs(f"{d}/b/{os.path.dirname(rel)}")
    open(f"{d}/a/{rel}", "w").write(src); open(f"{d}/b/{rel}", "w").write(new)
    p = subprocess.run(["diff", "-u", f"a/{rel}", f"b/{rel}"], cwd=d, capture_output=True, text=True)
    diff = re.sub(r"^(---|\+\+\+) ([ab]/\S+)\t.*$", r"\1 \2", p.stdout, flags=re.M)
    open(f"{OUT}/{aid}.diff", "w").write(diff)
    # dry-run apply against the snapshot
    chk = subprocess.run(["patch", "-p1", "--dry-run", "-s", "-i", f"{OUT}/{aid}.diff"], cwd=f"{ROOT}/{pool}/tasks/{tid}/repo", capture_output=True, text=True)
    assert chk.returncode == 0, (aid, chk.stdout, chk.stderr)
    return pool, tid

REG = {}
def A(aid, task, kind, tell, body, top=""):
    REG[aid] = dict(task=task, kind=kind, tell=tell, body=body, top=top)

exec(open("/tmp/rt25/attempts.py").read())

if __name__ == "__main__":
    os.makedirs(OUT, exist_ok=True)
    meta = {}
    ids = sys.argv[1:] or list(REG)
    for aid in ids:
        r = REG[aid]
        pool, tid = build(aid, r["task"], r["body"], r["top"])
        meta[aid] = dict(pool=pool, task_id=tid, kind=r["kind"], tell=r["tell"])
    old = json.load(open("/tmp/rt25/meta.json")) if os.path.exists("/tmp/rt25/meta.json") else {}
    old.update(meta)
    json.dump(old, open("/tmp/rt25/meta.json", "w"), indent=1)
    print("built", ids)
