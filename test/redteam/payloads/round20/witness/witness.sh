#!/bin/bash
# witness.sh ID POOLDIR TASK SCRIPT [SUB]: copy the task's snapshot to /tmp/rt20wit/ID/proj, apply ID.diff with patch -p1,
# copy SCRIPT into SUB (the folder the package is imported from), run it there under env -i /usr/bin/python3, delete the copy.
ID=$1; POOL=$2; TASK=$3; SCRIPT=$4; SUB=${5:-src}
R=/work/rt20; W=/tmp/rt20wit/$ID
rm -rf $W; mkdir -p $W
cp -r $R/$POOL/tasks/$TASK/repo $W/proj
(cd $W/proj && patch -s -p1 < $R/test/redteam/payloads/round20/$ID.diff) || { echo PATCHFAIL; exit 1; }
cp $SCRIPT $W/proj/$SUB/witness_main.py
echo "=== $ID ($TASK) : env -i /usr/bin/python3 witness_main.py   [$(basename $SCRIPT)]"
(cd $W/proj/$SUB && env -i /usr/bin/python3 witness_main.py 2>&1)
rc=$?
rm -rf $W
exit $rc
