#!/usr/bin/env bash
# Installs the native load generator the public API benchmark drives (public-api.bench.ts): wrk,
# from Debian's archive through apt (infra/local/lib.sh apt_install), never a binary downloaded
# from elsewhere. Does nothing when wrk is already on PATH. Prints the wrk in use.
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

if command -v wrk >/dev/null 2>&1; then
  printf 'bench: %s (%s)\n' "$(wrk_version)" "$(command -v wrk)"
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
