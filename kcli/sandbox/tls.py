"""TLS material of a sandbox, for both engines: a CA, a certificate for each node and for the clients.

EC P-256 keys and certificates made with openssl(1) under DIR/tls: ca.pem (the trust store of every
client and node), node-<id>.pem/.key (CN=node-<id>, serverAuth and clientAuth, for 127.0.0.1 and
localhost), client-admin and client-broker (CN=admin, CN=broker: mutual TLS identities). Keys are
PKCS#8, the only private key form Kafka's Java PEM keystore reads. Existing files are kept, so a
reopened sandbox keeps its CA and nodes added later get certificates from it.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path


def _openssl(*args: str) -> None:
    subprocess.run(["openssl", *args], check=True, capture_output=True, timeout=30)


def generate_tls(tls_dir: Path, node_ids: list[int]) -> None:
    """CA, node and client certificates (EC P-256) under `tls_dir`; existing files are kept."""
    tls_dir.mkdir(parents=True, exist_ok=True)
    ca_key, ca_cert = tls_dir / "ca.key", tls_dir / "ca.pem"
    if not ca_cert.exists():
        _openssl("ecparam", "-name", "prime256v1", "-genkey", "-noout", "-out", str(ca_key))
        _openssl(
            "req",
            "-x509",
            "-new",
            "-key",
            str(ca_key),
            "-out",
            str(ca_cert),
            "-days",
            "3650",
            "-subj",
            "/CN=kcli-sandbox-ca",
            "-addext",
            "basicConstraints=critical,CA:TRUE",
            "-addext",
            "keyUsage=critical,keyCertSign,cRLSign",
        )
    names = [(f"node-{n}", f"node-{n}", True) for n in node_ids]
    names += [("client-admin", "admin", False), ("client-broker", "broker", False)]
    for stem, common_name, server in names:
        cert = tls_dir / f"{stem}.pem"
        if cert.exists():
            continue
        key, csr, ext = tls_dir / f"{stem}.key", tls_dir / f"{stem}.csr", tls_dir / f"{stem}.ext"
        # PKCS#8 ("BEGIN PRIVATE KEY"): the only private key form Kafka's Java PEM keystore reads
        _openssl("genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-out", str(key))
        _openssl("req", "-new", "-key", str(key), "-out", str(csr), "-subj", f"/CN={common_name}")
        usage = "serverAuth,clientAuth" if server else "clientAuth"
        ext.write_text(f"subjectAltName=IP:127.0.0.1,DNS:localhost\nextendedKeyUsage={usage}\n")
        _openssl(
            "x509",
            "-req",
            "-in",
            str(csr),
            "-CA",
            str(ca_cert),
            "-CAkey",
            str(ca_key),
            "-CAcreateserial",
            "-out",
            str(cert),
            "-days",
            "3650",
            "-extfile",
            str(ext),
        )
        csr.unlink()
        ext.unlink()
        os.chmod(key, 0o600)
