#!/bin/bash
# witness.sh ID POOLDIR TASK SCRIPTFILE [SRCSUB]  -> runs SCRIPTFILE (copied into the tree's src folder) under env -i /usr/bin/python3
ID=$1; POOL=$2; TASK=$3; SCRIPT=$4; SUB=${5:-src}
W=/tmp/rt18wit/$ID
rm -rf $W; mkdir -p $W
cp -r /work/wt-rt18/$POOL/tasks/$TASK/repo $W/proj
(cd $W/proj && patch -s -p1 < /work/wt-rt18/scratch/rt18/$ID.diff) || { echo PATCHFAIL; exit 1; }
cp $SCRIPT $W/proj/$SUB/witness_main.py
(cd $W/proj/$SUB && env -i /usr/bin/python3 witness_main.py 2>&1)
rc=$?
rm -rf $W
exit $rc
