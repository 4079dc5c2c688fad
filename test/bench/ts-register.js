/**
 * Lets a child `node` process load TypeScript sources directly (the bench's child processes when the bench
 * itself runs from .ts under jest): `node -r ./ts-register.js child.ts`. The compiled bench (dist/) does not
 * need it. Transpile only (no type check), with the project's own TypeScript.
 */
const fs = require('node:fs');
const ts = require('typescript');

require.extensions['.ts'] = function compileTypeScript(module, filename) {
  const source = fs.readFileSync(filename, 'utf8');
  const { outputText } = ts.transpileModule(source, {
    fileName: filename,
    compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022, esModuleInterop: true },
  });
  module._compile(outputText, filename);
};
