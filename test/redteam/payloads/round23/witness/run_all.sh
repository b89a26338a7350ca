#!/bin/bash
# Re-run every witness (do NOT run under nice: a02/a04 read the process's nice value).
# Needs /tmp/rt23loc/en_US.UTF-8 for a19: localedef -i en_US -f UTF-8 /tmp/rt23loc/en_US.UTF-8
cd /work/rt23 && python3 test/redteam/payloads/round23/witness/wit.py "$@"
