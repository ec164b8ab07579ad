#!/usr/bin/env bash
# Third-party checks of the OpenAPI description, with Node tools from the npm registry:
#   1. Spectral with its default OAS rules: no error (warnings are listed, not fatal);
#   2. openapi-typescript generates the types, and client.ts (a client written against them
#      with openapi-fetch) type-checks with `tsc --strict`.
# The tools and their own dependencies are pinned, with integrity hashes, in package-lock.json
# (`npm ci` installs exactly that).
# Optional: `make run` and the Python tests never need Node. Without npm, or without the
# registry, it says so and exits 0 unless CONTRACT_CHECKS_REQUIRED=true.
# Usage: tests/contract/check.sh   (from the repository root, with the venv made)
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

skip() {
    echo "contract checks skipped: $1" >&2
    [ "${CONTRACT_CHECKS_REQUIRED:-false}" = true ] && exit 1
    exit 0
}

command -v npm >/dev/null || skip "npm is not installed"
cp "$here/package.json" "$here/package-lock.json" "$here/.spectral.yaml" "$here/client.ts" "$here/tsconfig.json" "$work/"
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
