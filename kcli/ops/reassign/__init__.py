"""Partition reassignment logic independent of the wire: JSON formats, validation, planners,
plan statistics, throttle computation and verification (kafka-reassign-partitions.sh parity)."""
