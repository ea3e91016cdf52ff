#!/usr/bin/env bash
# Installs what the bff-cn report tests render PDFs with: Debian's poppler-utils (`pdftoppm`,
# `pdftotext`), from Debian's archive through apt (infra/local/lib.sh apt_install), never from
# elsewhere. Does nothing when it is present (a second run takes milliseconds). Prints the
# binary in use.
#
#   scripts/test/install-pdf-tools.sh
#
# Without root or apt-get it says what to run and fails: the report's PDF test renders the
# generated PDF to an image with the real pdftoppm to check that it draws.
set -euo pipefail
export LC_ALL=C

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd -P)
# shellcheck source=../../infra/local/lib.sh
source "$HERE/../../infra/local/lib.sh"

have_pdftoppm() { [[ -x /usr/bin/pdftoppm ]] && /usr/bin/pdftoppm -v >/dev/null 2>&1; }

report() {
  printf 'pdf tools: %s (%s)\n' "$(/usr/bin/pdftoppm -v 2>&1 | grep -m 1 .)" "$(readlink -f /usr/bin/pdftoppm)"
}

ensure_debian_packages pdf-tools have_pdftoppm "the report's PDF test needs pdftoppm" poppler-utils
report
