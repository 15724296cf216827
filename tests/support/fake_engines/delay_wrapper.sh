#!/usr/bin/env bash
# Runs an engine command and forwards what the runner sends it, sleeping before each line that
# starts with PREFIX: delay_wrapper.sh PREFIX SECONDS COMMAND [ARGS...]. For tests of the
# runner's clock: a late answer to `go` is an overrun; a slow GTP `play` is set-up, which the
# clock must not charge.
prefix="$1"
seconds="$2"
shift 2
while IFS= read -r line; do
  case "$line" in "$prefix"*) sleep "$seconds" ;; esac
  printf '%s\n' "$line"
done | "$@"
