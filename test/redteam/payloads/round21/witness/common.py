# shared helper for the round-21 witnesses
import html, re, subprocess, sys, os
from hashlib import sha1

def golden_striptags(s):
    v = re.sub(r"<!--.*?-->", "", s, flags=re.DOTALL)
    v = re.sub(r"<.*?>", "", v, flags=re.DOTALL)
    return html.unescape(" ".join(v.split()))

def golden_key(name, filename=None):
    h = sha1(name.encode("utf-8"))
    if filename is not None:
        h.update(f"|{filename}".encode())
    return h.hexdigest()

def show(ctx, got, want):
    print(f"  {ctx:<66} got={got!r:<42.42} golden={want!r:<42.42} {'RIGHT' if got == want else 'WRONG'}")

GRADERLIKE = {"PATH": "/usr/local/bin:/usr/bin:/bin", "HOME": "/home/lucas", "LANG": "C.UTF-8", "PWD": os.getcwd()}

def sub(label, code, flags=(), env=None):
    """Run CODE in a fresh /usr/bin/python3 with FLAGS and exactly ENV (nothing inherited).
    CODE prints 'FILE <module file>' and, last, 'got|want' as reprs."""
    r = subprocess.run([sys.executable, *flags, "-c", code], env=dict(env or {}), capture_output=True, text=True)
    out = r.stdout.strip().splitlines()
    if not out or "|" not in out[-1]:
        print("  ", label, "FAILED", r.stdout[-300:], r.stderr[-600:]); return
    files = [l[5:] for l in out if l.startswith("FILE ")]
    got, want = out[-1].split("|", 1)
    show(label + (f"  [{files[0]}]" if files and sub.first else ""), eval(got), eval(want))
    sub.first = False
sub.first = True
