# shared helper, pasted at the top of each witness script
import html, re, subprocess, sys
def golden_striptags(s):
    v = re.sub(r"<!--.*?-->", "", s, flags=re.DOTALL)
    v = re.sub(r"<.*?>", "", v, flags=re.DOTALL)
    return html.unescape(" ".join(v.split()))
def show(ctx, got, want):
    print(f"  {ctx:<62} got={got!r:<34} golden={want!r:<30} {'RIGHT' if got == want else 'WRONG'}")
def sub(label, code, flags=(), env=None):
    # run CODE in a fresh interpreter with FLAGS and exactly ENV (nothing inherited); CODE prints 'got|want'
    r = subprocess.run([sys.executable, *flags, "-c", code], env=env or {}, capture_output=True, text=True)
    out = r.stdout.strip().splitlines()
    if not out:
        print("  ", label, "FAILED", r.stderr[-300:]); return
    got, want = out[-1].split("|")
    show(label, eval(got), eval(want))
