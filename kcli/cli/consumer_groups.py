"""`kcli consumer-groups`: kafka-consumer-groups.sh, option for option, plus lag a CI job can fail on.

kcli consumer-groups -b HOST:9092 --list --state
kcli consumer-groups -b HOST:9092 --describe --group orders --time-lag --fail-on-lag 10000
kcli consumer-groups -b HOST:9092 --reset-offsets --group orders --topic orders --to-datetime 2024-05-01T00:00:00.000 --execute

Beyond the original: `-o json`/`-o table`, lag summed per group and topic, `--time-lag` (the age of
the record at the committed offset), `--fail-on-lag N` and `--fail-on-time-lag D` (exit 1),
`--watch` (lag over time), and a reset that writes a rollback file before it changes anything and
reads the offsets back after. No confirmation is asked where kafka-consumer-groups asks none.
"""

from __future__ import annotations

import typer

from kcli.cli.argv import JOPT_CONTEXT
from kcli.cli.common import OutputOpt, guarded
from kcli.cli.connection_options import BootstrapServerOpt, CommandConfigOpt, ProfileOpt
from kcli.cli.group_options import (
    AllGroupsOpt,
    AllTopicsOpt,
    ByDurationOpt,
    CountOpt,
    DeleteOffsetsOpt,
    DeleteOpt,
    DescribeOpt,
    DryRunOpt,
    ExecuteOpt,
    ExportOpt,
    FailOnLagOpt,
    FailOnTimeLagOpt,
    FromFileOpt,
    GroupOpt,
    IntervalOpt,
    ListOpt,
    MembersOpt,
    OffsetsOpt,
    RegexOpt,
    ResetOpt,
    RollbackOpt,
    ShiftByOpt,
    StateOpt,
    TimeLagOpt,
    TimeoutOpt,
    ToCurrentOpt,
    ToDatetimeOpt,
    ToEarliestOpt,
    ToLatestOpt,
    ToOffsetOpt,
    TopicOpt,
    TypeOpt,
    VerboseOpt,
    WatchOpt,
)
from kcli.cli.version import VersionOpt
from kcli.render import OutputFormat


def register(app: typer.Typer) -> None:
    """Add this tool's command to the root app."""

    @app.command("consumer-groups", no_args_is_help=True, context_settings=JOPT_CONTEXT)
    @guarded
    def consumer_groups(
        ctx: typer.Context,
        list_: ListOpt = False,
        describe: DescribeOpt = False,
        delete: DeleteOpt = False,
        reset_offsets: ResetOpt = False,
        delete_offsets: DeleteOffsetsOpt = False,
        validate_regex: RegexOpt = None,
        group: GroupOpt = None,
        all_groups: AllGroupsOpt = False,
        topic: TopicOpt = None,
        all_topics: AllTopicsOpt = False,
        members: MembersOpt = False,
        verbose: VerboseOpt = False,
        offsets: OffsetsOpt = False,
        state: StateOpt = None,
        type_: TypeOpt = None,
        timeout: TimeoutOpt = None,
        dry_run: DryRunOpt = False,
        execute: ExecuteOpt = False,
        export: ExportOpt = False,
        to_offset: ToOffsetOpt = None,
        from_file: FromFileOpt = None,
        to_datetime: ToDatetimeOpt = None,
        by_duration: ByDurationOpt = None,
        to_earliest: ToEarliestOpt = False,
        to_latest: ToLatestOpt = False,
        to_current: ToCurrentOpt = False,
        shift_by: ShiftByOpt = None,
        time_lag: TimeLagOpt = False,
        fail_on_lag: FailOnLagOpt = None,
        fail_on_time_lag: FailOnTimeLagOpt = None,
        watch: WatchOpt = False,
        interval: IntervalOpt = 5.0,
        count: CountOpt = None,
        rollback_file: RollbackOpt = None,
        bootstrap_server: BootstrapServerOpt = None,
        command_config: CommandConfigOpt = None,
        profile: ProfileOpt = None,
        output: OutputOpt = OutputFormat.text,
        version: VersionOpt = False,
    ) -> None:
        """List, describe, delete consumer groups and reset their offsets (kafka-consumer-groups.sh)."""
        from kcli.ops.groups.consumer_line import ConsumerGroupsLine

        line = ConsumerGroupsLine.of(ctx.params)
        from kcli.cli.consumer_groups_run import Extras, run

        extras = Extras(
            time_lag=time_lag,
            fail_on_lag=fail_on_lag,
            fail_on_time_lag=fail_on_time_lag,
            watch=watch,
            interval=interval,
            count=count,
            rollback_file=rollback_file,
        )
        run(ctx, line, extras, (bootstrap_server, command_config, profile), output)
