// Makes Debian packages that tests need available on a new machine: chromium for the browser tests, xsltproc and
// xmllint (libxml2-utils) as the conformance oracles. Installs the distribution package with apt-get (never a
// download of its own); waits for another apt run's lock instead of failing; a package that cannot be installed
// makes the test fail, naming it (a test never skips). Plain JS so a jest set-up or a shell can call it:
// `node test/support/debian-packages.js chromium xsltproc xmllint`.
'use strict';
const fs = require('fs');
const { execFileSync } = require('child_process');

/** The executable each tool is checked by, and the Debian package that ships it. */
const TOOLS = {
  chromium: { path: '/usr/bin/chromium', pkg: 'chromium' },
  xsltproc: { path: '/usr/bin/xsltproc', pkg: 'xsltproc' },
  xmllint: { path: '/usr/bin/xmllint', pkg: 'libxml2-utils' },
};

function apt(args) {
  const sudo = process.getuid && process.getuid() !== 0 ? ['sudo', '-n'] : [];
  const argv = [...sudo, 'apt-get', '-o', 'DPkg::Lock::Timeout=600', ...args];
  execFileSync(argv[0], argv.slice(1), {
    stdio: ['ignore', 'ignore', 'inherit'],
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
    timeout: 900_000,
  });
}

/** Returns the path of `tool` (a key of TOOLS), installing its package first when it is missing. */
function ensureTool(tool) {
  const t = TOOLS[tool];
  if (!t) throw new Error(`unknown tool ${tool}: known ${Object.keys(TOOLS).join(', ')}`);
  if (fs.existsSync(t.path)) return t.path;
  try {
    apt(['install', '-y', '--no-install-recommends', t.pkg]);
  } catch {
    apt(['update']);
    apt(['install', '-y', '--no-install-recommends', t.pkg]);
  }
  if (!fs.existsSync(t.path)) throw new Error(`apt-get installed ${t.pkg} but ${t.path} is missing`);
  return t.path;
}

/** Returns the chromium path, installing the package first when it is missing. */
function ensureChromium() {
  return ensureTool('chromium');
}

module.exports = { ensureTool, ensureChromium, TOOLS };

if (require.main === module) for (const tool of process.argv.slice(2)) process.stdout.write(ensureTool(tool) + '\n');
