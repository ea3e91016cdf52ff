# shellcheck shell=bash
# FerretDB 1.24.2 on its SQLite backend: the MongoDB wire protocol for the local stack
# (exposed as the "mongo" component). Sourced by stack.sh after lib.sh.
#
# Why FerretDB is built by hand instead of `go install github.com/FerretDB/FerretDB/cmd/ferretdb@v1.24.2`:
#   1. `go install pkg@version` looks up module deprecations, which requests the module's
#      @v/list from the Go proxy; for github.com/FerretDB/FerretDB the proxy answers 403, so the
#      install fails before building anything.
#   2. Even a binary built straight from the module zip panics at start-up: FerretDB embeds
#      build/version/version.txt (generated from `git describe` by its release tooling) and the
#      file is not in the module zip.
# So: `go mod download` the exact version (no @v/list needed), copy the module source to a
# writable directory, write build/version/version.txt (and commit.txt), and `go build` it.
# The Go build cache makes rebuilds take seconds; the binary is cached in $IPDATA_CACHE_DIR.
#
# One patch (FERRETDB_PATCH): FerretDB's SQLite backend creates the _id unique index on the
# expression `_ferretdb_sjson->"_id"` but looks _id up with `_ferretdb_sjson->'$._id'`; SQLite only
# uses an expression index for the identical expression, so every find/update by _id scanned the
# whole collection (stats' counter documents: 2,000 updates on 2,000 documents took 32.6 s, 2.8 s
# patched; ledger throughput over 24 hours of documents 36 → 1,646 events/s). The patch makes the
# lookup use the index's expression; both return the same JSON value, existing databases keep
# working (their index is already there).

FERRETDB_VERSION=1.24.2
# Changes when the patch changes, so an installed binary without it is rebuilt.
FERRETDB_PATCH=id-index-1
FERRETDB_MODULE=github.com/FerretDB/FerretDB
FERRETDB_HOME="$IPDATA_CACHE_DIR/ferretdb-$FERRETDB_VERSION"
FERRETDB_BIN="$FERRETDB_HOME/bin/ferretdb"

register_component ferretdb ferretdb mongo

ferretdb_installed() {
  [[ -x $FERRETDB_BIN && -f $FERRETDB_HOME/.installed && $(<"$FERRETDB_HOME/.installed") == "$FERRETDB_VERSION+$FERRETDB_PATCH" ]]
}

ferretdb_install() {
  local log t0 build
  ferretdb_installed && return 0
  command -v go >/dev/null 2>&1 ||
    { fail_line ferretdb "go not found on PATH: Go 1.24+ is needed to build FerretDB $FERRETDB_VERSION (https://go.dev/dl)"; return 1; }
  lock_install
  if ferretdb_installed; then
    unlock_install
    return 0
  fi
  log=$(install_log ferretdb)
  t0=$(now_ms)
  note "mongo: building FerretDB $FERRETDB_VERSION from the Go module proxy into $FERRETDB_HOME (about a minute the first time; log $(rel "$log"))"
  mkdir -p "$FERRETDB_HOME/bin"
  rm_tree "$FERRETDB_HOME"/build.* # left over by an interrupted install
  build=$(mktemp -d "$FERRETDB_HOME/build.XXXXXX")
  if ! ferretdb_build "$build" >>"$log" 2>&1; then
    rm_tree "$build"
    unlock_install
    fail_line ferretdb "building FerretDB $FERRETDB_VERSION failed: $(grep -v '^[[:space:]]*$' "$log" | tail -n 1 | cut -c 1-200)  (log $(rel "$log"))"
    return 1
  fi
  rm_tree "$build"
  mv -f -- "$FERRETDB_HOME/bin/ferretdb.new" "$FERRETDB_BIN"
  printf '%s\n' "$FERRETDB_VERSION+$FERRETDB_PATCH" >"$FERRETDB_HOME/.installed"
  unlock_install
  note "mongo: built FerretDB $FERRETDB_VERSION in $(elapsed "$t0")"
}

# ferretdb_build <empty build dir>: runs in a subshell, output goes to the install log.
ferretdb_build() (
  set -euo pipefail
  build=$1
  cd "$build" # outside any Go module: `go mod download mod@version` works there
  # GOFLAGS is replaced, not extended: a user's -mod=vendor or similar must not leak in.
  json=$(GOFLAGS=-mod=mod go mod download -json "$FERRETDB_MODULE@v$FERRETDB_VERSION")
  printf '%s\n' "$json"
  src=$(sed -n 's/^[[:space:]]*"Dir": "\(.*\)",\{0,1\}$/\1/p' <<<"$json")
  commit=$(sed -n 's/^[[:space:]]*"Hash": "\([0-9a-f]*\)",\{0,1\}$/\1/p' <<<"$json")
  [[ -n $src && -d $src ]] || { echo "go mod download did not report the module directory"; exit 1; }
  # The module cache is read-only: copy it and make the copy writable.
  cp -R -- "$src/." "$build/src"
  chmod -R u+w "$build/src"
  # The _id lookup expression of the index (see FERRETDB_PATCH above).
  metadata=$build/src/internal/backends/sqlite/metadata/metadata.go
  sed -i 's|^\([[:space:]]*IDColumn = DefaultColumn + \).*$|\1"->\\"_id\\""|' "$metadata"
  grep -q 'IDColumn = DefaultColumn + "->\\"_id\\""' "$metadata" || { echo "the FerretDB _id index patch did not apply"; exit 1; }
  printf 'v%s\n' "$FERRETDB_VERSION" >"$build/src/build/version/version.txt"
  if [[ -n $commit ]]; then printf '%s\n' "$commit" >"$build/src/build/version/commit.txt"; fi
  cd "$build/src"
  # Pure Go (the SQLite backend is modernc.org/sqlite): no C toolchain needed.
  CGO_ENABLED=0 GOFLAGS=-mod=readonly go build -trimpath -buildvcs=false \
    -o "$FERRETDB_HOME/bin/ferretdb.new" ./cmd/ferretdb
  # Catch start-up panics (like the missing version.txt) at install time, not at `up`.
  "$FERRETDB_HOME/bin/ferretdb.new" --version
)

# Launches FerretDB (does not wait). Prints the pid.
ferretdb_start() {
  local dir
  dir=$(data_dir ferretdb)
  mkdir -p "$dir/data" "$dir/state"
  rotate_log ferretdb
  # --debug-addr=- disables the debug/metrics HTTP listener (default 127.0.0.1:8088), so that
  # two stacks never collide on it.
  launch ferretdb "$FERRETDB_BIN" \
    --handler=sqlite \
    --sqlite-url="file:$dir/data/" \
    --state-dir="$dir/state" \
    --listen-addr="127.0.0.1:$MONGO_PORT" \
    --debug-addr=- \
    --telemetry=disable \
    --log-format=json \
    --log-level=info ||
    { printf 'could not launch %s' "$FERRETDB_BIN"; return 1; }
}

# Ready when the process is alive (checked by the caller) and the port accepts connections.
ferretdb_ready() { port_open "$MONGO_PORT"; }

ferretdb_ports() { printf '%s' "$MONGO_PORT"; }
ferretdb_addr() { printf '127.0.0.1:%s' "$MONGO_PORT"; }
ferretdb_stop() { proc_stop ferretdb "$@"; }
ferretdb_status() { generic_status ferretdb "FerretDB $FERRETDB_VERSION, sqlite"; }
