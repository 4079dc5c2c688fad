/**
 * `xroute run --admin` as a real process: the endpoint comes up where told, `xroute status` reads it, and
 * SIGTERM stops the flow cleanly, logging each component's totals. Needs the build (dist/).
 */
import { runXroute, scratchDir, startXrouteRun, writeFlowFile } from '../../support/xroute-cli';
import { waitForOutput } from '../../support/process-output';

function topologyFile(): string {
  return writeFlowFile(
    {
      Name: 'cli-admin',
      Persister: ['pstr_eval'],
      pstr_eval: { ClassName: 'org.qbroker.persister.MessageEvaluator', URI: 'eval://', LinkName: 'eval', Ruleset: { r: {} } },
    },
    scratchDir('xroute-admin-cli-'),
  );
}

describe('xroute run --admin (process)', () => {
  it('serves the admin endpoint where told, answers xroute status, and logs the totals at SIGTERM', async () => {
    const { child, url } = await startXrouteRun(topologyFile());
    try {
      const ready = await fetch(`${url}/readyz`);
      expect(ready.status).toBe(200);
      const status = await runXroute(['status', '--admin', url]);
      expect(status.code).toBe(0);
      expect(status.stdout).toMatch(/^flow cli-admin: ready/);
      const totals = waitForOutput(
        child,
        /"message":"component totals"[^\n]*"component":"pstr_eval"|"component":"pstr_eval"[^\n]*"message":"component totals"/,
      );
      const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
      child.kill('SIGTERM');
      await totals;
      expect(await exited).toBe(0);
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
    }
  }, 60_000);

  it('rejects a malformed --admin with exit 2, naming the option', async () => {
    const r = await runXroute(['run', topologyFile(), '--admin', 'localhost:http']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--admin "localhost:http": expected HOST:PORT');
  }, 30_000);
});
