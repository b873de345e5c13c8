#!/usr/bin/env bash
# The bot example against a real server: two accounts sign up, the bot (examples/bot.py, with a
# personal token) listens on its event stream; a second client challenges it, both play the
# accepted game to its end, and the result shows on both profiles.
set -euo pipefail
cd "$(dirname "$0")/.."

cargo build -q -p ludus-server
BIN=target/debug/ludus
PORT=${BOT_PORT:-19$(( RANDOM % 900 + 100 ))} # BOT_PORT: a fixed port
DIR=$(mktemp -d)
BASE="http://127.0.0.1:$PORT"

DATABASE_URL="sqlite://$DIR/ludus.db" LUDUS_LISTEN="127.0.0.1:$PORT" "$BIN" >"$DIR/server.log" 2>&1 &
SERVER=$!
BOT=""
trap 'kill $SERVER ${BOT:+$BOT} 2>/dev/null || true; rm -rf "$DIR"' EXIT

for _ in $(seq 1 60); do
  "$BIN" health --url "$BASE/readyz" >/dev/null 2>&1 && break
  sleep 0.5
done
"$BIN" health --url "$BASE/readyz"

# Signs up and prints a personal token (the sign-up's session cookie makes it).
token() {
  python3 - "$BASE" "$1" <<'PY'
import json, sys, urllib.request
base, name = sys.argv[1], sys.argv[2]
def post(path, body, cookie=None):
    request = urllib.request.Request(base + path, data=json.dumps(body).encode(), method="POST")
    request.add_header("content-type", "application/json")
    if cookie:
        request.add_header("cookie", cookie)
        request.add_header("origin", base)
    return urllib.request.urlopen(request, timeout=10)
signed_up = post("/api/v1/accounts", {"username": name, "password": "password for " + name})
cookie = signed_up.headers["set-cookie"].split(";")[0]
print(json.loads(post("/api/v1/account/tokens", {"description": "ci"}, cookie).read())["token"])
PY
}
BOT_TOKEN=$(token robot)
HUMAN_TOKEN=$(token human)

python3 examples/bot.py "$BASE" "$BOT_TOKEN" --variants petteia-6 --games 1 >"$DIR/bot.log" 2>&1 &
BOT=$!
sleep 1

# The second client: challenges the bot, takes its seat from its own stream, plays to the end.
python3 - "$BASE" "$HUMAN_TOKEN" <<'PY'
import json, random, sys, time, urllib.request
sys.path.insert(0, "examples")
from bot import call, events, play
base, token = sys.argv[1], sys.argv[2]
made = call(base, "POST", "/api/v1/challenges", token, {"username": "robot", "variant": "petteia-6", "side": "first"})
assert "challenge_id" in made, made
for notice in events(base, token):
    if notice["type"] == "game_start":
        play(base, notice["game_id"], notice["seat"], print)
        game = notice["game_id"]
        break
time.sleep(0.5)
for name in ("human", "robot"):
    profile = call(base, "GET", f"/api/v1/players/{name}", token)
    results = profile["variants"]["petteia-6"]
    assert results["games"] == 1 and results["rating"] is not None, profile
    print(f"{name}: {results['wins']} won, {results['draws']} drawn, {results['losses']} lost, rating {results['rating']}")
PY
wait "$BOT"
cat "$DIR/bot.log"
grep -q "over" "$DIR/bot.log"
echo "bot example: ok (a challenged game played to the end, the result on both profiles)"
