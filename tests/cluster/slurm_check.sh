#!/usr/bin/env bash
# Prove profiles/slurm on a real one-node SLURM started on this machine.
#
#   tests/cluster/slurm_check.sh            # from anywhere; needs root or passwordless sudo
#
# Installs Debian's slurm-wlm and munge (apt-get; skipped when already installed), writes a
# one-node slurm.conf (this machine's CPUs and memory, one partition), starts munged,
# slurmctld and `slurmd -N localhost` by hand (no systemd), runs the tiny workflow
# (tests/workflow/config.yaml) once locally and once through `--profile profiles/slurm`,
# each in a fresh copy of the workflow files with one frozen copy of the package, and
# compares results/**/*.{csv,md,tex,json,conll} byte for byte (compare_results.py: only cells
# of measured time and memory may differ). Then it starts a dask-jobqueue
# SLURMCluster on the same SLURM (profiles/slurm/dask_cluster.py) and runs the cross-document
# sampler on its workers (crossdoc_on_slurm.py, or the command in COREFLAB_SLURM_CROSSDOC with
# {scheduler} in it). Finally it stops the daemons it started and restores /etc/slurm.
# Exit status 0 only if everything matched. Takes the tiny run twice plus about 2 minutes
# (2026-11-25, 48-job tiny workflow, 2 busy cores: local 576 s, SLURM 632 s, total 21 min).
#
# Accounting: no slurmdbd here, so `sacct` cannot answer; the plugin is told to poll
# `squeue` (--slurm-status-command squeue), which sees finished jobs for MinJobAge (300 s).
# No account exists either: --slurm-no-account says so (plugin 2.8.0 accepts the flag but
# does not use it; its account guess through sacct then fails and it submits without -A).
#
# Environment: COREFLAB_SLURM_KEEP=1 keeps the temp dir; COREFLAB_SLURM_INIT_SECONDS (15)
# is the wait before the first status check of a job (jobs here take ~12 s);
# COREFLAB_SLURM_TIMEOUT (2400) limits the SLURM run in seconds;
# COREFLAB_SLURM_CONFIG=<yaml> runs another config instead of the tiny one;
# COREFLAB_SLURM_LOCAL=<dir> compares with <dir>/results of a local run already made with
# the same config and code (CI: the repo after its tiny run) instead of running it again;
# COREFLAB_SLURM_REPO=<dir> takes the workflow files (workflow/, config/,
# profiles/, src/) from another checkout.
set -euo pipefail

t_start=$(date +%s)
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO=${COREFLAB_SLURM_REPO:-$(cd "$HERE/../.." && pwd)}
CONFIG=${COREFLAB_SLURM_CONFIG:-tests/workflow/config.yaml}
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo -n"; fi

log() { printf '[slurm_check %4ss] %s\n' "$(( $(date +%s) - t_start ))" "$*"; }

# ---- install -------------------------------------------------------------------------------
if ! command -v slurmctld >/dev/null || ! command -v slurmd >/dev/null \
    || ! command -v munged >/dev/null || ! command -v sbatch >/dev/null; then
    log "installing slurm-wlm and munge"
    $SUDO apt-get update -qq
    $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq slurm-wlm munge >/dev/null
fi
python -c "import snakemake_executor_plugin_slurm, dask_jobqueue" 2>/dev/null || {
    log "installing snakemake-executor-plugin-slurm and dask-jobqueue (the [slurm] extra)"
    python -m pip install -q snakemake-executor-plugin-slurm dask-jobqueue
}

