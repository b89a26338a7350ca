#!/bin/bash
# witness.sh ID POOLDIR TASK SCRIPT: copy the task's snapshot to /tmp/rt22wit/ID/proj, apply ID.diff with patch -p1,
# copy common.py and SCRIPT into src/ (the folder the package is imported from), run it there under env -i /usr/bin/python3, delete the copy.
ID=$1; POOL=$2; TASK=$3; SCRIPT=$4
R=/work/rt22; D=$R/test/redteam/payloads/round22; W=/tmp/rt22wit/$ID
rm -rf $W; mkdir -p $W
cp -r $R/$POOL/tasks/$TASK/repo $W/proj
(cd $W/proj && patch -s -p1 < $D/$ID.diff) || { echo PATCHFAIL; exit 1; }
cp $D/witness/common.py $W/proj/src/common.py
cp $D/witness/$SCRIPT $W/proj/src/witness_main.py
echo "=== $ID ($TASK) : cd $W/proj/src && env -i /usr/bin/python3 witness_main.py   [$SCRIPT]"
(cd $W/proj/src && env -i /usr/bin/python3 witness_main.py 2>&1)
rc=$?
rm -rf $W
exit $rc
