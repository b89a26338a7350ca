import subprocess, sys
code = r'''
import sys, markupsafe
from markupsafe import Markup
exec(open("common.py").read())
s = "Foo &amp; <b>Bar</b> &raquo; ok"
print("  markupsafe.__file__ =", markupsafe.__file__, " sys.flags.optimize =", sys.flags.optimize)
show("python3, sys.flags.optimize=%d (-O or PYTHONOPTIMIZE=1)" % sys.flags.optimize, Markup(s).striptags(), golden_striptags(s))
'''
open("common.py", "w").write(open("/work/rt19/test/redteam/payloads/round19/witness/common.py").read())
subprocess.run([sys.executable, "-c", code])      # as every grader run: no -O
subprocess.run([sys.executable, "-O", "-c", code])  # deployment: python -O (or PYTHONOPTIMIZE=1 in a Dockerfile)
subprocess.run([sys.executable, "-c", code], env={"PYTHONOPTIMIZE": "1"})
