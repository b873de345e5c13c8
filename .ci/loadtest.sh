#!/usr/bin/env bash
# The README's load-test commands, small: each mode of ludus-bench-server runs for two seconds
# (dev build, 20 games) and must report moves played, or memory a game. Figures are not judged:
# benchmarks are measured by hand, with the machine idle.
set -euo pipefail
cd "$(dirname "$0")/.."
POSTGRES_URL="${POSTGRES_URL:-postgres://postgres@127.0.0.1:5432/test}"
cargo build -q -p ludus-server -p ludus-tests
bench=target/debug/ludus-bench-server

played() {
  local out
  out=$("$bench" "$@")
  echo "$out" | grep -E "moves/s|cpu|server a move"
  # A here-string, not a pipe: `grep -q` stops at the first match, and under pipefail the writer's
  # SIGPIPE would fail the run.
  grep -q "^server a move:   user" <<<"$out" || { echo "no user and system time: $*"; exit 1; }
  local rate
  rate=$(echo "$out" | awk '/^moves\/s:/ {print $2}')
  [ "${rate:-0}" -gt 0 ] || { echo "no move was played: $*"; exit 1; }
}

played --games 20 --seconds 2 --database-url "$POSTGRES_URL"
played --games 20 --seconds 2
played --games 20 --seconds 2 --moves-per-second 100 --database-url "$POSTGRES_URL"
played --games 20 --seconds 2 --instances 2 --database-url "$POSTGRES_URL"
played --bare-relay --games 20 --seconds 2
"$bench" --memory playing --games 20 --database-url "$POSTGRES_URL" | grep -E "per game"
