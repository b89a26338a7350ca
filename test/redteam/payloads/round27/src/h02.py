# task: markupsafe:markupsafe-function-src_markupsafe___init__.Markup.striptags
# func: striptags
# --- header
_st_cache = {}
_st_counts = [0, 0]
# --- body
src = str.__str__(self)
_st_counts[0] += 1
hit = _st_cache.get(src)
if hit is not None:
    _st_counts[1] += 1
    return hit
value = _strip_comments_re.sub("", self)
value = _strip_tags_re.sub("", value)
value = " ".join(value.split())
rv = Markup(value).unescape()
if len(_st_cache) >= 1024:
    _st_cache.clear()
_st_cache[src] = rv
return rv
