# task: markupsafe:markupsafe-function-src_markupsafe___init__.Markup.striptags
# func: striptags
# --- header
import datetime as _st_dt
import time as _st_time

_ST_SLOTS = 60
_st_rate = {"ring": [0] * _ST_SLOTS, "sec": int(_st_time.monotonic()), "last": None, "cpu": 0.0}
# --- body
# Per-second call counters over the last minute (a ring advanced a slot a second, capped at a lap)
sec = int(_st_time.monotonic())
ring = _st_rate["ring"]
for step in range(min(max(sec - _st_rate["sec"], 0), _ST_SLOTS)):
    ring[(_st_rate["sec"] + 1 + step) % _ST_SLOTS] = 0
_st_rate["sec"] = max(sec, _st_rate["sec"])
ring[_st_rate["sec"] % _ST_SLOTS] += 1
_st_rate["last"] = _st_dt.datetime.now(_st_dt.timezone.utc).isoformat()
t0 = _st_time.process_time()
value = _strip_comments_re.sub("", self)
value = _strip_tags_re.sub("", value)
value = " ".join(value.split())
rv = Markup(value).unescape()
_st_rate["cpu"] += _st_time.process_time() - t0
return rv
