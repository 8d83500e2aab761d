"""A per-resource failure from the cluster: one error code of one topic, group, ACL filter or config
resource, never an exception. Apart from kcli.ops.config_model so that every API module can use it
without loading the config model at start-up."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True, kw_only=True)
class ResourceError:
    """A per-resource failure from the cluster (or from a node that could not be reached)."""

    code: int
    name: str
    message: str | None = None
    hint: str | None = None

    def line(self) -> str:
        text = f"{self.name}: {self.message}" if self.name and self.message else self.message or self.name
        return f"{text} ({self.hint})" if self.hint else text
