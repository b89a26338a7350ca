# Local check (plain python, no grader) that each micro wrong body is wrong where REPORT.md says.
import sys, textwrap, time
def load(id_):
    src = open(f"{id_}.py").read().split("\n")
    func = [l for l in src if l.startswith("# func: ")][0][8:].strip()
    hi, bi = src.index("# --- header"), src.index("# --- body")
    arg = "x" if func == "add_3" else "xs"
    code = "\n".join(src[hi+1:bi]) + f"\ndef {func}({arg}):\n" + textwrap.indent("\n".join(src[bi+1:]), "    ")
    g = {}; exec(code, g); return g[func]
def first_wrong(f, inputs, right):
    for i, a in enumerate(inputs):
        if f(a) != right(a): return i, a
    return None
tot = lambda xs: sum(xs) + 3
# a01: 8,704+ distinct lists, then an early one again
f = load("a01"); ins = [[i, 1] for i in range(9000)] + [[0, 1]]; print("a01", first_wrong(f, ins, tot))
f = load("a02"); ins = [[i, 2] for i in range(1200)]; print("a02", first_wrong(f, ins, tot))
f = load("a04"); ins = [[k, 7] for k in range(300) for _ in range(3)] + [[0, 7]]; print("a04", first_wrong(f, ins, tot))
f = load("a06"); xs = [1, 2]; f(xs); xs.append(5); print("a06 after append:", f(xs), "right:", tot(xs))
f = load("a07"); ins = [list(range(i, i + 8)) for i in range(2100)]; print("a07", first_wrong(f, ins, tot))
f = load("a08"); r = None
for i in range(9100): f(1000 + i)
print("a08", f(1000 + 0.5 - 0.5), f(1000.0) if False else f(1000), "(int ok)"); f2 = load("a08")
f2(2.5); [f2(i) for i in range(9001)]; print("a08 float asked again:", f2(2.5), "right 5.5")
f = load("a11"); [f(i) for i in range(3001)]; print("a11 new float after 3000:", f(2.5), "right 5.5")
f = load("a12"); print("a12 (needs 300 s uptime): now", f([1, 2]))
f = load("a13"); ins = [[i, 3] for i in range(200)] + [[0, 3]]; print("a13 tight loop", first_wrong(f, ins, tot))
