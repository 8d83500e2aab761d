"""kcli: an admin toolkit for Apache Kafka clusters in KRaft mode."""

__version__ = "0.1.0"
