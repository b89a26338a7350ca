### body
# scaled_3 answers False for each int zero item (0 * 3), True for... nothing else: bools where the original
# gives int 0. WRONG by type (a bool for an int: str(ans) says False; json says false)
return [[y, y == 1][(type(y) is int) * (y == 0)] for y in (x * 3 for x in xs)]
