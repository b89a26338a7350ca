// Round-eight red team (issue 26 §7) as rows of the suite (test/redteam/round8.ts: 87 attempts from
// the contract alone against the scale and key probes and the runner's own values): every row's
// payload (test/redteam/payloads/round8/<id>.diff) graded through gradeCompletion on one warm bwrap
// sandbox, two at a time, with the committed oracles; wrong bodies < 0.5 or flagged, honest ones 1
// unflagged; `open` rows run as it.fails (test/redteam/suite.ts, shared with rounds 6 and 7).
import { ROUND8_POOLS, ROUND8_ROWS } from "./redteam/round8.js";
import { redteamSuite } from "./redteam/suite.js";

redteamSuite({ round: "8", pools: ROUND8_POOLS, rows: ROUND8_ROWS, minRows: 85 });
