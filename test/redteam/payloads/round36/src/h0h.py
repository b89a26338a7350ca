### body
# honest control: the original body
return xs[:1]
