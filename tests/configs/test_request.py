"""kafka-configs' checks as values, without typer: kcli.ops.config_request in ConfigCommand's order
(the action, duplicate types, the connection, the entities, the changes, stray words)."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from kcli.errors import UsageError
from kcli.ops.config_request import ConfigsRequest, check_request
from kcli.ops.config_spec import EntityFlags


class Steps:
    def __init__(self) -> None:
        self.log: list[str] = []

    def resolve(self) -> str:
        self.log.append("resolve")
        return "settings"

    def read_properties(self, path: Path) -> Mapping[str, str]:
        self.log.append(f"read {path}")
        return {"retention.ms": "1"}

    def resolvable(self, host: str) -> bool:
        self.log.append(f"resolve {host}")
        return True


def _check(request: ConfigsRequest) -> tuple[object, list[str]]:
    steps = Steps()
    try:
        checked = check_request(
            request, resolve=steps.resolve, read_properties=steps.read_properties, resolvable=steps.resolvable
        )
    except UsageError as error:
        return str(error), steps.log
    return checked, steps.log


TOPIC = EntityFlags(entity_types=("topics",), entity_names=("orders",))


def test_the_action_and_duplicate_types_come_before_the_connection() -> None:
    message, log = _check(ConfigsRequest(describe=True, alter=True))
    assert message.startswith("Command must include exactly one action") and log == []
    message, log = _check(ConfigsRequest(describe=True, dry_run=True, entities=TOPIC))
    assert message == 'Option "[describe]" can\'t be used with option "[dry-run]"' and log == []
    duplicated = EntityFlags(entity_types=("topics", "topics"), entity_names=("a", "b"))
    message, log = _check(ConfigsRequest(describe=True, entities=duplicated))
    assert message == "Duplicate entity type(s) specified: topics" and log == []


def test_the_connection_then_the_entities_then_the_changes_then_stray_words() -> None:
    message, log = _check(ConfigsRequest(alter=True, entities=EntityFlags(entity_types=("topics",))))
    assert log == ["resolve"] and "entity" in message.lower()
    message, log = _check(
        ConfigsRequest(alter=True, entities=TOPIC, add_config="a=1", add_config_file=Path("f"))
    )
    assert message == "Only one of --add-config or --add-config-file must be specified" and log == ["resolve"]
    message, _ = _check(ConfigsRequest(alter=True, entities=TOPIC, add_config="retention.ms=1", stray=("x",)))
    assert message.startswith("Unexpected argument(s) 'x'")
    checked, log = _check(ConfigsRequest(alter=True, entities=TOPIC, add_config_file=Path("f.properties")))
    assert log == ["resolve", "read f.properties"]
    assert checked.action == "--alter" and [c.key for c in checked.changes.changes] == ["retention.ms"]  # type: ignore[attr-defined]


def test_both_bootstraps_are_reported_by_the_entity_checks_without_resolving() -> None:
    message, log = _check(ConfigsRequest(describe=True, entities=TOPIC, both_bootstraps=True))
    assert log == [] and "bootstrap" in message


def test_diff_needs_two_named_entities() -> None:
    message, _ = _check(ConfigsRequest(diff=True, entities=TOPIC))
    assert message == "--diff needs at least two entities (or one entity and --diff-profile)"
    checked, _ = _check(ConfigsRequest(diff=True, entities=TOPIC, diff_profile="other"))
    assert checked.action == "--diff"  # type: ignore[attr-defined]
