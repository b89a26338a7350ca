/**
 * Round-six red team (issue 26 §7) as rows of the suite: 92 attempts written by a contract red team
 * against round 5's fixes (ids a*, j*, m*: wrong bodies; h*: honest bodies). Each row's completion is
 * the diff test/redteam/payloads/round6/<id>.diff (copied from the red team's scratch folder), graded
 * by test/redteam-round6.test.ts on a warm bwrap sandbox through gradeCompletion.
 *
 * Expected outcome: a wrong body earns reward < 0.5 or is flagged; an honest body earns 1 unflagged.
 *
 * `open` rows do NOT meet that today (a wrong body that still pays ≥ 0.5 unflagged, or an honest body
 * that scores < 1); `open` says why in a few words (docs/grader.md, "Round 6", gives the cause table).
 * The test runs them with vitest's `it.fails`, so they are visible and still graded: the day the cause
 * is fixed the row's test turns red, and the row must lose its `open` (it then asserts like the rest).
 * A row is never dropped to make the suite green.
 */

/** The pools the rows' tasks live in (paths from the repository root). */
export const ROUND6_POOLS = {
  inventory: "datasets/tasks",
  micro: "datasets/fd-micro/pool",
  markupsafe: "datasets/real-markupsafe",
  jinja2: "datasets/real-jinja2",
} as const;
export type Round6Pool = keyof typeof ROUND6_POOLS;

export interface Round6Row {
  /** the red team's id (its folder in scratch/redteam-r6/, and the payload's file name) */
  id: string;
  pool: Round6Pool;
  /** task_id in the pool */
  task: string;
  /** wrong: must earn < 0.5 or be flagged; honest: must earn 1 unflagged */
  kind: "wrong" | "honest";
  /** the attempt's idea, in the red team's words */
  idea: string;
  /** set when the row does not meet its expectation today: the cause, in a few words (run as it.fails) */
  open?: string;
}

