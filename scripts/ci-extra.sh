#!/usr/bin/env bash
# CI after the main suite (.ci/run): the Node versions and the Python / real-client suites (issue #28).
#   1. install Node 22 and 24 (npm registry `node` package), promptfoo, and a Python venv (scripts/setup-real-clients.sh)
#   2. the whole vitest suite on Node 22 and on Node 24, as on Node 20 just before (CI has 90 minutes on 2 cores;
#      the suite is about 9 minutes of CPU, so about 5 minutes a Node version on 2 idle cores: see docs/python.md).
#      BENCHPLAN_CI_SMOKE=1 runs only a smoke subset instead (SMOKE below), BENCHPLAN_CI_SMOKE="FILES…" those files.
#   3. the real-client tests (promptfoo, current version, on Node 22) and the Python package's pytest suite
#      (inspect-ai running a task on its mock model, the notebook executed)
# Each part prints its own `N passed, N failed`; the last line is their sum. A part that cannot run
# (install failed, runner crashed without a summary) counts as one failure, never as a pass.
set -uo pipefail
cd "$(dirname "$0")/.."

passed=0
failed=0
add() { # label, text holding a summary line, exit status
  local line p f
  line=$(printf '%s\n' "$2" | grep -E '^[0-9]+ passed, [0-9]+ failed$' | tail -n 1)
  if [ -z "$line" ]; then
    echo "ci-extra: $1: no summary line (exit status $3): counted as 1 failed"
    failed=$((failed + 1)); return
  fi
  p=${line%% passed*}; f=${line##*, }; f=${f%% failed}
  if [ "$3" != 0 ] && [ "$f" = 0 ]; then f=1; fi
  echo "ci-extra: $1: $p passed, $f failed"
  passed=$((passed + p)); failed=$((failed + f))
}

# With BENCHPLAN_CI_SMOKE=1, the vitest files run on Node 22 and 24: the CLI end to end, the bundle, numbers against references.
SMOKE=(tests/cli tests/bootstrap tests/import tests/data tests/promptfoo-hook.test.ts tests/summary-reporter.test.ts)

out=$(scripts/setup-real-clients.sh 2>&1); status=$?
printf '%s\n' "$out"
if [ "$status" != 0 ]; then
  add "setup-real-clients" "" "$status"
else
  for version in 22 24; do
    node_bin=.tools/node$version/node_modules/.bin/node
    # The whole suite (no file arguments); BENCHPLAN_CI_SMOKE=1: the smoke subset; BENCHPLAN_CI_SMOKE="FILES…": those files.
    if [ -z "${BENCHPLAN_CI_SMOKE:-}" ]; then files=(); elif [ "$BENCHPLAN_CI_SMOKE" = 1 ]; then files=("${SMOKE[@]}"); else read -r -a files <<< "$BENCHPLAN_CI_SMOKE"; fi
    log=$(mktemp)
    "$node_bin" node_modules/vitest/vitest.mjs run "${files[@]}" 2>&1 | tee "$log" | tail -n 5
    add "vitest on Node $("$node_bin" --version)" "$(cat "$log")" "${PIPESTATUS[0]}"
    rm -f "$log"
  done
  log=$(mktemp)
  BENCHPLAN_REAL_CLIENTS=1 npx vitest run tests/real-clients/promptfoo.test.ts 2>&1 | tee "$log" | tail -n 12
  add "real clients (vitest)" "$(cat "$log")" "${PIPESTATUS[0]}"
  rm -f "$log"
  log=$(mktemp)
  node scripts/bundle-python.mjs >/dev/null  # the editable package's engine, from this commit's build
  .venv/bin/python -m pytest -q -p no:cacheprovider python/tests 2>&1 | tee "$log" | tail -n 8
  status=${PIPESTATUS[0]}
  # pytest's own summary (e.g. "20 passed, 1 skipped in 9.12s") as N passed, N failed (errors count as failed).
  summary=$(grep -E '(passed|failed|errors?|skipped|no tests ran).* in [0-9.]+s' "$log" | tail -n 1)
  p=0; f=0
  for n in $(printf '%s' "$summary" | grep -oE '[0-9]+ passed' | grep -oE '^[0-9]+'); do p=$((p + n)); done
  for n in $(printf '%s' "$summary" | grep -oE '[0-9]+ (failed|errors?)' | grep -oE '^[0-9]+'); do f=$((f + n)); done
  if [ -n "$summary" ]; then add "python (pytest)" "$p passed, $f failed" "$status"; else add "python (pytest)" "" "$status"; fi
  rm -f "$log"
  # The package as a user gets it: `pip install ./python` into a fresh venv (its backend bundles the CLI), then one
  # number from it equal to the CLI's.
  wheel_dir=$(mktemp -d)
  if "${PYTHON:-python3}" -m venv "$wheel_dir/venv" && "$wheel_dir/venv/bin/pip" install -q --disable-pip-version-check ./python \
    && "$wheel_dir/venv/bin/python" - <<'PY'
import json, subprocess, benchplan
assert "/site-packages/" in str(benchplan.engine_path()), benchplan.engine_path()
cli = json.loads(subprocess.run(["node", "bin/benchplan.js", "compare", "examples/scores.csv", "--json"], capture_output=True, text=True, check=True).stdout)
assert benchplan.compare("examples/scores.csv").to_dict() == cli
print("ci-extra: pip install ./python: the installed package gives the CLI's numbers")
PY
  then add "pip install ./python" "1 passed, 0 failed" 0; else add "pip install ./python" "0 passed, 1 failed" 1; fi
  rm -rf "$wheel_dir"
fi
echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
