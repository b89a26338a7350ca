"""Strings that Python regexes match, for composer-lab's hidden-input builder (issue 26): the oracle
composes inputs from pieces; the regexes the original's reached code works with (behave.py's
coverage mode reports them) give the forms that code handles, which the pieces never contain (a
decimal `&#38;`, a reference without `;`, a comment `<!-- -->`).

    python3 -I -S regex_samples.py < {"patterns": [{"pattern": str, "flags": int}], "per_pattern": N,
                                      "seed": S, "start": I, "budget_ms": MS}

Writes one JSON line per pattern from `start` on, in order: {"i": INDEX, "samples": [str...]} (at most N,
distinct, each one `re.search` matches; [] for a pattern that does not compile, is over 2,000
characters, or gives nothing within its work cap, MAX_STEPS; `budget_ms` is a wall-clock safety net
behind it, which only a pathological pattern reaches), then {"end": true}. The caller (regex_samples.ts)
kills the process when one pattern takes too long (the regex engine's C loop cannot be interrupted
from Python, e.g. catastrophic backtracking in the final check) and restarts it at the next index:
each pattern's samples depend only on (seed, pattern, flags), never on the patterns before it.

Why not a library: Hypothesis's `from_regex` (Debian python3-hypothesis 6.67, here only as a
dependency of python3-torch) parses Python syntax and is seedable, but its distribution suits a
property test, not a fuzzer's dictionary: measured on this machine, 64 examples of `a.b` under
DOTALL gave no newline, `x{1,32}` never gave the maximal 32, and `[^a-z]` gave mostly '0' and
astral characters, never the ASCII separators parsers branch on; it also has no time cap. npm's
randexp reads JavaScript syntax. So this walks Python's own parse tree (re._parser on 3.11+,
sre_parse before) with choices biased to what a parser's branches tell apart.
"""
import json
import random
import sys
import time

try:  # 3.11+
    import re._parser as _parser
    import re._constants as C
except ImportError:  # pragma: no cover - before 3.11
    import sre_parse as _parser
    import sre_constants as C
import re

MAX_PATTERN_CHARS = 2000
MAX_SAMPLE_CHARS = 4096
MAX_STEPS = 50_000  # tree nodes visited over all of a pattern's samples: a deterministic work cap
UNBOUNDED_EXTRA = 3  # an unbounded repeat draws at most min + this many
BOUNDED_CAP = 256  # a bounded repeat draws at most min + this many (its max when smaller)

_WS = " \t\n\r\x0b\x0c"
_UNI_DIGIT = "\u0663\u0969\uff19"  # ARABIC-INDIC THREE, DEVANAGARI THREE, FULLWIDTH NINE
_UNI_WORD = "\u00e9\u00df\u01c5\u4e2d\u0130\u017f\u212a"  # é ß ǅ 中 İ ſ K (Kelvin): case folding oddities
_UNI_SPACE = "\u00a0\u2003\u2028\x1c\x85"
_UNI_OTHER = "\u00ab\u2014\u20ac\U0001f600\x00\x7f"
# the candidates for `.` and negated sets: ASCII first (what parsers branch on), a few others
ALPHABET = "".join(chr(c) for c in range(0x20, 0x7F)) + "\t\n\r\x0b\x0c" + _UNI_DIGIT + _UNI_WORD + _UNI_SPACE + _UNI_OTHER

CAT = {
    C.CATEGORY_DIGIT: ("0189", _UNI_DIGIT),
    C.CATEGORY_SPACE: (_WS, _UNI_SPACE),
    C.CATEGORY_WORD: ("azAZ_09q", _UNI_WORD + _UNI_DIGIT),
}
NOT_CAT = {C.CATEGORY_NOT_DIGIT: C.CATEGORY_DIGIT, C.CATEGORY_NOT_SPACE: C.CATEGORY_SPACE, C.CATEGORY_NOT_WORD: C.CATEGORY_WORD}


class Abandon(Exception):
    """This sample cannot be finished (too big, no candidate character, out of time)."""


