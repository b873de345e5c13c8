#!/usr/bin/env python3
"""A third-party client in a few lines, using the public API only (standard library, no packages).

Creates an online game, joins it as a second client through the invite, and plays it to the end
with uniformly random legal moves from both seats. Prints the result and the game's record.

    python3 examples/play.py http://127.0.0.1:8080 [variant]
"""
import json
import random
import sys
import urllib.error
import urllib.request


def call(base, method, path, body=None, token=None):
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(base + path, data=data, method=method)
    request.add_header("content-type", "application/json")
    if token:
        request.add_header("authorization", "Bearer " + token)
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            text = response.read().decode()
            return json.loads(text) if response.headers.get_content_type() == "application/json" else text
    except urllib.error.HTTPError as error:
        raise SystemExit(f"{method} {path}: {error.code} {error.read().decode()}")


def main():
    base = sys.argv[1].rstrip("/") if len(sys.argv) > 1 else "http://127.0.0.1:8080"
    variant = sys.argv[2] if len(sys.argv) > 2 else "petteia-6"
    rng = random.Random(42)

    created = call(base, "POST", "/api/v1/games", {"variant": variant, "mode": "online", "entropy": "example-creator"})
    invite = created["invite_url"].rsplit("/", 1)[1]
    joined = call(base, "POST", f"/api/v1/invites/{invite}/join", {"entropy": "example-joiner"})
    game = created["game_id"]
    tokens = {created["seat"]["side"]: created["seat"]["token"], joined["seat"]["side"]: joined["seat"]["token"]}
    print(f"game {game}: {created['seat']['side']} (creator) against {joined['seat']['side']} (joiner)")

    plies = 0
    view = call(base, "GET", f"/api/v1/games/{game}")
    while view["status"] == "playing":
        token = tokens[view["to_move"]]
        mine = call(base, "GET", f"/api/v1/games/{game}", token=token)
        move = rng.choice(mine["legal_moves"])
        view = call(base, "POST", f"/api/v1/games/{game}/moves",
                    {"move": move, "version": mine["version"], "id": f"example-{plies}"}, token=token)
        plies += 1
        if plies > 20000:
            raise SystemExit("the game did not end")

    result = view["result"]
    print(f"finished after {plies} moves: winner {result['winner']}, {result['termination']}")
    print(call(base, "GET", f"/api/v1/games/{game}/record"))


if __name__ == "__main__":
    main()
