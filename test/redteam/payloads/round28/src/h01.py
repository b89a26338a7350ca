# task: micro:micro_s0_000-function-micro_s0_000_funcs.total_3
# func: total_3
# --- header
def _sum_builtin(xs):
    return sum(xs) + 3


def _sum_loop(xs):
    t = 3
    for v in xs:
        t = t + v
    return t


def _sum_fsum_free(xs):
    return 3 + sum(list(xs))


_WAYS = (_sum_builtin, _sum_loop, _sum_fsum_free)
_calls = [0]
# --- body
_calls[0] += 1
return _WAYS[_calls[0] % 3](xs)
