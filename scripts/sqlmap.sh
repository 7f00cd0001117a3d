#!/usr/bin/env bash
# Runs Debian's sqlmap against the main JSON routes of a locally started Cohort server (fresh
# temporary database, a logged-in session), and fails if sqlmap reports anything injectable.
# Not part of the test suite (it takes minutes). Usage: scripts/sqlmap.sh [extra sqlmap options]
# Environment: SQLMAP_PORT (default 3299), DATABASE_URL (default: embedded PGlite), SQLMAP_LEVEL/RISK.
set -euo pipefail
cd "$(dirname "$0")/.."

command -v sqlmap >/dev/null || { echo "sqlmap is missing: apt-get install -y sqlmap" >&2; exit 2; }
PORT="${SQLMAP_PORT:-3299}"
BASE="http://127.0.0.1:${PORT}"
LEVEL="${SQLMAP_LEVEL:-2}"
RISK="${SQLMAP_RISK:-1}"
WORK="$(mktemp -d -t cohort-sqlmap-XXXXXX)"
SERVER_PID=""
cleanup() {
  if [ -n "$SERVER_PID" ]; then kill "$SERVER_PID" 2>/dev/null || true; wait "$SERVER_PID" 2>/dev/null || true; fi
  rm -rf "$WORK"
}
trap cleanup EXIT

PORT="$PORT" HOST=127.0.0.1 DATA_DIR="$WORK/data" LOG_LEVEL=warn DATABASE_URL="${DATABASE_URL:-}" \
  GOOGLE_CLIENT_ID='' GITHUB_TOKEN='' node --import tsx apps/server/src/main.ts >"$WORK/server.log" 2>&1 &
SERVER_PID=$!
for _ in $(seq 1 120); do curl -fs "$BASE/readyz" >/dev/null 2>&1 && break; sleep 0.5; done
curl -fs "$BASE/readyz" >/dev/null || { cat "$WORK/server.log"; echo "server did not start" >&2; exit 2; }

json() { curl -fsS -H 'content-type: application/json' -H "authorization: Bearer ${TOKEN:-}" "$@"; }
field() { node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>console.log(JSON.parse(s)[process.argv[1]]))' "$1"; }

EMAIL="sqlmap-$RANDOM@example.com"
PEER="peer-$RANDOM@example.com"
for who in "$EMAIL" "$PEER"; do
  json -X POST "$BASE/api/signup" -d "{\"firstName\":\"Sql\",\"lastName\":\"Map\",\"email\":\"$who\",\"password\":\"correct horse battery\"}" >/dev/null
done
TOKEN="$(json -X POST "$BASE/api/login" -d "{\"email\":\"$EMAIL\",\"password\":\"correct horse battery\"}" | field token)"
WS="sqlmap$RANDOM"
json -X POST "$BASE/api/workspaces" -d "{\"name\":\"$WS\",\"description\":\"x\",\"members\":[{\"email\":\"$PEER\",\"role\":\"editor\"}]}" >/dev/null
CHANNEL="$(json -X POST "$BASE/api/workspaces/$WS/channels" -d '{"name":"general","description":"x","members":[]}' | field _id)"
LIST="$(json -X POST "$BASE/api/tasklists" -d '{"name":"Todo"}' | field _id)"
TASK="$(json -X POST "$BASE/api/tasks" -d "{\"title\":\"t\",\"taskListId\":\"$LIST\"}" | field _id)"

# One line per target: METHOD URL [JSON body]. `*` marks a path or query value for sqlmap to inject into.
TARGETS=(
  "POST $BASE/api/signup {\"firstName\":\"a\",\"lastName\":\"b\",\"email\":\"x@example.com\",\"password\":\"correct horse battery\"}"
  "GET $BASE/api/workspaces/$WS*/members"
  "GET $BASE/api/workspaces/$WS/channels/$CHANNEL*/messages?before=5&after=1&limit=10"
  "POST $BASE/api/workspaces {\"name\":\"w1\",\"description\":\"d\",\"members\":[]}"
  "POST $BASE/api/workspaces/$WS/channels {\"name\":\"c1\",\"description\":\"d\",\"members\":[]}"
  "POST $BASE/api/workspaces/$WS/channels/$CHANNEL/messages {\"content\":\"hi\",\"clientId\":\"6f1c5b52-3b8f-4d5e-9a55-1c2d3e4f5a6b\"}"
  "GET $BASE/api/messages/$PEER*"
  "PATCH $BASE/api/profile {\"firstName\":\"a\",\"role\":\"b\",\"phone\":\"1\"}"
  "POST $BASE/api/tasks {\"title\":\"t\",\"description\":\"d\",\"taskListId\":\"$LIST\"}"
  "PUT $BASE/api/tasks/$TASK {\"description\":\"d\"}"
  "GET $BASE/api/task/$TASK*"
  "POST $BASE/api/tasks/$TASK/comments {\"text\":\"c\"}"
  "POST $BASE/api/contact {\"name\":\"a\",\"email\":\"a@example.com\",\"message\":\"hello there\"}"
)

status=0
for target in "${TARGETS[@]}"; do
  read -r method url body <<<"$target"
  echo "== $method $url ${body:-}"
  args=(-u "$url" --method "$method" --batch --level "$LEVEL" --risk "$RISK" --dbms PostgreSQL
    -H "authorization: Bearer $TOKEN" --output-dir "$WORK/sqlmap" --disable-coloring "$@")
  [ -n "${body:-}" ] && args+=(--data "$body" -H 'content-type: application/json')
  # sqlmap redraws the terminal; keep plain lines only.
  out="$(sqlmap "${args[@]}" 2>&1 | sed 's/\x1b\[[0-9;?]*[a-zA-Z]//g; s/\x1b[()][A-Z0-9]//g' || true)"
  echo "$out" | grep -E "seem to be injectable|all tested parameters|identified the following|is vulnerable| times" |
    sed 's/ Try to increase.*//' | sed 's/^/   /'
  if echo "$out" | grep -qE "is vulnerable|sqlmap identified the following injection point"; then status=1; fi
  # A 5xx under attack is a finding too (an unhandled error path).
  if echo "$out" | grep -qE "^5[0-9][0-9] \(.*\) - [0-9]+ times"; then echo "   5xx answers seen" >&2; status=1; fi
done
if [ "$status" -ne 0 ]; then echo "sqlmap found an injection point" >&2; else echo "sqlmap: nothing injectable"; fi
exit "$status"
