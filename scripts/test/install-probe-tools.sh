#!/usr/bin/env bash
# Installs what services/probe runs: Debian's `traceroute` (package traceroute, the modern
# Linux implementation by Dmitry Butskoy: -4/-6, -n, -q, -w, -m, -N, ICMP/UDP/TCP methods),
# from Debian's archive through apt (infra/local/lib.sh apt_install), never from elsewhere.
# Does nothing when it is present (a second run takes milliseconds). Prints the binary in use.
#
#   scripts/test/install-probe-tools.sh
#
# Without root or apt-get it says what to run and fails: the probe worker's integration tests
# run the real binary against loopback addresses, and `make up` starts a probe that is not
# ready (/readyz) without it.
set -euo pipefail
export LC_ALL=C

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd -P)
# shellcheck source=../../infra/local/lib.sh
source "$HERE/../../infra/local/lib.sh"

# Debian installs it as /usr/bin/traceroute.db behind the alternatives link /usr/bin/traceroute;
# the probe's TRACEROUTE_BIN defaults to /usr/bin/traceroute.
have_traceroute() { [[ -x /usr/bin/traceroute ]] && /usr/bin/traceroute --version >/dev/null 2>&1; }

report() {
  printf 'probe tools: %s (%s)\n' "$(/usr/bin/traceroute --version 2>&1 | grep -m 1 .)" "$(readlink -f /usr/bin/traceroute)"
}

ensure_debian_packages probe-tools have_traceroute "the probe worker needs it" traceroute
report