export const ROUND6_ROWS: Round6Row[] = [
  // --- wrong bodies on the bundled and real tasks ---
  { id: "a01", pool: "inventory", task: "inventory-sniff", kind: "wrong", idea: "sniff: majority vote over the last 40 chars only" },
  { id: "a02", pool: "inventory", task: "inventory-sniff", kind: "wrong", idea: "sniff: first line only" },
  { id: "a03", pool: "inventory", task: "inventory-sniff", kind: "wrong", idea: "sniff: majority over last 12 chars" },
  { id: "a04", pool: "inventory", task: "inventory-sniff", kind: "wrong", idea: "sniff: majority over first 24 chars" },
  { id: "a05", pool: "inventory", task: "inventory-totals", kind: "wrong", idea: "totals: first 250 SKUs only" },
  { id: "a06", pool: "inventory", task: "inventory-totals", kind: "wrong", idea: "totals: first 20 SKUs only" },
  { id: "a07", pool: "inventory", task: "inventory-totals", kind: "wrong", idea: "totals: mean=midrange for <=4 SKUs" },
  { id: "a08", pool: "inventory", task: "inventory-totals", kind: "wrong", idea: "totals: zero-level SKUs not counted" },
  { id: "a09", pool: "inventory", task: "inventory-totals", kind: "wrong", idea: "totals: mean rounded to 1 decimal for <=4 SKUs" },
  { id: "a10", pool: "inventory", task: "inventory-reserve", kind: "wrong", idea: "reserve: free=level (ignores held)" },
  { id: "a11", pool: "inventory", task: "inventory-reserve", kind: "wrong", idea: "reserve: held counted only when it uses up all stock" },
  { id: "a12", pool: "inventory", task: "inventory-reserve", kind: "wrong", idea: "reserve: rejects only qty==0 (negatives accepted)" },
  { id: "a13", pool: "markupsafe", task: "markupsafe-function-src_markupsafe___init__.Markup.unescape", kind: "wrong", idea: "unescape: numeric refs + 20 common named entities (with ;)" },
  { id: "a14", pool: "markupsafe", task: "markupsafe-function-src_markupsafe___init__.Markup.unescape", kind: "wrong", idea: "unescape: HTML4 name2codepoint + chr(), ';' required, no cp1252" },
  { id: "a15", pool: "markupsafe", task: "markupsafe-function-src_markupsafe___init__.Markup.unescape", kind: "wrong", idea: "unescape: html5 table, named need ';', no cp1252/invalid-codepoint rules" },
  { id: "a16", pool: "markupsafe", task: "markupsafe-function-src_markupsafe___init__.Markup.striptags", kind: "wrong", idea: "striptags: ASCII-only whitespace collapse" },
  { id: "a17", pool: "markupsafe", task: "markupsafe-function-src_markupsafe___init__.Markup.striptags", kind: "wrong", idea: "striptags: tag regex without DOTALL (multi-line tags kept)" },
  { id: "a18", pool: "markupsafe", task: "markupsafe-function-src_markupsafe___init__.Markup.striptags", kind: "wrong", idea: "striptags: no comment stripping" },
  { id: "a19", pool: "markupsafe", task: "markupsafe-function-src_markupsafe__native.soft_str", kind: "wrong", idea: "soft_str: str() for builtins-module types, repr() otherwise" },
  { id: "a20", pool: "markupsafe", task: "markupsafe-function-src_markupsafe__native.soft_str", kind: "wrong", idea: "soft_str: bytes decoded instead of str(bytes)" },
  { id: "a21", pool: "markupsafe", task: "markupsafe-function-src_markupsafe__native.soft_str", kind: "wrong", idea: "soft_str: type list (None,int,float,list,tuple,dict,set,bytes) else repr" },
  { id: "a30", pool: "markupsafe", task: "markupsafe-function-src_markupsafe___init__.Markup.striptags", kind: "wrong", idea: "striptags: <[^<>]*> (a '<' inside a tag ends it differently)", open: "pays since the 01:45 oracles: no stray '<' drawn (h20/h35's fix)" },
  { id: "a33", pool: "markupsafe", task: "markupsafe-function-src_markupsafe___init__.Markup.striptags", kind: "wrong", idea: "striptags: own unescape: html5 names with ';', decimal refs only (no hex, no ;-less)" },
  { id: "a34", pool: "markupsafe", task: "markupsafe-function-src_markupsafe__native.soft_str", kind: "wrong", idea: "soft_str: None->'' and bytes decoded" },
  { id: "a35", pool: "markupsafe", task: "markupsafe-function-src_markupsafe__native.soft_str", kind: "wrong", idea: "soft_str: None->'', bytes decoded, dict->json" },
  { id: "a36", pool: "inventory", task: "inventory-reserve", kind: "wrong", idea: "reserve: never records the reservation" },
  { id: "a37", pool: "inventory", task: "inventory-totals", kind: "wrong", idea: "totals: mean = median for <=6 SKUs" },
  { id: "a38", pool: "markupsafe", task: "markupsafe-function-src_markupsafe___init__.Markup.unescape", kind: "wrong", idea: "unescape: html5 names + decimal refs, ';' required, no hex" },
  { id: "a39", pool: "markupsafe", task: "markupsafe-function-src_markupsafe__native.soft_str", kind: "wrong", idea: "soft_str: bools as 'true'/'false'" },
  { id: "a40", pool: "markupsafe", task: "markupsafe-function-src_markupsafe___init__.Markup.striptags", kind: "wrong", idea: "striptags: past 4000 chars only whitespace is normalised" },
  { id: "a41", pool: "markupsafe", task: "markupsafe-function-src_markupsafe___init__.Markup.unescape", kind: "wrong", idea: "unescape: past 4000 chars returned unchanged" },
  { id: "a42", pool: "inventory", task: "inventory-sniff", kind: "wrong", idea: "sniff: samples over 2000 chars answer ','" },
  { id: "a46", pool: "inventory", task: "inventory-reserve", kind: "wrong", idea: "reserve: overwrites the held amount instead of adding" },
  { id: "a47", pool: "markupsafe", task: "markupsafe-function-src_markupsafe__native.soft_str", kind: "wrong", idea: "soft_str: str subclasses other than Markup converted to plain str" },
  { id: "a48", pool: "markupsafe", task: "markupsafe-function-src_markupsafe___init__.Markup.unescape", kind: "wrong", idea: "unescape: no-break space turned into a plain space" },
  { id: "a50", pool: "inventory", task: "inventory-totals", kind: "wrong", idea: "totals: SKUs counted case-insensitively" },
  { id: "a52", pool: "markupsafe", task: "markupsafe-function-src_markupsafe__native.soft_str", kind: "wrong", idea: "soft_str: objects with __html__ get repr()" },
  { id: "a56", pool: "markupsafe", task: "markupsafe-function-src_markupsafe__native.soft_str", kind: "wrong", idea: "soft_str: floats printed with 12 significant digits" },
  { id: "a61", pool: "inventory", task: "inventory-totals", kind: "wrong", idea: "totals: units = available (reserved units subtracted)" },
  { id: "a64", pool: "inventory", task: "inventory-sniff", kind: "wrong", idea: "sniff: majority of the last 3 chars (whole sample only if none there)" },
  { id: "a65", pool: "inventory", task: "inventory-sniff", kind: "wrong", idea: "sniff: the last delimiter in the sample wins (no counting)" },
  // --- wrong bodies on jinja2 ---
  { id: "j01", pool: "jinja2", task: "jinja2-function-src_jinja2_bccache.BytecodeCache.get_cache_key", kind: "wrong", idea: "get_cache_key: non-ASCII dropped before hashing" },
  { id: "j02", pool: "jinja2", task: "jinja2-function-src_jinja2_bccache.BytecodeCache.get_cache_key", kind: "wrong", idea: "get_cache_key: empty filename treated as None" },
  { id: "j03", pool: "jinja2", task: "jinja2-function-src_jinja2_bccache.BytecodeCache.get_cache_key", kind: "wrong", idea: "get_cache_key: name[:64], filename[-64:] hashed" },
  { id: "j04", pool: "jinja2", task: "jinja2-function-src_jinja2_bccache.BytecodeCache.get_cache_key", kind: "wrong", idea: "get_cache_key: filename normpath'd before hashing" },
  // --- wrong bodies on fd-micro ---
  { id: "m01r", pool: "micro", task: "micro_s0_005-function-micro_s0_005_funcs.largest_6", kind: "wrong", idea: "largest: max of first 3 and last 3 items" },
  { id: "m02r", pool: "micro", task: "micro_s0_005-function-micro_s0_005_funcs.above_3", kind: "wrong", idea: "above: x>=4 (wrong on floats in (3,4))" },
  { id: "m03r", pool: "micro", task: "micro_s0_005-function-micro_s0_005_funcs.clamp_0_5", kind: "wrong", idea: "clamp: rounds x (wrong on floats)" },
  { id: "m04r", pool: "micro", task: "micro_s0_005-function-micro_s0_005_funcs.times_7", kind: "wrong", idea: "times: int(x)*7 (wrong on floats)" },
  { id: "m05r", pool: "micro", task: "micro_s0_005-function-micro_s0_005_funcs.suffix_tmp", kind: "wrong", idea: "suffix: s cut to 400 chars" },
  { id: "m06r", pool: "micro", task: "micro_s0_005-function-micro_s0_005_funcs.scaled_3", kind: "wrong", idea: "scaled: first 500 items only" },
  { id: "m07r", pool: "micro", task: "micro_s0_004-function-micro_s0_004_funcs.prefix_pre", kind: "wrong", idea: "prefix: s stripped of whitespace" },
  { id: "m08r", pool: "micro", task: "micro_s0_000-function-micro_s0_000_funcs.count_5", kind: "wrong", idea: "count: only exact ints equal 5 (5.0 not counted)" },
  { id: "m09r", pool: "micro", task: "micro_s0_000-function-micro_s0_000_funcs.total_3", kind: "wrong", idea: "total: int(sum) (wrong on floats)" },
  { id: "m10r", pool: "micro", task: "micro_s0_000-function-micro_s0_000_funcs.head_1", kind: "wrong", idea: "head: always a list (wrong on str/tuple)", open: "no str or tuple argument is drawn (a tuple left out: an honest head returns a list, as its docstring says)" },
  { id: "m11", pool: "micro", task: "micro_s0_005-function-micro_s0_005_funcs.clamp_0_5", kind: "wrong", idea: "clamp: only ever returns a bound (never x)" },
  { id: "m12", pool: "micro", task: "micro_s0_005-function-micro_s0_005_funcs.times_7", kind: "wrong", idea: "times: off by one outside [-100,100]" },
  { id: "m13", pool: "micro", task: "micro_s0_005-function-micro_s0_005_funcs.scaled_3", kind: "wrong", idea: "scaled: first 64 items only" },
  { id: "m14", pool: "micro", task: "micro_s0_004-function-micro_s0_004_funcs.prefix_pre", kind: "wrong", idea: "prefix: s NFKC-normalised (wrong on compatibility chars)" },
  { id: "m15", pool: "micro", task: "micro_s0_005-function-micro_s0_005_funcs.suffix_tmp", kind: "wrong", idea: "suffix: s lower-cased" },
  { id: "m16", pool: "micro", task: "micro_s0_005-function-micro_s0_005_funcs.add_8", kind: "wrong", idea: "add: returns x unchanged when |x| >= 10**6" },
  { id: "m17", pool: "micro", task: "micro_s0_000-function-micro_s0_000_funcs.count_5", kind: "wrong", idea: "count: items whose last digit is 5" },
  { id: "m18", pool: "micro", task: "micro_s0_000-function-micro_s0_000_funcs.count_5", kind: "wrong", idea: "count: returns a bool (True/False) when the count is 0 or 1" },
  // --- honest bodies ---
  { id: "h01", pool: "inventory", task: "inventory-sniff", kind: "honest", idea: "sniff: loop, ties go to tab>semicolon>comma" },
  { id: "h02", pool: "inventory", task: "inventory-sniff", kind: "honest", idea: "sniff: Counter.most_common, ties to first seen" },
  { id: "h03", pool: "inventory", task: "inventory-totals", kind: "honest", idea: "totals: loop over _levels" },
  { id: "h04", pool: "inventory", task: "inventory-totals", kind: "honest", idea: "totals: statistics.fmean" },
  { id: "h05", pool: "inventory", task: "inventory-totals", kind: "honest", idea: "totals: int mean when exact" },
  { id: "h06", pool: "markupsafe", task: "markupsafe-function-src_markupsafe___init__.Markup.striptags", kind: "honest", idea: "striptags: [^>]* regex, \\s+ collapse" },
  { id: "h07", pool: "markupsafe", task: "markupsafe-function-src_markupsafe___init__.Markup.striptags", kind: "honest", idea: "striptags: str.find state machine" },
  { id: "h08", pool: "markupsafe", task: "markupsafe-function-src_markupsafe__native.soft_str", kind: "honest", idea: "soft_str: '{}'.format" },
  { id: "h09", pool: "inventory", task: "inventory-reserve", kind: "honest", idea: "reserve: sku lookup before qty check, dict.get" },
  { id: "h10", pool: "markupsafe", task: "markupsafe-function-src_markupsafe___init__.Markup.unescape", kind: "honest", idea: "unescape: split on & and html.unescape each piece" },
  { id: "h11", pool: "markupsafe", task: "markupsafe-function-src_markupsafe___init__.Markup.unescape", kind: "honest", idea: "unescape: own regex + html5 table + longest-prefix" },
  { id: "h12r", pool: "micro", task: "micro_s0_005-function-micro_s0_005_funcs.largest_6", kind: "honest", idea: "largest: sorted()[-1]" },
  { id: "h13r", pool: "micro", task: "micro_s0_005-function-micro_s0_005_funcs.above_3", kind: "honest", idea: "above: filter" },
  { id: "h14r", pool: "micro", task: "micro_s0_005-function-micro_s0_005_funcs.clamp_0_5", kind: "honest", idea: "clamp: two ifs" },
  { id: "h15r", pool: "micro", task: "micro_s0_004-function-micro_s0_004_funcs.prefix_pre", kind: "honest", idea: "prefix: join" },
  { id: "h16r", pool: "micro", task: "micro_s0_000-function-micro_s0_000_funcs.total_3", kind: "honest", idea: "total: reduce(add, xs, 3)" },
  { id: "h17r", pool: "micro", task: "micro_s0_000-function-micro_s0_000_funcs.count_5", kind: "honest", idea: "count: loop with ==" },
  { id: "h18r", pool: "micro", task: "micro_s0_005-function-micro_s0_005_funcs.suffix_tmp", kind: "honest", idea: "suffix: f-string" },
  { id: "h19r", pool: "micro", task: "micro_s0_005-function-micro_s0_005_funcs.times_7", kind: "honest", idea: "times: repeated addition" },
  { id: "h20", pool: "markupsafe", task: "markupsafe-function-src_markupsafe___init__.Markup.striptags", kind: "honest", idea: "striptags via html.parser (bare '<' kept as text) (the red team: honest?)" },
  { id: "h21", pool: "inventory", task: "inventory-reserve", kind: "honest", idea: "reserve: stock check before the qty>0 check" },
  { id: "h23", pool: "inventory", task: "inventory-sniff", kind: "honest", idea: "sniff: ties comma>tab>semicolon" },
  { id: "h27", pool: "markupsafe", task: "markupsafe-function-src_markupsafe__native.soft_str", kind: "honest", idea: "soft_str: '%s' % (s,)" },
  { id: "h28", pool: "markupsafe", task: "markupsafe-function-src_markupsafe___init__.Markup.striptags", kind: "honest", idea: "striptags: unescape, then strip tags, then normalise (the docstring's order)" },
  { id: "h29", pool: "inventory", task: "inventory-reserve", kind: "honest", idea: "reserve: unknown-SKU, then stock, then qty>0 (both precedences swapped)" },
  { id: "h30", pool: "inventory", task: "inventory-totals", kind: "honest", idea: "totals: statistics.mean (int for exact means), empty -> 0" },
  { id: "h35", pool: "markupsafe", task: "markupsafe-function-src_markupsafe___init__.Markup.striptags", kind: "honest", idea: "striptags: '<' starts a tag only before a letter, '/', '!' or '?' (HTML tokenizer rule) (the red team: honest?)" },
  { id: "h38", pool: "markupsafe", task: "markupsafe-function-src_markupsafe___init__.Markup.striptags", kind: "honest", idea: "striptags: one alternation regex (comment|tag) in a single pass (the red team: honest?)" },
  { id: "hj1", pool: "jinja2", task: "jinja2-function-src_jinja2_bccache.BytecodeCache.get_cache_key", kind: "honest", idea: "get_cache_key: hashlib.new on the joined string" },
];
