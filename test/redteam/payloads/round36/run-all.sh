#!/bin/bash
# grades every row, one at a time, under the keys given
cd /work/main/test/redteam/payloads/round36
for row in w01:scaled_3 w01h:head_1 w02:head_1 w02b:head_1 w03:scaled_3 w04:total_3 w05:head_1 w06:scaled_3 w06b:scaled_3 w06c:scaled_3 w07:total_3 w07s:total_3 w08:total_3 w09:head_1 w10:scaled_3 w11:head_1 w12:scaled_3 c02b:head_1 c06b:scaled_3 h01:total_3 h02:scaled_3 h03:head_1 h04:scaled_3 h05:head_1 h06:total_3 h07:scaled_3 h08:total_3 h09:head_1 h10:scaled_3 h0t:total_3 h0s:scaled_3 h0h:head_1; do
  ./grade.sh ${row%%:*} ${row##*:} "$@"
done
