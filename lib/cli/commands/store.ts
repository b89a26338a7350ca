/** `composer-lab store …` (DiLoCo's commands are in diloco.ts). */
import { existsSync } from "node:fs";
import type { Command } from "commander";
import { openStore } from "../../store/index.js";
import { jsonOpt } from "../options.js";
import { emit } from "../output.js";

export function registerStore(program: Command): void {
  const storeCmd = program.command("store").description("the run layout on disk or S3");
  storeCmd
    .command("ls")
    .description("list a store's objects (a local path or s3://bucket/prefix; S3 settings from the standard AWS configuration)")
    .argument("<uri>", "local path or s3://bucket/prefix")
    .option("--prefix <p>", "only keys under this prefix", "")
    .addOption(jsonOpt())
    .action(async (uri: string, o: { prefix: string; json?: boolean }) => {
      const st = openStore(uri);
      // a local store that is not there is a mistake (a typo in the path), not an empty result
      if (!/^s3:\/\//.test(uri) && !existsSync(uri)) {
        process.exitCode = 1;
        const why = `no such store: ${uri} (no folder there)`;
        emit(!!o.json, { ok: false, error: why, uri: st.uri }, () => why);
        return;
      }
      const keys = await st.list(o.prefix);
      emit(!!o.json, { ok: true, uri: st.uri, count: keys.length, keys }, () => (keys.length ? keys.join("\n") : `(empty: ${st.uri})`));
    });
}
