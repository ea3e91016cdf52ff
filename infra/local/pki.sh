#!/usr/bin/env bash
# Local PKI for internal gRPC mutual TLS: one CA and one certificate per service identity,
# made with Debian's openssl. See infra/local/README.md ("gRPC certificates").
#
#   infra/local/pki.sh [dir]        default dir: $IPDATA_STACK_DIR/pki (var/stack/pki)
#
# Writes <dir>/ca.crt (+ ca.key) and <dir>/<identity>.crt/.key for every identity below.
# Made once and reused: an existing, valid file set is left alone, so running it again (every
# `make up`, every test run) is a no-op that takes a few milliseconds. A certificate that no
# longer verifies against ca.crt, or expires within 30 days, is issued again.
#
# The identity of a caller is the certificate's Subject CN (services/common/src/grpc/grpc-access.ts).
# Every certificate is valid as server and as client (extendedKeyUsage serverAuth, clientAuth),
# with SANs DNS:<identity>, DNS:localhost and IP:127.0.0.1, so a service's one key pair serves
# its gRPC port and authenticates it to the services it calls.
set -euo pipefail
export LC_ALL=C

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd -P)
REPO_ROOT=$(cd "$HERE/../.." && pwd -P)
: "${IPDATA_STACK_DIR:=$REPO_ROOT/var/stack}"
DIR=${1:-$IPDATA_STACK_DIR/pki}

# Every service of the root README's service map, and `operator` for people (read-only methods).
IDENTITIES=(lookup-engine auth billing stats downloads content probe bff-cn bff-en dataset operator)
CA_DAYS=3650
CERT_DAYS=825
RENEW_SECONDS=$((30 * 24 * 3600))

command -v openssl >/dev/null || {
  printf 'pki: openssl is missing (apt-get install openssl)\n' >&2
  exit 1
}
mkdir -p "$DIR"
DIR=$(cd "$DIR" && pwd -P)
# Two callers at once (make up and a test run on the same dir) must not write half a file set.
exec 7>"$DIR/.lock"
flock 7

umask 077

ca_valid() {
  [[ -s $DIR/ca.crt && -s $DIR/ca.key ]] && openssl x509 -in "$DIR/ca.crt" -noout -checkend "$RENEW_SECONDS" >/dev/null 2>&1
}

cert_valid() {
  local name=$1
  [[ -s $DIR/$name.crt && -s $DIR/$name.key ]] &&
    openssl x509 -in "$DIR/$name.crt" -noout -checkend "$RENEW_SECONDS" >/dev/null 2>&1 &&
    openssl verify -CAfile "$DIR/ca.crt" "$DIR/$name.crt" >/dev/null 2>&1
}

make_ca() {
  openssl req -x509 -new -nodes -newkey ec -pkeyopt ec_paramgen_curve:P-256 -sha256 -days "$CA_DAYS" \
    -subj '/O=ipdata local/CN=ipdata local gRPC CA' \
    -addext 'basicConstraints=critical,CA:TRUE,pathlen:0' \
    -addext 'keyUsage=critical,keyCertSign,cRLSign' \
    -keyout "$DIR/ca.key.tmp" -out "$DIR/ca.crt.tmp" 2>/dev/null
  mv "$DIR/ca.key.tmp" "$DIR/ca.key"
  mv "$DIR/ca.crt.tmp" "$DIR/ca.crt"
}

make_cert() {
  local name=$1 ext
  ext=$(mktemp)
  cat >"$ext" <<EOF
basicConstraints=critical,CA:FALSE
keyUsage=critical,digitalSignature,keyEncipherment
extendedKeyUsage=serverAuth,clientAuth
subjectAltName=DNS:$name,DNS:localhost,IP:127.0.0.1
EOF
  openssl req -new -nodes -newkey ec -pkeyopt ec_paramgen_curve:P-256 -sha256 \
    -subj "/O=ipdata local/CN=$name" -keyout "$DIR/$name.key.tmp" -out "$DIR/$name.csr" 2>/dev/null
  openssl x509 -req -in "$DIR/$name.csr" -CA "$DIR/ca.crt" -CAkey "$DIR/ca.key" -CAcreateserial \
    -days "$CERT_DAYS" -sha256 -extfile "$ext" -out "$DIR/$name.crt.tmp" 2>/dev/null
  rm -f -- "$ext" "$DIR/$name.csr"
  mv "$DIR/$name.key.tmp" "$DIR/$name.key"
  mv "$DIR/$name.crt.tmp" "$DIR/$name.crt"
}

made=()
if ! ca_valid; then
  make_ca
  made+=(ca)
fi
for name in "${IDENTITIES[@]}"; do
  if ! cert_valid "$name"; then
    make_cert "$name"
    made+=("$name")
  fi
done
# Public parts readable by the services' users; keys stay 0600.
chmod 644 "$DIR"/*.crt

if ((${#made[@]})); then
  printf 'pki    ready     %s  issued: %s\n' "$DIR" "${made[*]}"
else
  printf 'pki    ready     %s  (reused)\n' "$DIR"
fi
