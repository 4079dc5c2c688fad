/**
 * Lets a child `node` process load TypeScript sources directly (the bench's child processes when the bench
 * itself runs from .ts under jest): `node -r ./swc-register.js child.ts`. The compiled bench (dist/) does not
 * need it.
 */
const fs = require('node:fs');
const { transformSync } = require('@swc/core');

require.extensions['.ts'] = function compileTypeScript(module, filename) {
  const source = fs.readFileSync(filename, 'utf8');
  const { code } = transformSync(source, {
    filename,
    jsc: { parser: { syntax: 'typescript' }, target: 'es2022' },
    module: { type: 'commonjs' },
  });
  module._compile(code, filename);
};
