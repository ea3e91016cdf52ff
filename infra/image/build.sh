#!/usr/bin/env bash
# The image's build step (Dockerfile), also run by `make image-check`: in a checkout whose npm
# dependencies are installed (npm ci), `make build`'s work (contracts with buf and ts-proto, the
# reflection descriptor set, tsc -b, both web apps), then prune.sh.
#
#   infra/image/build.sh <checkout>
set -euo pipefail
cd "$1"
(cd proto && npx buf generate && npx buf build -o gen/descriptors.binpb)
npx tsc -b
npm run build --silent -w @ipdata/frontend-cn
npm run build --silent -w @ipdata/frontend-en
"$(dirname "${BASH_SOURCE[0]}")/prune.sh" "$1"
