#!/usr/bin/env bash
# Builds @confluentinc/kafka-javascript (librdkafka inside) from source into a cache folder outside
# the repo, for scripts/bench/kafka-client.bench.ts and docs/adr/0002-kafka-client.md. Its install
# step downloads a prebuilt binary from a host this network does not reach, so the build is forced
# from source: librdkafka's bundled source linked against Debian's OpenSSL, zlib, zstd, lz4 and
# SASL (its static mode downloads those sources at configure time), node-gyp against the Node.js
# headers on the machine (/usr/include/node) instead of downloading them.
#
#   scripts/kafka-client/build-confluent-kafka.sh        # prints the install folder last
#
# Settings: IPDATA_CACHE_DIR (default ~/.cache/ipdata), CONFLUENT_KAFKA_VERSION (default 1.10.1),
# REBUILD=1 to build again. Prints JSON lines: {"step":"apt"|"build"|"size",...}. Not part of
# `make test` (the compile takes minutes): `make bench-kafka-client` runs it.
set -euo pipefail
export LC_ALL=C

REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd -P)
VERSION=${CONFLUENT_KAFKA_VERSION:-1.10.1}
CACHE=${IPDATA_CACHE_DIR:-${HOME:-/root}/.cache/ipdata}
DIR="$CACHE/kafka-client/confluent-kafka-javascript-$VERSION"
MODULE="$DIR/node_modules/@confluentinc/kafka-javascript"
NODE_HEADERS=${NODE_HEADERS_DIR:-$(dirname "$(dirname "$(readlink -f "$(command -v node)")")")}

log() { printf '%s\n' "$*" >&2; }

# What an image would carry: the package without librdkafka's source tree, object files, static
# libraries and headers (tar's byte count of what is left), and librdkafka's size stripped.
sizes() {
  local disk runtime stripped
  disk=$(du -sb "$DIR/node_modules" | cut -f1)
  runtime=$(cd "$MODULE" && tar -c --exclude=./deps --exclude=./src --exclude=./build/Release/obj.target \
    --exclude=./build/Release/.deps --exclude=./build/deps/include --exclude=./build/deps/pkgconfig \
    --exclude=./build/deps/librdkafka --exclude='./build/deps/*.a' . | wc -c)
  strip --strip-unneeded -o "$DIR/librdkafka.stripped" "$MODULE/build/deps/librdkafka.so.1"
  stripped=$(stat -c %s "$DIR/librdkafka.stripped") && rm -f "$DIR/librdkafka.stripped"
  printf '{"step":"size","node_modules_bytes":%s,"runtime_bytes":%s,"librdkafka_so_bytes":%s,"librdkafka_so_stripped_bytes":%s}\n' \
    "$disk" "$runtime" "$(stat -c %s "$MODULE/build/deps/librdkafka.so.1")" "$stripped"
}

# kafkajs beside it, installed the same way (both from the npm cache when it has them).
measure_kafkajs() {
  local dir="$CACHE/kafka-client/kafkajs" version started seconds
  rm -rf "$dir" && mkdir -p "$dir"
  version=$(node -p "require('$REPO/node_modules/kafkajs/package.json').version")
  started=$(date +%s.%N)
  (cd "$dir" && npm install --no-audit --no-fund --no-package-lock --ignore-scripts "kafkajs@$version" >/dev/null 2>&1)
  seconds=$(echo "$(date +%s.%N) - $started" | bc)
  printf '{"step":"kafkajs","version":"%s","seconds":%.1f,"node_modules_bytes":%s}\n' "$version" "$seconds" \
    "$(du -sb "$dir/node_modules" | cut -f1)"
}

measure_kafkajs
if [[ ${REBUILD:-0} != 1 && -f "$MODULE/build/Release/confluent-kafka-javascript.node" ]]; then
  log "already built: $MODULE (REBUILD=1 to build again)"
  sizes
  printf '%s\n' "$DIR"
  exit 0
fi

# Build dependencies from Debian's packages (root on the development machines and CI).
APT_PACKAGES=(build-essential python3 pkg-config libssl-dev zlib1g-dev libzstd-dev liblz4-dev libsasl2-dev)
missing=()
for p in "${APT_PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
if ((${#missing[@]} > 0)); then
  started=$(date +%s.%N)
  SUDO=()
  ((EUID == 0)) || SUDO=(sudo)
  "${SUDO[@]}" apt-get update -qq
  DEBIAN_FRONTEND=noninteractive "${SUDO[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2
  printf '{"step":"apt","packages":"%s","seconds":%.1f}\n' "${missing[*]}" "$(echo "$(date +%s.%N) - $started" | bc)"
fi

[[ -f "$NODE_HEADERS/include/node/node_api.h" ]] ||
  { log "no Node.js headers under $NODE_HEADERS/include/node (set NODE_HEADERS_DIR)"; exit 1; }

NODE_GYP=${NODE_GYP:-$(npm prefix -g)/lib/node_modules/npm/node_modules/node-gyp/bin/node-gyp.js}
[[ -f $NODE_GYP ]] || { log "no node-gyp at $NODE_GYP (set NODE_GYP)"; exit 1; }

rm -rf "$DIR"
mkdir -p "$MODULE"
started=$(date +%s.%N)
# The steps of its install script, each by hand: the published package (librdkafka's source is in
# it), its runtime dependencies without running their scripts, then node-gyp. Through
# `npm install` the same build stopped right after librdkafka's configure with no message.
build() {
  cd "$DIR" || return
  npm pack --silent "@confluentinc/kafka-javascript@$VERSION" >"$DIR/build.log" 2>&1 || return
  tar -xzf "confluentinc-kafka-javascript-$VERSION.tgz" -C "$MODULE" --strip-components=1 || return
  rm -f "confluentinc-kafka-javascript-$VERSION.tgz"
  cd "$MODULE" || return
  npm install --omit=dev --ignore-scripts --no-audit --no-fund --no-package-lock >>"$DIR/build.log" 2>&1 || return
  # librdkafka's own make runs with an unbounded -j (~20 compilers at once here): bounded to JOBS.
  sed -i "s/\"make\", \"-j\",/\"make\", \"-j${JOBS:-2}\",/" deps/librdkafka.gyp || return
  # CKJS_LINKING=dynamic: librdkafka from its bundled source as a shared library beside the addon,
  # against the system libraries (its static mode downloads their sources at configure time).
  # --nodedir: the headers on the machine, not a download. --jobs=1: the addon's makefile does not
  # order librdkafka's configure before its build (seen: "No rule to make target
  # '../deps/librdkafka/config.h'" under -j2); librdkafka itself still builds in parallel.
  CKJS_LINKING=dynamic node "$NODE_GYP" rebuild --nodedir="$NODE_HEADERS" --jobs=1 >>"$DIR/build.log" 2>&1 || return
  node -e "require('./')" >>"$DIR/build.log" 2>&1
}
build || { log "build failed; last lines of $DIR/build.log:"; tail -40 "$DIR/build.log" >&2; exit 1; }
seconds=$(echo "$(date +%s.%N) - $started" | bc)
printf '{"step":"build","version":"%s","seconds":%.1f}\n' "$VERSION" "$seconds"

sizes
printf '%s\n' "$DIR"
