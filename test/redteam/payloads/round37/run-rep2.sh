#!/bin/bash
# caught racy rows 3 more times under S (4 in all); honest rows under k1; sequential
cd /work/main/test/redteam/payloads/round37
S=composer-lab-test-suite
for r in "c01 scaled_3" "w01 scaled_3" "w01b scaled_3" "w02b scaled_3" "w07 scaled_3" "w06b scaled_3"; do ./grade.sh $r $S $S $S; done
for r in "h01 head_1" "h02 total_3" "h03 scaled_3" "h04 head_1" "h05 scaled_3" "h07 above_3" "h08 total_3"; do ./grade.sh $r key-one; done
