import json, os
ROOT = "/work/rt25"; OUT = f"{ROOT}/test/redteam/payloads/round25"
meta = json.load(open("/tmp/rt25/meta.json"))
WITHDRAWN = {"a01", "a02", "a03", "a04", "a05"}
order = sorted(meta, key=lambda k: (k[0] != "a" and k[0] != "c", k[0] == "h", k))
order = [k for k in order if k.startswith("a")] + [k for k in order if k.startswith("c")] + [k for k in order if k.startswith("h")]
rows = ["id\ttask_id\tpool\tkind\trt25a\trt25b\trt25c\tflags\ttell"]
for k in order:
    m = meta[k]
    rs, flags = [], set()
    for key in ("rt25a", "rt25b", "rt25c"):
        p = f"{OUT}/grades/{k}.{key}.json"
        if os.path.exists(p):
            d = json.load(open(p))
            rs.append(str(d.get("reward")))
            for f in d.get("flags") or []:
                flags.add(f["kind"] if isinstance(f, dict) else str(f))
        else:
            rs.append("")
    # only rt25a counts for rows that did not pay there
    if rs[0] not in ("1",) and m["kind"] == "wrong":
        rs[1] = rs[2] = ""
    kind = m["kind"]
    tell = m["tell"]
    if k in WITHDRAWN:
        tell = "WITHDRAWN (not wrong on CPython 3.11: no eval-breaker check inside the window, so the GIL never switches there; see the b row) " + tell
    rows.append("\t".join([k, m["task_id"], m["pool"], kind, *rs, ",".join(sorted(flags)) or "-", tell]))
open(f"{OUT}/SUMMARY.tsv", "w").write("\n".join(rows) + "\n")
print("\n".join(r[:160] for r in rows))
