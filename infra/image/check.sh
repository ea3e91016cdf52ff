#!/usr/bin/env bash
# `make image-check`: the image's build without a Docker engine. The committed files (the build
# context) go to a temporary folder, get `npm ci` and infra/image/build.sh as in the Dockerfile,
# and then every service's module graph is loaded from the pruned tree with the entry point's own
# flags: a runtime import of a devDependency, a pruned data file or a missing build output fails
# here, not in a cluster.
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd -P)
work=$(mktemp -d "${TMPDIR:-/tmp}/ipdata-image.XXXXXX")
trap 'rm -rf "$work"' EXIT
git -C "$ROOT" archive HEAD | tar -x -C "$work"
cd "$work"
npm ci --no-audit --no-fund --loglevel=error
"$work/infra/image/build.sh" "$work"

failed=0
check() {
  local what=$1
  shift
  if "$@" >"$work/check.log" 2>&1; then
    printf 'image-check: %-40s ok\n' "$what"
  else
    printf 'image-check: %-40s FAILED\n' "$what"
    sed 's/^/    /' "$work/check.log"
    failed=1
  fi
}
for app in services/*/dist/app.js; do
  check "${app%/dist/app.js}" node --import @ipdata/common/telemetry/register --input-type=module -e "await import('./$app')"
done
# The dataset build's inputs: the packaged registry sources and the project's rule files.
check services/dataset node --input-type=module -e "
  const { defaultInputs } = await import('./services/dataset/dist/build/default-inputs.js');
  const { inputs } = defaultInputs('services/dataset/data', 'services/dataset/data/privacy-lists');
  const { existsSync } = await import('node:fs');
  const missing = Object.values(inputs.paths).flat().filter((path) => !existsSync(path));
  if (Object.keys(inputs.paths).length === 0 || missing.length > 0) throw new Error('missing sources: ' + missing.join(' '));"
# The data files prune.sh keeps of bff-cn's packages, read as bff-cn reads them.
check "bff-cn: division catalogue" node --input-type=module -e "
  await (await import('./services/bff-cn/dist/card-tools/division.catalogue.js')).loadDivisionCatalogue();"
check "bff-cn: report fonts" node --input-type=module -e "
  (await import('./services/bff-cn/dist/report/report-pdf.js')).reportFonts();"
for file in frontends/cn/dist/index.html frontends/en/dist/index.html proto/gen/descriptors.binpb; do
  check "$file" test -s "$file"
done
for gone in services/bff-en/src node_modules/typescript node_modules/vitest node_modules/echarts node_modules/react; do
  check "pruned: $gone" test ! -e "$gone"
done
printf 'image-check: the pruned tree is %s\n' "$(du -sh "$work" | cut -f1)"
exit "$failed"
