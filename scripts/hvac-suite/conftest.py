"""Runs hvac's integration tests against Ward instead of the established server.

Copied into the root of an hvac checkout by scripts/hvac-suite.sh; no test or assertion of
hvac's is changed. hvac's ServerManager already starts `vault server -config=<file>` per
test class; the script puts a `vault` on PATH that runs `bin/ward`, so the configured mode
(WARD_MODE=config: hvac's own TLS config, `backend "inmem"`, initialised by hvac with
5 shares / threshold 3) needs nothing here but the version hvac asks `vault -version` for.
WARD_MODE=dev starts `bin/ward server -dev` on plain HTTP per test class instead;
WARD_DEV_FLAGS adds flags to that command (space-separated, default none: `-dev-kv-v1`, say).
"""

import os
import re
import subprocess
import tempfile
import time

import tests.utils as hvac_test_utils
from tests.utils import server_manager

WARD_BIN = os.environ["WARD_BIN"]
MODE = os.environ.get("WARD_MODE", "config")
DEV_FLAGS = os.environ.get("WARD_DEV_FLAGS", "").split()

# hvac skips tests by server version; Ward answers as the version it is compatible with.
hvac_test_utils.get_vault_version_string.cache = os.environ.get("WARD_AS_VAULT_VERSION", "1.15.0")


def _start_dev(self, **_ignored):
    with hvac_test_utils.PortGetter() as ports:
        _, port = ports.get_port(address="127.0.0.1")
    address = f"127.0.0.1:{port}"
    # Output goes to a file, not a pipe: nobody reads a pipe later, and a full one would block the server.
    log = tempfile.NamedTemporaryFile(mode="w+", prefix="ward-dev-", suffix=".log", delete=False)
    process = subprocess.Popen(
        [WARD_BIN, "server", "-dev", "-dev-root-token-id=root", f"-dev-listen-address={address}", *DEV_FLAGS],
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    self._processes.append(server_manager.TestProcessInfo("ward", process, "dev"))
    deadline = time.monotonic() + 30
    output = ""
    while "Root Token:" not in output:
        if process.poll() is not None or time.monotonic() > deadline:
            raise RuntimeError(f"bin/ward server -dev did not start:\n{output}")
        time.sleep(0.1)
        with open(log.name) as f:
            output = f.read()
    self._ward_unseal_key = re.search(r"Unseal Key: (\S+)", output).group(1)
    self._ward_url = f"http://{address}"
    self.client = hvac_test_utils.create_client(url=self._ward_url)


def _initialize_dev(self):
    # A dev server is initialised already, with one unseal key and the root token `root`.
    self.root_token = self.client.token = "root"
    self.keys = [self._ward_unseal_key]


if MODE == "dev":
    server_manager.ServerManager.start_vault = _start_dev
    server_manager.ServerManager.initialize = _initialize_dev
    server_manager.ServerManager.unseal = lambda self: self.client.sys.submit_unseal_keys(self.keys)
    server_manager.ServerManager.get_active_vault_addresses = lambda self: [self._ward_url]
