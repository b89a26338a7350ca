_memo = {}
### body
# scaled_3 (w06 on rows refilled): the memo's entry is used only while its rows still equal a fresh answer;
# each caller gets a NEW outer list holding the memo's inner rows. WRONG: two callers share rows
out = [x * 3 for x in xs]
k = (type(xs), repr(xs))
e = _memo.setdefault(k, out)
return list([out, e][repr(e) == repr(out)])
