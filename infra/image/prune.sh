#!/usr/bin/env bash
# Cuts a built checkout (`make build` done) down to what the services run: production npm
# dependencies, each package's dist/ and the data files read at run time. Used by the image build
# (Dockerfile) and by `make image-check`, which then loads every entry point from the result.
#
#   infra/image/prune.sh <built checkout>
set -euo pipefail
cd "$1"
npm prune --omit=dev --no-audit --no-fund
# Kept: services/<name>/{package.json,dist,config,data}, proto/{package.json,dist,gen/descriptors.binpb},
# frontends/<face>/dist (served by the BFFs), infra/ports.json.
rm -rf services/*/src services/*/test services/*/bench services/*/tsconfig*.json services/*/README.md
rm -rf proto/ipdata proto/gen/ipdata proto/buf*.yaml proto/breaking-baseline.json proto/tsconfig*.json
for face in frontends/*/; do
  find "$face" -mindepth 1 -maxdepth 1 ! -name dist ! -name package.json ! -name node_modules -exec rm -rf {} +
done
rm -rf scripts k8s .ci patches infra/local infra/docker-compose.yml ./*.md ./*.config.ts eslint.config.js tsconfig*.json
find . -name '*.tsbuildinfo' -delete
