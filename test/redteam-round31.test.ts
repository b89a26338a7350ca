// Round-thirty-one red team (issue 26 §7; test/redteam/round31.ts: attempts from the contract against
// the in-place chains, kin asks, foreign kinds and history refills, on fd-micro): every row's payload
// graded through gradeCompletion on one warm bwrap sandbox, two at a time, with the committed
// oracles; wrong bodies < 0.5 or flagged, honest ones 1 unflagged; open rows run as it.fails.
import { ROUND31_POOLS, ROUND31_ROWS } from "./redteam/round31.js";
import { redteamSuite } from "./redteam/suite.js";

redteamSuite({ round: "31", pools: ROUND31_POOLS, rows: ROUND31_ROWS, minRows: 30 });
