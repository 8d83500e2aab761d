"""Starting Spark for a command-line audit: the deployment's master, a quiet JVM, a quick start.

Behavior:
- The master: `--master` when given; else whatever spark-submit resolved for the JVM it started:
  `--master` in PYSPARK_SUBMIT_ARGS, `spark.master` in spark-defaults.conf (SPARK_CONF_DIR), or a
  driver already started by spark-submit; Spark's own fallback is local[*].
- Quiet: the JVM's stdout and stderr (banners, log4j lines, Python worker tracebacks) go to a log
  file that is read back only to explain a failure; with --debug they reach the terminal.
- Quick: no UI, no console progress bar, in-memory catalogue, and a driver JVM tuned for short runs
  (C1 compiler only, serial GC). Any of it can be overridden with --conf.
- Local masters run Python workers with this interpreter (it has kcli and its readers); other
  masters get kcli shipped to the executors (kcli.audit.shipping) when a job runs Python code.
- A session that is already active (tests share one) is reused and left running.
- Ctrl-C raises KeyboardInterrupt as anywhere else in kcli: pyspark's own handler calls the JVM from
  inside the signal handler, on the connection the interrupted call is reading ("reentrant call"),
  and py4j logs each broken call with its traceback; both are kept out (py4j's log only with --debug).
  An interrupted session is not stopped through py4j: its JVM is ended, which ends its jobs.
"""

from __future__ import annotations

import contextlib
import logging
import os
import signal
import sys
import threading
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from kcli.errors import KcliError
from kcli.processes import kill_child

if TYPE_CHECKING:
    from pyspark.sql import SparkSession

FALLBACK_MASTER = "local[*]"
# Defaults for a command-line run; a --conf overrides any of them.
CLI_CONF: Mapping[str, str] = {
    "spark.app.name": "kcli-audit",
    "spark.ui.enabled": "false",
    "spark.ui.showConsoleProgress": "false",
    "spark.sql.catalogImplementation": "in-memory",
    "spark.sql.adaptive.enabled": "true",
    "spark.sql.session.timeZone": "UTC",
    "spark.sql.sources.partitionColumnTypeInference.enabled": "false",
    # lower()/upper() as the JVM (and Kafka, parsing config values) does them; ICU's case mapping
    # costs seconds of initialisation on the first call.
    "spark.sql.icu.caseMappings.enabled": "false",
    "spark.driver.memory": "2g",
}
# A short-lived driver spends much of its CPU in the JIT's optimising compiler and a parallel GC's
# threads; C1 alone and the serial collector halve the CPU time of a session start.
DRIVER_JVM_OPTIONS = "-XX:TieredStopAtLevel=1 -XX:+UseSerialGC"
LAUNCHER_JVM_OPTIONS = "-XX:TieredStopAtLevel=1 -XX:+UseSerialGC -Xshare:auto"
# Spark's own log lines would bury the summary on stderr: only errors, and only from Spark.
LOG4J2_PROPERTIES = """\
status = error
rootLogger.level = {level}
rootLogger.appenderRef.stderr.ref = console
appender.console.type = Console
appender.console.name = console
appender.console.target = SYSTEM_ERR
appender.console.layout.type = PatternLayout
appender.console.layout.pattern = spark: %p %c{{1}}: %m%n%ex
"""
LOG_TAIL_BYTES = 64 * 1024
# After Ctrl-C the JVM is told to exit (its stdin closes) and given this long before SIGKILL.
INTERRUPTED_WAIT = 5.0


def is_local(master: str) -> bool:
    """True for masters whose executors run on this machine with this machine's files."""
    return master == "local" or master.startswith(("local[", "local-cluster["))


