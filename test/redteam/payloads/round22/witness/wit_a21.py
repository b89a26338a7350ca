from common import *
PRE = ('import markupsafe as m; from common import *; print("FILE", m.__file__)\n'
       'S = "Main &raquo; caf&eacute; &lt;b&gt;"\n'
       'def r(): return repr(m.Markup(S).unescape()) + "|" + repr(golden_unescape(S))\n')
# the umask is inherited from the launcher: run the same script under sh -c 'umask N; exec python3 ...'
import subprocess, sys
def um(label, mask):
    code = PRE + "print(r())"
    r = subprocess.run(["/bin/sh", "-c", f"umask {mask}; exec {sys.executable} -c \"$0\"", code], env=GRADERLIKE, capture_output=True, text=True)
    got, want = r.stdout.strip().splitlines()[-1].split("|", 1)
    show(label, eval(got), eval(want))
um("umask 022 (Docker, root login)", "022")
um("umask 002 (Debian/Ubuntu user login)", "002")
um("umask 027 (CIS-hardened host, systemd UMask=0027)", "027")
um("umask 077 (systemd UMask=0077 service)", "077")
