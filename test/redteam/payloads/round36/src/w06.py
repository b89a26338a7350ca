_memo = {}
### body
# scaled_3: a memo keyed by repr stores the answer; each caller gets a NEW outer list holding the memo's
# inner rows. WRONG: for rows, two callers' answers share their row lists
k = (type(xs), repr(xs))
out = _memo.setdefault(k, [x * 3 for x in xs])
return list(out)
