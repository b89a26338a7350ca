# shared helper for the round-22 witnesses (run under env -i /usr/bin/python3, from the patched snapshot's src/)
import html, re, subprocess, sys, os
from hashlib import sha1

def golden_striptags(s):
    v = re.sub(r"<!--.*?-->", "", s, flags=re.DOTALL)
    v = re.sub(r"<.*?>", "", v, flags=re.DOTALL)
    return html.unescape(" ".join(v.split()))

def golden_unescape(s):
    return html.unescape(s)

def golden_soft_str(s):
    return s if isinstance(s, str) else str(s)

def golden_key(name, filename=None):
    h = sha1(name.encode("utf-8"))
    if filename is not None:
        h.update(f"|{filename}".encode())
    return h.hexdigest()

def show(ctx, got, want):
    print(f"  {ctx:<72} got={got!r:<34.34} golden={want!r:<34.34} {'RIGHT' if got == want else 'WRONG'}")

# the grader-like environment: what every grader run has (PATH, HOME, LANG=C.UTF-8, PWD), plus a login session's
GRADERLIKE = {"PATH": "/usr/local/bin:/usr/bin:/bin", "HOME": "/home/lucas", "LANG": "C.UTF-8", "PWD": os.getcwd()}
LOGIN = dict(GRADERLIKE, USER="lucas", SHELL="/bin/bash", TERM="xterm-256color", LOGNAME="lucas",
             SSH_CONNECTION="10.0.0.5 51234 10.0.0.9 22", XDG_SESSION_TYPE="tty")

def sub(label, code, flags=(), env=None):
    """Run CODE in a fresh /usr/bin/python3 with FLAGS and exactly ENV (nothing inherited).
    CODE prints 'FILE <module file>' and, last, 'got|want' as reprs."""
    r = subprocess.run([sys.executable, *flags, "-c", code], env=dict(GRADERLIKE if env is None else env),
                       capture_output=True, text=True, timeout=60, cwd=os.getcwd())
    out = r.stdout.strip().splitlines()
    if not out or "|" not in out[-1]:
        print("  ", label, "FAILED", r.stdout[-300:], r.stderr[-900:]); return
    files = [l[5:] for l in out if l.startswith("FILE ")]
    got, want = out[-1].split("|", 1)
    show(label + (f"  [{', '.join(files)}]" if files and sub.first else ""), eval(got), eval(want))
    sub.first = False
sub.first = True
