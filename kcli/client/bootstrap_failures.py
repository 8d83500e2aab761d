"""Why a bootstrap failed, in one error: every address's failure summed up, with what to do."""

from __future__ import annotations

from kcli.client.config import ClientConfig
from kcli.client.errors import ConnectionFailed, RequestTimedOut
from kcli.errors import KcliError
from kcli.kafka import EndpointType

# First contact with a cluster whose every bootstrap address refuses: how long refusals are retried
# unless default.api.timeout.ms is set explicitly (then they are retried until it runs out, as in Kafka).
REFUSED_RETRY_MS = 3000


def warn_on_stderr(line: str) -> None:
    import sys

    print(line, file=sys.stderr, flush=True)


def worth_retrying(error: KcliError) -> bool:
    """A bootstrap failure that may go away by itself: a refused connection (a node starting up)."""
    from kcli.client.errors import ConnectionRefused

    return isinstance(error, ConnectionRefused)


def api_timeout_set(config: ClientConfig) -> bool:
    """Whether default.api.timeout.ms was given (flag file, profile or environment), not defaulted."""
    return bool(config.properties.get("default.api.timeout.ms", "").strip())


def refused_briefly(
    config: ClientConfig, failures: list[KcliError], *, passes: int, seconds: float
) -> KcliError:
    """Every bootstrap address refused during the brief retry: say so, and how to wait as Kafka does."""
    error = summarize(config, failures)
    return ConnectionFailed(
        f"{error.message}; {passes} tries in {seconds:.1f} s",
        hint=(
            "is a node listening there? kcli retries refused connections for "
            f"{REFUSED_RETRY_MS // 1000} s only; set default.api.timeout.ms, "
            "e.g. KCLI_DEFAULT_API_TIMEOUT_MS=60000, to keep retrying as long as Kafka's clients do"
        ),
    )


def bootstrap_failure(config: ClientConfig, failures: list[KcliError], *, passes: int = 1) -> KcliError:
    if not failures:
        return RequestTimedOut(
            f"bootstrap did not complete within {config.default_api_timeout_ms} ms (default.api.timeout.ms)"
        )
    error = summarize(config, failures)
    if passes > 1:
        kind = RequestTimedOut if isinstance(error, RequestTimedOut) else ConnectionFailed
        retried = f" (tried {passes} times within default.api.timeout.ms={config.default_api_timeout_ms})"
        return kind(error.message + retried, hint=error.hint)
    return error


def summarize(config: ClientConfig, failures: list[KcliError]) -> KcliError:
    if len(failures) == 1:
        return failures[0]
    first = failures[0]
    kind = "controllers" if config.endpoint_type is EndpointType.CONTROLLERS else "brokers"
    addresses = ", ".join(str(endpoint) for endpoint in config.bootstrap)
    error_type = type(first) if isinstance(first, RequestTimedOut) else ConnectionFailed
    return error_type(
        f"none of the bootstrap {kind} answered ({addresses}); first error: {first.message}", hint=first.hint
    )
