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

have_readers() { have_mmdblookup && have_python_reader; }
ensure_debian_packages mmdb-readers have_readers "the MMDB agreement test needs both" mmdb-bin python3-maxminddb
report
