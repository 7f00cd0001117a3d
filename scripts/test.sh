#!/usr/bin/env bash
# Runs every test of Cohort: lint, type-check, unit/API/socket suites, then end-to-end journeys in
# Debian's Chromium against a freshly built app. `npm test` calls this.
set -euo pipefail
cd "$(dirname "$0")/.."

step() { printf '\n\033[1m== %s\033[0m\n' "$*"; }

if [ ! -d node_modules ]; then
  step "Installing npm packages"
  npm ci || npm install # see .ci/run for why the fallback
fi

export CHROMIUM_PATH="${CHROMIUM_PATH:-/usr/bin/chromium}"
if [ ! -x "$CHROMIUM_PATH" ]; then
  step "Installing Debian's chromium (needed by the end-to-end tests)"
  if [ "$(id -u)" = 0 ]; then
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium
  elif command -v sudo >/dev/null && sudo -n true 2>/dev/null; then
    sudo apt-get update -qq && sudo DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium
  else
    echo "Chromium is missing. Install it with: sudo apt-get install chromium" >&2
    echo "(or point CHROMIUM_PATH at a Chromium/Chrome binary) and run npm test again." >&2
    exit 1
  fi
fi

results=$(mktemp -d)
step "Lint (Biome)"
npx biome check .
step "Type-check (tsc -b)"
npx tsc -b
step "Unit, API and socket tests (Vitest)"
npx vitest run --reporter=default --reporter=json --outputFile.json="$results/vitest.json"
step "Build the web app"
npm run build
step "Initial JavaScript per route within budget (bench/js-budgets.json)"
npm run check:budgets
step "End-to-end journeys (Playwright + Chromium)"
PLAYWRIGHT_JSON_OUTPUT_NAME="$results/playwright.json" \
  npx playwright test -c e2e/playwright.config.ts --reporter=list,json

node scripts/summarize-tests.mjs "$results/vitest.json" "$results/playwright.json"
