#!/bin/bash
# the paying rows once more at the newest HEAD (the parent committed during this round)
cd /work/main/test/redteam/payloads/round37
while pgrep -f run-rep2.sh >/dev/null; do sleep 5; done
S=composer-lab-test-suite
for r in "w02 scaled_3" "w04b scaled_3" "w05 head_1" "w05s scaled_3" "w06 scaled_3"; do ./grade.sh $r $S; done
nice -n 19 python3 verify.py > verify.out 2>&1
