"""`kcli acls`: kafka-acls.sh with the same flags (--add / --remove / --list), plus --export / --import.

kcli acls -b HOST:9092 --add --allow-principal User:alice --operation Read --topic orders
kcli acls -b HOST:9092 --list --topic orders
kcli acls -b HOST:9092 --export acls.json          # then commit it
kcli acls -b HOST:9092 --import acls.json --prune  # make the cluster match the file
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Annotated

import typer

from kcli.cli import connection_options
from kcli.cli.argv import JOPT_CONTEXT
from kcli.cli.common import OutputOpt, env_of, exit_with, guarded, run_admin
from kcli.cli.version import VersionOpt
from kcli.errors import ExitCode, UsageError
from kcli.render import OutputFormat

if TYPE_CHECKING:
    from kcli.client.admin import Admin
    from kcli.client.config import ClientConfig
    from kcli.env import Env
    from kcli.ops.acls import AclBinding, AclBindingFilter, AclOptions, ResourcePatternFilter

ListOpt = list[str] | None
_R = "Resources"
_P = "Principals and operations"


class _Asker:
    """Confirmation at the edge: --force says yes; a TTY is asked; otherwise refuse (exit 2)."""

    def __init__(self, env: Env, *, force: bool, output: OutputFormat) -> None:
        self.env = env
        self.force = force
        self.output = output

    def say(self, line: str) -> None:
        """Operator-facing text: stdout in text mode (as kafka-acls.sh), stderr when stdout is data."""
        stream = self.env.stdout if self.output is OutputFormat.text else self.env.stderr
        stream.write(line + "\n")
        stream.flush()

    def ask(self, question: str, *, what: str) -> bool:
        if self.force:
            return True
        if not self.env.stdin_isatty:
            raise UsageError(
                f"Refusing to {what} without --force: stdin is not a terminal, so nobody can confirm"
            )
        self.say(question)
        answer = self.env.stdin.readline().strip()
        return answer in ("y", "Y")


async def _current(admin: Admin, filters: tuple[AclBindingFilter, ...]) -> tuple[AclBinding, ...]:
    from kcli.client.api.acls import describe_acls

    return await describe_acls(admin, filters)


def _binding_lines(bindings: tuple[AclBinding, ...]) -> list[str]:
    from kcli.ops.acls import group_by_resource

    lines = []
    for pattern, entries in group_by_resource(bindings).items():
        lines.append(f"  `{pattern}`:")
        lines += [f"\t{e}" for e in entries]
    return lines


def _list(config: ClientConfig, opts: AclOptions) -> tuple[AclBinding, ...]:
    from kcli.ops.acls import list_filters

    return run_admin(config, lambda admin: _current(admin, list_filters(opts)))


def _do_list(env: Env, output: OutputFormat, config: ClientConfig, opts: AclOptions) -> None:
    from kcli.ops.acls import parse_principal
    from kcli.render import acls as view
    from kcli.render import emit

    bindings = _list(config, opts)
    listing = view.AclListing(
        bindings=bindings, principals=tuple(parse_principal(p) for p in opts.principals)
    )
    emit(env, output, listing, text=view.list_text, json_value=view.list_json, table=view.list_table)


def _do_add(env: Env, output: OutputFormat, config: ClientConfig, opts: AclOptions, dry_run: bool) -> int:
    from kcli.ops.acls import AclBinding, binding_to_json, bindings_to_add, list_filters
    from kcli.render import acls as view
    from kcli.render import write_json, write_rich
    from kcli.workflows import acls as acl_run

    wanted = bindings_to_add(opts)

    async def go(admin: Admin) -> tuple[acl_run.AddResult, tuple[AclBinding, ...]]:
        result = await acl_run.add(admin, wanted, dry_run=dry_run)
        return result, () if dry_run else await _current(admin, list_filters(opts))

    result, after = run_admin(config, go)
    if output is OutputFormat.json:
        write_json(
            env,
            {
                "dry_run": dry_run,
                "present": [binding_to_json(b) for b in result.present],
                "created": [
                    binding_to_json(AclBinding(pattern=p, entry=e))
                    for p, es in result.to_create.items()
                    for e in es
                    if AclBinding(pattern=p, entry=e) not in result.errors and not dry_run
                ],
                "would_create": [
                    binding_to_json(AclBinding(pattern=p, entry=e))
                    for p, es in result.to_create.items()
                    for e in es
                ]
                if dry_run
                else [],
                "errors": [binding_to_json(b) | {"error": e.line()} for b, e in result.errors.items()],
                "acls": view.list_json(view.AclListing(bindings=after))["acls"],
            },
        )
    else:
        lines = [view.already_exists_line(b) for b in result.present]
        for pattern, entries in result.to_create.items():
            block = view.adding_lines(pattern, entries)
            if dry_run:
                block[0] = "Dry run, would add" + block[0][len("Adding") :]
            lines += block
        # Kafka 4.x prints what it adds and nothing more (3.x listed the resource's ACLs after).
        for line in lines:
            env.out(line)
        if output is OutputFormat.table:
            write_rich(env, view.bindings_table(after, title="Current ACLs"))
    for binding, error in result.errors.items():
        env.err(f"Error: creating ACL {binding}: {error.line()}")
    return int(ExitCode.ERROR) if result.errors else 0


def _do_remove(
    env: Env, output: OutputFormat, config: ClientConfig, opts: AclOptions, asker: _Asker, dry_run: bool
) -> int:
    from kcli.ops.acls import binding_to_json, deletion_filters, list_filters
    from kcli.render import acls as view
    from kcli.render import write_json, write_rich
    from kcli.workflows import acls as acl_run

    plan = deletion_filters(opts)

    def confirm(
        resource_filter: ResourcePatternFilter,
        filters: tuple[AclBindingFilter, ...],
        found: tuple[AclBinding, ...],
    ) -> bool:
        if not asker.force:  # the one asked sees what matches on the cluster before Kafka's question
            asker.say(f"ACLs that will be removed for resource filter `{resource_filter}`:")
            for line in _binding_lines(found):
                asker.say(line)
        return asker.ask(view.remove_prompt(resource_filter, filters), what="remove ACLs")

    async def go(admin: Admin) -> tuple[acl_run.RemoveResult, tuple[AclBinding, ...]]:
        result = await acl_run.remove(admin, plan, confirm=confirm, dry_run=dry_run)
        return result, () if dry_run else await _current(admin, list_filters(opts))

    result, after = run_admin(config, go)
    if output is OutputFormat.json:
        write_json(
            env,
            {
                "dry_run": dry_run,
                "matched": [binding_to_json(b) for bs in result.matched.values() for b in bs],
                "removed": [binding_to_json(b) for b in result.removed],
                "skipped": [str(f) for f in result.skipped],
                "errors": [{"filter": str(f), "error": e.line()} for f, e in result.errors],
                "acls": view.list_json(view.AclListing(bindings=after))["acls"],
            },
        )
    else:
        # As kafka-acls: nothing once it removed, found nothing, or was not confirmed (-o json tells
        # what matched and what went); a dry run, kcli's own, shows its plan.
        for resource_filter, found in result.matched.items():
            if found and dry_run:
                env.out(f"Dry run, would remove for resource filter `{resource_filter}`:")
                for line in _binding_lines(found):
                    env.out(line)
        if output is OutputFormat.table:
            write_rich(env, view.bindings_table(after, title="Current ACLs"))
    for f, error in result.errors:
        env.err(f"Error: removing ACLs matching {f}: {error.line()}")
    return int(ExitCode.ERROR) if result.errors else 0


def _do_export(env: Env, config: ClientConfig, opts: AclOptions, target: str) -> None:
    from kcli.ops.acls import export_document, scoped_filters

    bindings = run_admin(config, lambda admin: _current(admin, scoped_filters(opts)))
    text = json.dumps(export_document(bindings), indent=2) + "\n"
    if target == "-":
        env.stdout.write(text)
        env.stdout.flush()
        return
    from kcli.writes import write_file

    write_file(target, text, what="the ACL export")  # beside and rename: the old export stays whole
    env.err(f"Exported {len(bindings)} ACL binding(s) to {target}.")


def _do_import(
    env: Env,
    output: OutputFormat,
    config: ClientConfig,
    opts: AclOptions,
    source: str,
    asker: _Asker,
    prune: bool,
    dry_run: bool,
) -> int:
    from kcli.files import DOCUMENT_LIMIT, read_stream, read_text
    from kcli.ops.acls import parse_document, scoped_filters
    from kcli.render import acls as view
    from kcli.render import write_json
    from kcli.workflows import acls as acl_run

    try:
        text = (
            read_stream(env.stdin, what="--import -")
            if source == "-"
            else read_text(source, what="--import", limit=DOCUMENT_LIMIT)
        )
    except OSError as error:
        raise UsageError(f"--import {source}: {error.strerror or error}") from None
    desired = parse_document(text, source=source)
    scope = scoped_filters(opts)

    def confirm_prune(extra: tuple[AclBinding, ...]) -> bool:
        asker.say(f"ACL bindings not in {source} that --prune will remove:")
        for line in _binding_lines(extra):
            asker.say(line)
        return asker.ask(
            f"Are you sure you want to remove these {len(extra)} ACL binding(s)? (y/n)", what="prune ACLs"
        )

    result = run_admin(
        config,
        lambda admin: acl_run.import_bindings(
            admin, desired, scope=scope, prune=prune, dry_run=dry_run, confirm_prune=confirm_prune
        ),
    )
    if output is OutputFormat.json:
        write_json(
            env,
            view.plan_json(
                result.plan, prune=result.pruned or (prune and dry_run), dry_run=dry_run, errors=result.errors
            ),
        )
    else:
        for line in view.plan_text(result.plan, prune=result.pruned or (prune and dry_run), dry_run=dry_run):
            env.out(line)
    for binding, problem in result.errors.items():
        env.err(f"Error: {binding}: {problem}")
    return int(ExitCode.ERROR) if result.errors else 0


MISSING_BOOTSTRAP = "One of --bootstrap-server or --bootstrap-controller must be specified"
BOTH_BOOTSTRAPS = "Only one of --bootstrap-server or --bootstrap-controller must be specified"


AddOpt = Annotated[bool, typer.Option("--add", help="Add ACLs.")]
RemoveOpt = Annotated[bool, typer.Option("--remove", help="Remove ACLs (asks first unless --force).")]
ListActionOpt = Annotated[
    bool, typer.Option("--list", help="List ACLs for the given resources (all without one).")
]
ExportOpt = Annotated[
    str | None,
    typer.Option("--export", help="Write the ACLs (of the given resources) to a JSON file, - = stdout."),
]
ImportOpt = Annotated[
    str | None,
    typer.Option(
        "--import", help="Create the ACLs of a JSON file (from --export) that are missing, - = stdin."
    ),
]
PruneOpt = Annotated[
    bool, typer.Option("--prune", help="With --import: also remove ACLs not in the file (asks first).")
]
DryRunOpt = Annotated[
    bool,
    typer.Option("--dry-run", help="With --add/--remove/--import: show what would change, change nothing."),
]
TopicOpt = Annotated[
    ListOpt, typer.Option("--topic", help="Topic (repeatable; * = all).", rich_help_panel=_R)
]
GroupOpt = Annotated[ListOpt, typer.Option("--group", help="Group (repeatable).", rich_help_panel=_R)]
ClusterOpt = Annotated[bool, typer.Option("--cluster", help="The cluster resource.", rich_help_panel=_R)]
TransactionalIdOpt = Annotated[
    ListOpt, typer.Option("--transactional-id", help="Transactional id (repeatable).", rich_help_panel=_R)
]
DelegationTokenOpt = Annotated[
    ListOpt, typer.Option("--delegation-token", help="Delegation token id (repeatable).", rich_help_panel=_R)
]
UserPrincipalOpt = Annotated[
    ListOpt, typer.Option("--user-principal", help="User resource (repeatable).", rich_help_panel=_R)
]
PatternTypeOpt = Annotated[
    str | None,
    typer.Option(
        "--resource-pattern-type",
        help="literal (default), prefixed; for --list/--remove also any, match.",
        rich_help_panel=_R,
    ),
]
OperationOpt = Annotated[
    ListOpt, typer.Option("--operation", help="Operation (repeatable, default All).", rich_help_panel=_P)
]
AllowPrincipalOpt = Annotated[
    ListOpt, typer.Option("--allow-principal", help="Type:name to allow (repeatable).", rich_help_panel=_P)
]
DenyPrincipalOpt = Annotated[
    ListOpt, typer.Option("--deny-principal", help="Type:name to deny (repeatable).", rich_help_panel=_P)
]
AllowHostOpt = Annotated[
    ListOpt, typer.Option("--allow-host", help="Host for allow entries (default *).", rich_help_panel=_P)
]
DenyHostOpt = Annotated[
    ListOpt, typer.Option("--deny-host", help="Host for deny entries (default *).", rich_help_panel=_P)
]
PrincipalOpt = Annotated[
    ListOpt,
    typer.Option(
        "--principal",
        help="With --list, --export or --import: only this principal's ACLs (--import --prune "
        "removes no other's).",
        rich_help_panel=_P,
    ),
]
ProducerOpt = Annotated[
    bool,
    typer.Option(
        "--producer", help="Write, Describe, Create on topics (+ transactional ids).", rich_help_panel=_P
    ),
]
ConsumerOpt = Annotated[
    bool, typer.Option("--consumer", help="Read, Describe on topics, Read on groups.", rich_help_panel=_P)
]
IdempotentOpt = Annotated[
    bool,
    typer.Option("--idempotent", help="With --producer: IdempotentWrite on the cluster.", rich_help_panel=_P),
]
ForceOpt = Annotated[bool, typer.Option("--force", help="Do not ask for confirmation.")]


def register(app: typer.Typer) -> None:
    """Add this tool's commands to the root app."""

    @app.command("acls", no_args_is_help=True, context_settings=JOPT_CONTEXT)
    @guarded
    def acls(
        ctx: typer.Context,
        add: AddOpt = False,
        remove: RemoveOpt = False,
        list_: ListActionOpt = False,
        export: ExportOpt = None,
        import_: ImportOpt = None,
        prune: PruneOpt = False,
        dry_run: DryRunOpt = False,
        topic: TopicOpt = None,
        group: GroupOpt = None,
        cluster: ClusterOpt = False,
        transactional_id: TransactionalIdOpt = None,
        delegation_token: DelegationTokenOpt = None,
        user_principal: UserPrincipalOpt = None,
        resource_pattern_type: PatternTypeOpt = None,
        operation: OperationOpt = None,
        allow_principal: AllowPrincipalOpt = None,
        deny_principal: DenyPrincipalOpt = None,
        allow_host: AllowHostOpt = None,
        deny_host: DenyHostOpt = None,
        principal: PrincipalOpt = None,
        producer: ProducerOpt = False,
        consumer: ConsumerOpt = False,
        idempotent: IdempotentOpt = False,
        force: ForceOpt = False,
        bootstrap_server: connection_options.BootstrapServerOpt = None,
        bootstrap_controller: connection_options.BootstrapControllerOpt = None,
        command_config: connection_options.CommandConfigOpt = None,
        profile: connection_options.ProfileOpt = None,
        version: VersionOpt = False,
        output: OutputOpt = OutputFormat.text,
    ) -> None:
        """Add, remove, list, export or import ACLs (kafka-acls.sh)."""
        from kcli.ops.acl_request import AclsRequest, check_request
        from kcli.ops.acls import AclOptions

        connection = connection_options.connection_args(
            bootstrap_server, bootstrap_controller, command_config, profile
        )
        env = env_of(ctx)
        opts = AclOptions(
            add=add,
            remove=remove,
            list=list_,
            topics=topic or (),
            groups=group or (),
            cluster=cluster,
            transactional_ids=transactional_id or (),
            delegation_tokens=delegation_token or (),
            user_principals=user_principal or (),
            pattern_type=resource_pattern_type,
            operations=operation or (),
            allow_principals=allow_principal or (),
            deny_principals=deny_principal or (),
            allow_hosts=allow_host or (),
            deny_hosts=deny_host or (),
            principals=principal or (),
            producer=producer,
            consumer=consumer,
            idempotent=idempotent,
        )
        request = AclsRequest(
            options=opts, export=export, import_=import_, prune=prune, dry_run=dry_run, stray=tuple(ctx.args)
        )
        checked = check_request(
            request,
            resolve=lambda: connection_options.client_config(
                connection, env, missing_bootstrap=MISSING_BOOTSTRAP, both_bootstraps=BOTH_BOOTSTRAPS
            ),
        )
        config = checked.config
        asker = _Asker(env, force=force, output=output)
        code = 0
        if checked.action == "--list":
            _do_list(env, output, config, opts)
        elif checked.action == "--add":
            code = _do_add(env, output, config, opts, dry_run)
        elif checked.action == "--remove":
            code = _do_remove(env, output, config, opts, asker, dry_run)
        elif export is not None:
            _do_export(env, config, opts, export)
        else:
            assert import_ is not None
            code = _do_import(env, output, config, opts, import_, asker, prune, dry_run)
        exit_with(code)
