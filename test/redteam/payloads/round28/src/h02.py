# task: markupsafe:markupsafe-function-src_markupsafe___init__.Markup.striptags
# func: striptags
# --- header
import time as _st_time

_st_cache = {}
_st_epoch = [_st_time.monotonic()]
# --- body
now = _st_time.monotonic()
if now - _st_epoch[0] > 60.0 or len(_st_cache) >= 512:
    _st_cache.clear()
    _st_epoch[0] = now
src = str.__str__(self)
hit = _st_cache.get(src)
if hit is not None:
    return hit
value = _strip_comments_re.sub("", self)
value = _strip_tags_re.sub("", value)
value = " ".join(value.split())
rv = Markup(value).unescape()
_st_cache[src] = rv
return rv
