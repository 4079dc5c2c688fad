#!/usr/bin/env node
// `npm test`: the unit and integration suites (in parallel workers), then the fault suite alone (each fault test
// stops, restarts and kills a private RabbitMQ node of its own, which needs the machine's attention for timing;
// the system broker on 5672 is only used). Ends with one summary line "tests: N passed, N failed".
'use strict';
const { spawnSync } = require('child_process');
const fs = require('fs');
const path = require('path');

const root = path.resolve(__dirname, '..');
const out = path.join(root, '.tmp');
fs.mkdirSync(out, { recursive: true });
const jest = require.resolve('jest/bin/jest');
const extra = process.argv.slice(2);
// Private RabbitMQ nodes started by this run's tests carry this id; the clean-up at the end stops only those.
process.env.XROUTE_TEST_RUN = process.env.XROUTE_TEST_RUN || String(process.pid);

function runJest(name, args) {
  const outputFile = path.join(out, `jest-${name}.json`);
  fs.rmSync(outputFile, { force: true });
  const r = spawnSync(process.execPath, [jest, ...args, '--json', `--outputFile=${outputFile}`, ...extra], { cwd: root, stdio: 'inherit' });
  let passed = 0,
    failed = 0,
    suitesFailed = 0;
  try {
    const j = JSON.parse(fs.readFileSync(outputFile, 'utf8'));
    passed = j.numPassedTests;
    failed = j.numFailedTests;
    suitesFailed = j.numFailedTestSuites + (j.numRuntimeErrorTestSuites || 0);
  } catch (e) {
    suitesFailed = 1;
  }
  return { status: r.status, passed, failed, suitesFailed };
}

const stages = [
  ['main', ['--selectProjects', 'unit', 'integration', 'conformance', '--maxWorkers=2']],
  ['fault', ['--selectProjects', 'fault', '--runInBand', '--passWithNoTests']],
];
async function main() {
  let passed = 0,
    failed = 0,
    bad = false;
  try {
    for (const [name, args] of stages) {
      const r = runJest(name, args);
      passed += r.passed;
      failed += r.failed;
      if (r.status !== 0 || r.suitesFailed > 0) bad = true;
    }
  } finally {
    // Whatever happened above, no private broker of this run outlives it.
    const left = await require('./support/private-rabbitmq').stopLeftoverPrivateNodes();
    if (left.length > 0) console.log(`stopped ${left.length} private RabbitMQ node(s) left running: ${left.join(', ')}`);
  }
  console.log(`tests: ${passed} passed, ${failed} failed`);
  process.exit(bad || failed > 0 ? 1 : 0);
}
main();
