"""Rule files: loading, validation and one-line errors naming the rule (no Spark needed)."""

from __future__ import annotations

from pathlib import Path

import pytest

from kcli import kafka
from kcli.audit.rules import RULE_SEVERITIES, RuleError, Severity, load_builtin_rules, parse_rules, rule_set
from tests.conftest import invoke

GOOD = """
[[rule]]
id = "first-rule"
severity = "low"
description = "first"
sql = "SELECT cluster_id, topic AS resource, 'x' AS message FROM topics"

[[rule]]
id = "second-rule"
severity = "high"
description = "second"
params = { floor = 3, name = "it's" }
sql = "SELECT cluster_id, topic AS resource, ${name} AS message FROM topics WHERE partition_count < ${floor}"
"""


def test_builtin_rules_load_with_ids_severities_and_descriptions() -> None:
    rules = load_builtin_rules()
    assert len(rules) == 20
    assert len({rule.id for rule in rules}) == len(rules)
    for rule in rules:
        assert rule.description and rule.sql and isinstance(rule.severity, Severity)
        assert "${" not in rule.sql


def test_params_are_substituted_as_sql_literals() -> None:
    first, second = parse_rules(GOOD, source="good.toml")
    assert first.severity is Severity.low
    assert second.sql.endswith("'it\\'s' AS message FROM topics WHERE partition_count < 3")
    assert second.params == {"floor": 3, "name": "it's"}


def test_toml_syntax_error_names_the_rule_it_is_in() -> None:
    broken = GOOD.replace('description = "second"', 'description = "second')
    with pytest.raises(RuleError) as caught:
        parse_rules(broken, source="bad.toml")
    message = caught.value.line()
    assert message.startswith("rules file bad.toml (in rule second-rule): invalid TOML:")
    assert "\n" not in message


@pytest.mark.parametrize(
    ("change", "expected"),
    [
        (('severity = "high"', 'severity = "urgent"'), "rule second-rule: unknown severity 'urgent'"),
        (('description = "second"\n', ""), "rule second-rule: missing description"),
        (("${floor}", "${ceiling}"), "rule second-rule: ${ceiling} is not defined in params"),
        (('id = "second-rule"', 'id = "first-rule"'), "rule first-rule: duplicate id"),
        (('id = "second-rule"', 'id = "Second Rule"'), "rule Second Rule: id must be lower-case"),
        (('severity = "high"', 'severity = "high"\nquery = "x"'), "rule second-rule: unknown keys ['query']"),
    ],
)
def test_invalid_rules_give_one_line_naming_the_rule(change: tuple[str, str], expected: str) -> None:
    with pytest.raises(RuleError) as caught:
        parse_rules(GOOD.replace(*change), source="bad.toml")
    assert expected in caught.value.line()
    assert "\n" not in caught.value.line()


def test_a_user_rule_with_a_builtin_id_replaces_it(tmp_path: Path) -> None:
    path = tmp_path / "mine.toml"
    path.write_text(
        '[[rule]]\nid = "leader-skew"\nseverity = "high"\ndescription = "stricter"\n'
        "sql = \"SELECT cluster_id, 'b' AS resource, 'm' AS message FROM brokers\"\n"
    )
    rules = {rule.id: rule for rule in rule_set([path])}
    assert len(rules) == 20
    assert rules["leader-skew"].severity is Severity.high
    assert rules["leader-skew"].source == str(path)
    only = rule_set([path], builtin=False)
    assert [rule.id for rule in only] == ["leader-skew"]


def test_spark_rules_lists_builtins_as_json() -> None:
    result = invoke("spark", "rules", "-o", "json")
    assert result.code == 0, result.stderr
    listed = {rule["id"]: rule for rule in result.json}
    assert listed["replication-factor-below-floor"]["severity"] == "high"
    assert listed["replication-factor-below-floor"]["params"] == {"floor": 3}
    assert len(listed) == 20


def test_spark_rules_text_has_one_line_per_rule() -> None:
    result = invoke("spark", "rules", "-o", "text")
    assert result.code == 0
    assert len(result.lines) == 20
    assert result.lines[0].split("\t")[:2] == ["replication-factor-below-floor", "high"]


def test_spark_rules_with_a_bad_file_exits_2_with_one_line(tmp_path: Path) -> None:
    path = tmp_path / "bad.toml"
    path.write_text('[[rule]]\nid = "x"\nseverity = "high"\n')
    result = invoke("spark", "rules", "--rules", str(path))
    assert result.code == 2
    assert result.stderr.strip().splitlines() == [
        f"Error: rules file {path}: rule x: missing description, sql"
    ]


def test_rule_severities_are_kafkas_up_to_high() -> None:
    """Rules use kcli.kafka's Severity; critical stays the doctor's, so a rule file may not use it."""
    assert Severity is kafka.Severity
    assert [severity.name for severity in RULE_SEVERITIES] == ["info", "low", "medium", "high"]
    with pytest.raises(RuleError) as caught:
        parse_rules(GOOD.replace('severity = "high"', 'severity = "critical"'), source="bad.toml")
    assert "unknown severity 'critical' (use info|low|medium|high)" in caught.value.line()


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("x = " + "[" * 100_000 + "]" * 100_000 + "\n", "nested too deeply"),
        (GOOD.replace("floor = 3", "floor = " + "3" * 5000), "an integer of more than 4300 digits (at line"),
    ],
    ids=["nested 100,000 deep", "a 5000-digit integer"],
)
def test_toml_past_what_python_parses_is_one_line(text: str, problem: str) -> None:
    with pytest.raises(RuleError) as caught:
        parse_rules(text, source="deep.toml")
    message = caught.value.line()
    assert message.startswith("rules file deep.toml") and problem in message and "\n" not in message
