"""pytest plugin: one JSON line per test report (node id, phase, outcome) and per collection
error, written to $COMPOSER_LAB_RESULTS. Loaded with `-p composer_lab_results`.

Code under test runs in the same sandbox and could append forged lines to the results file. With
COMPOSER_LAB_SIGNED=1 the runner passes a one-time key on stdin, read here at import time (before
pytest captures fd 0 and before any test module is imported), and every line is HMAC-signed; the
runner drops and counts lines whose signature does not verify.
"""
import hashlib
import hmac
import json
import os

_out = None


def _read_key():
    if os.environ.get("COMPOSER_LAB_SIGNED") != "1":
        return None
    data = b""
    try:
        while not data.endswith(b"\n") and len(data) < 256:
            chunk = os.read(0, 1)
            if not chunk:
                break
            data += chunk
    except OSError:
        return None
    return data.strip() or None


_key = _read_key()


def _write(obj):
    global _out
    if _out is None:
        _out = open(os.environ.get("COMPOSER_LAB_RESULTS", "/results/results.jsonl"), "a", buffering=1)
    line = json.dumps(obj)
    if _key:
        line = json.dumps({"r": line, "s": hmac.new(_key, line.encode(), hashlib.sha256).hexdigest()})
    _out.write(line + "\n")


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
