import functools, builtins; print = functools.partial(builtins.print, flush=True)
import subprocess, sys
print(" script (python3 witness.py):")
subprocess.run([sys.executable, "-c", "import micro_s0_000.funcs as f; print('  ', f.__file__, 'add_3(1) =', f.add_3(1), '(golden 4)')"])
print(" interactive session (python3 -i, lines fed on stdin; the same holds at a terminal):")
subprocess.run([sys.executable, "-i", "-q"], input="import micro_s0_000.funcs as f\nprint('  ', f.__file__, 'add_3(1) =', f.add_3(1), '(golden 4)')\n", text=True)
