### body
# honest control: the docstring body
return xs[:1]
