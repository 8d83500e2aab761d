#!/usr/bin/env bash
# Assemble an Apache Kafka distribution layout from Maven Central, cached per version.
#
#   scripts/kafka-dist.sh VERSION [DIR]     # prints DIR when it is ready
#
# DIR (default: $KCLI_KAFKA_DISTS/kafka-VERSION, else ~/.cache/kcli/kafka/kafka-VERSION) gets:
#   libs/    the runtime jars of kafka_2.13 (broker, StorageTool), kafka-tools and kafka-shell, plus
#            what Kafka's tarball adds outside the POMs (log4j's SLF4J 1.x binding, log4j-core/api,
#            the log4j 1.2 bridge, jackson-dataformat-yaml) — as `libs/` of the tarball, so
#            `kcli sandbox up --kafka-home DIR` and `java -cp 'DIR/libs/*' CLASS` work on it.
#   config/  log4j2 files for servers (log4j2.properties, INFO to stdout) and tools
#            (tools-log4j2.properties, WARN to stderr).
#   bin/     kafka-<tool>.sh: each tool's main class for this version, run as kafka-run-class.sh
#            runs it (KAFKA_HEAP_OPTS, KAFKA_OPTS and KAFKA_LOG4J_OPTS honoured).
# Maven checks every download's checksum (-C: a mismatch fails). A DIR that is complete for VERSION
# is reused as it is. kafka-shell is not on Maven Central for every release (4.4.0 lacks it); then the
# layout has no kafka-metadata-shell.sh and the script says so on stderr.
set -euo pipefail

