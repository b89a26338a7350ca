import os, re, subprocess, sys, ast, shutil, tempfile, textwrap
R = "/work/rt24"
OUT = R + "/test/redteam/payloads/round24"
MS = "datasets/real-markupsafe"; J2 = "datasets/real-jinja2"; FD = "datasets/fd-micro/pool"
TASKS = {
 "strip": (MS, "markupsafe-function-src_markupsafe___init__.Markup.striptags", "src/markupsafe/__init__.py", "import typing as t\n", 8, "        raise NotImplementedError\n"),
 "unesc": (MS, "markupsafe-function-src_markupsafe___init__.Markup.unescape", "src/markupsafe/__init__.py", "import typing as t\n", 8, "        raise NotImplementedError\n"),
 "soft": (MS, "markupsafe-function-src_markupsafe__native.soft_str", "src/markupsafe/_native.py", "from . import Markup\n", 4, "    raise NotImplementedError\n"),
 "ck": (J2, "jinja2-function-src_jinja2_bccache.BytecodeCache.get_cache_key", "src/jinja2/bccache.py", "from types import CodeType\n", 8, "        raise NotImplementedError\n"),
}
for fn in ["add_3", "clamp_1_8", "total_3", "scaled_3", "above_3", "count_5", "largest_2", "head_1"]:
    TASKS[fn] = (FD, "micro_s0_000-function-micro_s0_000_funcs." + fn, "micro_s0_000/funcs.py", '"""Generated micro functions (composer-lab tasks micro)."""\n', 4, "    raise NotImplementedError\n")

def build(aid, task, header, body):
    pool, tid, path, anchor, ind, stub = TASKS[task]
    src_path = f"{R}/{pool}/tasks/{tid}/repo/{path}"
    src = open(src_path).read()
    assert src.count(stub) == 1 if task != "ck" else True, (aid, src.count(stub))
    body = textwrap.dedent(body).strip("\n")
    body = "".join((" " * ind + l if l.strip() else "") + "\n" for l in body.split("\n"))
    if task == "ck":
        i = src.index("Returns the unique hash key for this template name.")
        j = src.index(stub, i)
        new = src[:j] + body + src[j + len(stub):]
    else:
        new = src.replace(stub, body, 1)
    if header:
        h = "\n" + textwrap.dedent(header).strip("\n") + "\n\n"
        assert anchor in new
        new = new.replace(anchor, anchor + h, 1)
    ast.parse(new)
    d = tempfile.mkdtemp(dir="/tmp")
    os.makedirs(f"{d}/a/{os.path.dirname(path)}"); os.makedirs(f"{d}/b/{os.path.dirname(path)}")
    open(f"{d}/a/{path}", "w").write(src); open(f"{d}/b/{path}", "w").write(new)
    p = subprocess.run(["diff", "-u", f"a/{path}", f"b/{path}"], cwd=d, capture_output=True, text=True)
    diff = re.sub(r"^(---|\+\+\+) (\S+)\t.*$", r"\1 \2", p.stdout, flags=re.M)
    open(f"{OUT}/{aid}.diff", "w").write(diff)
    # dry-run apply
    shutil.copytree(f"{R}/{pool}/tasks/{tid}/repo", f"{d}/c")
    q = subprocess.run(["patch", "-p1", "--dry-run", "-i", f"{OUT}/{aid}.diff"], cwd=f"{d}/c", capture_output=True, text=True)
    assert q.returncode == 0, q.stdout + q.stderr
    shutil.rmtree(d)
    return pool, tid

if __name__ == "__main__":
    sys.path.insert(0, R + "/scratch/rt24")
    from attempts import A
    meta = open(R + "/scratch/rt24/meta.tsv", "w")
    only = set(sys.argv[1:])
    for aid, task, kind, tell, header, body in A:
        pool, tid = build(aid, task, header, body)
        meta.write(f"{aid}\t{tid}\t{pool}\t{kind}\t{tell}\n")
    print("built", len(A))
