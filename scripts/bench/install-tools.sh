#!/usr/bin/env bash
# Installs the native load generators the public API benchmark drives (public-api.bench.ts): wrk,
# from Debian's archive through apt (infra/local/lib.sh apt_install), and vegeta (fixed-rate, open
# loop: fixed-rate-load.ts), built by `go install` from the Go module proxy into var/tools/bin;
# never a binary downloaded from elsewhere. Does nothing for a tool already there. Prints the tools in use.
#
#   scripts/bench/install-tools.sh
#
# Without root or apt-get it says what to run and fails: the benchmark has no fallback to a
# JavaScript load generator, which would share the event loop's costs with the servers it measures.
set -euo pipefail
export LC_ALL=C

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd -P)
# shellcheck source=../../infra/local/lib.sh
source "$HERE/../../infra/local/lib.sh"

wrk_version() { wrk -v 2>&1 | head -n 1 || true; }

VEGETA_MODULE=github.com/tsenart/vegeta/v12@v12.12.0
TOOLS_BIN="$(cd "$HERE/../.." && pwd -P)/var/tools/bin"

install_vegeta() {
  if [ -x "$TOOLS_BIN/vegeta" ]; then
    printf 'bench: vegeta %s (%s)\n' "${VEGETA_MODULE#*@}" "$(rel "$TOOLS_BIN/vegeta")"
    return 0
  fi
  command -v go >/dev/null 2>&1 || die "vegeta needs Go to build it (go install $VEGETA_MODULE)"
  mkdir -p "$TOOLS_BIN"
  note "building vegeta with go install $VEGETA_MODULE"
  GOBIN="$TOOLS_BIN" go install "$VEGETA_MODULE"
  printf 'bench: installed vegeta %s (%s)\n' "${VEGETA_MODULE#*@}" "$(rel "$TOOLS_BIN/vegeta")"
}

if command -v wrk >/dev/null 2>&1; then
  printf 'bench: %s (%s)\n' "$(wrk_version)" "$(command -v wrk)"
  install_vegeta
  exit 0
fi
is_root || die "wrk is missing; install it with: sudo apt-get install -y wrk"
init_dirs
lock_install
log=$(install_log wrk)
note "installing Debian's wrk with apt-get (log $(rel "$log"))"
if ! apt_install "$log" wrk || ! command -v wrk >/dev/null 2>&1; then
  unlock_install
  die "apt-get install wrk failed (log $(rel "$log")); the benchmark needs wrk, it has no fallback"
fi
unlock_install
printf 'bench: installed %s (%s)\n' "$(wrk_version)" "$(command -v wrk)"
install_vegeta
