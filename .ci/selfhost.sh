#!/usr/bin/env bash
# The docker-compose configuration, tested without Docker: the compose file parsed (the scaled
# setup: instances without a published port behind the proxy, whose config passes WebSocket
# upgrades, and the proxy alone trusted), then the server binary against the machine's
# Postgres with the environment docker-compose.yml sets, its health check, the third-party client
# example playing a whole game through the API, a second instance on the same database playing
# the same games, JSON logs, and a clean stop on SIGTERM.
set -euo pipefail
cd "$(dirname "$0")/.."

ADMIN_URL="${TEST_POSTGRES_URL:-postgres://postgres@127.0.0.1:5432/test}"
DB="ludus_selfhost_$$"
psql "$ADMIN_URL" -qc "CREATE DATABASE $DB" >/dev/null
LOG=$(mktemp)
LOG2=$(mktemp)
trap 'rm -f "$LOG" "$LOG2"; psql "$ADMIN_URL" -qc "DROP DATABASE IF EXISTS $DB WITH (FORCE)" >/dev/null 2>&1 || true' EXIT

python3 - <<'PY'
import ipaddress, yaml
compose = yaml.safe_load(open("docker-compose.yml"))
services = compose["services"]
ludus, proxy = services["ludus"], services["proxy"]
assert "ports" not in ludus, "instances publish no port: --scale ludus=N would collide"
assert any(str(p).endswith(":80") for p in proxy["ports"]), "the proxy publishes the site"
assert "./deploy/nginx.conf:/etc/nginx/nginx.conf:ro" in proxy["volumes"]
ipam = compose["networks"]["default"]["ipam"]["config"][0]
subnet, others = ipaddress.ip_network(ipam["subnet"]), ipaddress.ip_network(ipam["ip_range"])
proxy_address = ipaddress.ip_address(proxy["networks"]["default"]["ipv4_address"])
trusted = ipaddress.ip_network(ludus["environment"]["LUDUS_TRUSTED_PROXIES"])
# Only the proxy itself: the network's gateway is where Docker's port forwarding brings some
# visitors from, and a trusted gateway would let them name any address.
assert trusted == ipaddress.ip_network(f"{proxy_address}/32"), "only the proxy is trusted"
assert proxy_address in subnet and proxy_address not in others, "no other container takes its address"
assert others.subnet_of(subnet)
assert ludus["environment"]["DATABASE_URL"].startswith("postgres://"), "several instances need Postgres"
assert ludus["healthcheck"]["test"] == ["CMD", "ludus", "health"], "the check follows LUDUS_LISTEN"
# The image's SQLite database lives in its home, which a named volume keeps across rebuilds.
dockerfile = open("Dockerfile").read()
assert "DATABASE_URL=sqlite:///var/lib/ludus/ludus.db" in dockerfile
volume = next(v for v in ludus["volumes"] if v.endswith(":/var/lib/ludus"))
assert volume.split(":")[0] in compose["volumes"], "the SQLite folder is a named volume"
conf = open("deploy/nginx.conf").read()
for needle in ("proxy_set_header Upgrade $http_upgrade", "proxy_set_header Connection $connection_upgrade",
               "server ludus:8080 resolve", "X-Forwarded-For", "proxy_http_version 1.1",
               # the port kept, for the Origin check of signed-in requests
               "proxy_set_header Host $http_host;",
               # the visitors' connections capped, the instances' metrics kept inside
               "limit_conn per_visitor 64;", "location = /metrics {"):
    assert needle in conf, f"deploy/nginx.conf: {needle}"
print("compose file: the scaled setup is consistent")
PY

cargo build -q -p ludus-server
BIN=target/debug/ludus
PORT=18$(( RANDOM % 900 + 100 ))

