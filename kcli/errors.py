"""The exit codes and the base error every expected failure derives from."""

from __future__ import annotations

from enum import IntEnum


class ExitCode(IntEnum):
    OK = 0
    ERROR = 1  # the operation failed, or findings reached --fail-on
    USAGE = 2  # bad flags or bad input; nothing was sent to the cluster
    INCOMPLETE = 3  # spark audit: the audit could not run, or its input was incomplete
    INTERRUPTED = 130  # Ctrl-C


class KcliError(Exception):
    """An expected failure: reported as one line on stderr, never with a traceback unless --debug.

    The message says what failed and where; `hint` says what to do next.
    """

    exit_code: ExitCode = ExitCode.ERROR

    def __init__(self, message: str, *, hint: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.hint = hint

    def line(self) -> str:
        return f"{self.message} ({self.hint})" if self.hint else self.message


class UsageError(KcliError):
    """Bad command-line input or input file: exit 2, nothing sent."""

    exit_code = ExitCode.USAGE


class PartialFailure(KcliError):
    """Some resources failed while others succeeded; each was already reported."""
