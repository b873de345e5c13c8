#!/usr/bin/env bash
# The browser client's own checks, from the repository root and without a browser or a server:
# types (tsc over every static/js module marked // @ts-check, JSDoc types, nothing emitted), the
# linter (eslint, flat config) over static/js and tests/browser, and the unit tests of the pure
# client modules under node --test. Exits non-zero on the first failure.
set -euo pipefail
cd "$(dirname "$0")/../.."

# Installs the tools once (run.sh reinstalls them from the lock file anyway).
[ -x tests/browser/node_modules/.bin/tsc ] || (cd tests/browser && npm ci --no-audit --no-fund >/dev/null)
bin=tests/browser/node_modules/.bin

echo "tsc: type-checking static/js"
"$bin/tsc" -p tests/browser
echo "eslint: static/js and tests/browser"
"$bin/eslint" --config tests/browser/eslint.config.js static/js tests/browser
echo "node --test: unit tests of the pure client modules"
node --test tests/browser/unit/
