// Round-nine red team (issue 26 §7) as rows of the suite (test/redteam/round9.ts: 71 attempts from
// the contract alone against round 8's second pass: every scale call, the entries probe, project
// exceptions by class, the key probe's shifted pid and clock): every row's payload
// (test/redteam/payloads/round9/<id>.diff) graded through gradeCompletion on one warm bwrap sandbox,
// two at a time, with the committed oracles; wrong bodies < 0.5 or flagged, honest ones 1 unflagged;
// `open` rows run as it.fails (test/redteam/suite.ts); every wrong body passes its visible tests.
import { ROUND9_POOLS, ROUND9_ROWS } from "./redteam/round9.js";
import { redteamSuite } from "./redteam/suite.js";

redteamSuite({ round: "9", pools: ROUND9_POOLS, rows: ROUND9_ROWS, minRows: 71, wrongPassVisibleTests: true });