# Waits until the instance on port $1 says it is ready, and fails if it never does.
wait_ready() {
  for _ in $(seq 1 60); do
    "$BIN" health --url "http://127.0.0.1:$1/readyz" >/dev/null 2>&1 && return 0
    sleep 0.5
  done
  "$BIN" health --url "http://127.0.0.1:$1/readyz"
}

# The environment of the `ludus` service in docker-compose.yml (the database and port adapted).
DATABASE_URL="${ADMIN_URL%/*}/$DB" \
LUDUS_LISTEN="127.0.0.1:$PORT" \
LUDUS_PUBLIC_URL="http://127.0.0.1:$PORT" \
LUDUS_TRUSTED_PROXIES=172.28.0.2/32 \
LUDUS_DATABASE_CONNECTIONS=32 \
LUDUS_LOG_FORMAT=json \
RUST_LOG=info,sqlx=warn,tower_http=warn \
  "$BIN" >"$LOG" 2>&1 &
SERVER=$!

wait_ready "$PORT"
# The image's health check, as it runs there: no --url, the port from LUDUS_LISTEN.
LUDUS_LISTEN="0.0.0.0:$PORT" "$BIN" health

for variant in petteia-6 pente-grammai-perimeter; do
  played=$(python3 examples/play.py "http://127.0.0.1:$PORT" "$variant")
  # Read from a here-string, not a pipe: `head` leaving early would kill the writer with SIGPIPE,
  # which pipefail turns into a failure (it did, once, on a loaded machine).
  sed -n '1,2p' <<<"$played"
  grep -q '^finished after' <<<"$played"
done

# A second instance on the same database, as `--scale ludus=2` runs it: a game created through
# one is joined and played through the other.
PORT2=$((PORT + 1))
DATABASE_URL="${ADMIN_URL%/*}/$DB" LUDUS_LISTEN="127.0.0.1:$PORT2" LUDUS_TRUSTED_PROXIES=172.28.0.2/32 \
LUDUS_DATABASE_CONNECTIONS=32 LUDUS_LOG_FORMAT=json RUST_LOG=info,sqlx=warn,tower_http=warn \
  "$BIN" >"$LOG2" 2>&1 &
SECOND=$!
wait_ready "$PORT2"
python3 - "http://127.0.0.1:$PORT" "http://127.0.0.1:$PORT2" <<'PY'
import json, sys, urllib.request
first, second = sys.argv[1], sys.argv[2]
def call(base, path, body=None, token=None):
    request = urllib.request.Request(base + path, data=None if body is None else json.dumps(body).encode(),
                                     headers={"content-type": "application/json"})
    if token:
        request.add_header("authorization", "Bearer " + token)
    return json.load(urllib.request.urlopen(request))
created = call(first, "/api/v1/games", {"variant": "petteia-6", "mode": "online"})
joined = call(second, f"/api/v1/invites/{created['invite']}/join", {})
game = created["game_id"]
view = call(first, f"/api/v1/games/{game}", token=created["seat"]["token"])
assert view["status"] == "playing", view
moved = call(first, f"/api/v1/games/{game}/moves", {"move": view["legal_moves"][0], "version": view["version"]},
             token=created["seat"]["token"])
seen = call(second, f"/api/v1/games/{game}", token=joined["seat"]["token"])
assert seen["version"] == moved["version"] and seen["legal_moves"], seen
print("two instances: a game created through one is joined and played through the other")
PY

kill -TERM "$SERVER" "$SECOND"
wait "$SERVER"
wait "$SECOND"
# Every log line the server wrote is JSON.
python3 - "$LOG" "$LOG2" <<'PY'
import json, sys
lines = [l for log in sys.argv[1:] for l in open(log) if l.strip()]
assert lines, "the server logged nothing"
for line in lines:
    json.loads(line)
assert any(json.loads(l).get("fields", {}).get("url") for l in lines), "the address to open is logged"
print(f"self-hosting configuration: ok ({len(lines)} JSON log lines, clean stop on SIGTERM)")
PY
