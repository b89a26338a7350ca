### body
# probe for w18: answers wrong (99 appended) where a row holds a float: flagged iff a judged call holds float rows
out = [x * 3 for x in xs]
return out + [99] * min(1, sum(type(v) is float for r in xs if type(r) is list for v in r))
