#!/usr/bin/env bash
# Builds what test/k8s.test.ts needs to render and validate infra/k8s without a cluster or the network,
# once, into cached folders (as scripts/build-test-servers.sh does for FerretDB and MinIO):
#   kustomize   (sigs.k8s.io/kustomize/kustomize/v5)  renders the base and the overlays
#   kubeconform (github.com/yannh/kubeconform)         validates the rendered objects against JSON schemas
#   the schemas kubeconform reads, in its "standalone-strict" layout:
#     every Kubernetes kind, converted from the OpenAPI spec that k8s.io/kubernetes ships in its module
#     (api/openapi-spec/swagger.json), and KEDA's ScaledObject and TriggerAuthentication, from the CRDs in github.com/kedacore/keda/v2
#     (config/crd/bases/); scripts/k8s-schemas.ts does the conversion.
# kubeconform downloads its schemas from GitHub by default, which cannot be reached here; pointed at the
# cached folder with `-schema-location` it needs no network at all:
#   kubeconform -strict -summary -schema-location "$HOME/.cache/storefront/k8s-schemas/{{ .ResourceKind }}{{ .KindSuffix }}.json"
# Every module comes through `go mod download` from Go's module proxy (`go install pkg@version` is refused here).
# Without `go` this says so and exits 0: test/k8s.test.ts then skips its rendering tests and says why.
set -euo pipefail
cd "$(dirname "$0")/.."

BIN="${GO_BIN_DIR:-$HOME/.cache/storefront/go-bin}"
SCHEMAS="${K8S_SCHEMA_DIR:-$HOME/.cache/storefront/k8s-schemas}"
KUSTOMIZE_MODULE=sigs.k8s.io/kustomize/kustomize/v5
KUSTOMIZE_VERSION=v5.8.2 # v5.8.3 needs Go 1.27
KUBECONFORM_MODULE=github.com/yannh/kubeconform
KUBECONFORM_VERSION=v0.8.0
# The Kubernetes API the manifests are checked against, and the KEDA release whose ScaledObject they use.
KUBERNETES_MODULE=k8s.io/kubernetes
KUBERNETES_VERSION=v1.35.4
KEDA_MODULE=github.com/kedacore/keda/v2
KEDA_VERSION=v2.21.0
# Written last, so a half-made schema folder is made again on the next run.
STAMP="$SCHEMAS/.made-from"
STAMP_TEXT="$KUBERNETES_MODULE@$KUBERNETES_VERSION $KEDA_MODULE@$KEDA_VERSION"

log() { echo "[build-k8s-tools] $*"; }

if ! command -v go >/dev/null 2>&1; then
  log "'go' is not installed; skipping. test/k8s.test.ts will skip rendering and validation (install Go 1.26+ to run it)."
  exit 0
fi
mkdir -p "$BIN"

# module_dir MODULE VERSION: the folder `go mod download` unpacked the module into.
source scripts/lib/go-modules.sh # (the script runs from the repository root)

# build_tool NAME MODULE VERSION PACKAGE VERSION-ARGS...: builds PACKAGE (relative to the module) into $BIN/NAME
# unless a working binary is there already.
build_tool() {
  local name="$1" module="$2" version="$3" package="$4"
  shift 4
  if "$BIN/$name" "$@" >/dev/null 2>&1; then
    log "$name present: $BIN/$name"
    return
  fi
  log "building $name $version (a minute or two the first time)"
  local dir
  dir="$(module_dir "$module" "$version")"
  (cd "$dir" && go build -trimpath -o "$BIN/$name.partial" "$package")
  mv "$BIN/$name.partial" "$BIN/$name"
  "$BIN/$name" "$@" >/dev/null
  log "built $BIN/$name"
}

build_schemas() {
  if [ -f "$STAMP" ] && [ "$(cat "$STAMP")" = "$STAMP_TEXT" ]; then
    log "schemas present: $SCHEMAS ($STAMP_TEXT)"
    return
  fi
  local k8s keda
  k8s="$(module_dir "$KUBERNETES_MODULE" "$KUBERNETES_VERSION")"
  keda="$(module_dir "$KEDA_MODULE" "$KEDA_VERSION")"
  log "converting the Kubernetes $KUBERNETES_VERSION OpenAPI spec and KEDA $KEDA_VERSION's ScaledObject and TriggerAuthentication CRDs into $SCHEMAS"
  rm -rf "$SCHEMAS"
  node --import tsx scripts/k8s-schemas.ts \
    --openapi "$k8s/api/openapi-spec/swagger.json" \
    --crd "$keda/config/crd/bases/keda.sh_scaledobjects.yaml" \
    --crd "$keda/config/crd/bases/keda.sh_triggerauthentications.yaml" \
    --out "$SCHEMAS"
  echo "$STAMP_TEXT" >"$STAMP"
  log "schemas written: $(find "$SCHEMAS" -name '*.json' | wc -l) files"
}

case "${1:-all}" in
  kustomize) build_tool kustomize "$KUSTOMIZE_MODULE" "$KUSTOMIZE_VERSION" . version ;;
  kubeconform) build_tool kubeconform "$KUBECONFORM_MODULE" "$KUBECONFORM_VERSION" ./cmd/kubeconform -v ;;
  schemas) build_schemas ;;
  # Each part in its own process: one failing must not stop the others (and `set -e` holds inside each).
  all)
    status=0
    bash "$0" kustomize || { status=1; log "kustomize was not built; test/k8s.test.ts will skip rendering"; }
    bash "$0" kubeconform || { status=1; log "kubeconform was not built; test/k8s.test.ts will skip validation"; }
    bash "$0" schemas || { status=1; log "the schemas were not made; test/k8s.test.ts will skip validation"; }
    exit "$status"
    ;;
  *) echo "usage: $0 [all|kustomize|kubeconform|schemas]" >&2; exit 2 ;;
esac
