"""The command line as the Kafka tools read it, rewritten for click before it parses.

Kafka's tools parse with jopt-simple (kafka-configs, kafka-acls, kafka-reassign-partitions) or
argparse4j (kafka-cluster, kafka-features, kafka-metadata-quorum, kafka-metadata-shell). Runbooks
rely on what those parsers accept beyond click's defaults, so one pass over argv, before click,
makes kcli accept the same lines:

- `--debug` anywhere (not only before the subcommand), like the connection options;
- an unambiguous abbreviation of a long option (`describe --re --hu`); when kcli's extra options
  make a prefix ambiguous, the option the Kafka tool has wins (`acls --o Read` is --operation);
- jopt-simple tools only: a long option with one dash (`-add-config`);
- an option whose value is optional in the Kafka tool (`--state` of kafka-consumer-groups), given
  without one: click sees `--state=`;

It also records what click forgets: the order of the options given (kafka-configs pairs
--entity-name and --entity-default with --entity-type by position) and which spelling of the
connection-file option was used (--config is kafka-cluster's deprecated alias).
"""

from __future__ import annotations

from collections.abc import Sequence
from contextvars import ContextVar
from typing import Any, NamedTuple

from kcli.cli.kafka_options import Style, kafka_option_names, optional_value, style
from kcli.env import Env
from kcli.ops.arguments import refuse_stray as refuse_stray  # the tools' check, kept beside their parsing

DEBUG = "--debug"
HELP_NAMES = ("-h", "--help")


# Plain classes, not dataclasses: every kcli command loads this module, and making a dataclass costs
# about 0.8 ms of start-up each.
class ParsedLine:
    """argv rewritten for click, and what the rewriting learned."""

    __slots__ = ("args", "debug", "order", "path", "spelled")

    def __init__(self, args: list[str]) -> None:
        self.args = args
        self.debug = False
        self.path: tuple[str, ...] = ()
        # canonical long name (or the short spelling when it has none) of each option given to the
        # command at `path`, in command-line order, repeats included
        self.order: list[str] = []
        self.spelled: list[str] = []  # each option of the whole line, as resolved


class _Option(NamedTuple):
    names: tuple[str, ...]  # every spelling, e.g. ("--command-config", "--config", "-c")
    takes_value: bool

    @property
    def canonical(self) -> str:
        longs = [n for n in self.names if n.startswith("--")]
        return longs[0] if longs else self.names[0]


def _options(command: Any) -> list[_Option]:
    out = [_Option(HELP_NAMES, takes_value=False)]
    for param in getattr(command, "params", ()):
        if getattr(param, "param_type_name", "") != "option":
            continue
        names = (*param.opts, *param.secondary_opts)
        out.append(_Option(tuple(names), takes_value=not (param.is_flag or param.count)))
    return out


def _by_name(options: Sequence[_Option]) -> dict[str, _Option]:
    return {name: option for option in options for name in option.names}


def _abbreviation(
    prefix: str, options: Sequence[_Option], path: tuple[str, ...]
) -> tuple[_Option, str] | None:
    """(option, spelling) a long-option prefix names, Kafka's options first; None if none or several.

    The spelling is the one name of the option the prefix matches (`--con` is --config, the
    deprecated alias, not --command-config), or its canonical name when several match.
    """
    matches: dict[str, tuple[_Option, list[str]]] = {}
    for option in options:
        hits = [n for n in option.names if n.startswith("--") and n[2:].startswith(prefix)]
        if hits:
            matches[option.canonical] = (option, hits)
    if len(matches) != 1:
        kafka = kafka_option_names(path) or frozenset()
        matches = {
            canonical: (option, hits)
            for canonical, (option, hits) in matches.items()
            if any(n[2:] in kafka for n in option.names)
        }
        if len(matches) != 1:
            return None
    option, hits = next(iter(matches.values()))
    return option, hits[0] if len(hits) == 1 else option.canonical


def normalize(root: Any, ctx: Any, args: Sequence[str]) -> ParsedLine:
    """Rewrite `args` (everything after `kcli`) the way the mirrored Kafka tool would read them."""
    line = ParsedLine(args=[])
    command = root
    path: tuple[str, ...] = ()
    options = _options(command)
    names = _by_name(options)
    index = 0
    while index < len(args):
        token = args[index]
        index += 1
        if token == "--":
            line.args += args[index - 1 :]
            break
        if token == DEBUG:
            line.debug = True
            continue
        if token.startswith("-") and len(token) > 1:
            option, rewritten = _resolve(token, options, names, path)
            line.args.append(rewritten)
            if option is None:
                continue
            line.order.append(option.canonical)
            line.spelled.append(rewritten.split("=", 1)[0])
            attached = "=" in rewritten if rewritten.startswith("--") else len(rewritten) > 2
            if (
                optional_value(path, option.canonical)
                and not attached
                and (index >= len(args) or args[index].startswith("-"))
            ):
                line.args[-1] = f"{rewritten}="  # jopt-simple's withOptionalArg: given without a value
                continue
            if option.takes_value and not attached and index < len(args):
                line.args.append(args[index])
                index += 1
            continue
        subcommands = getattr(command, "commands", None)
        if subcommands is not None:
            sub = subcommands.get(token)
            line.args.append(token)
            if sub is None:  # click reports the unknown command
                line.args += args[index:]
                break
            command, path = sub, (*path, token)
            options = _options(command)
            names = _by_name(options)
            line.order = []
            continue
        line.args.append(token)
        if not getattr(command, "allow_interspersed_args", True):
            line.args += args[index:]
            break
    line.path = path
    return line


