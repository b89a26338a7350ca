import cliProgress from "cli-progress";

export interface Progress {
  /** Advance by `n` (default 1); `label` names the item just finished or now running. */
  tick(n?: number, label?: string): void;
  stop(): void;
}

/**
 * A progress indicator on stderr: a bar on a TTY, otherwise one plain line per tick (so CI logs
 * still show where long work is). stdout is left alone: it carries `--json` results.
 */
export function progress(total: number, title: string, opts: { quiet?: boolean } = {}): Progress {
  if (opts.quiet) return { tick() {}, stop() {} };
  if (process.stderr.isTTY) {
    const bar = new cliProgress.SingleBar(
      { stream: process.stderr, format: `${title} [{bar}] {value}/{total} {label}`, hideCursor: true, clearOnComplete: false },
      cliProgress.Presets.shades_classic,
    );
    bar.start(total, 0, { label: "" });
    return {
      tick: (n = 1, label = "") => bar.increment(n, { label }),
      stop: () => bar.stop(),
    };
  }
  // Off a TTY: a line at each 10% step (and at most every 5 s otherwise), not one per item.
  let done = 0;
  let lastStep = -1;
  let lastAt = Date.now();
  return {
    tick(n = 1, label = "") {
      done += n;
      const step = total > 0 ? Math.floor((10 * done) / total) : 10;
      if (step !== lastStep || Date.now() - lastAt > 5000 || done >= total) {
        lastStep = step;
        lastAt = Date.now();
        process.stderr.write(`${title} ${done}/${total}${label ? ` ${label}` : ""}\n`);
      }
    },
    stop() {},
  };
}
