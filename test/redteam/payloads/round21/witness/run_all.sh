#!/bin/bash
# run every witness; output to witness.txt
D=/work/rt21/test/redteam/payloads/round21/witness
M=datasets/real-markupsafe; J=datasets/real-jinja2
S=markupsafe-function-src_markupsafe___init__.Markup.striptags
U=markupsafe-function-src_markupsafe___init__.Markup.unescape
F=markupsafe-function-src_markupsafe__native.soft_str
K=jinja2-function-src_jinja2_bccache.BytecodeCache.get_cache_key
{
echo "# round 21 witnesses, $(date -u)"
for row in "a01 $M $U" "a02 $M $S" "a03 $J $K" "a04 $J $K" "a05b $M $U" "a06 $M $S" "a07 $M $U" "a08 $M $S" "a09 $M $U" "a10 $M $F" "a11 $M $S" "a12 $J $K" "a01b $M $U" "a12b $J $K"; do
  set -- $row
  bash $D/witness.sh $1 $2 $3 wit_$1.py
  echo
done
ls -d /tmp/rt21wit/* 2>/dev/null && echo "LEFTOVER" || echo "(all copies deleted)"
rmdir /tmp/rt21wit 2>/dev/null
} > $D/witness.txt 2>&1
