#!/usr/bin/env bash
# The browser suite, as CI runs it from the repository root: Debian's Chromium (installed only if
# missing), playwright-core from the lock file, the server binary (built if missing), then the
# tests. LUDUS_BIN picks another binary (e.g. target/release/ludus). Exits non-zero on failure.
set -euo pipefail
cd "$(dirname "$0")/../.."

if [ ! -x /usr/bin/chromium ]; then
  apt-get update
  apt-get install -y chromium
fi

(cd tests/browser && npm ci --no-audit --no-fund)

if [ -z "${LUDUS_BIN:-}" ]; then
  cargo build -p ludus-server # a no-op when the tests already built it
  export LUDUS_BIN=target/debug/ludus
fi

mkdir -p target/browser-screenshots
cd tests/browser
node --test --test-concurrency=1 --test-timeout=600000 ./*.test.js
echo "Screenshots: target/browser-screenshots/"
