/**
 * The reload triggers of `xroute run` (src/cli/reload-trigger.ts), run in process: SIGHUP, --watch (a file the
 * topology references), `xroute reload` through the admin endpoint (--dry-run, --json, the token), and a file that
 * does not validate (refused with what `xroute validate` prints). One path: each re-reads the file and reloads.
 */
import { EventEmitter } from 'node:events';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { defaultRegistry } from '../../../actors';
import { runCommand, validateCommand } from '../../../src/cli/commands';
import { readTopologyFile } from '../../../src/cli/reload-trigger';
import { reloadCommand } from '../../../src/cli/reload-command';
import { memoryLogger, LogEntry } from '../../../src/logging/logger';
import type { ReloadReceipt } from '../../../src/runtime/reload-receipt';
import { waitFor } from '../runtime/helpers';
import { captureIo } from '../../support/captured-io';

const TOKEN = 'reload-test-token-5c2e8a1f9d3b';

/** A flow of one MessageEvaluator reached only through the API: it needs no broker. */
function topology(template: string, extra: Record<string, unknown> = {}) {
  return {
    Name: 'reloadable',
    Persister: ['pstr_eval'],
    pstr_eval: {
      ClassName: 'org.qbroker.persister.MessageEvaluator',
      LinkName: 'eval',
      Ruleset: { greet: { FormatterArgument: [{ FieldName: 'body', Template: [template] }] }, label: { TemplateFile: 'label.txt' } },
      ...extra,
    },
  };
}

/** The receipts the flow and the reload path logged, in order. */
const receipts = (entries: LogEntry[]) =>
  entries.filter((e) => /^reload (applied|unchanged|refused|rolled-back)$/.test(e.message)).map((e) => e.meta.receipt as ReloadReceipt);

