### body
return xs[:1]