def in_category(ch, cat, ascii_only):
    if cat in NOT_CAT:
        return not in_category(ch, NOT_CAT[cat], ascii_only)
    if ascii_only and ord(ch) > 127:
        return False
    if cat == C.CATEGORY_DIGIT:
        return ch.isdecimal()
    if cat == C.CATEGORY_SPACE:
        return ch.isspace() or (not ascii_only and ch in "\x1c\x1d\x1e\x1f\x85")
    if cat == C.CATEGORY_WORD:
        return ch.isalnum() or ch == "_"
    return False


def in_set(ch, items, flags):
    """Approximate membership of a parsed [...] (the final re.search is the judge)."""
    chars = {ch, ch.lower(), ch.upper()} if flags & re.IGNORECASE else {ch}
    ascii_only = bool(flags & re.ASCII)
    negate = False
    hit = False
    for op, av in items:
        if op == C.NEGATE:
            negate = True
        elif op == C.LITERAL:
            hit = hit or any(ord(c) == av for c in chars)
        elif op == C.RANGE:
            hit = hit or any(av[0] <= ord(c) <= av[1] for c in chars)
        elif op == C.CATEGORY:
            hit = hit or any(in_category(c, av, ascii_only) for c in chars)
    return hit != negate


class Walker:
    def __init__(self, rng, deadline, offsets, steps):
        self.rng = rng
        self.steps = steps  # [nodes visited], shared by a pattern's samples
        self.deadline = deadline
        self.offsets = offsets  # per choice point [offset, visits], kept over a pattern's samples
        self.groups = {}
        self.size = 0

    def choose(self, key, n):
        """An index below n: each choice point cycles through its n alternatives as it is visited
        (over all of a pattern's samples, so an alternative inside a branch alternates each time
        the branch is taken), from an offset drawn once; after n visits sometimes at random."""
        if n <= 1:
            return 0
        st = self.offsets.get(key)
        if st is None:
            st = self.offsets[key] = [self.rng.randrange(n), 0]
        v = st[1]
        st[1] += 1
        if v >= n and self.rng.random() < 0.25:
            return self.rng.randrange(n)
        return (st[0] + v) % n

    def emit(self, out, s):
        self.size += len(s)
        if self.size > MAX_SAMPLE_CHARS:
            raise Abandon()
        out.append(s)

    def case(self, ch, flags):
        if flags & re.IGNORECASE and self.rng.random() < 0.5:
            return ch.swapcase() if len(ch.swapcase()) == 1 else ch
        return ch

    def outside(self, pred):
        cands = [c for c in ALPHABET if not pred(c)]
        if not cands:
            raise Abandon()
        # ASCII first: the first 95 + 5 candidates are printable ASCII and its whitespace
        ascii_cands = [c for c in cands if ord(c) < 128]
        pool = ascii_cands if ascii_cands and self.rng.random() < 0.8 else cands
        return self.rng.choice(pool)

    def any_char(self, key, flags):
        """`.`: a newline (DOTALL only), printable ASCII, other whitespace and controls, or beyond
        ASCII, the class rotating with the sample index."""
        kinds = [ALPHABET[:95], ALPHABET[:95], " \t\r\x0b\x0c\x00\x7f", _UNI_WORD + _UNI_OTHER + _UNI_SPACE + _UNI_DIGIT]
        if flags & re.DOTALL:
            kinds.append("\n")
        return self.rng.choice(kinds[self.choose(key, len(kinds))])

    def in_member(self, items, flags):
        if items and items[0][0] == C.NEGATE:
            return self.outside(lambda c: not in_set(c, items, flags))
        opts = [it for it in items if it[0] in (C.LITERAL, C.RANGE, C.CATEGORY)]
        if not opts:
            raise Abandon()
        pick = self.choose(id(items), len(opts))
        op, av = opts[pick]
        if op == C.LITERAL:
            return self.case(chr(av), flags)
        if op == C.RANGE:
            lo, hi = av
            end = self.choose((id(items), pick), 3)  # a range's ends, and inside it
            c = lo if end == 0 else hi if end == 1 else self.rng.randint(lo, hi)
            return self.case(chr(c), flags)
        if av in CAT:
            ascii_part, uni_part = CAT[av]
            if flags & re.ASCII or not uni_part or self.rng.random() < 0.75:
                return self.rng.choice(ascii_part)
            return self.rng.choice(uni_part)
        return self.outside(lambda c: in_category(c, NOT_CAT[av], bool(flags & re.ASCII)))

    def repeat_count(self, key, lo, hi):
        top = lo + UNBOUNDED_EXTRA if hi == C.MAXREPEAT else min(hi, lo + BOUNDED_CAP)
        counts = sorted({lo, min(lo + 1, top), top, self.rng.randint(lo, top)} | ({0, 1} & set(range(lo, top + 1))))
        return counts[self.choose(key, len(counts))]

    def walk(self, sub, flags, out):
        self.steps[0] += len(sub.data) if hasattr(sub, "data") else len(sub)
        if self.steps[0] > MAX_STEPS or time.monotonic() > self.deadline:
            raise Abandon()
        for node in sub.data if hasattr(sub, "data") else sub:
            op, av = node
            if op == C.LITERAL:
                self.emit(out, self.case(chr(av), flags))
            elif op == C.NOT_LITERAL:
                self.emit(out, self.outside(lambda c: in_set(c, [(C.LITERAL, av)], flags)))
            elif op == C.ANY:
                self.emit(out, self.any_char(id(node), flags))  # a newline only under DOTALL
            elif op == C.IN:
                self.emit(out, self.in_member(av, flags))
            elif op == C.BRANCH:
                alts = av[1]
                self.walk(alts[self.choose(id(av), len(alts))], flags, out)
            elif op == C.SUBPATTERN:
                group, add, delete, p = av
                start = len(out)
                self.walk(p, (flags | add) & ~delete, out)
                if group is not None:
                    self.groups[group] = "".join(out[start:])
            elif op == getattr(C, "ATOMIC_GROUP", None):
                self.walk(av, flags, out)
            elif op in (C.MAX_REPEAT, C.MIN_REPEAT, getattr(C, "POSSESSIVE_REPEAT", None)):
                lo, hi, p = av
                for _ in range(self.repeat_count(id(av), lo, hi)):
                    self.walk(p, flags, out)
            elif op == C.GROUPREF:
                self.emit(out, self.groups.get(av, ""))
            elif op == C.GROUPREF_EXISTS:
                group, yes, no = av
                branch = yes if group in self.groups else no
                if branch is not None:
                    self.walk(branch, flags, out)
            elif op in (C.AT, C.ASSERT, C.ASSERT_NOT):
                pass  # anchors and lookarounds emit nothing (the final check drops what they reject)
            else:
                raise Abandon()  # an opcode this walker does not know: no guess


