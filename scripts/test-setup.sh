#!/usr/bin/env bash
# The first step of `npm test` (and so of CI, whose .ci/run is `npm ci` and `npm test`): makes ready what the suites
# need besides node_modules, and says exactly what to run where it cannot.
#   Chromium      the browser tests (e2e/) drive Debian's /usr/bin/chromium: a hard need, this stops without it
#   redis-server  BullMQ, replicas, rate limits across processes, the cluster      } Debian packages, installed with
#   nginx         the production nginx config, the cluster                          } apt-get when root (or sudo -n)
#   promtool      the alert rules and scrape config (package prometheus)            }
#   FerretDB, MinIO, Mailpit      built once from Go's module proxy (scripts/build-test-servers.sh)
#   kustomize, kubeconform, schemas   built once the same way (scripts/build-k8s-tools.sh)
#   schemathesis 4.32.5           the outside fuzzer (test/schemathesis.test.ts), from PyPI with pip
# Everything but Chromium is optional: a suite whose server cannot be had skips and says why; this names those suites.
# With everything in place it only looks (well under a second; the k8s tools' own check included).
#
# Environment: TEST_SETUP_STRICT=1 (set by .ci/run) makes a missing Debian package or schemathesis stop the run too,
# so CI cannot pass with suites skipped that it is meant to run; only the Go-built servers stay optional there (their
# module proxy may be out of reach). TEST_SETUP_INSTALL=0 looks and reports without installing or building anything. The tests' own
# overrides are honoured: CHROMIUM_PATH, REDIS_SERVER_BIN, NGINX_BIN, GO_BIN_DIR, FERRETDB_BIN, MINIO_BIN, MAILPIT_BIN,
# K8S_SCHEMA_DIR, SCHEMATHESIS_BIN.
set -uo pipefail
cd "$(dirname "$0")/.."

started=$(date +%s%N)
INSTALL="${TEST_SETUP_INSTALL:-1}"
BIN="${GO_BIN_DIR:-$HOME/.cache/storefront/go-bin}"
SCHEMAS="${K8S_SCHEMA_DIR:-$HOME/.cache/storefront/k8s-schemas}"
CHROMIUM="${CHROMIUM_PATH:-/usr/bin/chromium}"
REDIS="${REDIS_SERVER_BIN:-/usr/bin/redis-server}"
NGINX="${NGINX_BIN:-/usr/sbin/nginx}"
PROMTOOL="${PROMTOOL_BIN:-/usr/bin/promtool}"
FERRETDB="${FERRETDB_BIN:-$BIN/ferretdb}"
MINIO="${MINIO_BIN:-$BIN/minio}"
MAILPIT="${MAILPIT_BIN:-$(dirname "$FERRETDB")/mailpit}"
SCHEMATHESIS_VERSION=4.32.5 # the version CI runs; test/schemathesis.test.ts takes whichever it finds

log() { echo "[test-setup] $*"; }
# The test files that mention PATTERN (how they start the server in question): the suites that skip without it.
suites() { grep -rlE "$1" --include='*.test.ts' --exclude-dir=node_modules packages services gateway scripts test 2>/dev/null | sort | tr '\n' ' '; }

STRICT="${TEST_SETUP_STRICT:-0}"
hard=()     # what stops npm test, each with the command that fixes it
skipping=() # what only makes suites skip, each with the suites and the command
ready=()

if [ ! -x node_modules/.bin/vitest ]; then
  log "node_modules is missing or incomplete: run \`npm install\` (or \`npm ci\`) first, then \`npm test\` again."
  exit 1
fi

