"""Each node's log4j logger levels, as a Kafka node reports and changes them (BROKER_LOGGER resources).

Behavior:
- A node starts with the loggers and levels of Kafka's shipped log4j2 configuration; "root" is the
  root logger.
- SET gives a logger a level (one of Kafka's LogLevelConfig.VALID_LOG_LEVELS); DELETE returns it to
  the root logger's level; the root logger itself cannot be deleted.
- Levels live in the node only: they are not metadata records and a restarted node starts over.
"""

from __future__ import annotations

from kio.schema.errors import ErrorCode

from kcli.kafka import ConfigOp

ROOT = "root"
VALID_LEVELS = ("FATAL", "ERROR", "WARN", "INFO", "DEBUG", "TRACE")

# The loggers of Kafka's config/log4j2.yaml, with their levels.
INITIAL_LEVELS: dict[str, str] = {
    ROOT: "INFO",
    "kafka": "INFO",
    "kafka.authorizer.logger": "INFO",
    "kafka.controller": "INFO",
    "kafka.log.LogCleaner": "INFO",
    "kafka.network.RequestChannel$": "WARN",
    "kafka.request.logger": "WARN",
    "org.apache.kafka": "INFO",
    "org.apache.kafka.controller": "INFO",
    "state.change.logger": "INFO",
}


class LoggerProblem(Exception):
    """A rejected logger change: Kafka error code and message."""

    def __init__(self, code: int, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


def initial_levels() -> dict[str, str]:
    """A fresh node's logger levels."""
    return dict(INITIAL_LEVELS)


def validate(levels: dict[str, str], ops: list[tuple[str, int, str | None]]) -> None:
    """Reject the operations as ConfigAdminManager.validateLogLevelConfigs does (LoggerProblem)."""
    for name, op, value in ops:
        if op == ConfigOp.SET:
            if name not in levels:
                raise LoggerProblem(ErrorCode.invalid_config, f"Logger {name} does not exist!")
            if value not in VALID_LEVELS:
                raise LoggerProblem(
                    ErrorCode.invalid_config,
                    f"Cannot set the log level of {name} to {value} as it is not a supported log level. "
                    f"Valid log levels are {', '.join(VALID_LEVELS)}",
                )
        elif op == ConfigOp.DELETE:
            if name not in levels:
                raise LoggerProblem(ErrorCode.invalid_config, f"Logger {name} does not exist!")
            if name == ROOT:
                raise LoggerProblem(
                    ErrorCode.invalid_request, f"Removing the log level of the {ROOT} logger is not allowed"
                )
        else:
            kind = ConfigOp(op).name if op in (ConfigOp.APPEND, ConfigOp.SUBTRACT) else None
            if kind is None:
                raise LoggerProblem(
                    ErrorCode.invalid_request,
                    f"Unknown operation type {op} is not allowed for the BROKER_LOGGER resource",
                )
            raise LoggerProblem(
                ErrorCode.invalid_request, f"{kind} operation is not allowed for the BROKER_LOGGER resource"
            )


def apply(levels: dict[str, str], ops: list[tuple[str, int, str | None]]) -> None:
    """Carry out validated operations on `levels`."""
    for name, op, value in ops:
        if op == ConfigOp.SET and value is not None:
            levels[name] = value
        elif op == ConfigOp.DELETE:
            levels[name] = levels[ROOT]
