#!/usr/bin/env bash
# The main job on the embedded sandbox: start an emulated KRaft cluster, walk through every tool
# against it (cluster-id, cluster, metadata-quorum, features, configs, acls, profile, completion,
# reassign-partitions, topics, log-dirs, leader-election, delete-records, get-offsets, the group tools,
# transactions, client-metrics, delegation-tokens, broker-api-versions, sandbox faults with the doctor catching
# one, metadata-shell, spark), then stop it. Needs `kcli` on PATH (see README.md). Exits non-zero if any
# step does not end as shown.
set -euo pipefail

dir=$(mktemp -d "${TMPDIR:-/tmp}/kcli-tour.XXXXXX")
port=${KCLI_TOUR_PORT:-19092}
# Bold command lines on a terminal only: a log file or a pipe gets plain text (and so does NO_COLOR).
if [[ -t 1 && -z "${NO_COLOR:-}" ]]; then bold=$'\033[1m' plain=$'\033[0m'; else bold='' plain=''; fi
show() { printf '\n%s$ %s%s\n' "$bold" "$*" "$plain"; }
step() { show "$@"; "$@"; }
# A step that must fail with exit code $1: a check catching a fault on purpose.
step_fails() {
    local want=$1 code=0
    shift
    show "$@"
    "$@" || code=$?
    if [[ $code -ne $want ]]; then
        printf 'The tour expected exit code %s here, got %s.\n' "$want" "$code" >&2
        exit 1
    fi
    printf '(exit code %s, as expected)\n' "$code"
}
cleanup() { kcli sandbox down --dir "$dir" >/dev/null 2>&1 || true; rm -rf "$dir"; }
trap cleanup EXIT

# Profiles written by the tour stay in its directory, not in ~/.config/kcli.
export KCLI_CONFIG="$dir/config.toml"

step kcli sandbox up --detach --dir "$dir" --base-port "$port" --brokers 4 --topics 4 --partitions 3 --authorizer --records-per-partition 100
B=127.0.0.1:$port                 # brokers 1-4
C=127.0.0.1:$((port + 4))         # controllers 101-103
topic=sandbox-topic-00000

step kcli cluster-id --bootstrap-server "$B"
step kcli cluster-id --bootstrap-controller "$C" -o json
step kcli cluster list-endpoints --bootstrap-server "$B"
step kcli metadata-quorum --bootstrap-controller "$C" describe --status
step kcli metadata-quorum --bootstrap-server "$B" describe --replication --human-readable
step kcli features --bootstrap-server "$B" describe

step kcli configs --bootstrap-server "$B" --alter --topic "$topic" --add-config 'retention.ms=3600000,cleanup.policy=[compact,delete]' --dry-run
step kcli configs --bootstrap-server "$B" --alter --topic "$topic" --add-config 'retention.ms=3600000,cleanup.policy=[compact,delete]'
step kcli configs --bootstrap-server "$B" --describe --topic "$topic" -o table
step kcli configs --bootstrap-controller "$C" --describe --broker-defaults

step kcli acls --bootstrap-server "$B" --add --allow-principal User:alice --operation Read --topic "$topic"
step kcli acls --bootstrap-server "$B" --list -o table

step kcli profile add tour --bootstrap-server "$B" --use
step kcli profile list
step kcli cluster-id
step kcli completion install bash --dry-run   # where tab completion would go; --dry-run writes nothing

# Drain broker 1: a plan onto brokers 2-4 must move every replica broker 1 holds.
printf '{"version":1,"topics":[{"topic":"%s"}]}\n' "$topic" > "$dir/topics.json"
step kcli reassign-partitions --bootstrap-server "$B" --generate --topics-to-move-json-file "$dir/topics.json" --broker-list 2,3,4 --strategy minimal-movement | tee "$dir/generate.txt"
awk 'found { print; exit } /^Proposed partition reassignment configuration$/ { found = 1 }' "$dir/generate.txt" > "$dir/plan.json"
step kcli reassign-partitions --bootstrap-server "$B" --execute --reassignment-json-file "$dir/plan.json" --rollback-file "$dir/rollback.json" --wait
step kcli reassign-partitions --bootstrap-server "$B" --verify --reassignment-json-file "$dir/plan.json"
step kcli topics --bootstrap-server "$B" --describe --topic "$topic"
step kcli topics --bootstrap-server "$B" --describe --under-replicated-partitions   # nothing: all in sync
step kcli log-dirs --bootstrap-server "$B" --describe -o table --by broker   # bytes, usable and total space
step kcli leader-election --bootstrap-server "$B" --election-type preferred --all-topic-partitions --dry-run
echo '{"partitions":[{"topic":"sandbox-topic-00001","partition":0,"offset":30}],"version":1}' > "$dir/delete.json"
step kcli delete-records --bootstrap-server "$B" --offset-json-file "$dir/delete.json" --dry-run
step kcli delete-records --bootstrap-server "$B" --offset-json-file "$dir/delete.json"

step kcli get-offsets --bootstrap-server "$B" --topic "$topic"
step kcli groups --bootstrap-server "$B" --list                  # every group type; none yet
# a group's first offsets: a reset of a new group commits them (as kafka-consumer-groups.sh does)
step kcli consumer-groups --bootstrap-server "$B" --reset-offsets --group tour-app --topic "$topic" --to-offset 40 --execute --rollback-file "$dir/offsets-before.csv"
step kcli consumer-groups --bootstrap-server "$B" --describe --group tour-app --time-lag   # lag 60 a partition, and its age
step_fails 1 kcli consumer-groups --bootstrap-server "$B" --describe --group tour-app --fail-on-lag 50   # what a CI check sees
step kcli consumer-groups --bootstrap-server "$B" --reset-offsets --group tour-app --topic "$topic" --to-latest --execute --rollback-file "$dir/offsets-rollback.csv"
step kcli consumer-groups --bootstrap-server "$B" --reset-offsets --group tour-app --from-file "$dir/offsets-rollback.csv" --execute --rollback-file "$dir/offsets-undone.csv"   # the undo: back to 40
step kcli consumer-groups --bootstrap-server "$B" --list
step kcli share-groups --bootstrap-server "$B" --list
step kcli streams-groups --bootstrap-server "$B" --list
step kcli transactions --bootstrap-server "$B" list
step kcli transactions --bootstrap-server "$B" find-hanging --broker-id 1   # none: no transaction is stuck
step kcli client-metrics --bootstrap-server "$B" --alter --name tour-metrics --metrics org.apache.kafka.producer. --interval 60000
step kcli client-metrics --bootstrap-server "$B" --describe --name tour-metrics
step_fails 2 kcli delegation-tokens --bootstrap-server "$B" --describe   # tokens need SASL or TLS: refused before any request
step kcli broker-api-versions --bootstrap-server "$B"

step kcli cluster doctor --bootstrap-server "$B" --bootstrap-controller "$C"
step kcli sandbox misroute 2 --dir "$dir"
step_fails 1 kcli cluster doctor --bootstrap-server "$B" --bootstrap-controller "$C"
step kcli sandbox misroute 2 --as 2 --dir "$dir"
step kcli sandbox failover --dir "$dir"
step kcli metadata-quorum --bootstrap-controller "$C" describe --status

step kcli metadata-shell --directory "$dir/101/__cluster_metadata-0" ls /image/topics/byName
step kcli metadata-shell --directory "$dir/101/__cluster_metadata-0" --dump --type FeatureLevelRecord
step kcli spark audit --bootstrap-server "$B" --out "$dir/audit" --fail-on high
printf '\nThe tour is over; the sandbox is stopped on exit.\n'
