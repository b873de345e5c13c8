#!/usr/bin/env bash
# The served OpenAPI document against the server that serves it: schemathesis (from PyPI, in a
# virtualenv under target/) generates requests from the document, valid and invalid, and runs
# every one of its checks on the answers: no 5xx, only documented statuses, bodies that match
# their schemas, bad input refused. Zero failures pass.
set -euo pipefail
cd "$(dirname "$0")/.."

VENV=target/schemathesis
# A virtualenv's scripts name its interpreter by absolute path: one made from another checkout
# sharing this target directory does not run here, so it is made again.
if ! "$VENV/bin/schemathesis" --version >/dev/null 2>&1; then
  rm -rf "$VENV"
  python3 -m venv "$VENV"
  "$VENV/bin/pip" install -q schemathesis
fi

cargo build -q -p ludus-server
DIR=$(mktemp -d)
PORT=19$(( RANDOM % 900 + 100 ))
# Generous rate limits: the run is one client making thousands of requests.
target/debug/ludus serve --listen "127.0.0.1:$PORT" --database-url "sqlite://$DIR/ludus.db" \
  --create-per-minute 1000000 --join-per-minute 1000000 >"$DIR/log" 2>&1 &
SERVER=$!
trap 'kill "$SERVER" 2>/dev/null || true; wait "$SERVER" 2>/dev/null || true; rm -rf "$DIR"' EXIT
for _ in $(seq 1 60); do
  target/debug/ludus health --url "http://127.0.0.1:$PORT/readyz" >/dev/null 2>&1 && break
  sleep 0.5
done

# An account and a personal token for the signed-in pass, made first: the anonymous pass spends
# the address's sign-up allowance.
TOKEN=$(python3 - "http://127.0.0.1:$PORT" <<'PY'
import json, sys, urllib.request
base = sys.argv[1]
def post(path, body, cookie=None):
    headers = {"content-type": "application/json", **({"cookie": cookie} if cookie else {})}
    request = urllib.request.Request(base + path, json.dumps(body).encode(), headers=headers)
    return urllib.request.urlopen(request)
signed_up = post("/api/v1/accounts", {"username": "fuzzer", "password": "a long enough password"})
session = signed_up.headers["set-cookie"].split(";")[0]
made = post("/api/v1/account/tokens", {"description": "schemathesis"}, session)
print(json.load(made)["token"])
PY
)

# The WebSocket route is left out: it upgrades, which the document can only describe.
fuzz() {
  "$VENV/bin/schemathesis" --no-color --config-file .ci/schemathesis.toml run "http://127.0.0.1:$PORT/api/v1/openapi.json" \
    --checks all --workers 1 --max-examples "${SCHEMATHESIS_EXAMPLES:-50}" --seed 2026 \
    --exclude-path '/api/v1/games/{id}/ws' "$@"
}
echo "-- anonymous"
fuzz
# Signed in, so that the account's operations are reached past their 401 (the stateful phase may
# revoke this token on the way: what follows is then refused as the document says). The account's
# event stream is left out: signed in, it never ends.
echo "-- signed in with a personal token"
fuzz -H "Authorization: Bearer $TOKEN" --exclude-path '/api/v1/stream/events'
