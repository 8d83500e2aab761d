"""A real MIT Kerberos KDC on loopback for the tests: krb5kdc with a generated krb5.conf and kdc.conf.

Everything lives in a temporary directory: the realm's database (kdb5_util), principals and keytabs
(kadmin.local), and the krb5.conf that clients read (KRB5_CONFIG for MIT, -Djava.security.krb5.conf
for Java). The KDC listens on one free port over TCP and UDP; clients are told to use TCP.
"""

from __future__ import annotations

import contextlib
import os
import secrets
import shutil
import socket
import subprocess
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from kcli.processes import kill_child

REALM = "KCLI.TEST"
TOOLS = ("krb5kdc", "kdb5_util", "kadmin.local", "kinit")


def kdc_available() -> str | None:
    """None when the MIT KDC tools are installed, else what is missing."""
    missing = [tool for tool in TOOLS if shutil.which(tool) is None and not Path("/usr/sbin", tool).exists()]
    return f"MIT Kerberos KDC tools missing: {', '.join(missing)} (apt-get install krb5-kdc krb5-admin-server krb5-user)" if missing else None


def _tool(name: str) -> str:
    return shutil.which(name) or str(Path("/usr/sbin", name))


@dataclass
class Kdc:
    directory: Path
    port: int
    process: subprocess.Popen[bytes] | None = None

    @property
    def krb5_conf(self) -> Path:
        return self.directory / "krb5.conf"

    @property
    def env(self) -> dict[str, str]:
        return {"KRB5_CONFIG": str(self.krb5_conf), "KRB5_KDC_PROFILE": str(self.directory / "kdc.conf")}

    def add_principal(self, name: str, keytab: Path) -> str:
        """A principal with a random key, exported to `keytab`; returns its full name."""
        full = f"{name}@{REALM}"
        self.admin(f"addprinc -randkey {full}")
        self.admin(f"ktadd -k {keytab} {full}")
        return full

    def admin(self, query: str) -> None:
        subprocess.run([_tool("kadmin.local"), "-r", REALM, "-q", query], env={**os.environ, **self.env},
                       check=True, capture_output=True, timeout=60)  # fmt: skip

    def kinit(self, principal: str, keytab: Path, cache: Path) -> None:
        subprocess.run([_tool("kinit"), "-kt", str(keytab), "-c", f"FILE:{cache}", principal],
                       env={**os.environ, **self.env}, check=True, capture_output=True, timeout=60)  # fmt: skip

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            kill_child(self.process, group=True)
            with contextlib.suppress(subprocess.TimeoutExpired):
                self.process.wait(timeout=10)


def _free_port() -> int:
    for _ in range(50):
        with socket.socket() as tcp, socket.socket(type=socket.SOCK_DGRAM) as udp:
            tcp.bind(("127.0.0.1", 0))
            port = int(tcp.getsockname()[1])
            try:
                udp.bind(("127.0.0.1", port))
            except OSError:
                continue
            return port
    raise AssertionError("no free port for the KDC")


@contextlib.contextmanager
def running_kdc(directory: Path) -> Iterator[Kdc]:
    directory.mkdir(parents=True, exist_ok=True)
    kdc = Kdc(directory=directory, port=_free_port())
    (directory / "krb5.conf").write_text(
        f"""[libdefaults]
    default_realm = {REALM}
    dns_lookup_realm = false
    dns_lookup_kdc = false
    rdns = false
    dns_canonicalize_hostname = false
    udp_preference_limit = 1
    ticket_lifetime = 1h
    forwardable = false

[realms]
    {REALM} = {{
        kdc = 127.0.0.1:{kdc.port}
        admin_server = 127.0.0.1:{kdc.port}
    }}

[domain_realm]
    localhost = {REALM}
"""
    )
    (directory / "kdc.conf").write_text(
        f"""[kdcdefaults]
    kdc_ports = {kdc.port}
    kdc_tcp_ports = {kdc.port}

[realms]
    {REALM} = {{
        database_name = {directory}/principal
        key_stash_file = {directory}/stash
        acl_file = {directory}/kadm5.acl
        supported_enctypes = aes256-cts-hmac-sha1-96:normal aes128-cts-hmac-sha1-96:normal
        max_life = 1h
    }}

[logging]
    kdc = FILE:{directory}/kdc.log
"""
    )
    (directory / "kadm5.acl").write_text("")
    env = {**os.environ, **kdc.env}
    subprocess.run([_tool("kdb5_util"), "create", "-s", "-r", REALM, "-P", secrets.token_urlsafe(16)],
                   env=env, check=True, capture_output=True, timeout=60)  # fmt: skip
    kdc.process = subprocess.Popen(
        [_tool("krb5kdc"), "-n", "-r", REALM],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        stdin=subprocess.DEVNULL,
        start_new_session=True,
    )
    try:
        deadline = time.monotonic() + 20
        while True:
            with socket.socket() as probe:
                probe.settimeout(0.5)
                if probe.connect_ex(("127.0.0.1", kdc.port)) == 0:
                    break
            if kdc.process.poll() is not None or time.monotonic() > deadline:
                raise AssertionError(f"krb5kdc did not start (see {directory}/kdc.log)")
            time.sleep(0.1)
        yield kdc
    finally:
        kdc.stop()
