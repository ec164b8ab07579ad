#!/usr/bin/env bash
# Third-party checks of the OpenAPI description, with Node tools from the npm registry:
#   1. Spectral with its default OAS rules: no error (warnings are listed, not fatal);
#   2. openapi-typescript generates the types, and client.ts (a client written against them
#      with openapi-fetch) type-checks with `tsc --strict`;
#   3. the client, compiled, runs with node against a server of its own (uvicorn, the ASGI app
#      as in production, on a fresh SQLite database with the demo user of `seed_demo`): it
#      plays a match, a hand recorded whole and a hand played live to its finish, and reads the
#      live stream. client.ts holds no workaround (no `any`, cast, `@ts-` comment or raw
#      `fetch`); the check counts them and fails on any.
# Environment: CONTRACT_PORT, the server's port (default 18600, the one CI uses);
# CONTRACT_REDIS_URL, a Redis for the server (default none: the stream answers its described
# 503, which the client reads; with one, the client reads the stream's first `state` event).
# The tools and their own dependencies are pinned, with integrity hashes, in package-lock.json
# (`npm ci` installs exactly that).
# Optional: `make run` and the Python tests never need Node. Without npm, or without the
# registry, it says so and exits 0 unless CONTRACT_CHECKS_REQUIRED=true.
# Usage: tests/contract/check.sh   (from the repository root, with the venv made)
set -euo pipefail

port="${CONTRACT_PORT:-18600}"
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
work="$(mktemp -d)"
server=""
trap '[ -z "$server" ] || kill "$server" 2>/dev/null || true; rm -rf "$work"' EXIT

skip() {
    echo "contract checks skipped: $1" >&2
    [ "${CONTRACT_CHECKS_REQUIRED:-false}" = true ] && exit 1
    exit 0
}

command -v npm >/dev/null || skip "npm is not installed"
cp "$here/package.json" "$here/package-lock.json" "$here/.spectral.yaml" "$here/client.ts" \
    "$here/run.mjs" "$here/tsconfig.json" "$work/"
(cd "$work" && npm ci --no-audit --no-fund --loglevel=error >/dev/null 2>&1) \
    || skip "npm could not install the tools (no registry?)"

DEBUG=true "$root/.venv/bin/python" "$root/manage.py" spectacular --format openapi-json \
    --file "$work/schema.json"

cd "$work"
echo "== Spectral (spectral:oas)"
npx --no-install spectral lint schema.json --ruleset .spectral.yaml --fail-severity error \
    --display-only-failures || { echo "Spectral found errors" >&2; exit 1; }
echo "Spectral: no error"

echo "== openapi-typescript + tsc --strict"
npx --no-install openapi-typescript schema.json --output api.d.ts --default-non-nullable false
npx --no-install tsc -p tsconfig.json
echo "TypeScript client: type-checks with --strict"

echo "== workarounds in client.ts"
workarounds="$(grep -v '^ *//' client.ts | grep -c -E '\bany\b|\bas [A-Za-z{(]|@ts-|\bfetch\(|XMLHttpRequest|eslint-disable' || true)"
echo "workarounds: $workarounds"
[ "$workarounds" = 0 ] || { echo "client.ts needs a workaround" >&2; exit 1; }

echo "== the TypeScript client against a server on port $port"
npx --no-install tsc -p tsconfig.json --noEmit false --outDir out
echo '{"type": "module"}' >out/package.json
"$root/.venv/bin/python" -c "import socket, sys; socket.create_server(('127.0.0.1', int(sys.argv[1]))).close()" \
    "$port" 2>/dev/null || { echo "port $port is taken: set CONTRACT_PORT" >&2; exit 1; }
served=(DEBUG=true SECRET_KEY=contract-checks DATABASE_URL="sqlite:///$work/db.sqlite3"
    DATABASE_REPLICA_URLS= REDIS_URL="${CONTRACT_REDIS_URL:-}" CACHE_BACKEND=local)
(cd "$root" && env "${served[@]}" .venv/bin/python manage.py migrate --verbosity 0 \
    && env "${served[@]}" .venv/bin/python manage.py seed_demo >/dev/null)
(cd "$root" && exec env "${served[@]}" .venv/bin/uvicorn arlington_site.asgi:application \
    --host 127.0.0.1 --port "$port" --no-access-log --log-level warning) &
server=$!
for _ in $(seq 1 30); do
    "$root/.venv/bin/python" -c "import sys, urllib.request; urllib.request.urlopen(sys.argv[1], timeout=2)" \
        "http://127.0.0.1:$port/api/v1/" 2>/dev/null && break
    kill -0 "$server" 2>/dev/null || { echo "the server did not start" >&2; exit 1; }
    sleep 1
done
node run.mjs "http://127.0.0.1:$port" demo demo-arlington
