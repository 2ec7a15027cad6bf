# shellcheck shell=bash
# Sourced by script/bootstrap (after toolchain.sh). The Python venv in .toolchain/python whose
# third-party clients the push specs drive against a real server (spec/support/python_clients.rb):
#   websockets  - WebSocket client      (spec/support/clients/ws_client.py)
#   aiohttp     - HTTP client, SSE reads (spec/support/clients/sse_client.py)
#   kosoku      - the Autobahn|Testsuite cases as a fuzzing client (spec/support/autobahn/)
#   httpx, h2   - HTTP/2 client, streams of one connection (spec/support/clients/h2_client.py)
# Versions are pinned, dependencies included, and come from PyPI through pip. The venv is rebuilt
# when the pins or the Python it was made from change; otherwise this step only compares a stamp.

NR_PYTHON_VENV=$NR_TC/python
NR_PYTHON_PINS="websockets==17.4 aiohttp==3.14.5 kosoku==0.1.0 httpx==0.28.1 h2==4.4.1
  aiohappyeyeballs==2.7.1 aiosignal==1.4.0 attrs==26.1.0 frozenlist==1.8.0 idna==3.20
  multidict==7.2.1 propcache==0.5.4 typing_extensions==4.16.0 yarl==1.25.1
  anyio==4.16.0 certifi==2026.10.18 h11==0.16.0 hpack==4.2.0 httpcore==1.0.9 hyperframe==6.1.0"

# Debian's python3 (python3-venv comes from apt, step 1), or whichever python3 is on PATH.
nr_python3() {
  if [ -x /usr/bin/python3 ]; then echo /usr/bin/python3; else command -v python3 || true; fi
}

nr_python_stamp() {
  printf '%s\n%s\n' "$("$1" -c 'import sys; print(sys.executable, sys.version)')" "$NR_PYTHON_PINS" |
    sha256sum | cut -d' ' -f1
}

nr_python_venv() {
  local py stamp venv=${NR_PYTHON_VENV#"$NR_ROOT"/}
  py=$(nr_python3)
  [ -n "$py" ] || die "no python3 found: install Debian's python3 and python3-venv"
  stamp=$(nr_python_stamp "$py")
  if [ -x "$NR_PYTHON_VENV/bin/python" ] && [ "$(cat "$NR_PYTHON_VENV/.stamp" 2>/dev/null)" = "$stamp" ]; then
    skip "python: $venv is current (websockets, aiohttp, kosoku, httpx)"
    return 0
  fi
  step "python venv $venv: pip install $(echo "$NR_PYTHON_PINS" | head -1) (and their pinned dependencies)"
  # A venv cannot be moved once made: build it in place; the stamp, written last, marks it whole.
  rm -rf "$NR_PYTHON_VENV"
  "$py" -m venv "$NR_PYTHON_VENV" >&2 </dev/null ||
    die "$py -m venv failed: is Debian's python3-venv installed?"
  # shellcheck disable=SC2086
  "$NR_PYTHON_VENV/bin/python" -m pip install --quiet --disable-pip-version-check --no-input \
    $NR_PYTHON_PINS >&2 </dev/null || die "pip install into $venv failed (see above; PyPI must be reachable)"
  echo "$stamp" >"$NR_PYTHON_VENV/.stamp"
}
