"""`kcli log-dirs --describe`: the brokers to ask, then DescribeLogDirs of each, concurrently.

Behavior (LogDirsCommand): the brokers are the cluster's (the bootstrap's DescribeCluster) or
--broker-list's, which must all exist; each is asked for every log dir and every partition (topics
null, as Kafka's admin client asks) and --topic-list filters what is printed. A broker that fails,
or answers no log dir at all (before v3 that is how a refusal looks: Kafka reads it as
CLUSTER_AUTHORIZATION_FAILED), fails the command, as it fails Kafka's.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from kcli.errors import KcliError
from kcli.ops.log_dirs import BrokerReport, LogDirsDescription, brokers_to_query

if TYPE_CHECKING:
    from kcli.client.admin import Admin


async def describe(
    admin: Admin,
    *,
    brokers: Sequence[int],
    topics: frozenset[str],
    on_query: Callable[[], None] = lambda: None,
) -> LogDirsDescription:
    """The log dirs of the brokers asked (all of them when `brokers` is empty); `on_query` runs once
    the brokers are known to exist, before they are asked (kafka-log-dirs says so then)."""
    from kcli.client.api.log_dirs import describe_log_dirs
    from kcli.client.errors import KafkaError, code_of

    if not admin.nodes:
        await admin.describe_cluster()
    queried = brokers_to_query(brokers, list(admin.nodes))
    on_query()
    raw = await describe_log_dirs(admin, queried)
    reports = {}
    for broker in queried:
        answer = raw[broker]
        if isinstance(answer, KcliError):
            raise answer
        if not answer.dirs:
            raise KafkaError(
                code_of("CLUSTER_AUTHORIZATION_FAILED"), None, what="DescribeLogDirs", node=f"broker {broker}"
            )
        reports[broker] = BrokerReport(broker=broker, dirs=answer.dirs)
    return LogDirsDescription(queried=queried, reports=reports, topics=topics)
