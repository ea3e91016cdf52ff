#!/usr/bin/env bash
# The platform's services as local processes, beside the stack (stack.sh): each built service
# runs as `node --import @ipdata/common/telemetry/register services/<name>/dist/main.js`, with its
# log in var/stack/logs/<name>.log, and is waited for until its /readyz answers 200.
#
#   infra/local/services.sh <up|down|status|urls> [service ...]
#
# No service named means every service that is built (has dist/main.js), in start order. `urls`
# prints the addresses of the stack and of those services (what `make up` shows at the end).
set -euo pipefail
export LC_ALL=C

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd -P)
# shellcheck source=lib.sh
source "$HERE/lib.sh"

# Start order and health ports come from the port registry, infra/ports.json (services/README.md):
# its services/ entries with an HTTP port, in its order, and mail-sink, the development SMTP
# server auth sends confirmation and reset mails to (scripts/dev/mail-sink.ts). HEALTH_PORT is
# where readiness is checked: /readyz on the HTTP port, the SMTP port for the mail sink.
ORDER=()
declare -A HEALTH_PORT=()
registry_rows=$(node "$HERE/port-registry.mjs" services) || die "cannot read the port registry infra/ports.json"
while IFS='|' read -r name port; do
  ORDER+=("$name")
  HEALTH_PORT[$name]=$port
done <<<"$registry_rows"
: "${SERVICE_READY_TIMEOUT:=60}"

# Local development defaults: services read everything else from their own config defaults.
export APP_ENV=${APP_ENV:-development}
export SMS_GATEWAY=${SMS_GATEWAY:-log}
export DATASETS_DIR=${DATASETS_DIR:-$REPO_ROOT/var/datasets}
# Internal gRPC uses mutual TLS: pki.sh makes the CA and one certificate per service (once, then
# reused); each service gets its own as GRPC_TLS_CERT_FILE/KEY_FILE (service_command). Absolute
# paths: services run in their data dir.
export GRPC_PKI_DIR=${GRPC_PKI_DIR:-$IPDATA_STACK_DIR/pki}
export GRPC_TLS_CA_FILE=${GRPC_TLS_CA_FILE:-$GRPC_PKI_DIR/ca.crt}

selected() {
  local svc
  if (($# > 0)); then
    for svc in "$@"; do
      [[ -n ${HEALTH_PORT[$svc]:-} ]] || die "unknown service $svc (known: ${ORDER[*]})"
      printf '%s\n' "$svc"
    done
    return
  fi
  for svc in "${ORDER[@]}"; do
    [[ $svc == mail-sink || -f $REPO_ROOT/services/$svc/dist/main.js ]] && printf '%s\n' "$svc"
  done
}

# The command that runs a service (the mail sink is a dev script run from source).
service_command() {
  if [[ $1 == mail-sink ]]; then
    printf '%s\n' node --conditions=source --import tsx "$REPO_ROOT/scripts/dev/mail-sink.ts"
  else
    printf '%s\n' env "GRPC_TLS_CERT_FILE=$GRPC_PKI_DIR/$1.crt" "GRPC_TLS_KEY_FILE=$GRPC_PKI_DIR/$1.key" \
      node --import @ipdata/common/telemetry/register "$REPO_ROOT/services/$1/dist/main.js"
  fi
}

service_url() {
  if [[ $1 == mail-sink ]]; then printf 'smtp://127.0.0.1:%s' "${HEALTH_PORT[$1]}"; else printf 'http://127.0.0.1:%s/readyz' "${HEALTH_PORT[$1]}"; fi
}

# Ready: /readyz answers 200 (the mail sink: its SMTP port accepts connections).
service_ready() {
  if [[ $1 == mail-sink ]]; then port_open "${HEALTH_PORT[$1]}"; else curl -fs -o /dev/null "http://127.0.0.1:${HEALTH_PORT[$1]}/readyz" 2>/dev/null; fi
}

for svc in "${ORDER[@]}"; do register_component "$svc" node "$svc"; done

service_up() {
  local svc=$1 pid t0 port=${HEALTH_PORT[$1]}
  if pid=$(running_pid "$svc"); then
    line "$svc" running "pid $pid  $(service_url "$svc")"
    return 0
  fi
  [[ $svc == mail-sink || -f $REPO_ROOT/services/$svc/dist/main.js ]] || { fail_line "$svc" "not built: run make build"; return 1; }
  if port_open "$port"; then
    fail_line "$svc" "health port 127.0.0.1:$port is already in use"
    return 1
  fi
  mkdir -p "$(data_dir "$svc")" "$IPDATA_STACK_DIR/logs" "$IPDATA_STACK_DIR/run"
  rotate_log "$svc"
  t0=$(now_ms)
  local -a cmd
  mapfile -t cmd < <(service_command "$svc")
  pid=$(launch "$svc" "${cmd[@]}") || {
    fail_line "$svc" "could not start  (log $(rel "$(log_file "$svc")"))"
    return 1
  }
  while (($(now_ms) - t0 < SERVICE_READY_TIMEOUT * 1000)); do
    if ! pid_alive "$pid"; then
      fail_line "$svc" "exited after $(elapsed "$t0"); last log line: $(last_log_line "$svc")  (log $(rel "$(log_file "$svc")"))"
      return 1
    fi
    if service_ready "$svc"; then
      line "$svc" ready "in $(elapsed "$t0"), pid $pid  $(service_url "$svc")  (log $(rel "$(log_file "$svc")"))"
      return 0
    fi
    sleep 0.2
  done
  fail_line "$svc" "not ready after ${SERVICE_READY_TIMEOUT}s (still running, pid $pid)  (log $(rel "$(log_file "$svc")"))"
  return 1
}

command=${1:-}
shift || true
# Checked here, not only in selected(): a die inside the process substitution below would not stop the script.
for svc in "$@"; do [[ -n ${HEALTH_PORT[$svc]:-} ]] || die "unknown service $svc (known: ${ORDER[*]})"; done
mapfile -t services < <(selected "$@")
case $command in
  up)
    "$HERE/pki.sh" "$GRPC_PKI_DIR" || exit 1
    failed=0
    for svc in "${services[@]}"; do service_up "$svc" || failed=1; done
    exit "$failed"
    ;;
  down)
    failed=0
    for ((i = ${#ORDER[@]} - 1; i >= 0; i--)); do
      svc=${ORDER[$i]}
      if (($# == 0)) || [[ " $* " == *" $svc "* ]]; then proc_stop "$svc" quiet || failed=1; fi
    done
    ((failed == 0)) && printf 'services stopped\n'
    exit "$failed"
    ;;
  status)
    rc=0
    for svc in "${services[@]}"; do
      if pid=$(running_pid "$svc"); then line "$svc" running "pid $pid  $(service_url "$svc")"; else line "$svc" stopped ""; rc=3; fi
    done
    exit "$rc"
    ;;
  urls)
    node "$HERE/port-registry.mjs" urls "${services[@]}"
    ;;
  *)
    printf 'usage: infra/local/services.sh <up|down|status|urls> [service ...]\n' >&2
    exit 2
    ;;
esac
