import { describe, expect, it } from "vitest";
import { TemplateRegistry } from "../lib/hints/index.js";

describe("template slots are checked when a template is registered", () => {
  it("a misspelled slot names itself and the available slots", () => {
    expect(() => new TemplateRegistry().register("file_not_found", "Reminder: {eror_excerpt}. List the directory.")).toThrow(
      /template for "file_not_found": unknown slot \{eror_excerpt\}; available slots: .*\{error_excerpt\}/,
    );
    expect(() => new TemplateRegistry().register("x", { text: "{tool_name}", required: ["tool_nam", "tool_lst"] })).toThrow(/unknown slots \{tool_nam\}, \{tool_lst\}/);
  });

  it("known slots register and render", () => {
    const r = new TemplateRegistry().register("file_not_found", "Reminder: {tool_name} found no such file.");
    expect(r.dispatch("file_not_found", { error_kind: "file_not_found", tool_name: "Read" } as never)).toBe("Reminder: Read found no such file.");
  });
});
