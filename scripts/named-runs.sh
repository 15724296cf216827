# Sourced by strength-run.sh and spsa-run.sh: the parts of a table of named runs they share
# (and by ablation.sh, for restore_paused). The caller defines `runs` (rows "name|...") and
# `list` (prints the known runs).

# find_run NAME: sets spec to NAME's row; an unknown name lists the runs and exits 2.
find_run() {
  spec=""
  local r
  for r in "${runs[@]}"; do [[ "${r%%|*}" == "$1" ]] && spec="$r"; done
  if [[ -z "$spec" ]]; then
    echo "$(basename "$0"): unknown run '$1'; known runs:" >&2; list >&2; exit 2
  fi
}

# restore_paused LIVE PAUSED UNIT: unless LIVE exists, starts it from the committed PAUSED (a
# copy: the committed file is never written by a run).
restore_paused() {
  local live="$1" paused="$2" unit="$3"
  [[ -e "$live" ]] && return 0
  if [[ ! -e "$paused" ]]; then
    echo "$(basename "$0"): cannot resume: neither $live nor $paused exists" >&2; exit 2
  fi
  # A long run's state is committed compressed (a gauntlet's grows to megabytes). Written beside
  # LIVE and renamed, so that a failed copy never leaves a half state for the next run to resume.
  local copied=0
  if [[ "$paused" == *.gz ]]; then gzip -dc "$paused" > "$live.partial" && copied=1; else cp "$paused" "$live.partial" && copied=1; fi
  if (( ! copied )); then
    rm -f "$live.partial"; echo "$(basename "$0"): cannot read $paused" >&2; exit 2
  fi
  mv "$live.partial" "$live"
  echo "$(basename "$0"): resuming from $paused ($(($(wc -l < "$live") - 1)) $unit)" >&2
}