# ---- Debian packages: Chromium, redis-server, nginx, Prometheus (its promtool checks the alert rules) ----
# name | binary | Debian package | the variable that overrides the binary | suites (a pattern of what their tests call)
apt_rows=(
  "Chromium|$CHROMIUM|chromium|CHROMIUM_PATH|"
  "redis-server|$REDIS|redis-server|REDIS_SERVER_BIN|startRedis|startCluster"
  "nginx|$NGINX|nginx|NGINX_BIN|startNginx|startCluster"
  "promtool|$PROMTOOL|prometheus|PROMTOOL_BIN|promtool"
)
apt_missing() {
  local row name bin pkg
  for row in "${apt_rows[@]}"; do
    IFS='|' read -r name bin pkg _ <<<"$row"
    [ -x "$bin" ] || echo "$pkg"
  done
}
mapfile -t packages < <(apt_missing)
# Root runs apt-get as is; another user through sudo when it needs no password (the fix says sudo when sudo is there).
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo "
apt_why=""
if [ "${#packages[@]}" -gt 0 ]; then
  if [ "$INSTALL" = 0 ]; then
    apt_why="TEST_SETUP_INSTALL=0"
  elif ! command -v apt-get >/dev/null 2>&1 || [ ! -f /etc/debian_version ]; then
    apt_why="not a Debian system (no apt-get): install them with the system's package manager"
  elif [ "$(id -u)" -ne 0 ] && ! command -v sudo >/dev/null 2>&1; then
    apt_why="not root, and no sudo"
  elif [ "$(id -u)" -ne 0 ] && ! sudo -n true 2>/dev/null; then
    apt_why="not root, and sudo asks for a password"
  else
    log "installing ${packages[*]} with apt-get (Debian packages; once)"
    export DEBIAN_FRONTEND=noninteractive
    if ! ${sudo}apt-get update -qq; then
      apt_why="apt-get update failed (no network or no package source?)"
    elif ! ${sudo}apt-get install -y -qq --no-install-recommends "${packages[@]}" >/dev/null; then
      apt_why="apt-get install failed (see above)"
    fi
  fi
