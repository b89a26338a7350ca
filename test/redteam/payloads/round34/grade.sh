#!/bin/bash
# usage: grade.sh ID FUNC KEY...   (sequential)
id=$1; fn=$2; shift 2
for k in "$@"; do
  out=$(COMPOSER_LAB_GRADER_KEY=$k timeout 300 npx tsx scratch/grade-payload.ts datasets/fd-micro/pool micro_s0_000-function-micro_s0_000_funcs.$fn test/redteam/payloads/round34/$id.diff 2>&1 | tr '\n' ' ' | cut -c1-400)
  echo "$(date -u +%H:%M:%S) $id $fn key=$k :: $out" | tee -a test/redteam/payloads/round34/results.log
done
