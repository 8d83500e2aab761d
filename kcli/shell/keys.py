"""Key bindings of the interactive shell (one docstring per key)."""

from __future__ import annotations

from typing import Any


def shell_bindings() -> Any:
    from prompt_toolkit.key_binding import KeyBindings

    bindings = KeyBindings()

    @bindings.add("c-c")
    def _(event: Any) -> None:
        """Ctrl-C: drop the current line and show a fresh prompt; the shell keeps running."""
        event.app.exit(exception=KeyboardInterrupt, style="class:aborting")

    @bindings.add("c-d")
    def _(event: Any) -> None:
        """Ctrl-D on an empty line: leave the shell (like exit)."""
        if not event.current_buffer.text:
            event.app.exit(exception=EOFError, style="class:exiting")
        else:
            event.current_buffer.delete()

    return bindings
