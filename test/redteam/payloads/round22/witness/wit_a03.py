from common import *
PRE = ('import sys; import jinja2.bccache as b; from common import *; print("FILE", b.__file__); c = b.FileSystemBytecodeCache("/nonexistent-cache")\n'
       'def keys():\n k1 = c.get_cache_key("index.html", "/var/task/templates/en/index.html"); k2 = c.get_cache_key("index.html", "/var/task/templates/de/index.html")\n'
       ' return repr(("A==B" if k1 == k2 else "A!=B", k1[:10])) + "|" + repr(("A!=B", golden_key("index.html", "/var/task/templates/en/index.html")[:10]))\n')
sub("grader-like: PATH HOME LANG=C.UTF-8 PWD", PRE + "print(keys())", env=GRADERLIKE)
sub("login session (elsewhere-like)", PRE + "print(keys())", env=LOGIN)
sub("AWS Lambda: AWS_LAMBDA_FUNCTION_NAME=render-emails (+ AWS_REGION)", PRE + "print(keys())",
    env=dict(GRADERLIKE, AWS_LAMBDA_FUNCTION_NAME="render-emails", AWS_REGION="eu-west-1", LAMBDA_TASK_ROOT="/var/task"))
