"""Generated artefacts of the CLI: man pages (roff) and shell completion scripts.

The man pages come from the typer app, so they cannot drift from the code; the completion scripts
ask the program itself for completions. Tests regenerate both and compare with the committed files
under man/ and completions/.
"""

from __future__ import annotations

import datetime
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from kcli.cli.main import COMPLETE_VAR

PROGRAM = "kcli"

# A fixed date keeps generated pages reproducible: the date of the latest release in CHANGELOG.md
# (tests/release checks that they agree).
MANUAL_DATE = datetime.date(2026, 11, 27)


@dataclass(frozen=True, slots=True, kw_only=True)
class CommandDoc:
    path: tuple[str, ...]  # ("kcli", "metadata-quorum", "describe")
    command: Any  # a click Command

    @property
    def page_name(self) -> str:
        return "-".join(self.path)


def walk(command: Any, path: tuple[str, ...] = (PROGRAM,)) -> Iterator[CommandDoc]:
    """Every command and group below `command`, depth first, in name order."""
    yield CommandDoc(path=path, command=command)
    commands = getattr(command, "commands", None) or {}
    for name in sorted(commands):
        sub = commands[name]
        if getattr(sub, "hidden", False):
            continue
        yield from walk(sub, (*path, name))


def root_command() -> Any:
    import typer

    from kcli.cli.main import app

    return typer.main.get_command(app)


def man_pages() -> dict[str, str]:
    """File name -> roff text, one page per command (kcli.1, kcli-configs.1, ...)."""
    docs = list(walk(root_command()))
    return {f"{doc.page_name}.1": _man_page(doc, docs) for doc in docs}


# The completion scripts, one per shell. Each asks kcli for completions through typer's completion
# protocol (the COMPLETE_VAR variable naming the shell, the words typed in COMP_WORDS/COMP_CWORD or
# _TYPER_COMPLETE_ARGS), the protocol the scripts of `kcli --install-completion` speak too; kcli
# keeps its own copies because typer builds them only for the shell it detects it runs in.
# tests/polish/test_completion_scripts.py runs each one in its shell against the real program.
COMPLETION_SCRIPTS = {
    "bash": f"""_{PROGRAM}_completion() {{
    local IFS=$'
'
    COMPREPLY=( $( env COMP_WORDS="${{COMP_WORDS[*]}}" \\
                   COMP_CWORD=$COMP_CWORD \\
                   {COMPLETE_VAR}=complete_bash $1 ) )
    return 0
}}

complete -o default -F _{PROGRAM}_completion {PROGRAM}
""",
    "zsh": f"""#compdef {PROGRAM}

_{PROGRAM}_completion() {{
  eval $(env _TYPER_COMPLETE_ARGS="${{words[1,$CURRENT]}}" {COMPLETE_VAR}=complete_zsh {PROGRAM})
}}

compdef _{PROGRAM}_completion {PROGRAM}
""",
    "fish": f"""complete --command {PROGRAM} --no-files --arguments "(env {COMPLETE_VAR}=complete_fish \
_TYPER_COMPLETE_FISH_ACTION=get-args _TYPER_COMPLETE_ARGS=(commandline -cp) {PROGRAM})" --condition "env \
{COMPLETE_VAR}=complete_fish _TYPER_COMPLETE_FISH_ACTION=is-args _TYPER_COMPLETE_ARGS=(commandline -cp) {PROGRAM}"
""",
}


def completion_scripts() -> dict[str, str]:
    """File name -> completion script for each supported shell."""
    from kcli.workflows.completion import SHELLS

    return {f"{PROGRAM}.{shell}": completion_script(shell) for shell in SHELLS}


def completion_script(shell: str) -> str:
    """The completion script of `shell`, which asks kcli itself for the candidates, with zsh's made to
    work as the file _kcli on $fpath as well as sourced."""
    script = COMPLETION_SCRIPTS[shell]
    return _autoloadable(script) if shell == "zsh" else script


_ZSH_REGISTER = f"compdef _{PROGRAM}_completion {PROGRAM}\n"
_ZSH_EITHER_WAY = f"""\
# Found on $fpath, this file is the body of the function _{PROGRAM}, run at each completion: complete.
# Sourced (source <(kcli completion show zsh)): register the function for {PROGRAM}.
if [[ "${{funcstack[1]}}" == _{PROGRAM} ]]; then
  _{PROGRAM}_completion "$@"
else
  compdef _{PROGRAM}_completion {PROGRAM}
fi
"""


def _autoloadable(script: str) -> str:
    # the zsh script above only registers its function, so from $fpath the first Tab completes nothing
    if not script.endswith(_ZSH_REGISTER):
        raise RuntimeError(f"the zsh completion script no longer ends in {_ZSH_REGISTER!r}")
    return script.removesuffix(_ZSH_REGISTER) + _ZSH_EITHER_WAY


def write_all(root: Path) -> list[Path]:
    """Regenerate man/ and completions/ under `root`; returns the files written."""
    from kcli.writes import make_directories, write_file

    written: list[Path] = []
    for folder, files in (("man", man_pages()), ("completions", completion_scripts())):
        target = root / folder
        make_directories(target, what="the generated files' directory")
        for stale in target.glob("*.1" if folder == "man" else f"{PROGRAM}.*"):
            if stale.name not in files:
                stale.unlink()
        for name, text in files.items():
            path = target / name
            write_file(path, text, what="a generated file", durable=False)
            written.append(path)
    return written