# ---- configure -----------------------------------------------------------------------------
WORK=$(mktemp -d /tmp/coreflab-slurm.XXXXXX)
chmod 755 "$WORK"
STATE=$WORK/slurm
CONF_DIR=/etc/slurm
SLURM_CONF_FILE=$CONF_DIR/slurm.conf
BACKUP=""
WROTE_CONF=0
STARTED_MUNGE=0
CHILD=""
cleanup() {  # stop what this script started (by pid), restore /etc/slurm, drop the temp dir
    set +e
    if [ -n "$CHILD" ] && kill -0 "$CHILD" 2>/dev/null; then  # a run interrupted by INT/TERM
        kill -TERM "$CHILD" 2>/dev/null
        for _ in $(seq 1 30); do kill -0 "$CHILD" 2>/dev/null || break; sleep 1; done
    fi
    if [ -s "$STATE/slurmctld.pid" ]; then
        squeue -h -o %i 2>/dev/null | xargs -r scancel 2>/dev/null
    fi
    local pids=()
    for pidfile in "$STATE/slurmd.pid" "$STATE/slurmctld.pid"; do
        if [ -s "$pidfile" ]; then pids+=("$($SUDO cat "$pidfile")"); fi
    done
    if [ "$STARTED_MUNGE" = 1 ] && [ -s /run/munge/munged.pid ]; then
        pids+=("$($SUDO cat /run/munge/munged.pid)")
    fi
    for pid in "${pids[@]+"${pids[@]}"}"; do $SUDO kill "$pid" 2>/dev/null; done
    for _ in $(seq 1 20); do
        alive=0
        for pid in "${pids[@]+"${pids[@]}"}"; do $SUDO kill -0 "$pid" 2>/dev/null && alive=1; done
        [ $alive = 0 ] && break
        sleep 0.5
    done
    if [ "$WROTE_CONF" = 1 ]; then
        if [ -n "$BACKUP" ]; then $SUDO cp -p "$BACKUP" "$SLURM_CONF_FILE"; else $SUDO rm -f "$SLURM_CONF_FILE"; fi
    fi
    if [ "${COREFLAB_SLURM_KEEP:-0}" = 1 ]; then
        echo "kept $WORK"
    else
        $SUDO rm -rf "$WORK"
    fi
}
trap cleanup EXIT
trap "exit 130" INT TERM
$SUDO mkdir -p "$STATE/ctld" "$STATE/d" "$STATE/log"
$SUDO chown -R slurm:slurm "$STATE/ctld" "$STATE/log"

CPUS=$(nproc)
MEM_MB=$(( $(awk '/MemTotal/ {print $2}' /proc/meminfo) / 1024 * 9 / 10 ))
# profiles/slurm asks for up to 9.5 GB per job (sized for CoNLL-2012); SLURM rejects a job
# that asks for more than the node has. Memory is not enforced here (no cgroups), so a smaller
# machine announces 16 GB and tells slurmd to trust the config over the hardware.
OVERRIDES=""
if [ "$MEM_MB" -lt 16000 ]; then MEM_MB=16000; OVERRIDES="SlurmdParameters=config_overrides"; fi
if [ -e "$SLURM_CONF_FILE" ]; then
    BACKUP=$WORK/slurm.conf.orig
    $SUDO cp -p "$SLURM_CONF_FILE" "$BACKUP"
fi
$SUDO mkdir -p "$CONF_DIR"
WROTE_CONF=1
$SUDO tee "$SLURM_CONF_FILE" >/dev/null <<EOF
# Written by coreflab tests/cluster/slurm_check.sh (restored/removed when it ends).
ClusterName=coreflab
SlurmctldHost=localhost
SlurmUser=slurm
SlurmdUser=root
AuthType=auth/munge
StateSaveLocation=$STATE/ctld
SlurmdSpoolDir=$STATE/d
SlurmctldPidFile=$STATE/slurmctld.pid
SlurmdPidFile=$STATE/slurmd.pid
SlurmctldLogFile=$STATE/log/slurmctld.log
SlurmdLogFile=$STATE/log/slurmd.log
SlurmctldPort=6817
SlurmdPort=6818
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
MpiDefault=none
ReturnToService=2
MinJobAge=300
SlurmdTimeout=60
$OVERRIDES
NodeName=localhost NodeHostname=localhost NodeAddr=127.0.0.1 CPUs=$CPUS RealMemory=$MEM_MB State=UNKNOWN
PartitionName=debug Nodes=localhost Default=YES MaxTime=INFINITE State=UP
EOF

# ---- start ---------------------------------------------------------------------------------

if munge -n 2>/dev/null | unmunge >/dev/null 2>&1; then
    log "munged already running; using it"
