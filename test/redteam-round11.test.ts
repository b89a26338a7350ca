// Round-eleven red team (issue 26 §7) as rows of the suite (test/redteam/round11.ts: 88 attempts from
// the contract alone against round 10's fixes): every row's payload (test/redteam/payloads/round11/<id>.diff)
// graded through gradeCompletion on one warm bwrap sandbox, two at a time, with the committed oracles;
// wrong bodies < 0.5 or flagged, honest ones 1 unflagged; `open` rows run as it.fails
// (test/redteam/suite.ts). Not every wrong body passes its visible tests (a41, a46 fail one).
import { ROUND11_POOLS, ROUND11_ROWS } from "./redteam/round11.js";
import { redteamSuite } from "./redteam/suite.js";

redteamSuite({ round: "11", pools: ROUND11_POOLS, rows: ROUND11_ROWS, minRows: 88 });
