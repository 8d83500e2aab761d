"""A CA, server and client key stores made by Java's keytool, as Kafka operators make them.

Everything is made at run time in a temporary directory (nothing is committed): a CA in PKCS12,
trust stores (JKS and PKCS12) holding the CA certificate, and for each of `server` and `client` a
key signed by the CA, in JKS (with a key password of its own) and in PKCS12.
"""

from __future__ import annotations

import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

STORE_PASSWORD = "store-pw-4417"
KEY_PASSWORD = "key-pw-9920"  # the JKS key stores' key entries have their own password
TRUST_PASSWORD = "trust-pw-3385"


@dataclass(frozen=True)
class KeytoolPki:
    directory: Path
    ca_pem: Path

    def truststore(self, kind: str) -> Path:
        return self.directory / f"truststore.{kind}"

    def keystore(self, name: str, kind: str) -> Path:
        return self.directory / f"{name}.{kind}"


def keytool_available() -> bool:
    return shutil.which("keytool") is not None


def keytool(*args: str, cwd: Path) -> None:
    subprocess.run(["keytool", *args], cwd=cwd, check=True, capture_output=True, timeout=120)


def make_pki(directory: Path) -> KeytoolPki:
    directory.mkdir(parents=True, exist_ok=True)
    d = directory
    keytool("-genkeypair", "-alias", "ca", "-keyalg", "EC", "-groupname", "secp256r1", "-dname", "CN=kcli-test-ca",
            "-ext", "bc:c", "-validity", "3", "-keystore", "ca.p12", "-storetype", "PKCS12",
            "-storepass", STORE_PASSWORD, cwd=d)  # fmt: skip
    keytool("-exportcert", "-rfc", "-alias", "ca", "-keystore", "ca.p12", "-storepass", STORE_PASSWORD,
            "-file", "ca.pem", cwd=d)  # fmt: skip
    for kind, store_type in (("jks", "JKS"), ("p12", "PKCS12")):
        keytool("-importcert", "-noprompt", "-alias", "ca", "-file", "ca.pem", "-keystore", f"truststore.{kind}",
                "-storetype", store_type, "-storepass", TRUST_PASSWORD, cwd=d)  # fmt: skip
    for name, san, kinds in (("server", "dns:localhost,ip:127.0.0.1", ("p12",)), ("client", None, ("p12", "jks"))):
        for kind in kinds:
            store_type = "JKS" if kind == "jks" else "PKCS12"
            store = f"{name}.{kind}"
            key_password = KEY_PASSWORD if kind == "jks" else STORE_PASSWORD
            common = ["-keystore", store, "-storetype", store_type, "-storepass", STORE_PASSWORD]
            keytool("-genkeypair", "-alias", name, "-keyalg", "EC", "-groupname", "secp256r1", "-dname",
                    f"CN={name}", "-validity", "3", "-keypass", key_password, *common, cwd=d)  # fmt: skip
            keytool("-certreq", "-alias", name, "-keypass", key_password, "-file", f"{store}.csr", *common, cwd=d)
            extensions = ["-ext", f"san={san}"] if san else []
            keytool("-gencert", "-alias", "ca", "-keystore", "ca.p12", "-storepass", STORE_PASSWORD,
                    "-infile", f"{store}.csr", "-outfile", f"{store}.crt", "-rfc", "-validity", "3",
                    *extensions, cwd=d)  # fmt: skip
            reply = d / f"{store}.crt"  # the signed certificate and the CA's: a full chain as the reply
            reply.write_text(reply.read_text() + (d / "ca.pem").read_text())
            keytool("-importcert", "-noprompt", "-alias", name, "-keypass", key_password, "-file", f"{store}.crt",
                    *common, cwd=d)  # fmt: skip
    return KeytoolPki(directory=d, ca_pem=d / "ca.pem")
