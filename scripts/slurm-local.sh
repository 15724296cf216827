#!/usr/bin/env bash
# A single-node Slurm cluster on this machine, for the `cluster` tests and for trying --slurm:
#   bash scripts/slurm-local.sh up      install what is missing, start munged, slurmctld, slurmd
#   bash scripts/slurm-local.sh down    stop them (scontrol shutdown), remove stale pid files
#   bash scripts/slurm-local.sh status  sinfo
# No systemd: the daemons are started by hand. The configuration goes to /etc/slurm/slurm.conf
# (where sbatch, squeue and scontrol look); spool, state and logs under $LOA_SLURM_DIR
# (/tmp/loa-slurm). One node (this host's short name, all its CPUs), select/cons_tres with
# CR_Core, no accounting (so no sacct: use squeue and scontrol show job). Needs root.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
dir="${LOA_SLURM_DIR:-/tmp/loa-slurm}"
conf=/etc/slurm/slurm.conf
node="$(hostname -s)"

wait_for() {  # wait_for SECONDS DESCRIPTION COMMAND...
  local seconds="$1" what="$2"; shift 2
  for _ in $(seq $((seconds * 10))); do
    if "$@" > /dev/null 2>&1; then return 0; fi
    sleep 0.1
  done
  echo "slurm-local: timed out after ${seconds} s waiting for $what" >&2
  for log in "$dir"/log/*.log; do [ -f "$log" ] && { echo "== $log" >&2; tail -n 20 "$log" >&2; }; done
  return 1
}

# Up: taking jobs (idle, or busy with jobs left from before), not down or drained.
node_up() { sinfo -h -n "$node" -o %T 2> /dev/null | tr -d '*~#' | grep -Eq '^(idle|mixed|allocated|completing)$'; }

up() {
  bash "$root/scripts/setup.sh" cluster
  # munge: its socket directory and key, the daemon as the munge user.
  install -d -o munge -g munge -m 0755 /run/munge
  install -d -o munge -g munge -m 0700 /var/lib/munge /var/log/munge /etc/munge
  if [ ! -s /etc/munge/munge.key ]; then
    dd if=/dev/urandom of=/etc/munge/munge.key bs=1024 count=1 status=none
  fi
  chown munge:munge /etc/munge/munge.key && chmod 0400 /etc/munge/munge.key
  if ! pgrep -x munged > /dev/null; then
    runuser -u munge -- /usr/sbin/munged
  fi
  wait_for 10 munged munge -n

  mkdir -p "$dir/state" "$dir/spool" "$dir/log" /etc/slurm
  cat > "$conf" << EOF
# Written by scripts/slurm-local.sh: a single-node cluster for tests.
ClusterName=loa-local
SlurmctldHost=$node
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/log/slurmctld.log
SlurmdLogFile=$dir/log/slurmd.log
SlurmctldPort=6817
SlurmdPort=6818
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
SchedulerType=sched/backfill
SchedulerParameters=batch_sched_delay=0
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
JobAcctGatherType=jobacct_gather/none
MpiDefault=none
ReturnToService=2
SlurmdTimeout=30
InactiveLimit=0
KillWait=5
MinJobAge=300
NodeName=$node CPUs=$(nproc) State=UNKNOWN
PartitionName=local Nodes=$node Default=YES MaxTime=INFINITE State=UP OverSubscribe=NO
EOF
  if ! pgrep -x slurmctld > /dev/null; then /usr/sbin/slurmctld -i; fi
  wait_for 20 slurmctld scontrol ping
  if ! pgrep -x slurmd > /dev/null; then /usr/sbin/slurmd; fi
  # A node that was down (a kill, a reboot) returns by itself (ReturnToService=2); make sure.
  scontrol update nodename="$node" state=resume > /dev/null 2>&1 || true
  wait_for 30 "node $node to take jobs" node_up
  echo "slurm-local: up (node $node, $(nproc) CPUs, partition local; logs in $dir/log)"
}

down() {
  if pgrep -x slurmctld > /dev/null || pgrep -x slurmd > /dev/null; then
    scontrol shutdown > /dev/null 2>&1 || true
    for _ in $(seq 100); do
      pgrep -x slurmctld > /dev/null || pgrep -x slurmd > /dev/null || break
      sleep 0.1
    done
    pkill -x slurmd 2> /dev/null || true
    pkill -x slurmctld 2> /dev/null || true
  fi
  # scontrol shutdown leaves its pid files behind.
  rm -f "$dir/slurmctld.pid" "$dir/slurmd.pid"
  echo "slurm-local: down"
}

case "${1:-}" in
  up) up ;;
  down) down ;;
  status) sinfo ;;
  *) echo "usage: bash scripts/slurm-local.sh up|down|status" >&2; exit 2 ;;
esac
