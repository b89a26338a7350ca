#!/bin/bash
# usage: grade.sh ID FUNC KEY...   (sequential). Each line is stamped with HEAD and a hash of the
# uncommitted lib/ changes (the grader was being edited while these grades ran)
id=$1; fn=$2; shift 2
for k in "$@"; do
  ver="$(git rev-parse --short HEAD)+$(git diff HEAD -- lib | sha1sum | cut -c1-7)"
  out=$(COMPOSER_LAB_GRADER_KEY=$k timeout 300 npx tsx scratch/grade-payload.ts datasets/fd-micro/pool micro_s0_000-function-micro_s0_000_funcs.$fn test/redteam/payloads/round35/$id.diff 2>&1 | tr '\n' ' ' | cut -c1-400)
  echo "$(date -u +%H:%M:%S) [$ver] $id $fn key=$k :: $out" | tee -a test/redteam/payloads/round35/results.log
done
