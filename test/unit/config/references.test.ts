import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { resolveReferences, ReferenceSources } from '../../../src/config/references';
import { parseJsonText } from '../../../src/config/json-file';
import { ConfigError } from '../../../src/config/errors';
import { redactText } from '../../../src/logging/redact';

const FILE = '/etc/xroute/flow.json';
const files: Record<string, string> = { '/run/secrets/amqp_password': 'Mounted-Secret-1\n', '/etc/xroute/local.txt': 'local value' };
const sources: ReferenceSources = {
  env: { AMQP_HOST: 'broker.example', EMPTY: '', API_TOKEN: 'Env-Token-Secret-2' },
  readFile: (f) => {
    if (files[f] === undefined) throw Object.assign(new Error(`ENOENT: open '${f}'`), { code: 'ENOENT' });
    return files[f];
  },
};

const topology = (component: Record<string, unknown>) => ({ Name: 'flow', Receiver: ['rcvr'], rcvr: { ClassName: 'x.Y', ...component } });
const resolved = (component: Record<string, unknown>) =>
  (resolveReferences(topology(component), FILE, true, sources) as { rcvr: Record<string, unknown> }).rcvr;

function problemsOf(component: Record<string, unknown>): string[] {
  try {
    resolveReferences(topology(component), FILE, true, sources);
  } catch (e) {
    if (e instanceof ConfigError) return e.problems.map((p) => `${p.file}|${p.component}|${p.property}|${p.message}`);
    throw e;
  }
  return [];
}

describe('references in configuration strings', () => {
  it('replaces ${NAME} by the environment variable, inside a longer string too', () => {
    expect(resolved({ URI: 'amqp://${AMQP_HOST}:5672/' }).URI).toBe('amqp://broker.example:5672/');
  });

  it('uses the default of ${NAME:-default} when the variable is unset or empty', () => {
    expect(resolved({ A: '${UNSET:-fallback}', B: '${EMPTY:-d}', C: '${AMQP_HOST:-d}' })).toMatchObject({ A: 'fallback', B: 'd', C: 'broker.example' });
  });

  it('reads ${file:/path} without its trailing newline, relative paths against the file directory', () => {
    expect(resolved({ Password: '${file:/run/secrets/amqp_password}', Note: '${file:local.txt}' })).toMatchObject({
      Password: 'Mounted-Secret-1',
      Note: 'local value',
    });
  });

  it('turns $${ into a literal ${', () => {
    expect(resolved({ Template: 'cost: $${amount}' }).Template).toBe('cost: ${amount}');
  });

  it('resolves strings in lists and nested maps', () => {
    expect(resolved({ OutLink: ['${UNSET:-a}', { Name: '${UNSET:-b}' }] }).OutLink).toEqual(['a', { Name: 'b' }]);
  });

  it('names the file, the component, the property and the variable of an unset variable', () => {
    expect(problemsOf({ Ruleset: { r1: { Pattern: '${MISSING_VAR}' } } })).toEqual([
      `${FILE}|rcvr|Ruleset/r1/Pattern|\${MISSING_VAR}: the environment variable MISSING_VAR is not set (give a default with \${MISSING_VAR:-default})`,
    ]);
  });

  it('names the file reference that cannot be read', () => {
    expect(problemsOf({ Password: '${file:/run/secrets/none}' })[0]).toMatch(
      /rcvr\|Password\|\$\{file:\/run\/secrets\/none\}: cannot read the file \/run\/secrets\/none \(ENOENT\)/,
    );
  });

  it('reports every bad reference at once, malformed ones included', () => {
    expect(problemsOf({ A: '${A B}', B: '${NOPE}' })).toHaveLength(2);
  });

  it('masks values that came from a reference under a secret key, and every file reference, wherever they appear', () => {
    resolved({ Token: '${API_TOKEN}', Password: '${file:/run/secrets/amqp_password}' });
    expect(redactText('server said Env-Token-Secret-2 / Mounted-Secret-1')).toBe('server said *** / ***');
  });

  it('names a component file by its Name', () => {
    expect(() => resolveReferences({ Name: 'pstr', ClassName: 'x.Y', URI: '${NOPE}' }, '/c/pstr.json', false, sources)).toThrow('pstr: URI: ${NOPE}');
  });
});

describe('configuration files', () => {
  it('accept a UTF-8 byte-order mark', () => {
    expect(parseJsonText('\uFEFF{"Name":"flow"}', 'flow.json')).toEqual({ Name: 'flow' });
  });

  it('resolve references when a file is loaded', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'xroute-refs-'));
    try {
      fs.writeFileSync(path.join(dir, 'pw'), 'From-File-3\n');
      const file = path.join(dir, 'flow.json');
      expect(parseJsonText('{"Name":"n","Receiver":["r"],"r":{"Password":"${file:pw}"}}', file)).toEqual({
        Name: 'n',
        Receiver: ['r'],
        r: { Password: 'From-File-3' },
      });
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