def samples(pattern, flags, per, seed, budget_s):
    if not isinstance(pattern, str) or len(pattern) > MAX_PATTERN_CHARS or per <= 0:
        return []
    flags &= ~re.DEBUG
    try:
        compiled = re.compile(pattern, flags)
        tree = _parser.parse(pattern, flags)
    except Exception:
        return []
    flags = tree.state.flags  # with the pattern's inline flags
    rng = random.Random("%s\x00%d\x00%s" % (seed, flags, pattern))
    deadline = time.monotonic() + budget_s
    found = []
    seen = set()
    offsets = {}
    steps = [0]
    for k in range(per * 4):
        if steps[0] > MAX_STEPS or time.monotonic() > deadline:
            break
        w = Walker(rng, deadline, offsets, steps)
        out = []
        try:
            w.walk(tree, flags, out)
        except (Abandon, RecursionError):
            continue
        s = "".join(out)
        if s in seen:
            continue
        seen.add(s)
        if compiled.search(s) is not None:
            found.append(s)
            if len(found) >= per:
                break
    return found


def main():
    req = json.load(sys.stdin)
    pats = req["patterns"]
    per = int(req.get("per_pattern", 8))
    seed = req.get("seed", 0)
    budget_s = req.get("budget_ms", 2000) / 1000.0
    # started: the per-pattern clock begins here, not at the interpreter's start-up (seconds on a
    # loaded machine)
    sys.stdout.write(json.dumps({"ready": True}) + "\n")
    sys.stdout.flush()
    for i in range(int(req.get("start", 0)), len(pats)):
        p = pats[i]
        try:
            got = samples(p.get("pattern"), int(p.get("flags", 0)), per, seed, budget_s)
        except Exception:
            got = []
        sys.stdout.write(json.dumps({"i": i, "samples": got}) + "\n")
        sys.stdout.flush()
    sys.stdout.write(json.dumps({"end": True}) + "\n")
    sys.stdout.flush()


if __name__ == "__main__":
    main()
