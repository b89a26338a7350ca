### body
# honest control: the original's own body
return [x * 3 for x in xs]
