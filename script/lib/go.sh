# shellcheck shell=bash
# Sourced by script/bootstrap (after toolchain.sh). h2spec, the HTTP/2 conformance checker
# (summerwind/h2spec, 146 cases), which spec/integration/h2spec_spec.rb runs in strict mode
# against h2c and TLS listeners. Built with the machine's Go from the Go module proxy into
# .toolchain/bin; the version is pinned, and the build is redone when the pin or Go's version
# changes, otherwise this step only compares a stamp. Without Go the step says so and the
# h2spec spec is skipped; everything else runs.

NR_GO_BIN=$NR_TC/bin
NR_H2SPEC_PIN="github.com/summerwind/h2spec/cmd/h2spec@v2.2.1+incompatible"

nr_go_stamp() {
  printf '%s\n%s\n' "$(go version)" "$NR_H2SPEC_PIN" | sha256sum | cut -d' ' -f1
}

nr_go_tools() {
  local stamp dir=${NR_GO_BIN#"$NR_ROOT"/}
  if ! command -v go >/dev/null; then # the one optional tool: its spec says it skipped
    say "go not found: spec/integration/h2spec_spec.rb will be skipped (install Go 1.21 or newer: https://go.dev/dl/)"
    return 0
  fi
  stamp=$(nr_go_stamp)
  if [ -x "$NR_GO_BIN/h2spec" ] && [ "$(cat "$NR_GO_BIN/.h2spec-stamp" 2>/dev/null)" = "$stamp" ]; then
    skip "go: $dir/h2spec is current ($NR_H2SPEC_PIN)"
    return 0
  fi
  step "go tools $dir: go install $NR_H2SPEC_PIN"
  mkdir -p "$NR_GO_BIN"
  GOBIN=$NR_GO_BIN GOFLAGS=-mod=mod go install "$NR_H2SPEC_PIN" >&2 </dev/null ||
    die "go install $NR_H2SPEC_PIN failed (see above; the Go module proxy must be reachable)"
  echo "$stamp" >"$NR_GO_BIN/.h2spec-stamp"
}
