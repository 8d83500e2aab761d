"""Start-up: the security libraries load only when a config needs them.

`kcli --help` and a cluster-id over PLAINTEXT, PEM TLS or SCRAM load none of cryptography, pyjks,
gssapi, PyJWT, botocore or an HTTP client; a JKS store loads pyjks, an OAUTHBEARER login PyJWT.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.fresh_process import run_fresh

HEAVY = ("cryptography", "jks", "gssapi", "jwt", "botocore", "boto3", "aws_msk_iam_sasl_signer", "http.client", "urllib.request")
SECURITY_MODULES = ("kcli.client.sasl_gssapi", "kcli.client.oauth_token", "kcli.client.msk_iam")


def loaded_heavy(modules: set[str]) -> list[str]:
    return sorted(m for m in modules if m in HEAVY or m.split(".")[0] in HEAVY or m in SECURITY_MODULES)


def test_help_loads_no_security_library() -> None:
    code, _, modules = run_fresh("--help")
    assert code == 0 and loaded_heavy(modules) == []


@pytest.mark.parametrize(
    "settings",
    [
        "",
        "security.protocol=SSL\nssl.truststore.type=PEM\nssl.truststore.location={ca}\n",
        "security.protocol=SASL_PLAINTEXT\nsasl.mechanism=SCRAM-SHA-512\nsasl.username=u\nsasl.password=p\n",
    ],
    ids=["plaintext", "pem-tls", "scram"],
)
def test_cluster_id_loads_only_what_its_config_needs(tmp_path: Path, settings: str) -> None:
    ca = tmp_path / "ca.pem"
    ca.write_text("-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n")
    config = tmp_path / "c.properties"
    config.write_text(settings.format(ca=ca) + "default.api.timeout.ms=300\n")
    code, _, modules = run_fresh("cluster-id", "-b", "127.0.0.1:1", "-c", str(config))
    assert code != 0  # nothing listens there: what matters is what was loaded on the way
    assert loaded_heavy(modules) == []


def test_a_jks_store_and_an_oauth_login_load_their_libraries(tmp_path: Path) -> None:
    pytest.importorskip("jks")
    store = tmp_path / "trust.jks"
    store.write_bytes(b"\xfe\xed\xfe\xed\x00\x00\x00\x02")
    config = tmp_path / "c.properties"
    config.write_text(f"security.protocol=SSL\nssl.truststore.location={store}\nssl.truststore.password=x\n")
    _, _, modules = run_fresh("cluster-id", "-b", "127.0.0.1:1", "-c", str(config))
    assert "jks" in modules and "gssapi" not in modules and "jwt" not in modules
