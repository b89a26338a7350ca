/**
 * commander argParsers for numeric options, so every command rejects a bad number at parse time
 * with the option's name (commander adds it), the accepted range and the value given — and --json
 * gets the same one-object error as any other parse failure. No heavy imports: light commands use it.
 */
import { InvalidArgumentError } from "commander";

const range = (min: number, max: number): string =>
  max === Number.MAX_SAFE_INTEGER ? `≥ ${min}` : `in ${min}..${max}`;

/** A whole number in [min, max]. */
export function wholeNumber(min = 0, max = Number.MAX_SAFE_INTEGER): (v: string) => number {
  return (v) => {
    const n = Number(v);
    if (v.trim() === "" || !Number.isInteger(n) || n < min || n > max) throw new InvalidArgumentError(`expected a whole number ${range(min, max)}, got "${v}"`);
    return n;
  };
}

/** A finite number between min and max; `above` / `below` make min / max exclusive (a weight > 0, a fraction < 1). */
export function realNumber(min = -Infinity, max = Infinity, opts: { above?: boolean; below?: boolean } = {}): (v: string) => number {
  const want = max === Infinity ? `${opts.above ? ">" : "≥"} ${min}` : `in ${opts.above ? "(" : "["}${min}, ${max}${opts.below ? ")" : "]"}`;
  return (v) => {
    const n = Number(v);
    const ok = Number.isFinite(n) && (opts.above ? n > min : n >= min) && (opts.below ? n < max : n <= max);
    if (v.trim() === "" || !ok) throw new InvalidArgumentError(`expected a number ${want}, got "${v}"`);
    return n;
  };
}
