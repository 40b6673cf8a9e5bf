/**
 * Which Vitest project runs each test file (vitest.config.ts; docs/development.md, "Unit and end-to-end tests").
 *
 * - unit: in-process tests. They start no process: the unit project's setup file (test/helpers/unit-guard.ts) makes
 *   every child_process call throw, and test/projects.test.ts checks that no unit file imports a helper that starts
 *   one. `npm run test:unit`.
 * - e2e: child processes (the CLI, agents, git, Python), real Vitest and Jest runs, bubblewrap, Chromium and the
 *   packed tarball. `npm run test:e2e`.
 *
 * A test file not matched here is a unit test. A file that starts a process belongs in E2E_TESTS.
 */

export const TEST_FILES = 'test/**/*.test.ts'
export const EVAL_FILES = 'evals/**/*.eval.ts'

export const E2E_TESTS = [
  // Vitest and Jest runs of fixture projects, the OS sandbox, CI over the packed tarball
  'test/vitest/**/*.test.ts',
  'test/jest/**/*.test.ts',
  'test/isolation/**/*.test.ts',
  'test/ci/**/*.test.ts',
  'test/datasets/dabench/**/*.test.ts',
  'test/build/bundle.test.ts',
  'test/build/package.test.ts',
  'test/docs/runnable-blocks.test.ts',
  // Chromium, and the reporter or the CLI writing the HTML report (the report reads the project's git commit)
  'test/report-builder/html/*-browser.test.ts',
  'test/report-builder/html/report-cli.test.ts',
  'test/report-builder/html/report-reporter.test.ts',
  // the CLI in-process or as a child: git for the report's commit, agents as processes under prlimit or bubblewrap
  'test/cli/conformance.test.ts',
  'test/cli/datasets.test.ts',
  'test/cli/input-validation.test.ts',
  'test/cli/outputs.test.ts',
  'test/cli/provider.test.ts',
  'test/cli/qa.test.ts',
  'test/cli/resume.test.ts',
  'test/cli/robust.test.ts',
  'test/cli/run.test.ts',
  'test/cli/safe-outputs.test.ts',
  'test/cli/summary.test.ts',
  'test/adapters/data-agent/heavy-query.test.ts',
  'test/adapters/data-agent/records.test.ts',
  'test/datasets/column-alignment.test.ts',
  'test/files/folder-lock.test.ts',
  'test/gateway/agents.test.ts',
  'test/gateway/connection-flood.test.ts',
  'test/gateway/presets.test.ts',
  'test/grading/answers/dabench.test.ts',
  'test/matchers/distribution.test.ts',
  'test/report-builder/github/output.test.ts',
  'test/report-builder/injection.test.ts',
  'test/report-builder/project-commit.test.ts',
  'test/report-builder/proto-keys.test.ts',
  'test/report-builder/qa-hashes.test.ts',
  'test/run/huge-values.test.ts',
  'test/run/journal.test.ts',
  'test/stats/units-gate.test.ts',
  // transcripts through the CLI and the data agent's qa; the framework recipes from the packed tarball
  'test/gateway/transcripts-run.test.ts',
  'test/adapters/data-agent/transcripts.test.ts',
  'test/docs/frameworks.test.ts',
  // OpenTelemetry out through the CLI
  'test/report-builder/tracing.test.ts',
  // the viewer: the CLI as a child, Chromium
  'test/viewer/view-cli.test.ts',
  'test/viewer/view-e2e.test.ts',
  'test/viewer/viewer-browser.test.ts',
]
