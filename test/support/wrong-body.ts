/** A wrong completion for a task: its golden diff with the first added line of the body replaced by
 *  `return None` at the same indentation (the rest of the body stays, unreachable). */
export function wrongDiff(golden: string): string {
  let done = false;
  return golden.split("\n").map((l) => {
    if (done || !l.startsWith("+") || l.startsWith("+++")) return l;
    done = true;
    return `+${l.slice(1).match(/^\s*/)![0]}return None`;
  }).join("\n");
}
