// Round-thirty-eight red team (issue 26 §7; test/redteam/round38.ts: bodies wrong after 2,000 calls
// except where they tell the run elsewhere apart by data flow, on fd-micro): every row's payload
// graded through gradeCompletion on one warm bwrap sandbox, two at a time, with the committed
// oracles; wrong bodies < 0.5 or flagged, honest ones 1 unflagged; open rows run as it.fails.
import { ROUND38_POOLS, ROUND38_ROWS } from "./redteam/round38.js";
import { redteamSuite } from "./redteam/suite.js";

redteamSuite({ round: "38", pools: ROUND38_POOLS, rows: ROUND38_ROWS, minRows: 5 });
