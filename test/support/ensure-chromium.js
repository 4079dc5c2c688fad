// Makes Debian's chromium available for the browser tests: a new CI machine does not have it. Installs the
// distribution package with apt-get (never a browser download); waits for another apt run's lock instead of
// failing. Plain JS so a jest set-up or a shell can call it: `node test/support/ensure-chromium.js`.
'use strict';
const fs = require('fs');
const { execFileSync } = require('child_process');

const CHROMIUM = '/usr/bin/chromium';

function apt(args) {
  const sudo = process.getuid && process.getuid() !== 0 ? ['sudo', '-n'] : [];
  const argv = [...sudo, 'apt-get', '-o', 'DPkg::Lock::Timeout=600', ...args];
  execFileSync(argv[0], argv.slice(1), { stdio: ['ignore', 'ignore', 'inherit'], env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' }, timeout: 900_000 });
}

/** Returns the chromium path, installing the package first when it is missing. */
function ensureChromium() {
  if (fs.existsSync(CHROMIUM)) return CHROMIUM;
  try {
    apt(['install', '-y', '--no-install-recommends', 'chromium']);
  } catch {
    apt(['update']);
    apt(['install', '-y', '--no-install-recommends', 'chromium']);
  }
  if (!fs.existsSync(CHROMIUM)) throw new Error(`apt-get installed chromium but ${CHROMIUM} is missing`);
  return CHROMIUM;
}

module.exports = { ensureChromium, CHROMIUM };

if (require.main === module) process.stdout.write(ensureChromium() + '\n');
