/** `composer-lab cluster up|down|status --engine swarm|slurm`: a local cluster on 127.0.0.x. */
import { Option, type Command } from "commander";
import { clusterEngine, type ClusterState } from "../../executor/index.js";
import { fromRows, tableText } from "../../viz/index.js";
import { jsonOpt } from "../options.js";
import { emit, log } from "../output.js";
import { wholeNumber } from "../args.js";

const engineOpt = () => new Option("--engine <name>", "swarm (Docker Swarm) | slurm").choices(["swarm", "slurm"]).makeOptionMandatory();

const nodesTable = (s: ClusterState | null): string =>
  s ? tableText(fromRows(s.nodes.map((n) => ({ node: n.name, address: n.address, role: n.role, pid: n.pid ?? "-", endpoint: n.endpoint ?? "-" })))) : "no cluster is up";

export function registerCluster(program: Command): void {
  const cluster = program.command("cluster").description("a local cluster of N nodes on 127.0.0.x (Docker Swarm or Slurm) for the swarm/slurm executors");
  cluster
    .command("up")
    .description("start N nodes (idempotent); `cluster down` stops what this started")
    .addOption(engineOpt())
    .addOption(new Option("--nodes <n>", "nodes, the first one the manager/controller").default(2).argParser(wholeNumber(1)))
    .addOption(jsonOpt())
    .action(async (o: { engine: "swarm" | "slurm"; nodes: number; json?: boolean }) => {
      const t0 = performance.now();
      const state = await (await clusterEngine(o.engine)).up({ nodes: o.nodes, log });
      emit(!!o.json, { ok: true, seconds: (performance.now() - t0) / 1000, ...state }, () => nodesTable(state));
    });
  cluster
    .command("down")
    .description("leave the cluster and stop, by pid, every engine `cluster up` started")
    .addOption(engineOpt())
    .addOption(jsonOpt())
    .action(async (o: { engine: "swarm" | "slurm"; json?: boolean }) => {
      const r = await (await clusterEngine(o.engine)).down({ log });
      emit(!!o.json, { ok: true, engine: o.engine, stopped: r.stopped, wasUp: r.state !== null }, () => (r.state ? `stopped: ${r.stopped.join(", ") || "nothing (the nodes had already stopped)"}` : "no cluster was up"));
    });
  cluster
    .command("status")
    .description("the nodes `cluster up` started (from its state file)")
    .addOption(engineOpt())
    .addOption(jsonOpt())
    .action(async (o: { engine: "swarm" | "slurm"; json?: boolean }) => {
      const s = await (await clusterEngine(o.engine)).status();
      emit(!!o.json, { ok: true, up: s !== null, ...(s ?? {}) }, () => nodesTable(s));
    });
}
