#!/usr/bin/env bash
# A real single-node Slurm cluster on this machine, everything under one folder, for testing
# the array and merge scripts beside it (CI does). Needs root and Debian's packages
# slurmctld slurmd slurm-client munge (`install` fetches them).
#
#   scripts/slurm/local-cluster.sh install         # apt-get the packages if missing
#   scripts/slurm/local-cluster.sh start DIR       # config, munge, slurmctld, slurmd under DIR
#   export SLURM_CONF=DIR/slurm.conf               # then sbatch, squeue, scontrol reach it
#   scripts/slurm/local-cluster.sh stop DIR        # stops the daemons by their recorded pids
#
# /etc/slurm is never touched; ports are picked free at each start, so two runs in a row (or a
# leftover from a killed one) do not collide.
set -euo pipefail

die() { echo "local-cluster: $*" >&2; exit 1; }

install_packages() {
  local missing=()
  for tool in slurmctld slurmd sbatch munged; do
    command -v "$tool" >/dev/null 2>&1 || PATH=$PATH:/usr/sbin command -v "$tool" >/dev/null 2>&1 || missing+=("$tool")
  done
  if [ ${#missing[@]} -eq 0 ]; then return; fi
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  # "policy-rc.d denied execution of start" is expected: nothing starts by itself.
  apt-get install -y -qq --no-install-recommends slurmctld slurmd slurm-client munge >/dev/null
}

free_port() {
  python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()'
}

# Waits until "$@" succeeds, at most $1 tenths of a second.
wait_for() {
  local tries=$1
  shift
  for _ in $(seq "$tries"); do
    if "$@" >/dev/null 2>&1; then return 0; fi
    sleep 0.1
  done
  return 1
}

start() {
  local dir=$1
  export PATH=$PATH:/usr/sbin
  mkdir -p "$dir"
  dir=$(cd "$dir" && pwd)
  chmod 755 "$dir"
  mkdir -p "$dir/munge" "$dir/state" "$dir/spool" "$dir/log"
  chmod 755 "$dir/munge"
  chown munge:munge "$dir/munge"
  # munge: a fresh key, owned by munge, mode 0400, run as munge in the foreground.
  rm -f "$dir/munge/key"
  mungekey --create --keyfile="$dir/munge/key" >/dev/null
  chown munge:munge "$dir/munge/key"
  chmod 0400 "$dir/munge/key"
  local socket=$dir/munge/munge.socket
  setsid runuser -u munge -- munged -F --socket="$socket" --key-file="$dir/munge/key" \
    --pid-file="$dir/munge/munged.pid" --log-file="$dir/munge/munged.log" \
    --seed-file="$dir/munge/seed" >/dev/null 2>&1 &
  echo $! > "$dir/munged.pid"
  wait_for 50 bash -c "munge -n -S '$socket' | unmunge -S '$socket'" || die "munged did not start (see $dir/munge/munged.log)"

  local node cpus memory
  node=$(hostname -s)
  cpus=$(nproc)
  # Less memory than slurmd reports, or the node drains.
  memory=$(( $(slurmd -C | sed -n 's/.*RealMemory=\([0-9]*\).*/\1/p') * 9 / 10 ))
  cat > "$dir/slurm.conf" <<EOF
ClusterName=warsweep
SlurmctldHost=$node(127.0.0.1)
SlurmctldPort=$(free_port)
SlurmdPort=$(free_port)
SlurmUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$socket
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/slurmctld.pidfile
SlurmdPidFile=$dir/slurmd.pidfile
SlurmctldLogFile=$dir/log/slurmctld.log
SlurmdLogFile=$dir/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
MpiDefault=none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core_Memory
DefMemPerCPU=1024
SchedulerParameters=batch_sched_delay=0,sched_interval=5
MailProg=/bin/true
MaxArraySize=100001
ReturnToService=2
NodeName=$node NodeAddr=127.0.0.1 CPUs=$cpus RealMemory=$memory State=UNKNOWN
PartitionName=main Nodes=$node Default=YES MaxTime=INFINITE State=UP
EOF
  export SLURM_CONF=$dir/slurm.conf
  setsid slurmctld -D -c -f "$SLURM_CONF" >"$dir/log/slurmctld.out" 2>&1 &
  echo $! > "$dir/slurmctld.pid"
  setsid slurmd -D -N "$node" -f "$SLURM_CONF" >"$dir/log/slurmd.out" 2>&1 &
  echo $! > "$dir/slurmd.pid"
  wait_for 100 scontrol ping || die "slurmctld did not answer (see $dir/log)"
  wait_for 100 bash -c '[ "$(sinfo -h -o %T)" = idle ]' || die "the node is not idle: $(sinfo -h -o '%T %E') (see $dir/log)"
  echo "$SLURM_CONF"
}

stop() {
  local dir=$1
  # munged's own pid file as well: the recorded pid of munge's start is runuser's.
  for file in "$dir/slurmd.pid" "$dir/slurmctld.pid" "$dir/munged.pid" "$dir/munge/munged.pid"; do
    [ -f "$file" ] || continue
    local pid
    pid=$(cat "$file")
    if kill -0 "$pid" 2>/dev/null; then
      kill -TERM "$pid" 2>/dev/null || true
      for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
      kill -KILL "$pid" 2>/dev/null || true
    fi
    rm -f "$file"
  done
}

case "${1:-}" in
  install) install_packages ;;
  start) [ $# -eq 2 ] || die "usage: $0 start DIR"; start "$2" ;;
  stop) [ $# -eq 2 ] || die "usage: $0 stop DIR"; stop "$2" ;;
  *) die "usage: $0 install | start DIR | stop DIR" ;;
esac
