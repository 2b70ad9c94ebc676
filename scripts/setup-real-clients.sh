#!/usr/bin/env bash
# Installs what the Python and real-client tests need, from the registries only, into ignored folders:
#   .tools/node22, .tools/node24   Node binaries from the npm registry's `node` package
#   .tools/promptfoo               promptfoo (its current version needs Node >= 22.22), installed by npm running on Node 22
#   .venv/                         Python: benchplan's Python package (editable) + inspect-ai, pandas, pytest, nbclient
# Versions are pinned here and in python/requirements-test.txt; each real-client test prints what it ran.
# Usage: scripts/setup-real-clients.sh [node|promptfoo|python ...]   (default: all). Idempotent: a part already
# installed at the pinned version is skipped.
set -euo pipefail
cd "$(dirname "$0")/.."

NODE22=22.23.3
NODE24=24.21.0
PROMPTFOO=0.123.1
PYTHON=${PYTHON:-python3}
parts=("$@")
[ ${#parts[@]} = 0 ] && parts=(node promptfoo python)

want() { local p; for p in "${parts[@]}"; do [ "$p" = "$1" ] && return 0; done; return 1; }
npm_quiet() { npm --no-audit --no-fund --loglevel=error "$@"; }

node_at() { # folder version
  local dir=.tools/node$1 version=$2
  if [ -x "$dir/node_modules/.bin/node" ] && [ "$("$dir/node_modules/.bin/node" --version)" = "v$version" ]; then
    echo "node $version: already in $dir"; return
  fi
  mkdir -p "$dir"
  npm_quiet install --prefix "$dir" --no-save "node@$version" >/dev/null
  echo "node $version: $("$dir/node_modules/.bin/node" --version) in $dir"
}

if want node || want promptfoo; then
  node_at 22 "$NODE22"
  want node && node_at 24 "$NODE24"
fi

if want promptfoo; then
  dir=.tools/promptfoo
  have=$(cat "$dir/node_modules/promptfoo/package.json" 2>/dev/null | sed -nE 's/^  "version": "([^"]+)".*/\1/p' || true)
  if [ "$have" = "$PROMPTFOO" ]; then
    echo "promptfoo $PROMPTFOO: already in $dir"
  else
    mkdir -p "$dir"
    # npm itself, run by Node 22, so promptfoo's engine check and any install script see Node 22.
    npm_cli=$(dirname "$(readlink -f "$(command -v npm)")")/npm-cli.js
    PATH="$PWD/.tools/node22/node_modules/.bin:$PATH" .tools/node22/node_modules/.bin/node "$npm_cli" \
      --no-audit --no-fund --loglevel=error install --prefix "$dir" --no-save "promptfoo@$PROMPTFOO" >/dev/null
    echo "promptfoo $PROMPTFOO: installed in $dir"
  fi
fi

if want python; then
  if ! command -v "$PYTHON" >/dev/null; then echo "setup: no $PYTHON on PATH" >&2; exit 2; fi
  [ -x .venv/bin/python ] || "$PYTHON" -m venv .venv
  .venv/bin/python -m pip install --quiet --disable-pip-version-check -r python/requirements-test.txt
  # The package itself, editable: its engine is the repo's bundle (built by `npm run build` + scripts/bundle-python.mjs).
  .venv/bin/python -m pip install --quiet --disable-pip-version-check --no-deps --no-build-isolation -e ./python 2>/dev/null \
    || .venv/bin/python -m pip install --quiet --disable-pip-version-check --no-deps -e ./python
  echo "python: $(.venv/bin/python --version) in .venv, inspect-ai $(.venv/bin/python -c 'import inspect_ai; print(inspect_ai.__version__)')"
fi
