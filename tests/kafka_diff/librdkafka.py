"""Kafka's Java client settings as librdkafka (confluent-kafka) spells them: one module that imports
nothing of the corpus, so benchmarks can use it too."""

from __future__ import annotations

from typing import Any


def librdkafka_settings(java: dict[str, str]) -> dict[str, Any]:
    """Kafka client settings (the sandbox's) as librdkafka spells them."""
    import re

    out: dict[str, Any] = {"security.protocol": java.get("security.protocol", "PLAINTEXT")}
    if "sasl.mechanism" in java:
        out["sasl.mechanism"] = java["sasl.mechanism"]
        found = re.search(r'username="([^"]*)" password="([^"]*)"', java.get("sasl.jaas.config", ""))
        if found:
            out["sasl.username"], out["sasl.password"] = found.groups()
    if "ssl.truststore.location" in java:
        out["ssl.ca.location"] = java["ssl.truststore.location"]
        out["ssl.endpoint.identification.algorithm"] = "none"
    return out
