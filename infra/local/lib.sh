# shellcheck shell=bash
# Shared helpers for the local stack scripts (sourced by stack.sh, never run directly).
#
# Conventions used by every component file (kafka.sh, ferretdb.sh, redis.sh):
#   - a component has an id (kafka, ferretdb, redis) that names its files:
#       $IPDATA_STACK_DIR/<id>/            data dir, and the working directory of its process
#       $IPDATA_STACK_DIR/logs/<id>.log    stdout+stderr of the process (previous run: <id>.log.1)
#       $IPDATA_STACK_DIR/run/<id>.pid     pid of the process, which leads its own session/group
#   - a process is "ours" when it is alive, its comm is COMP_COMM[<id>] and its cwd is the
#     component's data dir. The cwd makes two stacks (different IPDATA_STACK_DIR) distinct,
#     and it survives redis-server rewriting its own command line.
#   - each component file defines <id>_install, <id>_start, <id>_ready, <id>_stop, <id>_status.

LOCAL_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd -P)
REPO_ROOT=$(cd "$LOCAL_DIR/../.." && pwd -P)

: "${IPDATA_CACHE_DIR:=${HOME:-/root}/.cache/ipdata}"
: "${IPDATA_STACK_DIR:=$REPO_ROOT/var/stack}"
: "${KAFKA_PORT:=9092}"
: "${KAFKA_CONTROLLER_PORT:=9093}"
: "${MONGO_PORT:=27017}"
: "${REDIS_PORT:=6379}"
: "${STACK_READY_TIMEOUT:=90}"
: "${STACK_STOP_TIMEOUT:=20}"
: "${STACK_FRESH:=0}"
# Absolute from the start (component files derive their paths from these when sourced).
IPDATA_CACHE_DIR=$(realpath -m -- "$IPDATA_CACHE_DIR")
IPDATA_STACK_DIR=$(realpath -m -- "$IPDATA_STACK_DIR")

# File descriptors held by stack.sh for its locks; closed in every launched server so that a
# long-running server never inherits (and keeps holding) a lock.
readonly STACK_LOCK_FD=9
readonly INSTALL_LOCK_FD=8

declare -A COMP_COMM=()   # id -> expected /proc/<pid>/comm of the server process
declare -A COMP_LABEL=()  # id -> name printed in output (the name used on the command line)

# register_component <id> <comm> <label>: called once by each component file.
register_component() {
  COMP_COMM[$1]=$2
  COMP_LABEL[$1]=$3
}

# ---------------------------------------------------------------------------------------------
# Output

# One result line per component: "<label> <state> <details>". Results go to stdout.
line() {
  local id=$1 state=$2
  shift 2
  printf '%-6s %-9s %s\n' "${COMP_LABEL[$id]:-$id}" "$state" "$*"
}

# A failure line goes to stderr (still exactly one line).
fail_line() {
  local id=$1
  shift
  printf '%-6s %-9s %s\n' "${COMP_LABEL[$id]:-$id}" "FAILED" "$*" >&2
}

# Progress notes (installs) go to stderr so stdout stays one line per component.
note() { printf 'stack: %s\n' "$*" >&2; }

die() {
  printf 'stack: %s\n' "$*" >&2
  exit 1
}

