#!/usr/bin/env node
// Runs the CLI from the TypeScript sources (tsx), so edits to lib/ take effect without a build.
import { register } from "tsx/esm/api";

register();
const { main } = await import("../lib/cli/main.ts");
await main();
