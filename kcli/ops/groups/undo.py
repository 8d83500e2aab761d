"""The lines a reset prints after --execute: where the offsets before it were saved, and the commands
that put them back (pure).

Behavior:
- The undo command names the cluster as the reset was told to (--bootstrap-server as given, else the
  profile's or configuration's brokers; --command-config and --profile when given), each word quoted
  for a POSIX shell, so it can be pasted as it is.
- Partitions that had no committed offset before the reset cannot be put back by --from-file (there
  is no offset to write): their line is the --delete-offsets command that removes them again, a
  topic's partitions together (`--topic t:0,1,2`), or the topic alone (`--topic t`) when the reset
  named it whole and gave every one of its partitions a first offset: a topic of 30,000 partitions
  would otherwise make one word longer than a Linux command line may hold (128 KiB).
"""

from __future__ import annotations

import shlex
from collections.abc import Collection, Mapping, Sequence
from pathlib import Path

from kcli.ops.reassign.model import TopicPartition


def connection_flags(
    given: str | None,
    resolved: Sequence[object],
    *,
    command_config: Path | None = None,
    profile: str | None = None,
) -> tuple[str, ...]:
    """The connection words of an undo command: `given` is --bootstrap-server as typed (None when left
    out), `resolved` the brokers the configuration or profile named."""
    words: list[str] = []
    if profile:
        words += ["--profile", profile]
    if given or not profile:
        words += ["--bootstrap-server", given or ",".join(map(str, resolved))]
    if command_config is not None:
        words += ["--command-config", str(command_config)]
    return tuple(words)


def undo_lines(
    tool: str,
    flags: Sequence[str],
    rollback: Path,
    groups: Sequence[str],
    fresh: Mapping[str, Sequence[TopicPartition]] | None = None,
    *,
    whole: Mapping[str, Collection[str]] | None = None,
    what: str = "offsets",
) -> list[str]:
    """The stderr lines after a reset's --execute (see the module doc); `whole`: group -> the topics
    whose every partition had no offset before (see whole_fresh_topics)."""
    command = ["kcli", tool, *flags]
    if groups:
        words = [*command, "--reset-offsets"]
        for group in groups:
            words += ["--group", group]
        words += ["--from-file", str(rollback), "--execute"]
        lines = [f"Saved the {what} before the reset to {rollback}; to undo: {shlex.join(words)}"]
    else:
        lines = [f"Saved the {what} before the reset to {rollback} (none of its partitions had any)"]
    for group, partitions in (fresh or {}).items():
        by_topic: dict[str, list[int]] = {}
        for tp in partitions:
            by_topic.setdefault(tp.topic, []).append(tp.partition)
        words = [*command, "--delete-offsets", "--group", group]
        alone = (whole or {}).get(group, ())
        for topic, numbers in by_topic.items():
            named = topic if topic in alone else f"{topic}:{','.join(map(str, sorted(numbers)))}"
            words += ["--topic", named]
        lines.append(
            f"Group {group} had no offset for {len(partitions)} partition(s); to undo those: {shlex.join(words)}"
        )
    return lines


def whole_fresh_topics(
    named_whole: Collection[str],
    reset: Mapping[str, Collection[TopicPartition]],
    before: Mapping[str, Collection[TopicPartition]],
) -> dict[str, set[str]]:
    """group -> the topics the reset named whole (`--topic t`: all of t's partitions) none of whose
    partitions had an offset before it: `--delete-offsets --topic t` undoes exactly what it did."""
    out: dict[str, set[str]] = {}
    for group, partitions in reset.items():
        had = {tp.topic for tp in before.get(group, ())}
        topics = {tp.topic for tp in partitions if tp.topic in named_whole and tp.topic not in had}
        if topics:
            out[group] = topics
    return out
