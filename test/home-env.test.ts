// The run elsewhere's environment (issue 26, round 21): each variable the package looked up by name
// in the graded run is given the other way there (flipEnv), and a grade through an executor keeps the
// drawn machine's fields (the job carried them since round 21's session).
import { describe, expect, it } from "vitest";
import { flipEnv } from "../lib/sandbox/index.js";
import { jobOf, runOptionsOf } from "../lib/executor/index.js";

describe("the run at home's environment", () => {
  it("unsets what the package found, sets what it missed, and never touches HOME, PATH, TZ, the temporary folder or the interpreter's own", () => {
    const env = { PATH: "/usr/bin", HOME: "/home/a", LANG: "C.UTF-8", PWD: "/home/a", USER: "a" };
    const out = flipEnv(env, { found: ["LANG", "PWD", "HOME", "PATH"], missing: ["KUBERNETES_SERVICE_HOST", "LC_ALL", "PYTHONPATH", "TZ", "TMPDIR", "LD_PRELOAD", "bad name"] });
    expect(out).toEqual({ PATH: "/usr/bin", HOME: "/home/a", USER: "a", KUBERNETES_SERVICE_HOST: "1", LC_ALL: "C.UTF-8" });
    // (nothing looked up: the drawn environment as it is)
    expect(flipEnv(env, undefined)).toBe(env);
    expect(flipEnv(env, { found: [], missing: [] })).toEqual(env);
  });

  it("a job keeps the drawn machine's working directory, accounts, home folder, bare environment and open-file limit", () => {
    const options = { workdir: "/tmp/w", cwd: "/home/a/src", accounts: ["systemd-timesync"], tmpfs: ["/home/a"], bareEnv: true, nofile: 4096, env: { HOME: "/home/a" } };
    const back = runOptionsOf(jobOf("j1", ["python3", "-c", "pass"], options));
    expect({ cwd: back.cwd, accounts: back.accounts, tmpfs: back.tmpfs, bareEnv: back.bareEnv, nofile: back.nofile, env: back.env }).toEqual({ cwd: "/home/a/src", accounts: ["systemd-timesync"], tmpfs: ["/home/a"], bareEnv: true, nofile: 4096, env: { HOME: "/home/a" } });
  });
});
