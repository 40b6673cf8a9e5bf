#!/usr/bin/env bash
# The consumer tests (the packed tarball installed into new projects: the README's eval, CommonJS, the docs'
# runnable blocks, Jest, the gated pull request) on today's newer stacks: Node 22 and Node 24, each with the
# latest Vitest 5. `npm test` runs the same files on Node 20 with the pinned Vitest 4.1. The Node binaries come
# from the npm registry's `node` package; nothing else is downloaded. Called by .ci/run after `npm test`.
set -euo pipefail
cd "$(dirname "$0")/../.."

FILES=(test/build/package.test.ts test/docs/runnable-blocks.test.ts test/jest/runs.test.ts test/ci/pr-gate.test.ts)
NODES=(${CROSS_STACK_NODES:-22 24})

# The newest Vitest 5 on the registry (`npm view` lists every version in the range; the last is the newest).
vitest=$(npm view 'vitest@^5' version --json | node -e 'const v = JSON.parse(require("fs").readFileSync(0, "utf8")); console.log([].concat(v).pop())')

scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
summary=()
passed=0
failed=0
for major in "${NODES[@]}"; do
  dir="$scratch/node$major"
  mkdir -p "$dir"
  echo '{ "private": true }' > "$dir/package.json"
  npm install --prefix "$dir" --no-audit --no-fund --loglevel=error "node@$major" >/dev/null
  bin="$dir/node_modules/.bin"
  version=$("$bin/node" --version)
  echo "== cross-stack: Node $version + Vitest $vitest"
  start=$SECONDS
  # npm and every `node` a test starts resolve to this Node through PATH; the tests' own Vitest stays the pinned one.
  if PATH="$bin:$PATH" DATAFORGE_TEST_VITEST="$vitest" "$bin/node" node_modules/vitest/vitest.mjs run "${FILES[@]}" --maxWorkers=2; then
    status=passed
    passed=$((passed + 1))
  else
    status=FAILED
    failed=$((failed + 1))
  fi
  summary+=("Node $version + Vitest $vitest: $status in $((SECONDS - start)) s")
done

echo
echo "cross-stack consumer tests (${#FILES[@]} files on each stack):"
printf '  %s\n' "${summary[@]}"
echo "cross-stack: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
