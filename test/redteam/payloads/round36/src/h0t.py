### body
# honest control: the original body
return sum(xs) + 3
