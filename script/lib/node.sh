# shellcheck shell=bash
# Sourced by script/bootstrap (after toolchain.sh). Node's WebSocket client `ws`, the one Node.js
# applications use, which the push specs drive against a real server (spec/support/clients/
# ws_node_client.js through spec/support/node_clients.rb), installed from the npm registry into
# .toolchain/node with the machine's node and npm (apt, step 1). The version is pinned (ws has no
# dependencies); the install is redone when the pin or node's version changes, otherwise this step
# only compares a stamp.

NR_NODE_DIR=$NR_TC/node
NR_NODE_PINS="ws@8.23.0"

nr_node_stamp() {
  printf '%s\n%s\n' "$(node --version)" "$NR_NODE_PINS" | sha256sum | cut -d' ' -f1
}

nr_node_clients() {
  local stamp dir=${NR_NODE_DIR#"$NR_ROOT"/}
  command -v node >/dev/null && command -v npm >/dev/null ||
    die "node and npm not found: install Node.js with npm (Debian: apt-get install nodejs npm)"
  stamp=$(nr_node_stamp)
  if [ -f "$NR_NODE_DIR/node_modules/ws/package.json" ] && [ "$(cat "$NR_NODE_DIR/.stamp" 2>/dev/null)" = "$stamp" ]; then
    skip "node: $dir is current ($NR_NODE_PINS)"
    return 0
  fi
  step "node clients $dir: npm install $NR_NODE_PINS"
  rm -rf "$NR_NODE_DIR"
  mkdir -p "$NR_NODE_DIR"
  # shellcheck disable=SC2086
  npm install --prefix "$NR_NODE_DIR" --no-audit --no-fund --no-package-lock --no-save --loglevel=error \
    $NR_NODE_PINS >&2 </dev/null || die "npm install into $dir failed (see above; the npm registry must be reachable)"
  echo "$stamp" >"$NR_NODE_DIR/.stamp"
}
