from common import *
PRE = ('import markupsafe as m; from common import *; print("FILE", m.__file__)\n'
       'S = "<em>Caf&eacute;</em> &raquo; home"\n'
       'def r(): return repr(m.Markup(S).striptags()) + "|" + repr(golden_striptags(S))\n')
import subprocess, sys
def nice(label, n):
    code = PRE + "print(r())"
    cmd = [sys.executable, "-c", code] if n == 0 else ["/usr/bin/nice", "-n", str(n), sys.executable, "-c", code]
    r = subprocess.run(cmd, env=GRADERLIKE, capture_output=True, text=True)
    got, want = r.stdout.strip().splitlines()[-1].split("|", 1)
    show(label, eval(got), eval(want))
nice("normal priority", 0)
nice("nightly report job: nice -n 10 python3 ... (cron, systemd Nice=10)", 10)
