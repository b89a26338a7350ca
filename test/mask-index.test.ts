// Masks off sys.path (issue 26 round 3): which copies of a name found anywhere on a sandbox root are
// the project's. A name alone says little there (`utils` names hundreds of unrelated modules inside
// other packages), so a folder must hold the project's modules, a module file counts only for a
// single-module project, and metadata or archives of the name always count.
import { describe, expect, it } from "vitest";
import { withCopiesElsewhere, type MaskPlan, type ProjectModules } from "../lib/sandbox/index.js";

const plan = (names: string[]): MaskPlan => ({ sandbox: "host", names, dists: [], entries: [], harness_needs: [], why: null });
const SITE = "/usr/lib/python3/dist-packages";

describe("copies of the project elsewhere on the root", () => {
  const index = {
    utils: [`${SITE}/traitlets/utils/`, `${SITE}/traitlets/tests/utils.py`, "/usr/lib/sdk/third_party/utils/", "/opt/wheels/utils-1.0-py3-none-any.whl", `${SITE}/utils/`, `${SITE}/utils-1.0.dist-info/`],
    six: [`${SITE}/six.py`, `${SITE}/pip/_vendor/six.py`, `${SITE}/jedi/typeshed/six/`],
  };
  const listing = {
    [`${SITE}/traitlets/utils`]: ["__init__", "importstring", "sentinel"],
    "/usr/lib/sdk/third_party/utils": ["__init__", "paths", "text", "timing"],
    [`${SITE}/jedi/typeshed/six`]: ["__init__", "moves"],
  };
  const project: ProjectModules = new Map<string, string[] | "module">([["utils", ["__init__", "paths", "text", "timing"]], ["six", "module"]]);

  it("a package project: the folder holding its modules is masked, an unrelated folder or module of the same name is not; archives and metadata are", () => {
    const out = withCopiesElsewhere(plan(["utils"]), index, [SITE], project, listing).entries.map((e) => `${e.kind} ${e.path}`);
    expect(out).toContain("package /usr/lib/sdk/third_party/utils");
    expect(out).toContain("file /opt/wheels/utils-1.0-py3-none-any.whl");
    expect(out).not.toContain(`package ${SITE}/traitlets/utils`);
    expect(out.some((e) => e.includes("traitlets/tests/utils.py"))).toBe(false);
    // the top of a sys.path folder is the scan's own business (editable installs live there)
    expect(out.some((e) => e.endsWith(`${SITE}/utils`) || e.endsWith("utils-1.0.dist-info"))).toBe(false);
  });
  it("a single-module project: nested copies of the module are masked, folders of the name are not", () => {
    const out = withCopiesElsewhere(plan(["six"]), index, [SITE], project, listing).entries.map((e) => `${e.kind} ${e.path}`);
    expect(out).toEqual([`module ${SITE}/pip/_vendor/six.py`]);
  });
  it("without the project's layout every copy of the name is masked (the conservative side)", () => {
    const out = withCopiesElsewhere(plan(["utils"]), index, [SITE], new Map(), listing).entries.map((e) => e.path);
    expect(out).toEqual(expect.arrayContaining([`${SITE}/traitlets/utils`, "/usr/lib/sdk/third_party/utils"]));
  });
});
