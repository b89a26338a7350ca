// Round-twelve red team (issue 26 §7) as rows of the suite (test/redteam/round12.ts: 86 attempts from
// the contract alone against the run elsewhere): every row's payload (test/redteam/payloads/round12/<id>.diff)
// graded through gradeCompletion on one warm bwrap sandbox, two at a time, with the committed oracles;
// wrong bodies < 0.5 or flagged, honest ones 1 unflagged; `open` rows run as it.fails
// (test/redteam/suite.ts). Not every wrong body passes its visible tests (a52, a60 fail one).
import { ROUND12_POOLS, ROUND12_ROWS } from "./redteam/round12.js";
import { redteamSuite } from "./redteam/suite.js";

redteamSuite({ round: "12", pools: ROUND12_POOLS, rows: ROUND12_ROWS, minRows: 86 });
