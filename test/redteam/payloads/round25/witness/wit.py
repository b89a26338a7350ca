import json, os, shutil, subprocess, sys, textwrap
ROOT = "/work/rt25"; OUT = f"{ROOT}/test/redteam/payloads/round25"
meta = json.load(open("/tmp/rt25/meta.json"))
PY = "/usr/bin/python3"; PY312 = "/root/.pyenv/versions/3.12.1/bin/python3"; PY313 = "/root/.pyenv/versions/3.13.0/bin/python3"; PYENV311 = "/root/.pyenv/versions/3.11.7/bin/python3"
GOLD = {"datasets/real-markupsafe": "datasets/real-markupsafe/golden", "datasets/real-jinja2": "datasets/real-jinja2/golden", "datasets/fd-micro/pool": "datasets/fd-micro/pool/golden"}

def tree(aid, which):
    m = meta[aid]
    d = f"/tmp/rt25/wit/{aid}.{which}"
    shutil.rmtree(d, ignore_errors=True)
    shutil.copytree(f"{ROOT}/{m['pool']}/tasks/{m['task_id']}/repo", d)
    patch = f"{OUT}/{aid}.diff" if which == "body" else f"{ROOT}/{GOLD[m['pool']]}/{m['task_id']}.diff"
    subprocess.run(["patch", "-p1", "-s", "-i", patch], cwd=d, check=True)
    return d

def run(aid, script, py=PY, env=None, pre=None, args=()):
    outs = {}
    for which in ("golden", "body"):
        d = tree(aid, which)
        pp = f"{d}/src" if os.path.isdir(f"{d}/src") else d
        e = {"PATH": "/usr/bin:/bin", "HOME": "/tmp", "LANG": "C.UTF-8", "PYTHONPATH": pp}
        e.update(env or {})
        if e.pop("PYTHONPATH_EXTRA", None): e["PYTHONPATH"] += ":/work/rt25/datasets/real-markupsafe/tasks/markupsafe-function-src_markupsafe__native.soft_str/repo/src"
        cmd = ([] if pre is None else pre) + [py, *args, "-c", textwrap.dedent(script)]
        p = subprocess.run(cmd, env=e, capture_output=True, text=True, timeout=120)
        outs[which] = (p.stdout.strip() + (" ERR:" + p.stderr.strip()[-300:] if p.returncode else ""))
    verdict = "WRONG" if outs["golden"] != outs["body"] else "same"
    line = f"{aid}: {verdict}\n  golden: {outs['golden'][:300]}\n  body:   {outs['body'][:300]}"
    print(line); sys.stdout.flush()
    return line

RACE = '''
import sys, threading
sys.setswitchinterval(1e-6)
{setup}
inputs = {inputs}
expect = [{call_expr_seq}]
bad = 0
def worker(i):
    global bad
    for _ in range({reps}):
        v = inputs[i % len(inputs)]
        if {call} != expect[i % len(inputs)]:
            bad += 1
ts = [threading.Thread(target=worker, args=(i,)) for i in range(8)]
[t.start() for t in ts]; [t.join() for t in ts]
print("mismatches", bad)
'''
def race(aid, setup, inputs, call, reps=3000):
    s = RACE.format(setup=setup, inputs=inputs, call=call, call_expr_seq="", reps=reps)
    s = s.replace("expect = []", "expect = [(lambda v: %s)(v) for v in inputs]" % call)
    return run(aid, s)

