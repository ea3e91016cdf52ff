#!/usr/bin/env bash
# Installs the MaxMind DB readers the MMDB agreement test (services/dataset/test/mmdb-readers.test.ts)
# opens our ipdata-city.mmdb with: Debian's `mmdblookup` (package mmdb-bin, libmaxminddb) and
# Debian's Python reader (package python3-maxminddb, for /usr/bin/python3), both from Debian's
# archive through apt (infra/local/lib.sh apt_install), never from elsewhere. Does nothing when
# both are present (a second run takes milliseconds). Prints the readers in use.
#
#   scripts/test/install-mmdb-readers.sh
#
# Without root or apt-get it says what to run and fails: the test has no fallback reader, since
# the point is that independent readers (C and Python) open the file.
set -euo pipefail
export LC_ALL=C

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd -P)
# shellcheck source=../../infra/local/lib.sh
source "$HERE/../../infra/local/lib.sh"

# The Python reader must be Debian's, for Debian's python3 (a pyenv shim may shadow it on PATH).
PYTHON=/usr/bin/python3

have_mmdblookup() { command -v mmdblookup >/dev/null 2>&1; }
have_python_reader() { [[ -x $PYTHON ]] && "$PYTHON" -c 'import maxminddb' >/dev/null 2>&1; }

report() {
  printf 'mmdb readers: %s (%s); python3-maxminddb %s (%s)\n' \
    "$(mmdblookup --version 2>&1 | grep -m 1 .)" "$(command -v mmdblookup)" \
    "$("$PYTHON" -c 'import maxminddb; print(maxminddb.__version__)' 2>/dev/null || echo '?')" "$PYTHON"
}

if have_mmdblookup && have_python_reader; then
  report
  exit 0
fi
is_root || die "the MMDB readers are missing; install them with: sudo apt-get install -y mmdb-bin python3-maxminddb"
init_dirs
lock_install
log=$(install_log mmdb-readers)
note "installing Debian's mmdb-bin and python3-maxminddb with apt-get (log $(rel "$log"))"
if ! apt_install "$log" mmdb-bin python3-maxminddb || ! have_mmdblookup || ! have_python_reader; then
  unlock_install
  die "apt-get install mmdb-bin python3-maxminddb failed (log $(rel "$log")); the MMDB agreement test needs both"
fi
unlock_install
report
