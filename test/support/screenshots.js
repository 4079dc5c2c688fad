// Regenerates the status page pictures in docs/ (`npm run screenshots`): runs the chromium test of a flow that gets
// stuck and recovers (test/integration/ops/status-page-stuck.test.ts, against RabbitMQ on 127.0.0.1:5672), which
// saves them in .tmp/, then copies them to docs/ where docs/operations.md shows them. Fails when the test fails.
'use strict';
const fs = require('fs');
const path = require('path');
const { execFileSync } = require('child_process');

const ROOT = path.resolve(__dirname, '../..');
const PICTURES = ['status-page.png', 'status-page-stuck.png'];

execFileSync(
  process.execPath,
  [path.join(ROOT, 'node_modules/jest/bin/jest.js'), '--selectProjects', 'integration', '--runInBand', 'test/integration/ops/status-page-stuck.test.ts'],
  { cwd: ROOT, stdio: 'inherit' },
);
for (const name of PICTURES) {
  fs.copyFileSync(path.join(ROOT, '.tmp', name), path.join(ROOT, 'docs', name));
  process.stdout.write(`docs/${name} regenerated\n`);
}
