import subprocess, sys
sys.path.insert(0, "/tmp/rt25")
import wit
A23 = '''
import sys, threading
sys.setswitchinterval(1e-6)
from markupsafe import Markup
m = Markup("fish &amp; chips " * 400)
b = threading.Barrier(16); res = []
def w():
    b.wait(); res.append(m.unescape()[:20])
ts = [threading.Thread(target=w) for _ in range(16)]
[t.start() for t in ts]; [t.join() for t in ts]
print(sorted(set(res)))
'''
A06 = '''
import sys, threading
sys.setswitchinterval(1e-6)
from markupsafe import Markup
m = Markup(("<p>fish &amp; chips</p> " * 300))
b = threading.Barrier(120); res = set()
def w():
    b.wait()
    for _ in range(30): res.add(m.striptags()[:30])
ts = [threading.Thread(target=w) for _ in range(120)]
[t.start() for t in ts]; [t.join() for t in ts]
print(sorted(res))
'''
A05 = wit.RACE.format(setup="from micro_s0_000.funcs import add_3", inputs="[1, 2, 3.5, -7]", call="add_3(v)", call_expr_seq="", reps=30000).replace("expect = []", "expect = [(lambda v: add_3(v))(v) for v in inputs]")
A01C = wit.RACE.format(setup="from markupsafe import Markup", inputs="[Markup('<b>a &amp; b</b>'), Markup('<i>x &lt; y</i>'), Markup('c <!-- z --> d')]", call="v.striptags()", call_expr_seq="", reps=30000).replace("expect = []", "expect = [(lambda v: v.striptags())(v) for v in inputs]")
which = sys.argv[1]
script = {"a01c": A01C, "a23": A23, "a06": A06, "a05b": A05}[which]
n = int(sys.argv[2])
wrong = 0
d = wit.tree(which, "body"); g = wit.tree(which, "golden")
import os
for i in range(n):
    outs = []
    for t in (g, d):
        pp = f"{t}/src" if os.path.isdir(f"{t}/src") else t
        p = subprocess.run(["/usr/bin/python3", "-c", script], env={"PATH": "/usr/bin:/bin", "PYTHONPATH": pp}, capture_output=True, text=True)
        outs.append(p.stdout.strip())
    if outs[0] != outs[1]:
        wrong += 1; last = outs
print(which, f"WRONG in {wrong} of {n} runs", (last if wrong else outs))