# Path relative to the repo root when inside it (shorter output), else absolute.
rel() {
  local p=$1
  if [[ $p == "$REPO_ROOT"/* ]]; then printf '%s' "${p#"$REPO_ROOT"/}"; else printf '%s' "$p"; fi
}

now_ms() {
  local t=${EPOCHREALTIME/[.,]/}
  printf '%s' "$((t / 1000))"
}

# Milliseconds since $1 (a now_ms value), formatted as seconds with one decimal: "6.4s".
elapsed() {
  local ms=$(($(now_ms) - $1))
  printf '%d.%ds' "$((ms / 1000))" "$((ms % 1000 / 100))"
}

# ---------------------------------------------------------------------------------------------
# Settings and directories

validate_settings() {
  local v
  for v in KAFKA_PORT KAFKA_CONTROLLER_PORT MONGO_PORT REDIS_PORT; do
    if ! [[ ${!v} =~ ^[0-9]+$ ]] || ((${!v} < 1 || ${!v} > 65535)); then
      die "$v must be a TCP port number, got '${!v}'"
    fi
  done
  [[ $STACK_READY_TIMEOUT =~ ^[0-9]+$ ]] || die "STACK_READY_TIMEOUT must be a number of seconds, got '$STACK_READY_TIMEOUT'"
  [[ $STACK_STOP_TIMEOUT =~ ^[0-9]+$ ]] || die "STACK_STOP_TIMEOUT must be a number of seconds, got '$STACK_STOP_TIMEOUT'"
  local ports="$KAFKA_PORT $KAFKA_CONTROLLER_PORT $MONGO_PORT $REDIS_PORT"
  [[ $(tr ' ' '\n' <<<"$ports" | sort -u | wc -l) -eq 4 ]] ||
    die "KAFKA_PORT, KAFKA_CONTROLLER_PORT, MONGO_PORT and REDIS_PORT must all differ ($ports)"
}

# Makes IPDATA_STACK_DIR and IPDATA_CACHE_DIR absolute, physical and existing.
init_dirs() {
  mkdir -p "$IPDATA_STACK_DIR/logs" "$IPDATA_STACK_DIR/run" "$IPDATA_CACHE_DIR" ||
    die "cannot create $IPDATA_STACK_DIR or $IPDATA_CACHE_DIR"
  IPDATA_STACK_DIR=$(cd "$IPDATA_STACK_DIR" && pwd -P)
  IPDATA_CACHE_DIR=$(cd "$IPDATA_CACHE_DIR" && pwd -P)
  case $IPDATA_STACK_DIR in
    / | "$REPO_ROOT" | "${HOME:-/root}") die "refusing to use IPDATA_STACK_DIR=$IPDATA_STACK_DIR (data under it gets wiped)" ;;
  esac
  export IPDATA_STACK_DIR IPDATA_CACHE_DIR
}

data_dir() { printf '%s/%s' "$IPDATA_STACK_DIR" "$1"; }
log_file() { printf '%s/logs/%s.log' "$IPDATA_STACK_DIR" "$1"; }
pid_file() { printf '%s/run/%s.pid' "$IPDATA_STACK_DIR" "$1"; }
install_log() { printf '%s/logs/install-%s.log' "$IPDATA_STACK_DIR" "$1"; }

# Deletes a component's data (STACK_FRESH=1). Logs and pid files live elsewhere.
wipe_data() {
  local dir
  dir=$(data_dir "$1")
  [[ $dir == "$IPDATA_STACK_DIR/$1" && -n $1 ]] || die "internal error: bad data dir '$dir'"
  rm_tree "$dir"
}

# rm -rf that also copes with read-only directories (copies of the Go module cache).
rm_tree() {
  local p
  for p in "$@"; do
    [[ -e $p ]] || continue
    chmod -R u+w -- "$p" 2>/dev/null || true
    rm -rf -- "$p"
  done
}

# Keeps the previous run's log as <id>.log.1 so every run starts with a clean log.
rotate_log() {
  local log
  log=$(log_file "$1")
  if [[ -s $log ]]; then mv -f -- "$log" "$log.1"; fi
  : >"$log"
}

# The most telling last line of a log, shortened, for one-line error messages: a Go panic
# message if there is one, else the last line that is not indented (skips Java stack frames,
# so a Java exception shows its message or its last "Caused by:").
last_log_line() {
  local log out
  log=$(log_file "$1")
  [[ -f $log ]] || return 0
  out=$(grep -E '^(panic|fatal error): ' "$log" | tail -n 1) || true
  [[ -n $out ]] || out=$(grep -v -E '^([[:space:]]|$)' "$log" | tail -n 1) || true
  printf '%s' "${out:0:240}"
}

# ---------------------------------------------------------------------------------------------
# Locks (flock): one command at a time per stack, one install at a time per cache.

lock_stack() {
  eval "exec $STACK_LOCK_FD>\"\$IPDATA_STACK_DIR/run/.lock\""
  if ! flock -n "$STACK_LOCK_FD"; then
    note "another stack.sh command is running on $(rel "$IPDATA_STACK_DIR"); waiting for it"
    flock -w 300 "$STACK_LOCK_FD" || die "gave up waiting for the lock on $IPDATA_STACK_DIR/run/.lock"
  fi
}

lock_install() {
  eval "exec $INSTALL_LOCK_FD>\"\$IPDATA_CACHE_DIR/.install.lock\""
  flock -w 900 "$INSTALL_LOCK_FD" || die "gave up waiting for the install lock $IPDATA_CACHE_DIR/.install.lock"
}

unlock_install() { flock -u "$INSTALL_LOCK_FD" 2>/dev/null || true; }

# ---------------------------------------------------------------------------------------------
# Processes

# Process state letter from /proc (R, S, D, Z, ...), empty if there is no such process.
proc_state() {
  local stat
  read -r stat 2>/dev/null <"/proc/$1/stat" || return 0
  stat=${stat##*) }
  printf '%s' "${stat%% *}"
}

pid_alive() {
  local st
  [[ $1 =~ ^[0-9]+$ ]] || return 1
  st=$(proc_state "$1")
  [[ -n $st && $st != Z && $st != X ]]
}

pid_is_ours() {
  local id=$1 pid=$2 comm cwd
  pid_alive "$pid" || return 1
  read -r comm 2>/dev/null <"/proc/$pid/comm" || return 1
  [[ $comm == "${COMP_COMM[$id]}" ]] || return 1
  cwd=$(readlink "/proc/$pid/cwd" 2>/dev/null) || return 1
  [[ $cwd == "$(data_dir "$id")" ]]
}

# Every live process that belongs to this stack's component: the pid file's process group plus
# any process with the component's comm whose cwd is the component's data dir.
our_pids() {
  local id=$1 pidf pid comm cwd dir
  local -A seen=()
  pidf=$(pid_file "$id")
  dir=$(data_dir "$id")
  if [[ -s $pidf ]]; then
    read -r pid <"$pidf" || true
    if [[ $pid =~ ^[0-9]+$ ]] && pid_is_ours "$id" "$pid"; then
      while read -r p; do
        [[ -n $p ]] && pid_alive "$p" && seen[$p]=1
      done < <(pgrep -g "$pid" 2>/dev/null || true)
      seen[$pid]=1
    fi
  fi
  for pid in /proc/[0-9]*; do
    pid=${pid#/proc/}
    read -r comm 2>/dev/null <"/proc/$pid/comm" || continue
    [[ $comm == "${COMP_COMM[$id]}" ]] || continue
    cwd=$(readlink "/proc/$pid/cwd" 2>/dev/null) || continue
    [[ $cwd == "$dir" ]] && pid_alive "$pid" && seen[$pid]=1
  done
  if ((${#seen[@]})); then printf '%s\n' "${!seen[@]}" | sort -n; fi
}

# Prints the pid of the running server of a component and returns 0, or returns 1.
# Repairs the pid file when the server runs but the file is missing or stale.
running_pid() {
  local id=$1 pidf pid p
  pidf=$(pid_file "$id")
  if [[ -s $pidf ]]; then
    pid=$(<"$pidf")
    if pid_is_ours "$id" "$pid"; then
      printf '%s' "$pid"
      return 0
    fi
  fi
  # No valid pid file: adopt a server of ours that leads its own session (started by us).
  for p in $(our_pids "$id"); do
    if [[ $(ps -o sid= -p "$p" 2>/dev/null | tr -d ' ') == "$p" ]]; then
      printf '%s\n' "$p" >"$pidf"
      printf '%s' "$p"
      return 0
    fi
  done
  rm -f -- "$pidf"
  return 1
}

# launch <id> <command...>: starts the command as the leader of a new session (setsid --fork),
# detached from the caller (stdin /dev/null, stdout+stderr appended to the log, lock fds closed),
# with the component's data dir as working directory. The session leader writes its own pid
# (then execs the server, keeping that pid), so the pid file is exact. Prints the pid.
launch() {
  local id=$1 pidf log dir i
  shift
  pidf=$(pid_file "$id")
  log=$(log_file "$id")
  dir=$(data_dir "$id")
  rm -f -- "$pidf"
  # shellcheck disable=SC2016 # $$, $0 and $@ are expanded by the inner bash on purpose
  (cd "$dir" && exec setsid --fork bash -c 'echo "$$" >"$0.tmp" && mv -f "$0.tmp" "$0" && exec "$@"' "$pidf" "$@") \
    </dev/null >>"$log" 2>&1 8>&- 9>&-
  for ((i = 0; i < 100; i++)); do
    if [[ -s $pidf ]]; then
      cat -- "$pidf"
      return 0
    fi
    sleep 0.05
  done
  return 1
}

# Sends a signal to a component's process group and to every other process of ours.
signal_component() {
  local id=$1 sig=$2 pidf pid p
  pidf=$(pid_file "$id")
  if [[ -s $pidf ]]; then
    pid=$(<"$pidf")
    if pid_is_ours "$id" "$pid"; then kill "-$sig" -- "-$pid" 2>/dev/null || true; fi
  fi
  for p in $(our_pids "$id"); do kill "-$sig" "$p" 2>/dev/null || true; done
}

# proc_stop <id> [quiet]: SIGTERM, wait up to STACK_STOP_TIMEOUT, then SIGKILL the group.
# Removes the pid file. Prints one line unless quiet. Returns 1 if a process survived.
proc_stop() {
  local id=$1 quiet=${2:-} pids t0 deadline killed=""
  pids=$(our_pids "$id" | tr '\n' ' ')
  pids=${pids% }
  if [[ -z $pids ]]; then
    rm -f -- "$(pid_file "$id")"
    [[ -n $quiet ]] || line "$id" stopped "(was not running)"
    return 0
  fi
  t0=$(now_ms)
  signal_component "$id" TERM
  deadline=$((t0 + STACK_STOP_TIMEOUT * 1000))
  while [[ -n $(our_pids "$id") ]] && (($(now_ms) < deadline)); do sleep 0.2; done
  if [[ -n $(our_pids "$id") ]]; then
    killed=" (did not stop within ${STACK_STOP_TIMEOUT}s: sent SIGKILL)"
    signal_component "$id" KILL
    deadline=$(($(now_ms) + 5000))
    while [[ -n $(our_pids "$id") ]] && (($(now_ms) < deadline)); do sleep 0.2; done
  fi
  local left
  left=$(our_pids "$id" | tr '\n' ' ')
  if [[ -n $left ]]; then
    fail_line "$id" "process(es) ${left% } still alive after SIGKILL  (log $(rel "$(log_file "$id")"))"
    return 1
  fi
  rm -f -- "$(pid_file "$id")"
  [[ -n $quiet ]] || line "$id" stopped "pid $pids in $(elapsed "$t0")$killed"
  return 0
}

# ---------------------------------------------------------------------------------------------
# Ports (127.0.0.1 only)

port_open() {
  (: <>"/dev/tcp/127.0.0.1/$1") 2>/dev/null
}

# "pid 123 (java)" for the process listening on a port, when ss can tell.
port_owner() {
  local out
  out=$(ss -Hltnp "sport = :$1" 2>/dev/null | grep -o 'users:(([^)]*))' | head -n 1) || true
  if [[ $out =~ \"([^\"]+)\",pid=([0-9]+) ]]; then
    printf 'pid %s (%s)' "${BASH_REMATCH[2]}" "${BASH_REMATCH[1]}"
  else
    printf 'another process'
  fi
}

# Checks that the given ports are free before starting; prints the reason and returns 1 if not.
ports_free() {
  local id=$1 port
  shift
  for port in "$@"; do
    if port_open "$port"; then
      printf 'port 127.0.0.1:%s is already in use by %s; stop it or choose another port' "$port" "$(port_owner "$port")"
      return 1
    fi
  done
}

# ---------------------------------------------------------------------------------------------
# Installing Debian packages (only as root, never starting services)

is_root() { [[ $(id -u) -eq 0 ]]; }

# apt_install <log> <packages...>: apt-get install with a temporary policy-rc.d that forbids
# maintainer scripts from starting services (Debian's redis-server would otherwise start the
# system redis on 6379). Retries once after apt-get update.
apt_install() {
  local log=$1
  shift
  is_root && command -v apt-get >/dev/null 2>&1 || return 1
  (
    policy=/usr/sbin/policy-rc.d
    backup=""
    if [[ -e $policy ]]; then
      backup="$policy.ipdata-stack.$$"
      mv -f -- "$policy" "$backup"
    fi
    # shellcheck disable=SC2317 # invoked by the trap
    restore() {
      rm -f -- "$policy"
      if [[ -n $backup ]]; then mv -f -- "$backup" "$policy"; fi
    }
    trap restore EXIT
    printf '#!/bin/sh\n# temporary, written by infra/local/lib.sh: do not start services\nexit 101\n' >"$policy"
    chmod 755 "$policy"
    export DEBIAN_FRONTEND=noninteractive
    apt-get install -y -q --no-install-recommends "$@" ||
      { apt-get update -q && apt-get install -y -q --no-install-recommends "$@"; }
  ) >>"$log" 2>&1
}

# ensure_debian_packages <name> <check> <why> <packages...>: installs the packages with apt_install
# unless the command <check> already succeeds; dies with what to run when it cannot (not root, or
# the install failed). <name> names the install log; <why> says what needs the packages.
ensure_debian_packages() {
  local name=$1 check=$2 why=$3 log
  shift 3
  "$check" && return 0
  is_root || die "$name is missing; install it with: sudo apt-get install -y $*"
  init_dirs
  lock_install
  log=$(install_log "$name")
  note "installing Debian's $* with apt-get (log $(rel "$log"))"
  if ! apt_install "$log" "$@" || ! "$check"; then
    unlock_install
    die "apt-get install $* failed (log $(rel "$log")); $why"
  fi
  unlock_install
}

# ---------------------------------------------------------------------------------------------
# Status

# generic_status <id> [extra]: one line; returns 0 when the server runs and is ready.
generic_status() {
  local id=$1 extra=${2:-} pid addr where
  addr=$("${id}_addr")
  where="data $(rel "$(data_dir "$id")")  log $(rel "$(log_file "$id")")"
  if pid=$(running_pid "$id"); then
    if "${id}_ready"; then
      line "$id" running "pid $pid  $addr${extra:+  ($extra)}  $where"
      return 0
    fi
    line "$id" starting "pid $pid  $addr not ready yet${extra:+  ($extra)}  $where"
    return 1
  fi
  line "$id" stopped "-  $addr${extra:+  ($extra)}  $where"
  return 1
}
