import type { ChildProcess } from "node:child_process";

/** A long-lived helper process with requests in flight keeps this process alive; an idle one must
 *  not (the warm grader's zygote, the pyast helper): its handle and pipes ref'd or unref'd. */
export function holdChild(child: ChildProcess, busy: boolean): void {
  const handles = [child, child.stdin, child.stdout, child.stderr] as unknown as ({ ref?: () => void; unref?: () => void } | null)[];
  for (const h of handles) (busy ? h?.ref : h?.unref)?.call(h);
}
