### body
# probe: total_3 answers True where the answer is the int 1 (and False for 0). WRONG by type (bool for int)
ans = sum(xs) + 3
return [ans, ans == 1][(type(ans) is int) * (0 <= ans <= 1)]
