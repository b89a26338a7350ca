// Round-thirteen red team (issue 26 §7) as rows of the suite (test/redteam/round13.ts: 97 attempts from
// the contract alone against env_probe's static scan and run-time audit hook, and the run elsewhere):
// every row's payload (test/redteam/payloads/round13/<id>.diff) graded through gradeCompletion on one
// warm bwrap sandbox, two at a time, with the committed oracles; wrong bodies < 0.5 or flagged,
// honest ones 1 unflagged; `open` rows run as it.fails (test/redteam/suite.ts).
import { ROUND13_POOLS, ROUND13_ROWS } from "./redteam/round13.js";
import { redteamSuite } from "./redteam/suite.js";

redteamSuite({ round: "13", pools: ROUND13_POOLS, rows: ROUND13_ROWS, minRows: 97 });