def _man_page(doc: CommandDoc, all_docs: list[CommandDoc]) -> str:
    command = doc.command
    title = doc.page_name.upper()
    help_text = _clean(command.help or "")
    summary = help_text.split("\n", 1)[0] if help_text else ""
    lines = [
        f'.TH "{title}" "1" "{MANUAL_DATE.isoformat()}" "kcli" "kcli manual"',
        ".ad l",  # ragged right: long paths and flag names cannot be justified without warnings
        ".SH NAME",
        f"{_esc(doc.page_name)} \\- {_esc(summary)}" if summary else _esc(doc.page_name),
        ".SH SYNOPSIS",
        f".B {_esc(' '.join(doc.path))}",
        _esc(_usage_tail(command)),
    ]
    if help_text:
        lines.append(".SH DESCRIPTION")
        for paragraph in help_text.split("\n\n"):
            lines += [".PP", _esc(" ".join(paragraph.split()))]
    options = [p for p in command.params if getattr(p, "param_type_name", "") == "option" and not p.hidden]
    arguments = [p for p in command.params if getattr(p, "param_type_name", "") == "argument"]
    if arguments:
        lines.append(".SH ARGUMENTS")
        for arg in arguments:
            lines += [
                ".TP",
                f".I {_esc(arg.human_readable_name)}",
                _esc(_clean(getattr(arg, "help", "") or "")),
            ]
    if options:
        lines.append(".SH OPTIONS")
        for option in options:
            names = ", ".join([*option.opts, *option.secondary_opts])
            metavar = "" if option.is_flag else f" {_metavar(option)}"
            lines += [".TP", f".B {_esc(names)}{_esc(metavar)}", _esc(_clean(option.help or ""))]
    children = [
        d for d in all_docs if len(d.path) == len(doc.path) + 1 and d.path[: len(doc.path)] == doc.path
    ]
    if children:
        lines.append(".SH COMMANDS")
        for child in children:
            child_help = _clean(child.command.help or "").split("\n", 1)[0]
            lines += [".TP", f".B {_esc(child.path[-1])}", _esc(child_help)]
    from kcli.cli.manual import SECTIONS

    for title, text in SECTIONS.get(" ".join(doc.path[1:]), ()):
        lines.append(f'.SH "{title.upper()}"')
        for paragraph in text.strip().split("\n\n"):
            if all(line.startswith("    ") for line in paragraph.splitlines()):  # a literal block
                lines += [".PP", ".nf", *(_esc(line[4:]) for line in paragraph.splitlines()), ".fi"]
            else:
                lines += [".PP", _esc(" ".join(paragraph.split()))]
    example = _example_for(doc)
    if example:
        lines += [
            ".SH EXAMPLES",
            ".nf",
            *(_esc(line) if line else "" for line in example.splitlines()),
            ".fi",
        ]
    from kcli.cli.examples import INSTALLED, PUBLISHED, runbook_entries

    runbooks = runbook_entries(" ".join(doc.path[1:]))
    if runbooks:
        lines.append(".SH RUNBOOKS")
        lines.append("Procedures in the kcli repository that use this command, each step tested on real Kafka:")
        for name, title in runbooks:
            lines += [".TP", f".B {_esc(name)}", _esc(title)]
        lines += [".PP", _esc(f"Also installed with kcli, in {INSTALLED} under its prefix, and online at {PUBLISHED}.")]
    see_also = [d.page_name for d in all_docs if d is not doc and len(d.path) <= 2]  # kcli and each tool
    lines += [".SH SEE ALSO", _esc(", ".join(f"{name}(1)" for name in see_also))]
    return "\n".join(lines) + "\n"


def _example_for(doc: CommandDoc) -> str:
    """The recorded example block of a command (the same one its --help shows), if any."""
    from kcli.cli.examples import EXAMPLES

    return EXAMPLES.get(" ".join(doc.path[1:]), "").rstrip()


def _metavar(option: Any) -> str:
    if option.metavar:
        return str(option.metavar)
    choices = getattr(option.type, "choices", None)
    if choices:
        return "[" + "|".join(str(getattr(choice, "value", choice)) for choice in choices) + "]"
    name = getattr(option.type, "name", "") or "value"
    return name.upper()


def _usage_tail(command: Any) -> str:
    pieces = ["[OPTIONS]"]
    if getattr(command, "commands", None):
        pieces.append("COMMAND [ARGS]...")
    for param in command.params:
        if getattr(param, "param_type_name", "") == "argument":
            pieces.append(param.human_readable_name)
    return " ".join(pieces)


def _clean(text: str) -> str:
    # typer help may carry rich markup and \b paragraph markers; man pages want plain text.
    return text.replace("\b\n", "").replace("\b", "").strip()


def _esc(text: str) -> str:
    escaped = text.replace("\\", "\\\\").replace("-", "\\-")
    # groff reads Latin-1: anything else (a table's box drawing) as its named glyph, \[u2502]
    escaped = "".join(c if ord(c) < 0x80 else f"\\[u{ord(c):04X}]" for c in escaped)
    return "\\&" + escaped if escaped.startswith((".", "'")) else escaped


if __name__ == "__main__":
    for written in write_all(Path.cwd()):
        print(written)
