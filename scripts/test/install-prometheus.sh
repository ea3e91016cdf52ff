#!/usr/bin/env bash
# Installs Debian's `prometheus` package (the server and promtool) into the cache, without root
# and without running its maintainer scripts: `apt-get download` fetches the .deb from Debian's
# archive and `dpkg -x` unpacks it into $IPDATA_CACHE_DIR/prometheus-<version>/. Nothing is
# installed system-wide and no service is started. Does nothing when that version is unpacked
# already. Prints where the binaries are.
#
#   scripts/test/install-prometheus.sh            # prints: promtool: <path> (<version>)
#
# promtool checks and unit-tests the alerting rules in ops/prometheus/rules/
# (scripts/ops/prometheus-rules.test.ts, make test). The package is one .deb of ~30 MB.
set -euo pipefail
export LC_ALL=C

CACHE=${IPDATA_CACHE_DIR:-$HOME/.cache/ipdata}
die() { printf 'install-prometheus: %s\n' "$*" >&2; exit 1; }

command -v apt-get >/dev/null && command -v dpkg >/dev/null || die "apt-get and dpkg are missing (Debian's prometheus package is unpacked with them)"

# The candidate version from the machine's apt lists; fall back to an unpacked one when the lists are gone.
version=$(apt-cache policy prometheus 2>/dev/null | awk '/Candidate:/ { print $2 }')
if [[ -z $version || $version == '(none)' ]]; then
  found=$(find "$CACHE" -maxdepth 1 -type d -name 'prometheus-*' 2>/dev/null | sort | tail -n 1)
  [[ -n $found ]] || die "apt has no candidate for prometheus; run: apt-get update"
  dir=$found
else
  dir="$CACHE/prometheus-${version//[:+~]/_}"
fi

have() { [[ -x $dir/usr/bin/promtool && -x $dir/usr/bin/prometheus ]] && "$dir/usr/bin/promtool" --version >/dev/null 2>&1; }

if ! have; then
  work=$(mktemp -d "${CACHE%/}/.prometheus-download.XXXXXX" 2>/dev/null || { mkdir -p "$CACHE" && mktemp -d "$CACHE/.prometheus-download.XXXXXX"; })
  trap 'rm -rf "$work"' EXIT
  printf 'install-prometheus: downloading Debian prometheus %s\n' "$version" >&2
  (cd "$work" && apt-get download -q "prometheus=$version" >download.log 2>&1) || die "apt-get download prometheus=$version failed: $(tail -n 3 "$work/download.log")"
  mkdir -p "$work/root"
  dpkg -x "$work"/prometheus_*.deb "$work/root"
  rm -rf "$dir"
  mv "$work/root" "$dir"
  have || die "unpacked $dir but $dir/usr/bin/promtool does not run"
fi

printf 'promtool: %s (%s)\n' "$dir/usr/bin/promtool" "$("$dir/usr/bin/promtool" --version 2>&1 | head -n 1)"
printf 'prometheus: %s\n' "$dir/usr/bin/prometheus"
