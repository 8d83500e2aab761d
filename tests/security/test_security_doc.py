"""docs/security.md lists every client security setting of Kafka's AdminClient that kcli's config layer
knows, each once, with a status that matches what the config layer does; the README and the man page
show the same client.properties examples, and kcli reads each without an error."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from kcli.cli.manual import SECURITY_EXAMPLES
from kcli.client.config import config_from_properties
from kcli.client.config_defs import DEFS
from kcli.client.config_keys import HONOURED_KEYS, KNOWN_KAFKA_KEYS
from kcli.properties import parse_properties

ROOT = Path(__file__).resolve().parents[2]
ROW = re.compile(r"^\| `([a-z0-9.]+)` \| (supported|ignored|refused) \|", re.MULTILINE)
KCLI_ONLY = {"sasl.username", "sasl.password"}


def security_settings() -> set[str]:
    return {k for k in DEFS if k.startswith(("ssl.", "sasl.", "security.")) and k not in KCLI_ONLY}


def test_the_table_lists_every_security_setting_once() -> None:
    rows = ROW.findall((ROOT / "docs" / "security.md").read_text())
    names = [name for name, _ in rows]
    assert len(names) == len(set(names)), "a setting is listed twice"
    assert set(names) == security_settings()


def test_each_status_matches_the_config_layer() -> None:
    for name, status in ROW.findall((ROOT / "docs" / "security.md").read_text()):
        if status == "ignored":
            assert name in KNOWN_KAFKA_KEYS and name not in HONOURED_KEYS, name
        else:  # supported or refused: the config layer acts on it
            assert name in HONOURED_KEYS and name not in KNOWN_KAFKA_KEYS, name


@pytest.mark.parametrize(("title", "text"), SECURITY_EXAMPLES, ids=[t.split(" (")[0] for t, _ in SECURITY_EXAMPLES])
def test_each_example_is_read_by_kcli_and_shown_in_the_readme_and_man_page(
    title: str, text: str, tmp_path: Path
) -> None:
    local = text
    for path in set(re.findall(r"/etc/[\w./-]+", text)):  # the example's store files, here empty
        (tmp_path / Path(path).name).write_bytes(b"")
        local = local.replace(path, str(tmp_path / Path(path).name))
    props = {"bootstrap.servers": "broker:9093", **parse_properties(local)}
    warnings: list[str] = []
    config = config_from_properties(props, warn=warnings.append)
    assert config.sasl is not None or config.ssl is not None
    assert warnings == []
    readme = (ROOT / "README.md").read_text()
    assert f"```properties\n{text}```" in readme, f"README lacks the example: {title}"
    man = (ROOT / "man" / "kcli.1").read_text()
    assert all(line.replace("\\", "\\\\").replace("-", "\\-") in man for line in text.splitlines() if line), title