describe('the reload triggers of xroute run', () => {
  let dir: string;
  let file: string;
  let entries: LogEntry[];
  let stop: () => void;
  let run: Promise<number>;
  const signals = new EventEmitter();

  const start = (options: { watch?: boolean; admin?: boolean } = {}) => {
    entries = [];
    let resolveStop: (s: string) => void = () => undefined;
    const stopSignal = new Promise<string>((r) => (resolveStop = r));
    stop = () => resolveStop('SIGTERM');
    const operations = options.admin ? { admin: { host: '127.0.0.1', port: 0 }, adminSecurity: { token: TOKEN } } : {};
    run = runCommand(file, defaultRegistry(), captureIo().io, memoryLogger(entries), stopSignal, {
      keepRunning: true,
      watch: options.watch,
      signals,
      operations,
    });
    return waitFor(() => entries.some((e) => e.message === 'flow started'), 'the flow started');
  };

  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'xroute-reload-'));
    file = path.join(dir, 'flow.json');
    writeFileSync(file, JSON.stringify(topology('Hello, ##body##!')));
    writeFileSync(path.join(dir, 'label.txt'), 'LABEL ##body##');
  });
  afterEach(async () => {
    stop();
    expect(await run).toBe(0);
    rmSync(dir, { recursive: true, force: true });
  });

  it('reloads the topology file on SIGHUP, replacing the component whose ruleset changed', async () => {
    await start();
    writeFileSync(file, JSON.stringify(topology('Bonjour, ##body##!')));
    signals.emit('SIGHUP');
    await waitFor(() => receipts(entries).length === 1, 'the receipt');
    const [r] = receipts(entries);
    expect([r.trigger, r.outcome, r.components.map((c) => [c.name, c.action])]).toEqual(['signal', 'applied', [['pstr_eval', 'replaced']]]);
  });

  it('stops listening for SIGHUP when the flow stops', async () => {
    await start();
    const during = signals.listenerCount('SIGHUP');
    stop();
    await run;
    expect([during, signals.listenerCount('SIGHUP')]).toEqual([1, 0]);
  });

  it('with --watch, reloads when a file a component references changes', async () => {
    await start({ watch: true });
    writeFileSync(path.join(dir, 'label.txt'), 'SHIP ##body##');
    await waitFor(() => receipts(entries).length === 1, 'the receipt');
    const [r] = receipts(entries);
    expect([r.trigger, r.outcome, r.components.map((c) => [c.name, c.action])]).toEqual(['watch', 'applied', [['pstr_eval', 'replaced']]]);
  });

  it('with --watch, gives one reload for an editor saving in several writes', async () => {
    await start({ watch: true });
    for (const step of ['', '{', JSON.stringify(topology('Hi, ##body##!'))]) writeFileSync(file, step);
    await waitFor(() => receipts(entries).length === 1, 'the receipt');
    // A later save gives the next receipt: had the three writes given more than one reload, they would come first.
    writeFileSync(file, JSON.stringify(topology('Hey, ##body##!')));
    await waitFor(() => receipts(entries).length === 2, 'the second receipt');
    expect(receipts(entries).map((r) => r.outcome)).toEqual(['applied', 'applied']);
  });

  it('refuses a file that does not validate with exactly what xroute validate prints, and changes nothing', async () => {
    await start();
    writeFileSync(file, JSON.stringify(topology('Hi', { Ruleset: { bad: { PatternGroup: [{ Pattern: ['(unclosed'] }] } } })));
    const validate = captureIo();
    validateCommand([file], defaultRegistry(), validate.io);
    signals.emit('SIGHUP');
    await waitFor(() => receipts(entries).length === 1, 'the receipt');
    const [r] = receipts(entries);
    expect([r.outcome, r.error + '\n', r.components]).toEqual(['refused', validate.err(), []]);
  });

  it('xroute reload --dry-run prints the plan and changes nothing; xroute reload then applies it', async () => {
    await start({ admin: true });
    const admin = entries.find((e) => e.message === 'admin endpoint listening')!.meta.url as string;
    writeFileSync(file, JSON.stringify(topology('Bonjour, ##body##!')));
    const dry = captureIo();
    const dryCode = await reloadCommand({ admin, dryRun: true, json: false }, dry.io, { XROUTE_ADMIN_TOKEN: TOKEN });
    const real = captureIo();
    const realCode = await reloadCommand({ admin, dryRun: false, json: true }, real.io, { XROUTE_ADMIN_TOKEN: TOKEN });
    const applied = JSON.parse(real.out()) as ReloadReceipt;
    expect([dryCode, dry.out(), realCode, applied.outcome, applied.trigger, applied.components.map((c) => c.action)]).toEqual([
      0,
      expect.stringMatching(
        /^dry run of flow reloadable: would apply \(admin, [0-9a-f-]+\)\n {2}replaced +pstr_eval \(persister\.MessageEvaluator\); changed: Ruleset/,
      ),
      0,
      'applied',
      'admin',
      ['replaced'],
    ]);
  });

  it('xroute reload without the token exits 2 with the endpoint’s reason, and nothing is reloaded', async () => {
    await start({ admin: true });
    const admin = entries.find((e) => e.message === 'admin endpoint listening')!.meta.url as string;
    const out = captureIo();
    const code = await reloadCommand({ admin, dryRun: false, json: false }, out.io, {});
    expect([code, out.err(), receipts(entries)]).toEqual([2, expect.stringContaining('HTTP 401: this route needs the admin token'), []]);
  });
});

describe('readTopologyFile', () => {
  it('names the file as given, as xroute validate does', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'xroute-reload-'));
    try {
      writeFileSync(path.join(dir, 'flow.json'), '{"Persister": ["p"], "p": {"ClassName": "NoSuchClass", "LinkName": "l"}}');
      const given = path.relative(process.cwd(), path.join(dir, 'flow.json'));
      const read = readTopologyFile(given, defaultRegistry());
      expect('error' in read && read.error.startsWith(`error: ${given}: p: ClassName:`)).toBe(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
