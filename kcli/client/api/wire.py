"""What every API module shares: kio classes by name, a message built for any version of it, the
per-resource error of an error code, and the request counts benchmarks read.

Light on purpose: a command loads this, never the config model of kcli.client.api.configs, to
send its requests.
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING

from kcli.client.protocol import make as make  # the one builder of kio messages, for every version
from kcli.ops.resource_error import ResourceError

if TYPE_CHECKING:
    from kcli.errors import KcliError


class CallStats:
    """Requests sent per API name (the benchmark and tests read it)."""

    __slots__ = ("requests",)

    def __init__(self, requests: dict[str, int] | None = None) -> None:
        self.requests: dict[str, int] = {} if requests is None else requests

    def count(self, api: str, n: int = 1) -> None:
        self.requests[api] = self.requests.get(api, 0) + n

    @property
    def total(self) -> int:
        return sum(self.requests.values())


def nested(request_cls: type, name: str) -> type:
    """A nested entity class defined beside a kio request/response class."""
    return getattr(sys.modules[request_cls.__module__], name)  # type: ignore[no-any-return]


def request_cls(api: str, version: int) -> type:
    from kcli.client.protocol import request_class

    return request_class(api, version)


def failure(error: KcliError) -> ResourceError:
    """A node- or call-level failure as the per-resource error of every resource it affected."""
    code = int(getattr(error, "code", -1))
    name = str(getattr(error, "name", ""))  # empty for a client-side failure: there is no Kafka error name
    return ResourceError(code=code, name=name, message=error.message, hint=error.hint)


def resource_error(code: int, message: str | None) -> ResourceError | None:
    if int(code) == 0:
        return None
    from kcli.client.errors import error_info

    info = error_info(int(code))
    text = message if message and message not in ("NONE", "No error.") else info.message
    return ResourceError(code=int(code), name=info.name, message=text, hint=info.hint)