@contextlib.contextmanager
def spark_session(
    master: str | None, conf: Mapping[str, str], *, debug: bool = False
) -> Iterator[SparkSession]:
    """The audit's SparkSession; stopped (and its JVM ended) at the end unless it was already running."""
    from pyspark.sql import SparkSession

    active = SparkSession.getActiveSession()
    if active is not None:
        for key, value in conf.items():
            if key.startswith("spark.sql."):
                active.conf.set(key, value)
        yield active
        return
    from kcli.writes import private_directory, write_file

    with (
        private_directory(prefix="kcli-spark-") as scratch,
        _CtrlC() as ctrl_c,
        _quiet_py4j(debug),
    ):
        log_config = scratch / "log4j2.properties"
        write_file(
            log_config, LOG4J2_PROPERTIES.format(level="warn" if debug else "error"),
            what="Spark's log settings", durable=False,
        )  # fmt: skip
        log_file = None if debug else Path(scratch) / "spark.log"
        settings = {
            **CLI_CONF,
            # Spark creates its (unused) SQL warehouse dir in the working directory unless told otherwise.
            "spark.sql.warehouse.dir": str(Path(scratch) / "warehouse"),
            **conf,
        }
        java_options = settings.get("spark.driver.extraJavaOptions", "")
        settings["spark.driver.extraJavaOptions"] = (
            f"{DRIVER_JVM_OPTIONS} -Dlog4j2.configurationFile={log_config.as_uri()} {java_options}".strip()
        )
        chosen = master or settings.pop("spark.master", None)
        with ctrl_c.deferred():
            gateway = _launch(settings, log_file, master=chosen)
        session = None
        try:
            ctrl_c.deliver()
            resolved = chosen or _submitted_master(gateway) or FALLBACK_MASTER
            session = _create(settings, resolved, log_file, debug=debug)
            ctrl_c.reclaim()
            yield session
        except BaseException as error:
            interrupted = _interruption(error)
            if interrupted is None:
                _stop(session, gateway)
                raise
            _quiet_accumulators(session)
            _shutdown(gateway, wait=INTERRUPTED_WAIT)
            raise interrupted from None
        _stop(session, gateway)


def _interruption(error: BaseException) -> KeyboardInterrupt | None:
    """The Ctrl-C (or SIGTERM/SIGHUP) behind `error`, if any: once py4j has dropped the connection a
    Ctrl-C cut, a clean-up that calls the JVM (a setting restored, a stream closed) fails with a py4j
    error in the interruption's place, and that error chains back to it."""
    seen: set[int] = set()
    cause: BaseException | None = error
    while cause is not None and id(cause) not in seen:
        if isinstance(cause, KeyboardInterrupt):
            return cause
        seen.add(id(cause))
        cause = cause.__cause__ or cause.__context__
    return None


def _quiet_accumulators(session: SparkSession | None) -> None:
    """Stop the driver's accumulator server (as SparkContext.stop does first): once the JVM is gone
    its reader would print a traceback for the closed connection (within a second)."""
    server = getattr(session.sparkContext, "_accumulatorServer", None) if session is not None else None
    if server is not None:
        with contextlib.suppress(Exception):
            server.shutdown()


def _stop(session: SparkSession | None, gateway: Any) -> None:
    """Stop the session (when it was made) through py4j, then end the JVM."""
    if session is not None:
        with contextlib.suppress(Exception):
            session.stop()
    _shutdown(gateway)


def _launch(settings: Mapping[str, str], log_file: Path | None, *, master: str | None) -> Any:
    """Start the JVM (spark-submit's gateway) with its output in `log_file` (None: the terminal)."""
    from pyspark import SparkConf
    from pyspark.core.context import SparkContext
    from pyspark.java_gateway import launch_gateway

    launch_conf = SparkConf(loadDefaults=False)
    for key, value in settings.items():
        launch_conf.set(key, value)
    if master is not None:
        launch_conf.set("spark.master", master)
    popen: dict[str, Any] = {}
    output = None
    if log_file is not None:
        from kcli.writes import open_append

        output = open_append(log_file, what="Spark's log")
        popen = {"stdout": output, "stderr": output}
    try:
        with _environ(SPARK_LAUNCHER_OPTS=os.environ.get("SPARK_LAUNCHER_OPTS", LAUNCHER_JVM_OPTIONS)):
            gateway = launch_gateway(launch_conf, popen_kwargs=popen)
    except Exception as error:
        raise KcliError(f"cannot start Spark: {_failure(error, log_file)}", hint=_java_hint()) from None
    finally:
        if output is not None:
            output.close()  # the JVM holds its own descriptor
    SparkContext._ensure_initialized(gateway=gateway)
    return gateway


def _create(settings: Mapping[str, str], master: str, log_file: Path | None, *, debug: bool) -> SparkSession:
    from pyspark.sql import SparkSession

    builder = SparkSession.builder.master(master)
    for key, value in settings.items():
        builder = builder.config(key, value)
    # Local Python workers must run this interpreter (with kcli and its readers installed); pyspark
    # takes the worker interpreter from the environment when the context starts.
    python = sys.executable if is_local(master) and not os.environ.get("PYSPARK_PYTHON") else None
    try:
        with _environ(PYSPARK_PYTHON=python):
            session = builder.getOrCreate()
    except Exception as error:  # an unreachable master, a bad setting
        raise KcliError(f"cannot start Spark (master {master}): {_failure(error, log_file)}") from None
    session.sparkContext.setLogLevel("WARN" if debug else "ERROR")
    return session


