### body
# honest control: the original body
return [x * 3 for x in xs]