else
    $SUDO mkdir -p /run/munge /var/log/munge /var/lib/munge
    $SUDO chown munge:munge /run/munge /var/log/munge /var/lib/munge
    $SUDO chmod 755 /run/munge
    if [ ! -s /etc/munge/munge.key ]; then
        $SUDO runuser -u munge -- mungekey --create --keyfile=/etc/munge/munge.key
    fi
    $SUDO runuser -u munge -- /usr/sbin/munged
    STARTED_MUNGE=1
    munge -n | unmunge >/dev/null
    log "munged started"
fi

if scontrol ping 2>/dev/null | grep -q "is UP"; then
    echo "slurm_check: a slurmctld already answers on this machine; stop it first" >&2
    exit 1
fi
# slurmctld drops to SlurmUser itself; slurmd runs as root (it starts jobs as their users).
$SUDO /usr/sbin/slurmctld -i
$SUDO /usr/sbin/slurmd -N localhost
for _ in $(seq 1 60); do
    if sinfo -h -N -o '%T' 2>/dev/null | grep -q -E '^(idle|mixed|allocated)'; then break; fi
    sleep 1
done
if ! sinfo -h -N -o '%T' | grep -q idle; then
    echo "slurm_check: node did not come up" >&2
    sinfo -N -l >&2 || true
    $SUDO tail -20 "$STATE/log/slurmctld.log" "$STATE/log/slurmd.log" >&2 || true
    exit 1
fi
log "slurm up: $(sinfo --version), node $(sinfo -h -N -o '%N %c CPUs %m MB %T'); snakemake $(snakemake --version)"
t_up=$(date +%s)

# ---- run: local, then through the profile -------------------------------------------------
copy_workflow() {  # fresh copy of the workflow files (never results/ or .snakemake/)
    mkdir -p "$1"
    (cd "$REPO" && cp -r workflow config profiles "$1/")
    mkdir -p "$1/$(dirname "$CONFIG")"
    cp "$REPO/$CONFIG" "$1/$CONFIG"
}

# The copies have no .git: name the commit they were copied from for results/*/manifest.json
COREFLAB_GIT_COMMIT=$(cd "$REPO" && git rev-parse HEAD 2>/dev/null || true)
if [ -n "$COREFLAB_GIT_COMMIT" ] && [ -n "$(cd "$REPO" && git status --porcelain --untracked-files=no)" ]; then
    COREFLAB_GIT_COMMIT="$COREFLAB_GIT_COMMIT-dirty"
fi
export COREFLAB_GIT_COMMIT

LOCAL=$WORK/local
if [ -n "${COREFLAB_SLURM_LOCAL:-}" ]; then LOCAL=$(cd "$COREFLAB_SLURM_LOCAL" && pwd); fi
if [ "$LOCAL" = "$WORK/local" ]; then copy_workflow "$WORK/local"; fi
copy_workflow "$WORK/slurm_run"
# Both runs use one frozen copy of the package (the tree may change while the check runs);
# PYTHONPATH goes before the editable install's path and sbatch passes it on to the jobs.
if [ -d "$REPO/src/coreflab" ]; then
    cp -r "$REPO/src" "$WORK/src"
    find "$WORK/src" -name __pycache__ -prune -exec rm -rf {} +
    export PYTHONPATH="$WORK/src${PYTHONPATH:+:$PYTHONPATH}"
    got=$(cd "$WORK" && python -c 'import coreflab, os; print(os.path.dirname(coreflab.__file__))')
    if [ "$got" != "$WORK/src/coreflab" ]; then
        echo "slurm_check: coreflab imports from $got, not from the snapshot" >&2; exit 1
    fi
fi

t0=$(date +%s)
if [ "$LOCAL" = "$WORK/local" ]; then
    log "local run"
    (cd "$WORK/local" && exec snakemake --cores 2 --configfile "$CONFIG") >"$WORK/local.log" 2>&1 &
    CHILD=$!  # in the background, so that INT/TERM reach the trap at once (not after the run)
    wait "$CHILD" || {
        tail -40 "$WORK/local.log" >&2; echo "slurm_check: local run failed" >&2; exit 1; }
    log "local run done in $(( $(date +%s) - t0 ))s"
