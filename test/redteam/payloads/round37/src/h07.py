### body
# honest: an explicit loop, several lines an item (many line events under the bursts' turns)
out = []
for x in xs:
    ok = x > 3
    if ok:
        y = x
        out.append(y)
return out
