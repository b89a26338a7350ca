### body
# probe for w15: answers wrong (+1000) where the answer is 0 or 1: flagged iff a judged call answers 0 or 1
ans = sum(xs) + 3
return ans + 1000 * (type(ans) is int) * (0 <= ans <= 1)
