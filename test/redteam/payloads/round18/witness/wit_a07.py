import os
import jinja2
from jinja2.bccache import BytecodeCache
print("module", jinja2.__file__, "uid", os.getuid())
bc = BytecodeCache()
a = bc.get_cache_key("index.html", "/srv/site_a/templates/index.html")
b = bc.get_cache_key("index.html", "/srv/site_b/templates/index.html")
print("site_a key == site_b key ?", a == b)
