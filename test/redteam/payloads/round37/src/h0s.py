### body
return [x * 3 for x in xs]
