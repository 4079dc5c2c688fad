/** `xroute run` reads XROUTE_ADMIN_TOKEN and takes it out of the environment the processes of its flow inherit. */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { PassThrough } from 'node:stream';
import { main } from '../../../src/cli/main';

it('removes XROUTE_ADMIN_TOKEN from the environment once it has read it', async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'xroute-token-env-'));
  try {
    const file = path.join(dir, 'flow.json');
    writeFileSync(
      file,
      JSON.stringify({
        Name: 'env',
        Persister: ['pstr'],
        pstr: {
          ClassName: 'org.qbroker.persister.MessageEvaluator',
          LinkName: 'eval',
          Ruleset: { all: { FormatterArgument: [{ FieldName: 'body', Template: ['x'] }] } },
        },
      }),
    );
    const env: NodeJS.ProcessEnv = { XROUTE_ADMIN_TOKEN: 'env-token-0123456789abcdef', XROUTE_LOG_LEVEL: 'error' };
    const code = await main(
      ['run', file, '--admin', '127.0.0.1:0'],
      { stdin: new PassThrough(), stdout: new PassThrough(), stderr: new PassThrough(), env },
      Promise.resolve('SIGTERM'),
    );
    expect([code, 'XROUTE_ADMIN_TOKEN' in env]).toEqual([0, false]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
