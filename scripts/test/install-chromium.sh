#!/usr/bin/env bash
# Installs the browser the front ends' browser tests drive: Debian's `chromium` package
# (/usr/bin/chromium) and a small Chinese font (fonts-wqy-microhei, 1.6 MB: without any CJK
# font face A's screenshots show empty boxes for every character) and Noto Color Emoji (face B
# shows country flags as emoji, empty boxes without it), from Debian's archive through apt (infra/local/lib.sh apt_install), never
# a browser download (no `playwright install`: playwright-core is only the driver, it launches
# this binary; see scripts/test/browser/). Does nothing when it is present (a second run takes
# milliseconds). Prints the version in use.
#
#   scripts/test/install-chromium.sh
#
# Without root or apt-get it says what to run and fails: the browser tests (services/*/test/
# *browser*.test.ts) open the apps in this binary. On a fresh Debian 12 machine the install
# pulls 25 packages (126 MB to download, 419 MB unpacked); measured here: 20 s with a
# fast Debian mirror.
set -euo pipefail
export LC_ALL=C

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd -P)
# shellcheck source=../../infra/local/lib.sh
source "$HERE/../../infra/local/lib.sh"

# Debian's /usr/bin/chromium is a wrapper script around /usr/lib/chromium/chromium; asking it
# for its version starts no window and needs no display. Its stderr is dropped: the wrapper's
# /etc/chromium.d/dev-shm check prints a harmless shell error where /dev/shm has two mounts.
have_chromium() { [[ -x /usr/bin/chromium ]] && /usr/bin/chromium --version >/dev/null 2>&1; }
CJK_FONT=/usr/share/fonts/truetype/wqy/wqy-microhei.ttc
EMOJI_FONT=/usr/share/fonts/truetype/noto/NotoColorEmoji.ttf
FONT_PACKAGES=(fonts-wqy-microhei fonts-noto-color-emoji)
have_all() { have_chromium && [[ -f $CJK_FONT && -f $EMOJI_FONT ]]; }

report() {
  printf 'chromium: %s (%s; CJK font %s)\n' "$(/usr/bin/chromium --version 2>/dev/null | grep -m 1 .)" \
    "$(readlink -f /usr/lib/chromium/chromium)" "$CJK_FONT"
}

ensure_debian_packages chromium have_all "the browser tests need /usr/bin/chromium" chromium "${FONT_PACKAGES[@]}"
report
