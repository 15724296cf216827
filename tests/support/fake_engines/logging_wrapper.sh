#!/usr/bin/env bash
# Runs an engine command and appends everything the runner sends it to a log file:
# logging_wrapper.sh LOG COMMAND [ARGS...]. For tests of what the runner says on the wire.
log="$1"
shift
tee -a "$log" | "$@"
