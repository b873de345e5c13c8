#!/usr/bin/env python3
"""A bot, through the public API only (standard library, no packages).

It identifies itself with a personal API token (make one on the account page, or with
POST /api/v1/account/tokens), listens on its event stream, accepts challenges for the variants it
knows (declining the others) and plays each game to the end with random legal moves from the game
view, one thread a game.

    python3 examples/bot.py http://127.0.0.1:8080 lp_yourtoken [--variants petteia-6,petteia-8] [--games N]

With --games N it stops after N games have ended (as CI runs it).
"""
import json
import random
import secrets
import sys
import threading
import time
import urllib.error
import urllib.request

KNOWN = ["petteia-6", "petteia-8", "pente-grammai-schaedler", "pente-grammai-kidd",
         "pente-grammai-perimeter", "duodecim-scripta"]


def call(base, method, path, token, body=None):
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(base + path, data=data, method=method)
    request.add_header("content-type", "application/json")
    request.add_header("authorization", "Bearer " + token)
    try:
        with urllib.request.urlopen(request, timeout=15) as response:
            text = response.read().decode()
            return json.loads(text) if text else None
    except urllib.error.HTTPError as error:
        return {"error": json.loads(error.read().decode() or "{}").get("error"), "status": error.code}


def events(base, token):
    """The account's notices, one dict each (keep-alive lines skipped)."""
    request = urllib.request.Request(base + "/api/v1/stream/events")
    request.add_header("authorization", "Bearer " + token)
    with urllib.request.urlopen(request, timeout=60) as stream:
        for line in stream:
            if line.strip():
                yield json.loads(line)


def play(base, game_id, seat, log):
    """Plays one seat of a game until it ends; the seat token is the game's Bearer."""
    rng = random.Random(game_id)
    token, side = seat["token"], seat["side"]
    plies = 0
    while True:
        view = call(base, "GET", f"/api/v1/games/{game_id}", token)
        if view.get("status") in ("finished", "aborted"):
            log(f"game {game_id} over: {view.get('result')}")
            return
        if view.get("to_move") != side or not view.get("legal_moves"):
            time.sleep(0.1)
            continue
        move = rng.choice(view["legal_moves"])
        answer = call(base, "POST", f"/api/v1/games/{game_id}/moves", token,
                      {"move": move, "version": view["version"], "id": f"bot-{plies}"})
        if "error" in answer and answer.get("status") not in (409,):
            log(f"game {game_id}: {move} refused: {answer}")
            time.sleep(0.2)
        plies += 1


def main():
    args = sys.argv[1:]
    if len(args) < 2:
        raise SystemExit(__doc__)
    base, token = args[0].rstrip("/"), args[1]
    variants = KNOWN
    stop_after = None
    if "--variants" in args:
        variants = args[args.index("--variants") + 1].split(",")
    if "--games" in args:
        stop_after = int(args[args.index("--games") + 1])
    me = call(base, "GET", "/api/v1/account", token)
    if "error" in me:
        raise SystemExit(f"the token does not sign in: {me}")

    def log(text):
        print(f"[{me['username']}] {text}", flush=True)

    log(f"listening for challenges ({', '.join(variants)})")
    players = []
    for notice in events(base, token):
        kind = notice["type"]
        if kind == "challenge":
            answer = "accept" if notice["variant"] in variants else "decline"
            log(f"{answer} {notice['variant']} from {notice['challenger']}")
            # Accepting adds the bot's own entropy to a dice game's seed, after its commitment.
            body = {"entropy": secrets.token_hex(16)} if answer == "accept" else {}
            call(base, "POST", f"/api/v1/challenges/{notice['challenge_id']}/{answer}", token, body)
        elif kind == "game_start":
            log(f"game {notice['game_id']} starts, playing {notice['seat']['side']}")
            player = threading.Thread(target=play, args=(base, notice["game_id"], notice["seat"], log))
            player.start()
            players.append(player)
            if stop_after is not None and len(players) >= stop_after:
                break
    for player in players:
        player.join()


if __name__ == "__main__":
    main()
