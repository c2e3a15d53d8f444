# Sourced by scripts/build-test-servers.sh and scripts/build-k8s-tools.sh: Go modules fetched from Go's module proxy
# (`go install pkg@version` is refused here, so each module is downloaded and built from its folder).

# module_dir MODULE VERSION: downloads the module (once; Go caches it) and prints the folder it was unpacked into.
module_dir() {
  go mod download -json "$1@$2" | node -e '
    let s = ""; process.stdin.on("data", (d) => (s += d)).on("end", () => {
      const m = JSON.parse(s);
      if (m.Error || !m.Dir) { console.error(m.Error || "no Dir in go mod download output"); process.exit(1); }
      console.log(m.Dir);
    });'
}