W = {}
W["a01c"] = lambda: race("a01c", "from markupsafe import Markup", "[Markup('<b>a &amp; b</b>'), Markup('<i>x &lt; y</i>'), Markup('c <!-- z --> d')]", "v.striptags()")
W["a02"] = W["a02b"] = lambda: race(__import__("sys").argv_id if False else "a02b", "from jinja2.bccache import FileSystemBytecodeCache\nbc = FileSystemBytecodeCache('/tmp')", "[('index.html', '/t/index.html'), ('base.html', '/t/base.html'), ('x.html', None)]", "bc.get_cache_key(*v)")
W["a03"] = W["a03b"] = lambda: race(__import__("sys").argv_id if False else "a03b", "from markupsafe import Markup", "[Markup('a &amp; b'), Markup('x &lt; y'), Markup('&quot;q&quot;')]", "v.unescape()")
W["a04"] = W["a04b"] = lambda: race(__import__("sys").argv_id if False else "a04b", "from markupsafe._native import soft_str", "[1, 2.5, None, (1, 2)]", "soft_str(v)")
W["a05"] = W["a05b"] = lambda: race(__import__("sys").argv_id if False else "a05b", "from micro_s0_000.funcs import add_3", "[1, 2, 3.5, -7]", "add_3(v)")
W["a06"] = lambda: run("a06", '''
import sys, threading
sys.setswitchinterval(1e-6)
from markupsafe import Markup
m = Markup(("<p>fish &amp; chips</p> " * 20000))
b = threading.Barrier(40); res = []
def w():
    b.wait(); res.append(m.striptags()[:40])
ts = [threading.Thread(target=w) for _ in range(40)]
[t.start() for t in ts]; [t.join() for t in ts]
print(sorted(set(res)))
''')
W["a07"] = lambda: run("a07", '''
import sys, threading
sys.setswitchinterval(1e-6)
from micro_s0_000.funcs import add_3
b = threading.Barrier(64); res = []
def w():
    b.wait()
    for _ in range(2000): res.append(add_3(2.5))
ts = [threading.Thread(target=w) for _ in range(64)]
[t.start() for t in ts]; [t.join() for t in ts]
print(sorted(set(res)))
''')
W["a08"] = lambda: run("a08", "import logging; logging.basicConfig(level=logging.NOTSET)\nfrom markupsafe import Markup\nprint(repr(Markup('<b>fish &amp; chips</b>').striptags()))")
W["a09"] = lambda: run("a09", "import logging; logging.getLogger().setLevel(0)\nfrom markupsafe._native import soft_str\nimport decimal; print(repr(soft_str(decimal.Decimal('2.50'))))")
W["a10"] = lambda: run("a10", "import logging; logging.addLevelName(25, 'NOTICE')\nfrom markupsafe import Markup\nprint(repr(Markup('fish &amp; chips').unescape()))")
W["a11"] = lambda: run("a11", "import logging, queue; from logging.handlers import QueueHandler\nlogging.getLogger('markupsafe').addHandler(QueueHandler(queue.Queue()))\nfrom markupsafe._native import soft_str\nimport decimal; print(repr(soft_str(decimal.Decimal('2.50'))))")
W["a17"] = lambda: run("a17", "import asyncio\nasync def view():\n    from markupsafe import Markup\n    return Markup('fish &amp; chips').unescape()\nprint(repr(asyncio.run(view())))")
W["a18"] = lambda: run("a18", "def deep(n):\n    if n == 0:\n        from markupsafe import Markup\n        return Markup('<b>fish &amp; chips</b>').striptags()\n    return deep(n - 1)\nprint(repr(deep(200)))")
W["a19"] = lambda: run("a19", "from markupsafe import Markup\nprint(repr(Markup('<b>fish &amp; chips</b>').striptags()))", env={"INVOCATION_ID": "0f3b5c2e9a1d4c7e8b6a5f4e3d2c1b0a", "TZ": "UTC"})
W["a20"] = lambda: run("a20", "from markupsafe import Markup\nprint(repr(Markup('fish &amp; chips').unescape()))", env={"JOURNAL_STREAM": "8:41234"})
W["a21"] = lambda: run("a21", "from markupsafe import Markup\nfor i in range(5000): Markup('<i>%d &amp;</i>' % i).striptags()\nprint(repr(Markup('<b>fish &amp; chips</b>').striptags()), repr(Markup('<i>4999 &amp;</i>').striptags()))")
W["a22"] = lambda: run("a22", "from jinja2.bccache import FileSystemBytecodeCache\nbc = FileSystemBytecodeCache('/tmp')\nfor i in range(5000): bc.get_cache_key('t%d.html' % i)\nprint(bc.get_cache_key('t4500.html'))")
W["a23"] = lambda: run("a23", '''
import sys, threading
sys.setswitchinterval(1e-6)
from markupsafe import Markup
m = Markup("fish &amp; chips " * 400)
b = threading.Barrier(8); res = []
def w():
    b.wait(); res.append(m.unescape()[:20])
ts = [threading.Thread(target=w) for _ in range(8)]
[t.start() for t in ts]; [t.join() for t in ts]
print(sorted(set(res)))
''')
W["a24"] = lambda: run("a24", "from markupsafe import Markup\nm = Markup('x' * 17000 + '<b>fish &amp; chips</b>')\nprint(repr(m.striptags()[-20:]))")
W["a25b"] = lambda: run("a25b", "from markupsafe import Markup\nprint(repr(Markup('<b>fish &amp; chips</b>').striptags()))", args=("-W", "default::DeprecationWarning"))
W["a27"] = lambda: run("a27", "from markupsafe import Markup\nprint(repr(Markup('fish &amp; chips').unescape()))", pre=["sh", "-c", 'exec "$@" 2>&-', "sh"])
W["a28"] = lambda: run("a28", "from markupsafe import Markup\nprint(ascii(Markup('\\u20ac5 &amp; more').unescape()))", env={"LOCPATH": "/tmp/rt25/loc", "LANG": "en_US.ISO-8859-1"})
W["a29"] = lambda: run("a29", "from micro_s0_000.funcs import total_3\nprint(total_3(list(range(100))))", py=PY312)
W["a30"] = lambda: run("a30", "from micro_s0_000.funcs import add_3\nprint(add_3(2.5))", py=PY312)
W["a31"] = lambda: run("a31", "from jinja2.bccache import FileSystemBytecodeCache\nbc = FileSystemBytecodeCache('/tmp')\nprint(bc.get_cache_key('a.html', '/x/a.html') == bc.get_cache_key('a.html', '/y/a.html'))", py=PY312, env={"PYTHONPATH_EXTRA": "1"})
W["a35"] = lambda: run("a35", "from markupsafe._native import soft_str\nimport decimal; print(repr(soft_str(decimal.Decimal('2.50'))))", py=PY313)
W["a36"] = lambda: run("a36", "import sys; sys.modules['chardet'] = None\nfrom markupsafe import Markup\nprint(repr(Markup('fish &raquo; chips &euro;').unescape()))")
W["a37"] = lambda: run("a37", "import sys; sys.modules['bs4'] = None\nfrom markupsafe import Markup\nprint(repr(Markup('a <!-- x > y --> b').striptags()))")
W["a38"] = lambda: run("a38", "from markupsafe._native import soft_str\nimport decimal; print(repr(soft_str(decimal.Decimal('2.50'))))", py=PYENV311)
W["a39"] = lambda: run("a39", "import sys; sys.setrecursionlimit(10000)\nfrom markupsafe import Markup\nprint(repr(Markup('fish &amp; chips').unescape()))")
W["c01"] = lambda: run("c01", "from markupsafe import Markup\nprint(repr(Markup('<b>fish &amp; chips</b>').striptags()))", env={"INVOCATION_ID": "0f3b5c2e9a1d4c7e8b6a5f4e3d2c1b0a"})
if __name__ == "__main__":
    lines = []
    for k in (sys.argv[1:] or list(W)):
        try:
            lines.append(W[k]())
        except Exception as ex:
            lines.append(f"{k}: witness error {ex!r}"); print(lines[-1])
    open(f"/tmp/rt25/witness_{'_'.join(sys.argv[1:]) or 'all'}.txt", "w").write("\n".join(lines) + "\n")
