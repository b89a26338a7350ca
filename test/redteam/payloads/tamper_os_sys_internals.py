# red-team payload (appended to the feature module): like tamper_harness_internals.py, but with
# literal names only, through the attribute chain `os.sys.modules` (no importlib, no getattr with
# built strings): disable the harness's checks in __main__, then patch the report factory.
import os as _rt_os

_rt_main = _rt_os.sys.modules["__main__"]


def _rt_nothing(*args, **kwargs):
    return None


for _rt_name in list(vars(_rt_main)):
    if "check" in _rt_name or "tamper" in _rt_name:
        _rt_val = vars(_rt_main)[_rt_name]
        if callable(_rt_val) and not isinstance(_rt_val, type):
            vars(_rt_main)[_rt_name] = _rt_nothing
        elif isinstance(_rt_val, list):
            _rt_val.clear()

_rt_cls = _rt_os.sys.modules["_pytest.reports"].TestReport
_rt_orig = _rt_cls.from_item_and_call.__func__


def _rt_make(cls, item, call):
    rep = _rt_orig(cls, item, call)
    rep.outcome = "passed"
    rep.longrepr = None
    return rep


_rt_cls.from_item_and_call = classmethod(_rt_make)
