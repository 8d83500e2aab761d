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


# ---- bytes kcli did not write that do not decode ------------------------------------------------------


class DecodeError(KcliError):
    """Bytes from outside (a metadata log or snapshot, a broker's response, a client's request) that
    do not decode. Raised by the pure readers with `position` (a byte in the data they were given);
    the reader that knows the source names it with `located` (file, file byte, last good offset),
    the client with `ProtocolError` (node and API).

    One type per kind of damage, all under this base: a CRC mismatch is not a varint error.
    """

    def __init__(
        self,
        message: str,
        position: int = 0,
        *,
        file: str | None = None,
        last_good_offset: int | None = None,
        located: bool = False,
    ) -> None:
        self.detail = message
        self.position = position
        self.file = file
        self.last_good_offset = last_good_offset
        if file is not None or located:
            last = "none" if last_good_offset is None else str(last_good_offset)
            text = f"{file}: {message} at byte {position} (last good offset {last})"
            super().__init__(text, hint="--skip-corrupt reads on past it")
        else:
            super().__init__(f"{message} at byte {position}")

    def located(
        self, *, file: str, shift: int = 0, last_good_offset: int | None, prefix: str = ""
    ) -> DecodeError:
        """The same error, of the same type, naming the file: `shift` turns the position into a file
        byte (positions in an inflated batch are reported at the batch's records)."""
        return type(self)(
            prefix + self.detail,
            self.position + shift,
            file=file,
            last_good_offset=last_good_offset,
            located=True,
        )


class TruncatedData(DecodeError):
    """The data ends inside a structure it declares (a batch header, a batch, a record, a field)."""


class LengthError(DecodeError):
    """A declared length or count that cannot be (negative, too small) or cannot fit in the bytes
    that follow it (a forged array count, a tagged field that does not fill its size)."""


class VarintError(DecodeError):
    """A varint that runs past the end of the data or is longer than Kafka allows."""


class ChecksumError(DecodeError):
    """A batch whose CRC-32C does not match its bytes."""


class CompressionError(DecodeError):
    """A compressed batch whose data does not inflate with its codec."""


class InflationLimitError(DecodeError):
    """A compressed batch that inflates past the bound kcli allows (kcli.metadata.framing.MAX_INFLATED)."""


class UnknownFormatError(DecodeError):
    """A format kcli does not know where it must: batch magic, compression codec, frame version."""


class RecordError(DecodeError):
    """A record whose fields do not add up: a body that does not parse, bytes left over, an offset
    delta that is not its index."""