else
    log "local results: $LOCAL/results (COREFLAB_SLURM_LOCAL; no local run)"
fi
t_local=$(( $(date +%s) - t0 ))

log "SLURM run (--profile profiles/slurm)"
t0=$(date +%s)
(cd "$WORK/slurm_run" && exec timeout "${COREFLAB_SLURM_TIMEOUT:-2400}" snakemake --profile profiles/slurm --configfile "$CONFIG" \
    --slurm-status-command squeue --slurm-init-seconds-before-status-checks "${COREFLAB_SLURM_INIT_SECONDS:-15}" \
    --slurm-no-account --slurm-keep-successful-logs) >"$WORK/slurm.log" 2>&1 &
CHILD=$!
wait "$CHILD" || {
    tail -60 "$WORK/slurm.log" >&2; echo "slurm_check: SLURM run failed" >&2; exit 1; }
t_slurm=$(( $(date +%s) - t0 ))
n_sub=$(grep -c "Job [0-9]* has been submitted with SLURM jobid" "$WORK/slurm.log" || true)
log "SLURM run done in ${t_slurm}s; ${n_sub} jobs went through sbatch"
if [ "$n_sub" -lt 1 ]; then
    echo "slurm_check: no job was submitted to SLURM" >&2; exit 1
fi

# ---- compare -------------------------------------------------------------------------------
# byte for byte, except cells of measured costs (wall time, peak memory from benchmark files,
# e.g. the leaderboard's `train s` / `peak MB`), which differ between any two runs
status=0
python "$HERE/compare_results.py" "$LOCAL" "$WORK/slurm_run" >"$WORK/compare.log" 2>&1 || status=1
sed 's/^/    /' "$WORK/compare.log"
log "compared results: $([ $status = 0 ] && echo identical || echo DIFFERENT)"

# ---- Dask on SLURM (dask-jobqueue) ---------------------------------------------------------
log "dask-jobqueue: SLURMCluster with 1 worker job, cross-document sampler on it"
(cd "$WORK" && exec timeout 300 python "$HERE/dask_slurm_check.py" \
    --work "$WORK" --cwd "$WORK/slurm_run") >"$WORK/dask.log" 2>&1 &
CHILD=$!
wait "$CHILD" || {
    echo "slurm_check: dask-jobqueue check failed" >&2; status=1; }
sed 's/^/    /' "$WORK/dask.log"

t_end=$(date +%s)
log "timing: slurm up $(( t_up - t_start ))s, local ${t_local}s, slurm ${t_slurm}s, total $(( t_end - t_start ))s"
if [ $status = 0 ]; then log "PASSED"; else log "FAILED"; fi
# the record docs/cluster.md cites (numbers from the run, never copied by hand)
SLURM_VERSION=$(sinfo --version 2>/dev/null | awk '{print $2}') STATUS=$status N_SUB=$n_sub T_SLURM=$t_slurm \
T_LOCAL=$t_local T_TOTAL=$(( t_end - t_start )) COMPARE="$(tail -n 1 "$WORK/compare.log")" \
python - "$REPO/bench/results/slurm_check.json" <<'PY'
import datetime, json, os, sys
from importlib.metadata import version
from coreflab.report.io import atomic_write_text
record = {"date": datetime.date.today().isoformat(), "passed": os.environ["STATUS"] == "0",
          "slurm": os.environ["SLURM_VERSION"], "snakemake": version("snakemake"),
          "plugin": version("snakemake-executor-plugin-slurm"), "sbatch_jobs": int(os.environ["N_SUB"]),
          "seconds_slurm": int(os.environ["T_SLURM"]), "seconds_local": int(os.environ["T_LOCAL"]),
          "seconds_total": int(os.environ["T_TOTAL"]), "comparison": os.environ["COMPARE"],
          "load_average_at_end": list(os.getloadavg())}
atomic_write_text(sys.argv[1], json.dumps(record, indent=1) + "\n")
PY
exit $status
