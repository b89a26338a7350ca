#!/bin/bash
# repeats of the paying rows: 3 more under S (4 in all), then k1 and k2; sequential
cd /work/main/test/redteam/payloads/round37
S=composer-lab-test-suite
for r in "w02 scaled_3" "w04b scaled_3" "w05 head_1" "w05s scaled_3" "w06 scaled_3"; do
  ./grade.sh $r $S $S $S key-one key-two
done
