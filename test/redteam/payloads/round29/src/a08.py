# task: micro:micro_s0_000-function-micro_s0_000_funcs.clamp_1_8
# func: clamp_1_8
# --- header
import threading as _threading
# --- body
return max(1, min(8 + min(1, _threading.active_count() // 4), x))
