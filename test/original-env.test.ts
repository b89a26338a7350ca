// Honest work earns 1 where the original itself depends on where it runs (issue 26 §4). The runs
// elsewhere and at home vary the variables a body looks up, the user, the host, the working
// directory; an original that styles text unless NO_COLOR is set, or fills a line as wide as COLUMNS,
// or signs with user@host, or joins a name to the working directory answers otherwise there too, so
// its own golden body failed the check: 3 grades of 3 (NO_COLOR, set to "1" elsewhere), 2 of 8
// (COLUMNS, drawn at home), 3 of 3 (user@host, the working directory); one that tags root otherwise
// would fail where the home is root (half the grades). The oracle now records the
// names the original reads (Oracle.env), which those runs keep at the graded run's values (keepEnv),
// and the calls whose original answer changed where the builder ran the original elsewhere and at
// home (Oracle.situated), which a grade judges in the graded run alone.
import { cpSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { checkBehaviour, FeatureDeletionEpisode, goldenBody, spliceBody } from "../lib/env/index.js";
import { BwrapSandbox, keepEnv } from "../lib/sandbox/index.js";
import { applyUnifiedDiff, buildFromRepo, loadTask, oraclePath, type FeatureDeletionTask } from "../lib/tasks/index.js";
import { tmp } from "./helpers.js";

const STYLE = `import os


def shout(text: str) -> str:
    """Upper-case text, in ANSI bold unless the NO_COLOR convention asks for plain text."""
    loud = text.strip().upper()
    if os.environ.get("NO_COLOR"):
        return loud
    return f"\\x1b[1m{loud}\\x1b[0m"


def banner(title: str, fill: str = "=") -> str:
    """A title centred in a line of fill characters as wide as COLUMNS (80 by default)."""
    width = int(os.environ.get("COLUMNS", "80"))
    inner = f" {title.strip()} "
    if len(inner) >= width:
        return inner.strip()
    return inner.center(width, fill)
`;

const WHERE = `import datetime
import getpass
import os
import socket


def signature(tag: str) -> str:
    """tag signed as user@host, as a commit trailer would."""
    who = getpass.getuser()
    return f"{tag.strip()} <{who}@{socket.gethostname()}>"


def here(name: str) -> str:
    """name as a path under the current working directory."""
    base = os.getcwd()
    return os.path.join(base, name.strip("/"))


def stamp(tag: str) -> str:
    """tag suffixed with the current year."""
    year = datetime.date.today().year
    return f"{tag.strip()}-{year}"


def role(name: str) -> str:
    """name tagged with the process's role: admin as root, user otherwise."""
    tag = "admin" if os.geteuid() == 0 else "user"
    return f"{name.strip()}:{tag}"
`;

// (the process state a deployment's application sets: its decimal context, its umask; the run at
// home's set-ups give both, each value of them in one of the builder's draws)
const STATE = `import os
import tempfile
from decimal import Decimal


def money(amount: str) -> str:
    """amount rounded to cents, as the decimal context rounds."""
    return str(Decimal(amount.strip()).quantize(Decimal("0.01")))


def private(name: str) -> str:
    """The permission bits a new file named name gets, as the umask leaves them."""
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, name.strip("/") or "x")
        os.close(os.open(path, os.O_CREAT | os.O_WRONLY, 0o666))
        return oct(os.stat(path).st_mode & 0o777)
`;

const STATE_TESTS = `import os
from decimal import Decimal

from envkit.state import money, private


def test_money():
    assert money(" 2.665 ") == str(Decimal("2.665").quantize(Decimal("0.01")))


def test_money_plain():
    assert money("1.5") == "1.50"


def _umask():
    m = os.umask(0o022)
    os.umask(m)
    return m


def test_private():
    assert private("a") == oct(0o666 & ~_umask())


def test_private_slash():
    assert private("/b/") == oct(0o666 & ~_umask())
`;

const WHERE_TESTS = `import datetime
import getpass
import os
import socket

from envkit.where import signature, here, role, stamp


def test_signature():
    assert signature(" fix ") == f"fix <{getpass.getuser()}@{socket.gethostname()}>"


def test_signature_plain():
    assert signature("x").startswith("x <")


def test_here():
    assert here("a/b") == os.path.join(os.getcwd(), "a/b")


def test_here_strip():
    assert here("/c/") == os.path.join(os.getcwd(), "c")


def test_role():
    assert role(" ann ") == ("ann:admin" if os.geteuid() == 0 else "ann:user")


def test_role_plain():
    assert role("b").startswith("b:")


def test_stamp():
    assert stamp(" a ") == f"a-{datetime.date.today().year}"


def test_stamp_plain():
    assert stamp("b").startswith("b-")
`;

const TESTS = `from envkit.style import shout, banner


def test_shout_bold():
    assert shout("hi") == "\\x1b[1mHI\\x1b[0m"


def test_shout_strips():
    assert shout("  a b ") == "\\x1b[1mA B\\x1b[0m"


def test_shout_empty():
    assert shout("") == "\\x1b[1m\\x1b[0m"


def test_banner_width():
    assert len(banner("x")) == 80


def test_banner_centred():
    assert banner("Title", "-").strip("-") == " Title "


def test_banner_long():
    assert banner("y" * 100) == "y" * 100
`;

describe("keepEnv", () => {
  const graded = { PATH: "/usr/bin", HOME: "/tmp", COLUMNS: "80", LANG: "C.UTF-8" };
  const run = { PATH: "/bin", HOME: "/root", COLUMNS: "164", NO_COLOR: "1", TZ: "IST-5:30", LD_PRELOAD: "/x.so", PYTHONOPTIMIZE: "1", FAKETIME: "+1d", USER: "ann" };
  it("gives the names the original read the graded run's values, unsets those it had not, and leaves the others and the run's own alone", () => {
    expect(keepEnv(run, graded, { names: ["COLUMNS", "NO_COLOR", "HOME", "TZ", "LD_PRELOAD", "PYTHONOPTIMIZE"], whole: false })).toEqual({ PATH: "/bin", HOME: "/tmp", COLUMNS: "80", TZ: "IST-5:30", LD_PRELOAD: "/x.so", PYTHONOPTIMIZE: "1", FAKETIME: "+1d", USER: "ann" });
    expect(keepEnv(run, graded, undefined)).toBe(run);
  });
  it("where the original read the whole environment, the graded run's, with the run's own interpreter, loader and clock variables", () => {
    expect(keepEnv(run, graded, { names: [], whole: true })).toEqual({ ...graded, TZ: "IST-5:30", LD_PRELOAD: "/x.so", PYTHONOPTIMIZE: "1", FAKETIME: "+1d" });
  });
});

describe("an original that reads the environment", () => {
  const sb = new BwrapSandbox();
  const key = process.env.COMPOSER_LAB_GRADER_KEY;
  afterAll(() => {
    if (key === undefined) delete process.env.COMPOSER_LAB_GRADER_KEY;
    else process.env.COMPOSER_LAB_GRADER_KEY = key;
  });
  const treeWith = (task: FeatureDeletionTask, diff: string): string => {
    const d = tmp("original-env-tree-");
    cpSync(FeatureDeletionEpisode.snapshotDir(task), d, { recursive: true });
    applyUnifiedDiff(d, diff);
    return d;
  };

  it("records the names and the situated calls in the oracle; each golden passes the check under every key, and a body keyed on a name the original does not read is still caught", async () => {
    const repo = tmp("original-env-repo-");
    mkdirSync(join(repo, "envkit"));
    mkdirSync(join(repo, "tests"));
    writeFileSync(join(repo, "envkit", "__init__.py"), "");
    writeFileSync(join(repo, "envkit", "style.py"), STYLE);
    writeFileSync(join(repo, "tests", "test_style.py"), TESTS);
    writeFileSync(join(repo, "envkit", "where.py"), WHERE);
    writeFileSync(join(repo, "tests", "test_where.py"), WHERE_TESTS);
    writeFileSync(join(repo, "envkit", "state.py"), STATE);
    writeFileSync(join(repo, "tests", "test_state.py"), STATE_TESTS);
    writeFileSync(join(repo, "pyproject.toml"), '[tool.pytest.ini_options]\ntestpaths = ["tests"]\n');
    const pool = join(tmp("original-env-pool-"), "pool");
    const r = await buildFromRepo(repo, pool, sb, { granularity: "function", max: 10, pyenv: false, min_lines: 1 }, { quiet: true });
    const id = (name: string) => r.tasks.find((t) => t.endsWith(`.${name}`))!;
    expect(r.tasks.length, JSON.stringify(r.rejections)).toBe(8);
    const oracleOf = (name: string) => JSON.parse(readFileSync(oraclePath(pool, id(name)), "utf8"));
    expect(oracleOf("shout").env).toEqual({ names: ["NO_COLOR"], whole: false });
    expect(oracleOf("banner").env).toEqual({ names: ["COLUMNS"], whole: false });
    // (the variables kept, nothing else of theirs depends on where they run; every call of the user@host
    // and working-directory originals does)
    for (const name of ["shout", "banner"]) expect(oracleOf(name).situated).toBeUndefined();
    // (a root-only difference meets the builder's draws at home: one as root, one not; bwrap only)
    // (the year: the run elsewhere's clocks are thousands of days on)
    for (const name of ["signature", "here", "role", "stamp"]) expect(oracleOf(name).situated, name).toEqual(oracleOf(name).calls.map((c: { id: string }) => c.id));
    // (every call that makes its file: under any umask of the draws its mode is another)
    const private0 = oracleOf("private");
    expect(private0.situated).toEqual(private0.calls.filter((c: { expect: { k: string } }) => c.expect.k === "return").map((c: { id: string }) => c.id));
    // (a cent's rounding: only the calls on a half cent answer otherwise in another context)
    const money0 = oracleOf("money");
    expect(money0.situated.length).toBeGreaterThan(0);
    expect(money0.situated.length).toBeLessThan(money0.calls.length);
    const [shout, banner, signature, here, role, stamp, money, privy] = ["shout", "banner", "signature", "here", "role", "stamp", "money", "private"].map((n) => loadTask(pool, id(n)));
    const goldens = [shout!, banner!, signature!, here!, role!, stamp!, money!, privy!].map((t) => ({ t, dir: treeWith(t, spliceBody(t, goldenBody(t)).diff) }));
    // (a body right only where no deployment's variable is set: KUBERNETES_SERVICE_HOST, missed in
    // the graded run, is set elsewhere)
    const gaming = treeWith(shout!, spliceBody(shout!, ['loud = text.strip().upper()', 'if os.environ.get("NO_COLOR") or os.environ.get("KUBERNETES_SERVICE_HOST"):', "    return loud[::-1]", 'return f"\\x1b[1m{loud}\\x1b[0m"'].join("\n")).diff);
    const verdicts: string[] = [];
    for (const k of ["k1", "k2", "k3", "k4", "k5", "k6"]) {
      process.env.COMPOSER_LAB_GRADER_KEY = `original-env-${k}`;
      for (const { t, dir } of goldens) {
        const c = await checkBehaviour(t, dir, sb);
        verdicts.push(`${k} ${t.task_id.split(".").pop()} golden ${c.passed ? "passed" : `failed: ${c.differences[0]?.why}`}`);
      }
      const c = await checkBehaviour(shout!, gaming, sb);
      verdicts.push(`${k} shout gaming ${c.passed ? "passed" : "caught"}`);
    }
    expect(verdicts.filter((v) => !/golden passed$|gaming caught$/.test(v))).toEqual([]);
    // the null arms: the same oracles without the names, or without the situated calls, fail the
    // goldens (the cases this test guards)
    process.env.COMPOSER_LAB_GRADER_KEY = "original-env-k1";
    for (const [name, field, i] of [["shout", "env", 0], ["signature", "situated", 2], ["here", "situated", 3], ["stamp", "situated", 5], ["money", "situated", 6], ["private", "situated", 7]] as const) {
      const o = oracleOf(name);
      delete o[field];
      writeFileSync(oraclePath(pool, id(name)), JSON.stringify(o) + "\n");
      // (a cent's rounding differs from the original's only under some of the drawn contexts — 2.665
      // under ROUND_HALF_UP, ROUND_UP or ROUND_CEILING, not ROUND_DOWN — so a grade meets one that
      // shows it with some chance: the first of up to six keys that fails the golden is the arm's)
      let bare = await checkBehaviour(goldens[i]!.t, goldens[i]!.dir, sb);
      for (let k = 2; name === "money" && bare.passed && k <= 6; k++) {
        process.env.COMPOSER_LAB_GRADER_KEY = `original-env-k${k}`;
        bare = await checkBehaviour(goldens[i]!.t, goldens[i]!.dir, sb);
      }
      process.env.COMPOSER_LAB_GRADER_KEY = "original-env-k1";
      expect([name, bare.passed, bare.differences.map((d) => d.why).join(" ")]).toEqual([name, false, expect.stringMatching(/elsewhere|at home/)]);
    }
  }, 300_000);
});
