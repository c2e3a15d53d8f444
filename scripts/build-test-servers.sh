#!/usr/bin/env bash
# Builds the servers that the contract suites start on free ports, once, into a cached folder:
#   FerretDB v1.24.2 (MongoDB's wire protocol on a SQLite backend) for the mongoose adapters,
#   MinIO for the object-store adapter,
#   Mailpit (an SMTP server that keeps the mail and shows it over an HTTP API) for the production-shaped
#   run (`npm run start:cluster`) and its suite, test/cluster.test.ts.
# `go install pkg@version` does not work here (the module proxy refuses the version list), so each
# module is fetched with `go mod download` and built from its folder. Without `go` this says so and
# exits 0: the suites that need these servers then skip and give the reason.
set -euo pipefail

BIN="${GO_BIN_DIR:-$HOME/.cache/storefront/go-bin}"
FERRETDB_MODULE=github.com/FerretDB/FerretDB
FERRETDB_VERSION=v1.24.2
MINIO_MODULE=github.com/minio/minio
# MinIO tags releases as RELEASE.<date>, which Go cannot use; its module versions are pseudo-versions.
# RELEASE.2025-10-15T17-29-55Z is commit 9e49d5e7a648. Where the module proxy refuses that version
# (it does on this machine: 403 "not available"), the last commit of the archived repository is used.
MINIO_VERSIONS=(v0.0.0-20251015172955-9e49d5e7a648 v0.0.0-20260212201848-7aac2a2c5b7c)
MAILPIT_MODULE=github.com/axllent/mailpit
MAILPIT_VERSION=v1.33.1

log() { echo "[build-test-servers] $*"; }

if ! command -v go >/dev/null 2>&1; then
  log "'go' is not installed; skipping. FerretDB and MinIO contract suites will skip (install Go 1.23+ to run them)."
  exit 0
fi
mkdir -p "$BIN"

# module_dir MODULE VERSION: the folder `go mod download` unpacked the module into.
source "$(dirname "$0")/lib/go-modules.sh"

build_ferretdb() {
  if "$BIN/ferretdb" --version >/dev/null 2>&1; then
    log "ferretdb present: $BIN/ferretdb"
    return
  fi
  log "building FerretDB $FERRETDB_VERSION (a few minutes the first time)"
  local dir work
  dir="$(module_dir "$FERRETDB_MODULE" "$FERRETDB_VERSION")"
  # FerretDB embeds build/version/version.txt, which its release tooling writes and the module zip lacks;
  # without it the binary panics at start. Build from a writable copy with that file filled in.
  work="$(mktemp -d)"
  trap 'rm -rf "$work"' RETURN
  cp -r "$dir/." "$work/src"
  chmod -R u+w "$work/src"
  echo "$FERRETDB_VERSION" >"$work/src/build/version/version.txt"
  (cd "$work/src" && go build -trimpath -o "$BIN/ferretdb.partial" ./cmd/ferretdb)
  mv "$BIN/ferretdb.partial" "$BIN/ferretdb"
  "$BIN/ferretdb" --version >/dev/null
  log "built $BIN/ferretdb"
}

build_minio() {
  if "$BIN/minio" --version >/dev/null 2>&1; then
    log "minio present: $BIN/minio"
    return
  fi
  local dir="" version
  for version in "${MINIO_VERSIONS[@]}"; do
    if dir="$(module_dir "$MINIO_MODULE" "$version" 2>/dev/null)"; then break; fi
    log "module proxy refused $MINIO_MODULE@$version; trying the next pinned version"
    dir=""
  done
  if [ -z "$dir" ]; then
    log "no pinned MinIO version could be downloaded; skipping (the MinIO contract suite will skip)"
    return
  fi
  log "building MinIO $version (several minutes the first time)"
  (cd "$dir" && go build -trimpath -o "$BIN/minio.partial" .)
  mv "$BIN/minio.partial" "$BIN/minio"
  log "built $BIN/minio"
}

build_mailpit() {
  if "$BIN/mailpit" version --no-release-check >/dev/null 2>&1; then
    log "mailpit present: $BIN/mailpit"
    return
  fi
  log "building Mailpit $MAILPIT_VERSION"
  local dir
  dir="$(module_dir "$MAILPIT_MODULE" "$MAILPIT_VERSION")"
  # The module holds no built web UI (its npm build makes it); the SMTP server and the HTTP API, which is what
  # the cluster run and its tests use, need none. The version is stamped the way its release build does it.
  (cd "$dir" && go build -trimpath -ldflags "-s -w -X github.com/axllent/mailpit/config.Version=$MAILPIT_VERSION" -o "$BIN/mailpit.partial" .)
  mv "$BIN/mailpit.partial" "$BIN/mailpit"
  "$BIN/mailpit" version --no-release-check >/dev/null
  log "built $BIN/mailpit"
}

case "${1:-all}" in
  ferretdb) build_ferretdb ;;
  minio) build_minio ;;
  mailpit) build_mailpit ;;
  # Each server in its own process: one failing to build must not stop the other (and `set -e` holds inside each).
  all)
    status=0
    bash "$0" ferretdb || { status=1; log "FerretDB was not built; the mongo contract suites will skip"; }
    bash "$0" minio || { status=1; log "MinIO was not built; the MinIO contract suite will skip"; }
    bash "$0" mailpit || { status=1; log "Mailpit was not built; the cluster suite will skip"; }
    exit "$status"
    ;;
  *) echo "usage: $0 [all|ferretdb|minio|mailpit]" >&2; exit 2 ;;
esac
