#!/usr/bin/env bash
# Installs what the calendar check runs the unit tests under: Debian's `faketime` (libfaketime's
# wrapper), from Debian's archive through apt (infra/local/lib.sh ensure_debian_packages), never
# from elsewhere. Does nothing when it is present. Prints the binary in use.
#
#   scripts/test/install-faketime.sh
set -euo pipefail
export LC_ALL=C

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd -P)
# shellcheck source=../../infra/local/lib.sh
source "$HERE/../../infra/local/lib.sh"

# The wrapper alone is not enough: it preloads libfaketime, which must answer a faked date.
have_faketime() { [[ -x /usr/bin/faketime ]] && [[ $(/usr/bin/faketime -f '@2028-02-29 23:59:40' date -u +%F 2>/dev/null) == 2028-02-29 ]]; }

ensure_debian_packages faketime have_faketime "the calendar check runs the unit tests under it" faketime
printf 'faketime: %s\n' "$(dpkg-query -W -f '${Package} ${Version}' faketime 2>/dev/null || echo '?')"
