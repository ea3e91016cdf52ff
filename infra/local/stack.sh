#!/usr/bin/env bash
# Local dev stack as plain processes (no Docker): Kafka (KRaft), FerretDB (MongoDB wire
# protocol) and Redis, all bound to 127.0.0.1. See infra/local/README.md.
#
#   infra/local/stack.sh <install|up|down|status> [kafka|mongo|redis ...]
#
# No component means all three. Exit codes: 0 ok, 1 failure, 2 usage, 3 (status) not all running.
set -euo pipefail
export LC_ALL=C

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd -P)
# shellcheck source=lib.sh
source "$HERE/lib.sh"
# shellcheck source=kafka.sh
source "$HERE/kafka.sh"
# shellcheck source=ferretdb.sh
source "$HERE/ferretdb.sh"
# shellcheck source=redis.sh
source "$HERE/redis.sh"

usage() {
  cat <<EOF
usage: infra/local/stack.sh <install|up|down|status> [kafka|mongo|redis ...]

  install   install what is missing (cached in IPDATA_CACHE_DIR), start nothing
  up        install, start what is not running, wait until ready (STACK_FRESH=1: wipe data first)
  down      stop (SIGTERM, then SIGKILL after ${STACK_STOP_TIMEOUT}s) and check nothing is left
  status    one line per component; exit 0 if all are running, 3 otherwise

components: kafka (Kafka $KAFKA_VERSION, KRaft), mongo (FerretDB $FERRETDB_VERSION, SQLite), redis
settings:   IPDATA_CACHE_DIR=$IPDATA_CACHE_DIR
            IPDATA_STACK_DIR=$IPDATA_STACK_DIR
            KAFKA_PORT=$KAFKA_PORT KAFKA_CONTROLLER_PORT=$KAFKA_CONTROLLER_PORT MONGO_PORT=$MONGO_PORT REDIS_PORT=$REDIS_PORT
            STACK_READY_TIMEOUT=$STACK_READY_TIMEOUT STACK_FRESH=$STACK_FRESH
EOF
  exit "$1"
}

IDS=()

parse_components() {
  local a id
  local -A seen=()
  if (($# == 0)); then
    IDS=(kafka ferretdb redis)
    return
  fi
  for a in "$@"; do
    case $a in
      kafka) id=kafka ;;
      mongo | mongodb | ferretdb) id=ferretdb ;;
      redis) id=redis ;;
      *)
        printf 'stack: unknown component %s (expected kafka, mongo or redis)\n' "$a" >&2
        usage 2 >&2
        ;;
    esac
    if [[ -z ${seen[$id]:-} ]]; then
      seen[$id]=1
      IDS+=("$id")
    fi
  done
}

cmd_install() {
  local id rc=0
  for id in "${IDS[@]}"; do
    if "${id}_install"; then
      case $id in
        kafka) line kafka installed "Kafka $KAFKA_VERSION  $KAFKA_HOME  (java $KAFKA_JAVA)" ;;
        ferretdb) line ferretdb installed "FerretDB $FERRETDB_VERSION  $FERRETDB_BIN" ;;
        redis) line redis installed "$("$REDIS_SERVER" --version | cut -d ' ' -f 1-3)  $REDIS_SERVER" ;;
      esac
    else
      rc=1
    fi
  done
  return "$rc"
}

# --- up ---------------------------------------------------------------------------------------

STARTED=() # components launched by this call: stopped again if the call fails

stop_started() {
  local id
  local -a jobs=()
  for id in ${STARTED[@]+"${STARTED[@]}"}; do
    "${id}_stop" quiet &
    jobs+=($!)
  done
  for id in ${jobs[@]+"${jobs[@]}"}; do wait "$id" || true; done
  STARTED=()
}

# Prints the one failure line, stops what this call started, exits 1.
up_fail() {
  local id=$1 s undo=""
  shift
  for s in ${STARTED[@]+"${STARTED[@]}"}; do undo+=" ${COMP_LABEL[$s]}"; done
  fail_line "$id" "$*  (log $(rel "$(log_file "$id")"))${undo:+  [stopping what this call started:$undo]}"
  stop_started
  exit 1
}

