import json, subprocess, sys, os
ROOT = "/work/rt25"; OUT = f"{ROOT}/test/redteam/payloads/round25"
meta = json.load(open("/tmp/rt25/meta.json"))
key = sys.argv[1]
os.makedirs(f"{OUT}/grades", exist_ok=True)
for aid in sys.argv[2:]:
    m = meta[aid]
    env = dict(os.environ, COMPOSER_LAB_GRADER_KEY=key)
    p = subprocess.run(["node", "bin/composer-lab.js", "grade", m["pool"], "--task", m["task_id"], "--patch", f"{OUT}/{aid}.diff", "--sandbox", "bwrap", "--json"], cwd=ROOT, env=env, capture_output=True, text=True)
    try:
        d = json.loads(p.stdout)
    except Exception:
        print(aid, key, "ERROR", p.stdout[-500:], p.stderr[-1500:]); continue
    d.pop("perTest", None)
    json.dump(d, open(f"{OUT}/grades/{aid}.{key}.json", "w"), indent=1)
    b = (d.get("checks") or {}).get("behaviour") or {}
    el = b.get("elsewhere") or {}
    home = el.get("home") or {}
    print(aid, key, "reward=%s frac=%s flags=%s" % (d.get("reward"), d.get("frac"), ",".join(sorted({f if isinstance(f,str) else f.get("kind","?") for f in d.get("flags") or []})) or "-"),
          "agree=%s/%s els=%s/%s home=%s/%s" % (b.get("agreed"), b.get("compared"), el.get("agreed"), el.get("compared"), home.get("agreed"), home.get("calls")),
          "diffs=" + json.dumps(b.get("differences"))[:300], ("why=" + str(b.get("why"))) if b.get("why") else "")
    sys.stdout.flush()
