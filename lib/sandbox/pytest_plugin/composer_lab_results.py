"""pytest plugin: one JSON line per test report (node id, phase, outcome) and per collection
error, written to $COMPOSER_LAB_RESULTS. Loaded with `-p composer_lab_results`."""
import json
import os

_out = None


def _write(obj):
    global _out
    if _out is None:
        _out = open(os.environ.get("COMPOSER_LAB_RESULTS", "/results/results.jsonl"), "a", buffering=1)
    _out.write(json.dumps(obj) + "\n")


def _longrepr(report):
    if not report.longrepr:
        return None
    text = str(report.longrepr)
    return text[-2000:]


def pytest_collectreport(report):
    if report.failed:
        _write({"nodeid": report.nodeid, "phase": "collect", "outcome": "error", "longrepr": _longrepr(report)})


def pytest_runtest_logreport(report):
    rec = {"nodeid": report.nodeid, "phase": report.when, "outcome": report.outcome, "duration": round(report.duration, 6)}
    if hasattr(report, "wasxfail"):
        rec["wasxfail"] = True
    if report.failed or (report.skipped and report.when != "call"):
        rec["longrepr"] = _longrepr(report)
    _write(rec)


def pytest_sessionfinish(session, exitstatus):
    _write({"nodeid": "", "phase": "session", "outcome": "finished", "exitstatus": int(exitstatus)})
