"""A Kafka error as Kafka's tools print the Java exception they got: `org.apache...XException: message`.

kafka-consumer-groups prints some results (the STATUS column of --delete-offsets, the reasons of a
failed --delete) as the exception's toString, so kcli's stdout carries the same words. Errors.java
names each code's exception class after the code (UNKNOWN_TOPIC_OR_PARTITION ->
UnknownTopicOrPartitionException) except the codes listed here.
"""

from __future__ import annotations

_PACKAGE = "org.apache.kafka.common.errors."
_NOT_NAMED_AFTER_THE_CODE = {
    "UNKNOWN_SERVER_ERROR": "UnknownServerException",
    "CORRUPT_MESSAGE": "CorruptRecordException",
    "REQUEST_TIMED_OUT": "TimeoutException",
    "MESSAGE_TOO_LARGE": "RecordTooLargeException",
    "STALE_CONTROLLER_EPOCH": "ControllerMovedException",
    "NETWORK_EXCEPTION": "NetworkException",
    "INVALID_TOPIC_EXCEPTION": "InvalidTopicException",
    "RECORD_LIST_TOO_LARGE": "RecordBatchTooLargeException",
    "TOPIC_AUTHORIZATION_FAILED": "TopicAuthorizationException",
    "GROUP_AUTHORIZATION_FAILED": "GroupAuthorizationException",
    "CLUSTER_AUTHORIZATION_FAILED": "ClusterAuthorizationException",
    "TOPIC_ALREADY_EXISTS": "TopicExistsException",
    "INVALID_CONFIG": "InvalidConfigurationException",
    "KAFKA_STORAGE_ERROR": "KafkaStorageException",
    "SASL_AUTHENTICATION_FAILED": "SaslAuthenticationException",
    "NON_EMPTY_GROUP": "GroupNotEmptyException",
}


def exception_class(name: str) -> str:
    """The fully qualified exception class Kafka's client raises for the error named `name`."""
    simple = (
        _NOT_NAMED_AFTER_THE_CODE.get(name) or "".join(w.capitalize() for w in name.split("_")) + "Exception"
    )
    return _PACKAGE + simple
