import { Option } from "commander";
import { SANDBOX_NAMES } from "../sandbox/index.js";

export const jsonOpt = () => new Option("--json", "print one JSON object on stdout (logs go to stderr)");

export const sandboxChoice = () =>
  new Option("--sandbox <name>", "bwrap | docker | none (none = unsandboxed, only when asked)").choices(["auto", ...SANDBOX_NAMES]).default("auto");
