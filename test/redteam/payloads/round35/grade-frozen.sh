#!/bin/bash
# usage: grade-frozen.sh ID FUNC KEY...  (sequential). Grades against a frozen copy of the eighteenth stop
# (git archive 03054d1 into /tmp/r35/tree, node_modules linked, scratch/grade-payload.ts copied), since
# /work/main's grader was being edited while this round ran. Logs to results-03054d1.log.
id=$1; fn=$2; shift 2
D=/work/main/test/redteam/payloads/round35
for k in "$@"; do
  out=$(cd /tmp/r35/tree && COMPOSER_LAB_GRADER_KEY=$k timeout 300 npx tsx scratch/grade-payload.ts datasets/fd-micro/pool micro_s0_000-function-micro_s0_000_funcs.$fn $D/$id.diff 2>&1 | tr '\n' ' ' | cut -c1-400)
  echo "$(date -u +%H:%M:%S) [03054d1] $id $fn key=$k :: $out" | tee -a $D/results-03054d1.log
done