def _resolve(
    token: str, options: Sequence[_Option], names: dict[str, _Option], path: tuple[str, ...]
) -> tuple[_Option | None, str]:
    """(the option `token` names, the token as click should see it); (None, token) if unknown."""
    kafka_style = style(path)
    if token.startswith("--"):
        name, eq, value = token.partition("=")
        if name in names:
            return names[name], token
        found = _abbreviation(name[2:], options, path) if kafka_style is not None else None
        return (found[0], f"{found[1]}{eq}{value}") if found else (None, token)
    # One dash: a short option (possibly with its value attached), or - jopt-simple only - a
    # long option spelled with one dash (`-add-config`), which jopt-simple tries before short ones.
    if token in names:
        return names[token], token
    if kafka_style is Style.JOPT:
        name, eq, value = token[1:].partition("=")
        if f"--{name}" in names:
            return names[f"--{name}"], f"--{name}{eq}{value}"
        found = _abbreviation(name, options, path)
        if found is not None:
            return found[0], f"{found[1]}{eq}{value}"
    if token[:2] in names:
        return names[token[:2]], token
    return None, token


_LINE = "kcli.parsed_line"
# The root context of the kcli command running in this thread or task. typer exports no lookup of
# the current context (click's get_current_context is private to typer's copy of click), so kcli's
# root group records its own while it invokes a command: what the command reads of its invocation
# (the Env, the parsed line, its group's flags) it finds there when it is not handed the context.
_INVOCATION: ContextVar[Any] = ContextVar("kcli.invocation", default=None)


def invocation() -> Any:
    """The root context of the running kcli command, or None outside one."""
    return _INVOCATION.get()


def parsed_line(ctx: Any = None) -> ParsedLine:
    """What the rewriting learned about this invocation (empty when kcli's root did not parse it)."""
    context = ctx or invocation()
    if context is None:
        return ParsedLine(args=[])
    line = context.meta.get(_LINE)
    return line if isinstance(line, ParsedLine) else ParsedLine(args=[])


def root_group_class() -> type:
    """The click group class of `kcli` itself: it rewrites argv (see the module doc) before parsing,
    imports each tool only when needed and lists whole summaries in plain help (kcli/cli/tools.py)."""
    from kcli.cli.tools import ToolGroup

    class KcliGroup(ToolGroup):
        def parse_args(self, ctx: Any, args: list[str]) -> list[str]:
            if not ctx.resilient_parsing:  # shell completion sees the line as typed
                line = normalize(self, ctx, args)
                ctx.meta[_LINE] = line
                args = line.args
            return super().parse_args(ctx, args)

        def invoke(self, ctx: Any) -> Any:
            token = _INVOCATION.set(ctx)
            try:
                return super().invoke(ctx)
            except Exception as error:
                if type(error).__name__ == "NoSuchOption":  # typer's click is private: matched by name
                    suggest_visible(error)
                raise
            finally:
                _INVOCATION.reset(token)

    return KcliGroup


def suggest_visible(error: Any) -> None:
    """An unknown option's suggestions: only options the command lists in its help (a hidden one is
    refused or kept for compatibility, never worth suggesting), and only the closest of them."""
    from difflib import SequenceMatcher

    command = getattr(getattr(error, "ctx", None), "command", None)
    if command is None or not getattr(error, "possibilities", None):
        return
    visible = {
        name
        for param in getattr(command, "params", ())
        if not getattr(param, "hidden", False)
        for name in (*getattr(param, "opts", ()), *getattr(param, "secondary_opts", ()))
    }
    typed = str(error.option_name)
    scores = {p: SequenceMatcher(None, typed, p).ratio() for p in error.possibilities if p in visible}
    best = max(scores.values(), default=0.0)
    error.possibilities = sorted(p for p, score in scores.items() if score >= best - 0.05) or None


# The commands that mirror jopt-simple tools accept words that belong to no option, as jopt-simple
# does, so that their own checks report what the Kafka tool reports; they refuse the words after.
JOPT_CONTEXT = {"allow_extra_args": True}


def env_of(ctx: Any = None) -> Env:
    """The Env of this invocation: the root context's obj (tests pass their own), else the process."""
    context = ctx or invocation()
    root = context.find_root() if context is not None else None
    if root is not None and isinstance(root.obj, Env):
        return root.obj
    env = Env()
    if root is not None:
        root.obj = env
    return env
