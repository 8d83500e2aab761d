#!/usr/bin/env bash
# The main job on the embedded sandbox: start an emulated KRaft cluster, walk through every tool
# against it, then stop it. Needs `kcli` on PATH (see README.md). Exits non-zero if any step fails.
set -euo pipefail

dir=$(mktemp -d "${TMPDIR:-/tmp}/kcli-tour.XXXXXX")
port=${KCLI_TOUR_PORT:-19092}
step() { printf '\n\033[1m$ %s\033[0m\n' "$*"; "$@"; }
cleanup() { kcli sandbox down --dir "$dir" >/dev/null 2>&1 || true; rm -rf "$dir"; }
trap cleanup EXIT

step kcli sandbox up --detach --dir "$dir" --base-port "$port" --topics 4 --partitions 3
B=127.0.0.1:$port                 # brokers 1-3
C=127.0.0.1:$((port + 3))         # controllers 101-103
topic=sandbox-topic-00000

step kcli cluster-id --bootstrap-server "$B"
step kcli cluster-id --bootstrap-controller "$C" -o json
step kcli cluster list-endpoints --bootstrap-server "$B"
step kcli metadata-quorum --bootstrap-controller "$C" describe --status
step kcli metadata-quorum --bootstrap-server "$B" describe --replication --human-readable
step kcli features --bootstrap-server "$B" describe
step kcli configs --bootstrap-server "$B" --alter --topic "$topic" --add-config 'retention.ms=3600000,cleanup.policy=[compact,delete]'
step kcli configs --bootstrap-server "$B" --describe --topic "$topic"
step kcli configs --bootstrap-controller "$C" --describe --broker-defaults
printf '{"version":1,"topics":[{"topic":"%s"}]}\n' "$topic" > "$dir/topics.json"
step kcli reassign-partitions --bootstrap-server "$B" --generate --topics-to-move-json-file "$dir/topics.json" --broker-list 1,2,3 --strategy minimal-movement
step kcli sandbox failover --dir "$dir"
step kcli metadata-quorum --bootstrap-controller "$C" describe --status
step kcli cluster doctor --bootstrap-server "$B" --bootstrap-controller "$C"
step kcli metadata-shell --directory "$dir/101/__cluster_metadata-0" ls /image/topics/byName
step kcli metadata-shell --directory "$dir/101/__cluster_metadata-0" --dump --type FeatureLevelRecord
step kcli spark audit --bootstrap-server "$B" --out "$dir/audit" --fail-on high
printf '\nThe tour is over; the sandbox is stopped on exit.\n'
