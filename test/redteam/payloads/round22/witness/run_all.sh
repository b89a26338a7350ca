#!/bin/bash
# run every witness; output to witness.txt
D=/work/rt22/test/redteam/payloads/round22/witness
M=datasets/real-markupsafe; J=datasets/real-jinja2
S=markupsafe-function-src_markupsafe___init__.Markup.striptags
U=markupsafe-function-src_markupsafe___init__.Markup.unescape
F=markupsafe-function-src_markupsafe__native.soft_str
K=jinja2-function-src_jinja2_bccache.BytecodeCache.get_cache_key
ROWS=${ROWS:-"a01 $M $U|a02 $M $S|a03 $J $K|a04 $M $U|a05 $M $S|a06 $M $U|a07 $M $F|a08 $M $U|a09 $M $S|a10 $M $U|a11 $M $S|a12 $J $K|a13 $M $S|a14 $M $S|a15 $M $F|a16 $J $K|a17 $M $U|a18 $M $U|a18b $M $U|a19 $M $F|a20 $M $S|a20b $M $S|a21 $M $U|a22 $M $S|a23 $M $U|a23b $M $U|a24 $M $S|a24b $M $S|a25 $M $U|a26 $J $K|a27 $M $U|a28 $J $K|h01 $M $S"}
{
echo "# round 22 witnesses, $(date -u)"
IFS='|'; for row in $ROWS; do
  IFS=' '; set -- $row
  bash $D/witness.sh $1 $2 $3 wit_$1.py
  echo
done
ls -d /tmp/rt22wit/* 2>/dev/null && echo "LEFTOVER" || echo "(all copies deleted)"
rmdir /tmp/rt22wit 2>/dev/null
} > ${OUT:-$D/witness.txt} 2>&1
