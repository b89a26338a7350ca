### body
# honest control: the original body (a comment variant: new draws)
# v
return [x * 3 for x in xs]
