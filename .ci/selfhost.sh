#!/usr/bin/env bash
# The docker-compose configuration, tested without Docker: the server binary against the machine's
# Postgres with the environment docker-compose.yml sets, its health check, the third-party client
# example playing a whole game through the API, JSON logs, and a clean stop on SIGTERM.
set -euo pipefail
cd "$(dirname "$0")/.."

ADMIN_URL="${TEST_POSTGRES_URL:-postgres://postgres@127.0.0.1:5432/test}"
DB="ludus_selfhost_$$"
psql "$ADMIN_URL" -qc "CREATE DATABASE $DB" >/dev/null
LOG=$(mktemp)
trap 'rm -f "$LOG"; psql "$ADMIN_URL" -qc "DROP DATABASE IF EXISTS $DB WITH (FORCE)" >/dev/null 2>&1 || true' EXIT

cargo build -q -p ludus-server
BIN=target/debug/ludus
PORT=18$(( RANDOM % 900 + 100 ))

# The environment of the `ludus` service in docker-compose.yml (the database and port adapted).
DATABASE_URL="${ADMIN_URL%/*}/$DB" \
LUDUS_LISTEN="127.0.0.1:$PORT" \
LUDUS_PUBLIC_URL="http://127.0.0.1:$PORT" \
LUDUS_LOG_FORMAT=json \
RUST_LOG=info \
  "$BIN" >"$LOG" 2>&1 &
SERVER=$!

for _ in $(seq 1 60); do
  "$BIN" health --url "http://127.0.0.1:$PORT/readyz" >/dev/null 2>&1 && break
  sleep 0.5
done
"$BIN" health --url "http://127.0.0.1:$PORT/readyz"

for variant in petteia-6 pente-grammai-perimeter; do
  played=$(python3 examples/play.py "http://127.0.0.1:$PORT" "$variant")
  echo "$played" | head -n 2
  grep -q '^finished after' <<<"$played"
done

kill -TERM "$SERVER"
wait "$SERVER"
# Every log line the server wrote is JSON.
python3 - "$LOG" <<'PY'
import json, sys
lines = [l for l in open(sys.argv[1]) if l.strip() and not l.startswith("Ludus is running")]
assert lines, "the server logged nothing"
for line in lines:
    json.loads(line)
print(f"self-hosting configuration: ok ({len(lines)} JSON log lines, clean stop on SIGTERM)")
PY
