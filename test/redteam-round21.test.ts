// Round-twenty-one red team (issue 26 §7; test/redteam/round21.ts: attempts from the contract
// against round 20's run at home, on the real markupsafe and jinja2 tasks): every row's payload
// graded through gradeCompletion on one warm bwrap sandbox, two at a time, with the committed
// oracles; wrong bodies < 0.5 or flagged, honest ones 1 unflagged; chance rows may pay where their
// draw says (test/redteam/suite.ts CHANCES).
import { ROUND21_POOLS, ROUND21_ROWS } from "./redteam/round21.js";
import { redteamSuite } from "./redteam/suite.js";

redteamSuite({ round: "21", pools: ROUND21_POOLS, rows: ROUND21_ROWS, minRows: 17 });
