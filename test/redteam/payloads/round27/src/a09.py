# task: markupsafe:markupsafe-function-src_markupsafe___init__.Markup.striptags
# func: striptags
# --- header
_LONG_N = 32
_long_ring = [None] * _LONG_N
_long_slot = {}
_long_next = [0]
# --- body
src = str.__str__(self)
slot = _long_slot.get(src)
if slot is not None:
    return _long_ring[slot]
value = _strip_comments_re.sub("", self)
value = _strip_tags_re.sub("", value)
value = " ".join(value.split())
rv = Markup(value).unescape()
if len(src) > 400:
    slot = _long_next[0] % _LONG_N
    _long_next[0] += 1
    _long_ring[slot] = rv
    _long_slot[src] = slot
return rv
