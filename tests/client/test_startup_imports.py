"""Start-up discipline: the client layer's light modules never pull in kio, asyncio or ssl."""

from __future__ import annotations

import subprocess
import sys


def _modules_after(code: str) -> set[str]:
    probe = f"import sys; {code}; print('\\n'.join(sorted(sys.modules)))"
    done = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, timeout=60, check=True
    )
    return set(done.stdout.split())


def test_cluster_id_command_module_and_config_stay_light() -> None:
    loaded = _modules_after(
        "import kcli.cli.cluster_id, kcli.client, kcli.client.config, kcli.client.errors, kcli.client.protocol"
    )
    heavy = sorted(
        name for name in loaded if name.split(".")[0] in {"kio", "asyncio", "ssl", "hypothesis", "rich"}
    )
    assert heavy == []
    assert "kcli.client.admin" not in loaded and "kcli.client.connection" not in loaded