fi
for row in "${apt_rows[@]}"; do
  IFS='|' read -r name bin pkg var pattern <<<"$row"
  if [ -x "$bin" ]; then
    ready+=("$name")
    continue
  fi
  if [ "$(id -u)" -eq 0 ] || command -v sudo >/dev/null 2>&1; then
    fix="${sudo}apt-get update && ${sudo}apt-get install -y --no-install-recommends $pkg"
  else
    fix="as root: apt-get update && apt-get install -y --no-install-recommends $pkg"
  fi
  fix="$fix (or set $var to one installed elsewhere)"
  why="${apt_why:-apt-get installed $pkg, yet nothing is at $bin: is $var right?}"
  if [ -z "$pattern" ] || [ "$STRICT" = 1 ]; then
    hard+=("$name is missing at $bin ($why); ${pattern:+TEST_SETUP_STRICT=1 and }the tests need it. Run: $fix")
  else
    skipping+=("$name is missing at $bin ($why). These suites skip (in whole or in part): $(suites "$pattern")
       To run them: $fix")
  fi
done

# Without Chromium npm test cannot pass: stop now, before minutes of building anything else.
if [ "${#hard[@]}" -gt 0 ]; then
  for line in "${skipping[@]}"; do log "note: $line"; done
  for line in "${hard[@]}"; do log "STOP: $line"; done
  log "then run \`npm test\` again."
  exit 1
fi

# ---- the Go test servers and the k8s tools, built once into $BIN and $SCHEMAS ----
has_go() { command -v go >/dev/null 2>&1; }
go_why() {
  if [ "$INSTALL" = 0 ]; then echo "TEST_SETUP_INSTALL=0"; elif ! has_go; then echo "'go' is not installed"; else echo "the build failed: see above"; fi
}
if has_go; then go_fix=""; else go_fix="install Go 1.26+ (https://go.dev/dl/; it must reach Go's module proxy), then "; fi

server_rows=(
  "FerretDB|$FERRETDB|startFerretDb|startCluster"
  "MinIO|$MINIO|startMinio|startCluster"
  "Mailpit|$MAILPIT|startCluster"
)
servers_missing() {
  local row name bin
  for row in "${server_rows[@]}"; do
    IFS='|' read -r name bin _ <<<"$row"
    [ -x "$bin" ] || echo "$name"
  done
}
if [ -n "$(servers_missing)" ] && [ "$INSTALL" != 0 ] && has_go; then
  log "building the test servers: $(servers_missing | tr '\n' ' ')(once, minutes the first time; cached in $BIN)"
  bash scripts/build-test-servers.sh
fi
for row in "${server_rows[@]}"; do
  IFS='|' read -r name bin pattern <<<"$row"
  if [ -x "$bin" ]; then ready+=("$name"); continue; fi
  skipping+=("$name is missing at $bin ($(go_why)). These suites skip (in whole or in part): $(suites "$pattern")
       To run them: ${go_fix}\`npm run test-servers\`")
done

# The k8s tools' script checks its cache itself (the schemas carry a stamp of the versions they were made from), in a
# tenth of a second: it runs every time Go is there, and says something only when it builds.
if [ "$INSTALL" != 0 ] && has_go; then
  bash scripts/build-k8s-tools.sh 2>&1 | grep --line-buffered -v ' present: '
fi
k8s_absent=()
for tool in kustomize kubeconform; do [ -x "$BIN/$tool" ] || k8s_absent+=("$tool"); done
[ -f "$SCHEMAS/deployment-apps-v1.json" ] && [ -f "$SCHEMAS/scaledobject-keda-v1alpha1.json" ] || k8s_absent+=("the kubeconform schemas")
if [ "${#k8s_absent[@]}" -eq 0 ]; then
  ready+=("kustomize, kubeconform and their schemas")
else
  absent="$(printf '%s, ' "${k8s_absent[@]}")"
  skipping+=("${absent%, } missing (in $BIN, $SCHEMAS) ($(go_why)). test/k8s.test.ts will skip rendering and validation.
       To run it: ${go_fix}\`bash scripts/build-k8s-tools.sh\`")
fi

# ---- schemathesis, from PyPI ----
# Found where the test looks (SCHEMATHESIS_BIN, python3's packages, or a `schemathesis` on PATH, as pipx puts it);
# pip's record first, as asking the program itself takes a second.
schemathesis_version() {
  local cli="${SCHEMATHESIS_BIN:-}"
  if [ -z "$cli" ]; then
    command -v python3 >/dev/null 2>&1 && python3 -c 'import importlib.metadata as m; print(m.version("schemathesis"))' 2>/dev/null && return
    cli="$(command -v schemathesis)" || return 0
  fi
  "$cli" --version 2>/dev/null | grep -oE '[0-9]+(\.[0-9]+)+' | head -1
}
pip_fix="python3 -m pip install 'schemathesis==$SCHEMATHESIS_VERSION' (where the system's Python refuses pip, in a virtualenv, or \`pipx install schemathesis==$SCHEMATHESIS_VERSION\` with SCHEMATHESIS_BIN=~/.local/bin/schemathesis)"
version="$(schemathesis_version)"
pip_why="TEST_SETUP_INSTALL=0"
if [ -z "$version" ] && [ "$INSTALL" != 0 ]; then
  if ! command -v python3 >/dev/null 2>&1; then
    pip_why="python3 is not installed"
  else
    log "installing schemathesis $SCHEMATHESIS_VERSION with pip (once)"
    if PIP_ROOT_USER_ACTION=ignore python3 -m pip install --quiet --disable-pip-version-check "schemathesis==$SCHEMATHESIS_VERSION"; then
      version="$(schemathesis_version)"
    fi
    pip_why="pip could not install it: see above"
  fi
fi
if [ -z "$version" ] && [ "$STRICT" = 1 ]; then
  log "STOP: schemathesis is not installed ($pip_why) and TEST_SETUP_STRICT=1. Run: $pip_fix"
  exit 1
elif [ -z "$version" ]; then
  skipping+=("schemathesis is not installed ($pip_why). test/schemathesis.test.ts will skip.
       To run it: $pip_fix")
elif [ "$version" != "$SCHEMATHESIS_VERSION" ]; then
  ready+=("schemathesis $version (CI runs $SCHEMATHESIS_VERSION)")
else
  ready+=("schemathesis $version")
fi

# ---- what it comes to ----
ms=$((($(date +%s%N) - started) / 1000000))
for line in "${skipping[@]}"; do log "note: $line"; done
summary="$(printf '%s, ' "${ready[@]}")"
[ "${#skipping[@]}" -eq 0 ] || summary="${summary}the suites named above skip, "
log "ready in $((ms / 1000)).$((ms % 1000 / 100)) s: ${summary%, }"