usage() { echo "usage: $0 VERSION [DIR]   (VERSION: 4.0.0 to 4.4.0, e.g. 4.4.0)" >&2; exit 2; }
[[ $# -ge 1 && $# -le 2 ]] || usage
VERSION="$1"
[[ "$VERSION" =~ ^4\.[0-9]+\.[0-9]+$ ]] || { echo "kafka-dist: $VERSION is not a Kafka 4.x release (X.Y.Z)" >&2; exit 2; }
MINOR="${VERSION#4.}"; MINOR="${MINOR%%.*}"
DIST_ROOT="${KCLI_KAFKA_DISTS:-${XDG_CACHE_HOME:-$HOME/.cache}/kcli/kafka}"
DIR="${2:-$DIST_ROOT/kafka-$VERSION}"
LOG4J2=2.25.5  # what Kafka 4.x's build puts in the tarball's libs/

for tool in java mvn; do
    command -v "$tool" >/dev/null || {
        echo "kafka-dist: $tool is not on PATH: install a Java 17 JDK and Maven (Debian: openjdk-17-jdk-headless maven)" >&2
        exit 1
    }
done

MARKER="$DIR/.kafka-dist"
LAYOUT=3  # bump when config/ or bin/ below change: a cached libs/ then only gets those written again
SHELL_JAR=""
if [[ -f "$MARKER" ]] && [[ "$(head -1 "$MARKER")" == "$VERSION" ]]; then
    grep -qx "layout=$LAYOUT" "$MARKER" && { echo "$DIR"; exit 0; }
    SHELL_JAR="$(sed -n 's/^kafka-shell=//p' "$MARKER")"
fi

if [[ -z "$SHELL_JAR" ]]; then  # not cached: download the jars
    WORK="$(mktemp -d)"
    trap 'rm -rf "$WORK"' EXIT
    MVN=(mvn -B -q -C -Dstyle.color=never -f "$WORK/pom.xml")

    dep() { printf '<dependency><groupId>%s</groupId><artifactId>%s</artifactId><version>%s</version></dependency>\n' "$1" "$2" "$3"; }

    served() {  # whether org.apache.kafka:$1:$VERSION resolves
        mvn -B -q -C -Dstyle.color=never dependency:get -Dartifact="org.apache.kafka:$1:$VERSION:pom" -Dtransitive=false >/dev/null 2>&1
    }

    SHELL_JAR=yes
    if ! served kafka-shell; then
        SHELL_JAR=no
        echo "kafka-dist: org.apache.kafka:kafka-shell:$VERSION is not on Maven Central: this layout has no kafka-metadata-shell.sh" >&2
    fi

    write_pom() {
        {
            echo '<project xmlns="http://maven.apache.org/POM/4.0.0"><modelVersion>4.0.0</modelVersion>'
            echo '<groupId>kcli.local</groupId><artifactId>kafka-dist</artifactId><version>0</version><packaging>pom</packaging>'
            echo '<dependencies>'
            dep org.apache.kafka kafka_2.13 "$VERSION"
            dep org.apache.kafka kafka-tools "$VERSION"
            [[ "$SHELL_JAR" == yes ]] && dep org.apache.kafka kafka-shell "$VERSION"
            for artifact in log4j-api log4j-core log4j-slf4j-impl log4j-1.2-api; do
                dep org.apache.logging.log4j "$artifact" "$LOG4J2"
            done
            [[ -n "${1:-}" ]] && dep com.fasterxml.jackson.dataformat jackson-dataformat-yaml "$1"
            echo '</dependencies></project>'
        } >"$WORK/pom.xml"
    }

    # The yaml data format has to match the jackson-databind Kafka resolves: resolve once, then add it.
    write_pom
    "${MVN[@]}" dependency:copy-dependencies -DincludeScope=runtime -DoutputDirectory="$WORK/probe" >&2
    JACKSON="$(find "$WORK/probe" -name 'jackson-databind-*.jar' -printf '%f\n' | sed -E 's/^jackson-databind-(.*)\.jar$/\1/' | head -1)"
    [[ -n "$JACKSON" ]] || { echo "kafka-dist: no jackson-databind among Kafka $VERSION's jars" >&2; exit 1; }
    write_pom "$JACKSON"
    rm -rf "$WORK/libs"
    "${MVN[@]}" dependency:copy-dependencies -DincludeScope=runtime -DoutputDirectory="$WORK/libs" >&2
    # Maven resolves one version per artifact; drop a jar the tarball would not hold twice.
    find "$WORK/libs" -name '*-sources.jar' -o -name '*-javadoc.jar' | xargs -r rm -f

    mkdir -p "$DIR"
    rm -rf "$DIR/libs" "$DIR/bin"
    mv "$WORK/libs" "$DIR/libs"
fi
mkdir -p "$DIR/config" "$DIR/bin"

cat >"$DIR/config/log4j2.properties" <<'EOF'
# Servers: INFO and above to stdout (the node's log file when started by kcli sandbox).
status = warn
appender.stdout.type = Console
appender.stdout.name = STDOUT
appender.stdout.layout.type = PatternLayout
appender.stdout.layout.pattern = [%d] %p %m (%c)%n
rootLogger.level = INFO
rootLogger.appenderRef.stdout.ref = STDOUT
logger.request.name = kafka.request.logger
logger.request.level = WARN
EOF
cat >"$DIR/config/tools-log4j2.properties" <<'EOF'
# Tools: warnings and errors to stderr, as the distribution's tools-log4j2 file does.
status = warn
appender.stderr.type = Console
appender.stderr.name = STDERR
appender.stderr.target = SYSTEM_ERR
appender.stderr.layout.type = PatternLayout
appender.stderr.layout.pattern = [%d] %p %m (%c)%n
rootLogger.level = WARN
rootLogger.appenderRef.stderr.ref = STDERR
EOF

tool() {  # tool NAME CLASS [server]: bin/NAME.sh runs CLASS with the tools' defaults (or the server's)
    local heap='-Xmx256M' log4j='tools-log4j2.properties'
    if [[ "${3:-}" == server ]]; then heap='-Xmx1G -Xms1G'; log4j='log4j2.properties'; fi
    cat >"$DIR/bin/$1.sh" <<EOF
#!/usr/bin/env bash
# Kafka $VERSION: $2, run as the distribution's bin/$1.sh runs it.
home="\$(cd "\$(dirname "\$0")/.." && pwd)"
exec java \${KAFKA_HEAP_OPTS:-$heap} -XX:+UseG1GC -XX:MaxGCPauseMillis=20 \\
    \${KAFKA_LOG4J_OPTS:--Dlog4j2.configurationFile=\$home/config/$log4j} \${KAFKA_OPTS:-} \\
    -cp "\$home/libs/*" $2 "\$@"
EOF
    chmod +x "$DIR/bin/$1.sh"
}
tool kafka-server-start kafka.Kafka server
tool kafka-storage kafka.tools.StorageTool
tool kafka-cluster org.apache.kafka.tools.ClusterTool
tool kafka-acls org.apache.kafka.tools.AclCommand
tool kafka-features org.apache.kafka.tools.FeatureCommand
tool kafka-metadata-quorum org.apache.kafka.tools.MetadataQuorumCommand
tool kafka-reassign-partitions org.apache.kafka.tools.reassign.ReassignPartitionsCommand
tool kafka-topics org.apache.kafka.tools.TopicCommand
if ((MINOR >= 4)); then tool kafka-configs org.apache.kafka.tools.ConfigCommand; else tool kafka-configs kafka.admin.ConfigCommand; fi
if ((MINOR >= 3)); then tool kafka-dump-log org.apache.kafka.tools.DumpLogSegments; else tool kafka-dump-log kafka.tools.DumpLogSegments; fi
[[ "$SHELL_JAR" == yes ]] && tool kafka-metadata-shell org.apache.kafka.shell.MetadataShell
tool kafka-consumer-groups org.apache.kafka.tools.consumer.group.ConsumerGroupCommand
tool kafka-share-groups org.apache.kafka.tools.consumer.group.ShareGroupCommand
tool kafka-groups org.apache.kafka.tools.GroupsCommand
tool kafka-get-offsets org.apache.kafka.tools.GetOffsetShell
tool kafka-console-producer org.apache.kafka.tools.ConsoleProducer
tool kafka-console-consumer org.apache.kafka.tools.consumer.ConsoleConsumer
tool kafka-console-share-consumer org.apache.kafka.tools.consumer.ConsoleShareConsumer
((MINOR >= 1)) && tool kafka-streams-groups org.apache.kafka.tools.streams.StreamsGroupCommand

{
    echo "$VERSION"
    echo "kafka-shell=$SHELL_JAR"
    echo "layout=$LAYOUT"
    (cd "$DIR/libs" && ls)
} >"$MARKER"
echo "$DIR"
