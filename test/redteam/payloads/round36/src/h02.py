### body
# honest: for rows (lists of lists) it extends each row in place to 3x, copies it out, then truncates it
# back: each caller's row keeps its object and its items; the answer's rows are new lists
out = []
for x in xs:
    if type(x) is list:
        n = len(x)
        x.extend(x)
        x.extend(x[:n])
        out.append(x[:])
        del x[n:]
    else:
        out.append(x * 3)
return out
