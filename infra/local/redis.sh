# shellcheck shell=bash
# Redis from Debian's redis-server package, run as our own foreground process (never the
# system service). Sourced by stack.sh after lib.sh.

register_component redis redis-server redis

REDIS_SERVER=""
REDIS_CLI=""

find_redis() {
  REDIS_SERVER=$(command -v redis-server 2>/dev/null || true)
  REDIS_CLI=$(command -v redis-cli 2>/dev/null || true)
  [[ -n $REDIS_SERVER && -n $REDIS_CLI ]]
}

# Installs Debian's redis-server when missing (root only). The package's maintainer scripts
# would start and enable the system service: apt_install blocks the start (policy-rc.d), and
# the boot-time enablement it adds is undone here, since this stack runs its own redis.
redis_install() {
  local log
  find_redis && return 0
  is_root ||
    { fail_line redis "redis-server not found; install it with: sudo apt-get install -y redis-server"; return 1; }
  lock_install
  log=$(install_log redis)
  note "redis: installing Debian's redis-server with apt-get (log $(rel "$log"))"
  if ! apt_install "$log" redis-server || ! find_redis; then
    unlock_install
    fail_line redis "apt-get install redis-server failed  (log $(rel "$log"))"
    return 1
  fi
  {
    if [[ -d /run/systemd/system ]] && command -v systemctl >/dev/null 2>&1; then
      systemctl disable redis-server.service || true
    fi
    if command -v update-rc.d >/dev/null 2>&1; then update-rc.d redis-server disable || true; fi
  } >>"$log" 2>&1
  unlock_install
  note "redis: installed $("$REDIS_SERVER" --version | cut -d ' ' -f 1-3)"
}

# Launches redis-server in the foreground (we background it). Prints the pid.
redis_start() {
  local dir
  find_redis || { printf 'redis-server not found'; return 1; }
  dir=$(data_dir redis)
  mkdir -p "$dir"
  rotate_log redis
  launch redis "$REDIS_SERVER" \
    --bind 127.0.0.1 \
    --port "$REDIS_PORT" \
    --dir "$dir" \
    --appendonly yes \
    --save '' \
    --daemonize no \
    --supervised no \
    --protected-mode yes \
    --logfile '' ||
    { printf 'could not launch %s' "$REDIS_SERVER"; return 1; }
}

redis_ready() {
  [[ -n $REDIS_CLI ]] || find_redis || return 1
  [[ $(timeout 2 "$REDIS_CLI" -h 127.0.0.1 -p "$REDIS_PORT" ping 2>/dev/null) == PONG ]]
}

redis_ports() { printf '%s' "$REDIS_PORT"; }
redis_addr() { printf '127.0.0.1:%s' "$REDIS_PORT"; }
redis_stop() { proc_stop redis "$@"; }
redis_status() { generic_status redis; }
