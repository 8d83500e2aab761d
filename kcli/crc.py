"""CRC-32C (Castagnoli), the checksum of Kafka's record batches: the crc32c package's C function.

Its extension module is loaded on its own: the package's __init__ also imports importlib.metadata
(for a version string) and argparse (for its command line), 20 ms of every metadata read's start-up.
Where the extension is not where the package keeps it, the package is imported as usual.
"""

from __future__ import annotations

import importlib.machinery
import importlib.util
import sys
from collections.abc import Callable
from pathlib import Path
from types import ModuleType

_NAME = "crc32c._crc32c"


def _extension() -> ModuleType | None:
    package = importlib.util.find_spec("crc32c")
    for folder in (package.submodule_search_locations or ()) if package else ():
        for suffix in importlib.machinery.EXTENSION_SUFFIXES:
            path = Path(folder) / f"_crc32c{suffix}"
            if path.is_file():
                loader = importlib.machinery.ExtensionFileLoader(_NAME, str(path))
                spec = importlib.util.spec_from_file_location(_NAME, path, loader=loader)
                if spec is None:
                    return None
                module = importlib.util.module_from_spec(spec)
                loader.exec_module(module)
                sys.modules[_NAME] = module  # a later `import crc32c` takes this one
                return module
    return None


def _crc32c() -> Callable[..., int]:
    module = sys.modules.get(_NAME) or _extension()
    if module is None:
        from crc32c import crc32c

        return crc32c
    function: Callable[..., int] = module.crc32c
    return function


crc32c = _crc32c()
"""crc32c(data, value=0) -> the CRC-32C of `data`, continuing from `value`."""
