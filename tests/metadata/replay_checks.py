"""A metadata log replayed by kcli's rule (kcli.metadata.delta) against the snapshots Kafka wrote from it.

A controller writes a snapshot at offset N as the image its own replay of records 0..N-1 built, so
kcli replaying those records must build the image the snapshot holds: every node of the shell tree
the same (the provenance apart: a snapshot's time is its header's, the log's its last batch's).
"""

from __future__ import annotations

from pathlib import Path

from kcli.metadata.image import ImageBuilder
from kcli.metadata.image_model import MetadataImage
from kcli.metadata.read_model import ReadStats
from kcli.metadata.reader import FileReader
from kcli.metadata.tree import Node, build_tree

SEGMENT = "[0-9]" * 20 + ".log"


def tree_texts(image: MetadataImage) -> dict[str, str]:
    """Every node under /image (its children's names, or its text) by path, the provenance left out."""
    out: dict[str, str] = {}

    def walk(node: Node, path: str) -> None:
        if node.is_directory():
            names = node.child_names()
            out[path] = "/".join(names)
            for name in names:
                child = node.child(name)
                assert child is not None, f"{path}/{name}"
                walk(child, f"{path}/{name}")
        else:
            out[path] = node.text()

    image_node = build_tree(image).child("image")
    assert image_node is not None
    walk(image_node, "/image")
    return {path: text for path, text in out.items() if not path.startswith("/image/provenance")}


def snapshot_image(path: Path) -> MetadataImage:
    builder = ImageBuilder(MetadataImage())
    for entry in FileReader(path=path, stats=ReadStats()).entries():
        builder.apply_snapshot_record(entry)
    return builder.finish()


def snapshots_of(log_dir: Path) -> list[Path]:
    """The snapshots of `log_dir` (not the bootstrap checkpoint), oldest first; none when the log
    does not hold its records from offset 0."""
    segments = sorted(log_dir.glob(SEGMENT))
    if not segments or segments[0].name != "0" * 20 + ".log":
        return []
    return sorted(p for p in log_dir.glob("*.checkpoint") if not p.name.startswith("0" * 20 + "-"))


def differences_from_snapshots(log_dir: Path) -> tuple[int, list[str]]:
    """How many snapshots of `log_dir` were compared with the log replayed up to each, and the nodes
    that differ ("snapshot: path: log's text | snapshot's text")."""
    snapshots = snapshots_of(log_dir)
    pending = sorted(int(p.name[:20]) for p in snapshots)
    builder = ImageBuilder(MetadataImage())
    images: dict[int, dict[str, str]] = {}
    last = -1
    for segment in sorted(log_dir.glob(SEGMENT)):
        for entry in FileReader(path=segment, stats=ReadStats()).entries():
            while pending and entry.offset >= pending[0]:
                images[pending.pop(0)] = tree_texts(builder.image)
            builder.apply(entry)
            last = entry.offset
    if pending and pending[0] == last + 1:  # a snapshot of the whole log
        images[pending.pop(0)] = tree_texts(builder.image)
    snapshots = [p for p in snapshots if int(p.name[:20]) in images]  # not those past the log's end
    differences = []
    for snapshot in snapshots:
        theirs = tree_texts(snapshot_image(snapshot))
        ours = images[int(snapshot.name[:20])]
        for path in sorted(set(theirs) | set(ours)):
            if theirs.get(path) != ours.get(path):
                differences.append(f"{snapshot.name}: {path}: {ours.get(path)!r} | {theirs.get(path)!r}")
    return len(snapshots), differences
