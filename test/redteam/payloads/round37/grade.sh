#!/bin/bash
# usage: grade.sh ID FUNC KEY...   (sequential; one grade at a time). Each line is stamped with HEAD.
cd /work/main
id=$1; fn=$2; shift 2
for k in "$@"; do
  ver="$(git rev-parse --short HEAD)"
  out=$(COMPOSER_LAB_GRADER_KEY=$k timeout 300 npx tsx scratch/grade-payload.ts datasets/fd-micro/pool micro_s0_000-function-micro_s0_000_funcs.$fn test/redteam/payloads/round37/$id.diff 2>&1 | tr '\n' ' ' | cut -c1-900)
  echo "$(date -u +%H:%M:%S) [$ver] $id $fn key=$k :: $out" | tee -a test/redteam/payloads/round37/results.log
done
