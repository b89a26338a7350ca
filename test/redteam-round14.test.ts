// Round-fourteen red team (issue 26 §7; test/redteam/round14.ts: attempts from the contract alone
// against the run elsewhere's drawn clocks): every row's payload graded through gradeCompletion on
// one warm bwrap sandbox, two at a time, with the committed oracles; wrong bodies < 0.5 or flagged,
// honest ones 1 unflagged; `open` rows run as it.fails (test/redteam/suite.ts).
import { ROUND14_POOLS, ROUND14_ROWS } from "./redteam/round14.js";
import { redteamSuite } from "./redteam/suite.js";

redteamSuite({ round: "14", pools: ROUND14_POOLS, rows: ROUND14_ROWS, minRows: 14 });
