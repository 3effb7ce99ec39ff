#!/usr/bin/env bash
# Runs hvac's own integration tests (the Python client's suite) against bin/ward and prints
# passed/failed per file. Not part of CI: hvac's repository is not available there.
#
#   scripts/hvac-suite.sh <hvac> [config|dev|both] [test file ...]
#
# <hvac> is a checkout of https://github.com/hvac/hvac or its bare git directory (fetched by
# whoever runs this: `git clone https://github.com/hvac/hvac`). Its tests are extracted to a
# temporary directory, scripts/hvac-suite/conftest.py is added at their root, and a `vault`
# on PATH runs bin/ward (hvac's ServerManager starts `vault server -config=...` per test
# class). Debian's /usr/bin/python3 runs them (it sees the python3-* packages). No test of hvac's is changed. Mode `config` (default) serves hvac's own TLS
# config, initialised through hvac with 5 shares / threshold 3; `dev` runs `ward server -dev`
# (WARD_DEV_FLAGS="-dev-kv-v1" adds flags to it; the mode's name in the output says so).
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
HVAC=${1:?usage: scripts/hvac-suite.sh <hvac checkout or git dir> [config|dev|both] [test file ...]}
MODE=${2:-config}
shift $(($# < 2 ? $# : 2))

FILES=("$@")
if [ ${#FILES[@]} -eq 0 ]; then
  FILES=(
    tests/integration_tests/api/secrets_engines/test_kv_v1.py
    tests/integration_tests/api/secrets_engines/test_kv_v2.py
    tests/integration_tests/api/secrets_engines/test_identity.py
    tests/integration_tests/api/auth_methods/test_token.py
    tests/integration_tests/api/auth_methods/test_approle.py
    tests/integration_tests/api/auth_methods/test_github.py
    tests/integration_tests/api/system_backend/test_audit.py
    tests/integration_tests/api/system_backend/test_auth.py
    tests/integration_tests/api/system_backend/test_health.py
    tests/integration_tests/api/system_backend/test_init.py
    tests/integration_tests/api/system_backend/test_key.py
    tests/integration_tests/api/system_backend/test_leader.py
    tests/integration_tests/api/system_backend/test_lease.py
    tests/integration_tests/api/system_backend/test_mount.py
    tests/integration_tests/api/system_backend/test_policy.py
    tests/integration_tests/api/system_backend/test_policies.py
    tests/integration_tests/api/system_backend/test_seal.py
    tests/integration_tests/v1/test_approle.py
    tests/integration_tests/v1/test_integration.py
    tests/integration_tests/v1/test_system_backend.py
  )
fi

# The Debian packages hvac's tests import (issue 18 lists them).
PACKAGES=(python3-pytest python3-pytest-timeout python3-parameterized python3-packaging python3-pyhcl
  python3-requests python3-requests-mock
  # test_oidc.py's mock OAuth provider (issue 31).
  python3-flask python3-flask-sqlalchemy python3-authlib python3-werkzeug python3-jwcrypto)
missing=()
for p in "${PACKAGES[@]}"; do dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p"); done
if [ ${#missing[@]} -gt 0 ]; then
  echo "installing ${missing[*]}" >&2
  apt-get install -y -qq "${missing[@]}" >&2
fi

[ -f "$ROOT/bin/ward" ] || { echo "bin/ward not found under $ROOT" >&2; exit 1; }
[ -f "$ROOT/packages/secrets/dist/src/index.js" ] || (cd "$ROOT" && npm run build >&2)

WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
mkdir -p "$WORK/hvac" "$WORK/bin"
if git --git-dir="$HVAC" rev-parse --git-dir >/dev/null 2>&1; then
  git --git-dir="$HVAC" archive HEAD | tar -x -C "$WORK/hvac"
elif git -C "$HVAC" rev-parse --git-dir >/dev/null 2>&1; then
  git -C "$HVAC" archive HEAD | tar -x -C "$WORK/hvac"
else
  cp -R "$HVAC/." "$WORK/hvac"
fi
cp "$ROOT/scripts/hvac-suite/conftest.py" "$WORK/hvac/conftest.py"

# The `vault` hvac's ServerManager runs: `vault -version` answers the version Ward serves.
cat >"$WORK/bin/vault" <<SHIM
#!/bin/sh
if [ "\$1" = "-version" ] || [ "\$1" = "version" ]; then echo "Vault v\${WARD_AS_VAULT_VERSION:-1.15.0}"; exit 0; fi
exec "$ROOT/bin/ward" "\$@"
SHIM
chmod +x "$WORK/bin/vault"

run_mode() {
  local mode=$1 total_pass=0 total_fail=0
  local label=$mode
  [ "$mode" = dev ] && [ -n "${WARD_DEV_FLAGS:-}" ] && label="dev $WARD_DEV_FLAGS"
  echo "== hvac integration tests against bin/ward ($label mode)"
  for file in "${FILES[@]}"; do
    local xml="$WORK/result.xml" log
    log="$WORK/$(echo "${file#tests/integration_tests/}" | tr / _ | sed 's/\.py$//').${label// /}.log"
    rm -f "$xml"
    (cd "$WORK/hvac" && PATH="$WORK/bin:$PATH" WARD_BIN="$ROOT/bin/ward" WARD_MODE="$mode" \
      /usr/bin/python3 -m pytest -o addopts= -p no:cacheprovider -q --timeout=300 --junitxml="$xml" "$file" \
      >"$log" 2>&1) || true
    read -r pass fail < <(/usr/bin/python3 - "$xml" <<'PY'
import sys, xml.etree.ElementTree as ET
try:
    root = ET.parse(sys.argv[1]).getroot()
except Exception:
    print(0, 1); sys.exit()
suites = [root] if root.tag == "testsuite" else list(root)
t = sum(int(s.get("tests", 0)) for s in suites)
f = sum(int(s.get("failures", 0)) + int(s.get("errors", 0)) for s in suites)
k = sum(int(s.get("skipped", 0)) for s in suites)
print(t - f - k, f)
PY
)
    printf '%-58s passed %4d  failed %4d\n' "${file#tests/integration_tests/}" "$pass" "$fail"
    total_pass=$((total_pass + pass))
    total_fail=$((total_fail + fail))
    if [ -n "${HVAC_SUITE_LOGS:-}" ]; then mkdir -p "$HVAC_SUITE_LOGS" && cp "$log" "$HVAC_SUITE_LOGS/"; fi
  done
  printf '%-58s passed %4d  failed %4d\n' "total ($label)" "$total_pass" "$total_fail"
}

case "$MODE" in
  config | dev) run_mode "$MODE" ;;
  both) run_mode config && run_mode dev ;;
  *) echo "mode must be config, dev or both" >&2; exit 2 ;;
esac