on_interrupt() {
  trap - INT TERM
  note "interrupted; stopping what this call started"
  stop_started
  exit 130
}

cmd_up() {
  local id pid why out ms
  local -a ports pending next
  local -A t0=() pids=() existing=()
  lock_stack
  for id in "${IDS[@]}"; do
    "${id}_install" || exit 1
  done
  trap on_interrupt INT TERM

  for id in "${IDS[@]}"; do
    if [[ $STACK_FRESH == 1 ]]; then
      "${id}_stop" quiet || up_fail "$id" "could not stop the running instance to start fresh"
      wipe_data "$id"
    fi
    t0[$id]=$(now_ms)
    if pid=$(running_pid "$id"); then
      pids[$id]=$pid
      existing[$id]=1
      continue
    fi
    read -ra ports <<<"$("${id}_ports")"
    why=$(ports_free "$id" "${ports[@]}") || up_fail "$id" "$why"
    mkdir -p "$(data_dir "$id")"
    if ! out=$("${id}_start"); then
      # a launch that got as far as a pid file is ours to clean up
      running_pid "$id" >/dev/null && STARTED+=("$id")
      up_fail "$id" "start failed: ${out:-see log}"
    fi
    STARTED+=("$id")
    pids[$id]=$out
  done

  pending=("${IDS[@]}")
  while ((${#pending[@]})); do
    next=()
    for id in "${pending[@]}"; do
      pid=${pids[$id]}
      ms=$(($(now_ms) - t0[$id]))
      if ! pid_alive "$pid"; then
        up_fail "$id" "process $pid exited after $(elapsed "${t0[$id]}"); last log line: $(last_log_line "$id")"
      elif "${id}_ready"; then
        if [[ -n ${existing[$id]:-} ]]; then
          line "$id" ready "$("${id}_addr")  already running, pid $pid  (log $(rel "$(log_file "$id")"))"
        else
          line "$id" ready "$("${id}_addr")  in $(elapsed "${t0[$id]}"), pid $pid  (log $(rel "$(log_file "$id")"))"
        fi
      elif ((ms > STACK_READY_TIMEOUT * 1000)); then
        up_fail "$id" "not ready after ${STACK_READY_TIMEOUT}s (pid $pid); last log line: $(last_log_line "$id")"
      else
        next+=("$id")
      fi
    done
    pending=(${next[@]+"${next[@]}"})
    ((${#pending[@]} == 0)) || sleep 0.25
  done
  trap - INT TERM
  STARTED=()
}

# --- down -------------------------------------------------------------------------------------

cmd_down() {
  local id rc=0 left tmp
  local -A job=()
  lock_stack
  tmp=$(mktemp -d)
  # Stop all components at the same time (Kafka takes a few seconds), print in order.
  for id in "${IDS[@]}"; do
    "${id}_stop" >"$tmp/$id.out" 2>"$tmp/$id.err" &
    job[$id]=$!
  done
  for id in "${IDS[@]}"; do
    wait "${job[$id]}" || rc=1
    cat "$tmp/$id.out"
    cat "$tmp/$id.err" >&2
  done
  rm -rf -- "$tmp"
  # Verify: nothing of ours may survive (pid-file groups and anything running in our data dirs).
  for id in "${IDS[@]}"; do
    left=$(our_pids "$id" | tr '\n' ' ')
    if [[ -n $left ]]; then
      fail_line "$id" "still running after down: pid ${left% }"
      rc=1
    fi
  done
  return "$rc"
}

# --- status -----------------------------------------------------------------------------------

cmd_status() {
  local id rc=0
  for id in "${IDS[@]}"; do
    "${id}_status" || rc=3
  done
  return "$rc"
}

main() {
  local cmd=${1:-}
  if (($#)); then shift; fi
  case $cmd in
    -h | --help | help) usage 0 ;;
    install | up | down | status) ;;
    "") usage 2 >&2 ;;
    *)
      printf 'stack: unknown command %s\n' "$cmd" >&2
      usage 2 >&2
      ;;
  esac
  parse_components "$@"
  validate_settings
  init_dirs
  "cmd_$cmd"
}

main "$@"
