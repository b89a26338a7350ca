# shared helper, pasted at the top of each witness script
import html, re
def golden_striptags(s):
    v = re.sub(r"<!--.*?-->", "", s, flags=re.DOTALL)
    v = re.sub(r"<.*?>", "", v, flags=re.DOTALL)
    return html.unescape(" ".join(v.split()))
def show(ctx, got, want):
    print(f"  {ctx:<58} got={got!r:<34} golden={want!r:<30} {'RIGHT' if got == want else 'WRONG'}")