def _submitted_master(gateway: Any) -> str | None:
    """The master spark-submit resolved for the JVM (from its arguments, spark-defaults.conf, ...)."""
    value = gateway.jvm.System.getProperty("spark.master")
    return str(value) if value else None


def _shutdown(gateway: Any, *, wait: float = 20) -> None:
    """End the JVM and wait for it (`wait` seconds, then SIGKILL), so no Spark process outlives the command."""
    from pyspark.core.context import SparkContext

    SparkContext._gateway = None
    SparkContext._jvm = None
    with contextlib.suppress(Exception):
        gateway.shutdown()
    process = getattr(gateway, "proc", None)
    if process is None:
        return  # a JVM started by spark-submit belongs to it
    with contextlib.suppress(Exception):
        process.stdin.close()  # the gateway exits when its stdin closes
    try:
        process.wait(timeout=wait)
    except Exception:
        kill_child(process)
        process.wait(timeout=20)


class _CtrlC:
    """The SIGINT handler the command had (Python's: KeyboardInterrupt), kept over pyspark's.

    SparkContext installs a handler that calls cancelAllJobs through py4j from inside the signal
    handler, while the main thread is mid-read on that same connection; ending the JVM ends its jobs.
    While the JVM starts, Ctrl-C, SIGTERM and SIGHUP wait until its process is known (pyspark would
    lose it), then reach the handlers the command had.
    """

    DEFERRED = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)

    def __init__(self) -> None:
        # signal handlers belong to the main thread (tests run commands in others)
        self.main = threading.current_thread() is threading.main_thread()
        self.before = {signum: signal.getsignal(signum) for signum in self.DEFERRED} if self.main else {}
        self.pressed: list[int] = []

    def reclaim(self) -> None:
        for signum, handler in self.before.items():
            if handler is not None:
                signal.signal(signum, handler)

    @contextlib.contextmanager
    def deferred(self) -> Iterator[None]:
        def remember(signum: int, _frame: object) -> None:
            self.pressed.append(signum)

        for signum in self.before:
            signal.signal(signum, remember)
        try:
            yield
        finally:
            self.reclaim()

    def deliver(self) -> None:
        """The signals that came while deferred, to the handlers the command had."""
        for signum in dict.fromkeys(self.pressed):
            signal.raise_signal(signum)

    def __enter__(self) -> _CtrlC:
        return self

    def __exit__(self, *_exc: object) -> None:
        self.reclaim()


class _Py4jLog(logging.Filter):
    """py4j logs every call a Ctrl-C cut short, with its traceback, on the root logger (and its own)."""

    def filter(self, record: logging.LogRecord) -> bool:
        return "py4j" not in Path(record.pathname).parts


@contextlib.contextmanager
def _quiet_py4j(debug: bool) -> Iterator[None]:
    if debug:
        yield
        return
    quiet = _Py4jLog()
    root, py4j = logging.getLogger(), logging.getLogger("py4j")
    level = py4j.level
    root.addFilter(quiet)  # a filter of a logger sees only what is logged on that logger itself
    py4j.setLevel(logging.CRITICAL + 1)  # py4j.clientserver, py4j.java_gateway, ...
    try:
        yield
    finally:
        root.removeFilter(quiet)
        py4j.setLevel(level)


def log_tail(log_file: Path | None) -> list[str]:
    """The last lines of the JVM's output (empty when it went to the terminal)."""
    if log_file is None or not log_file.is_file():
        return []
    with log_file.open("rb") as handle:
        handle.seek(max(0, log_file.stat().st_size - LOG_TAIL_BYTES))
        text = handle.read().decode("utf-8", "replace")
    return [line.strip() for line in text.splitlines() if line.strip()]


def _failure(error: BaseException, log_file: Path | None) -> str:
    """The telling line of a start-up failure: the JVM's last error line, else the exception's."""
    for line in reversed(log_tail(log_file)):
        if "Exception" in line or "Error" in line or line.lower().startswith(("error", "java_home")):
            return line
    text = str(error).strip()
    return text.splitlines()[0] if text else type(error).__name__


def _java_hint() -> str:
    return "kcli spark needs Java 17 or later on PATH or in JAVA_HOME; run with --debug to see Spark's output"


@contextlib.contextmanager
def _environ(**values: str | None) -> Iterator[None]:
    """Set environment variables (None: leave as is) for the duration of the block."""
    saved = {key: os.environ.get(key) for key, value in values.items() if value is not None}
    for key, value in values.items():
        if value is not None:
            os.environ[key] = value
    try:
        yield
    finally:
        for key, old in saved.items():
            if old is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = old
