"""kcli's data files: Kafka's facts kept as data, each file named after what it holds.

`read_text` reads one through this package's loader: cheaper at start-up than importlib.resources,
and it finds the file when kcli is imported from a zip (Spark executors import it so).
"""

from __future__ import annotations

import os


def read_text(name: str) -> str:
    """The text of kcli/data/`name` (UTF-8)."""
    loader = __spec__.loader  # type: ignore[name-defined]
    return loader.get_data(os.path.join(os.path.dirname(__file__), name)).decode("utf-8")  # type: ignore[union-attr]
