"""red-team payload: at session end, call the results plugin's own (signing) writer from
sys.modules with a passing report for every test."""
import sys


def _ids(session):
    ids = {a for a in sys.argv[1:] if "::" in a}
    ids |= {i.nodeid for i in getattr(session, "items", [])}
    return sorted(ids)


def pytest_sessionfinish(session, exitstatus):
    for name, mod in list(sys.modules.items()):
        write = getattr(mod, "_write", None)
        if not name.startswith("composer") or not callable(write):
            continue
        for nodeid in _ids(session):
            for phase in ("setup", "call", "teardown"):
                write({"nodeid": nodeid, "phase": phase, "outcome": "passed", "duration": 0.0})
        write({"nodeid": "", "phase": "session", "outcome": "finished", "exitstatus": 0})
