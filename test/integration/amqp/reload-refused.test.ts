/**
 * An invalid new topology is refused while the flow runs on the real RabbitMQ (issue 27): a bad regex, a missing
 * XSLFile, an unknown ClassName, a link cycle. Each receipt names file, component and property as `xroute
 * validate` does; the flow keeps moving and nothing restarts. Runs about 6 s.
 */
import { waitFor } from '../../support/component-harness';
import { ReloadRig } from './reload-kit';

jest.setTimeout(120_000);

const RATE = 1_000;
let rig: ReloadRig | undefined;

afterEach(async () => {
  await rig?.cleanup();
  rig = undefined;
});

function escaped(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}

it('refuses a bad regex, a missing XSLFile, an unknown ClassName and a link cycle; the flow keeps moving, nothing restarts', async () => {
  const r = (rig = await ReloadRig.start(RATE));
  const { flow, out, publisher } = r;
  const refs = flow.componentViews().map((c) => c.ref);
  publisher.start();

  const invalid: [string, (j: Record<string, Record<string, unknown>>) => void, RegExp][] = [
    [
      'a bad regex',
      (j) => (j.pstr_eval.Ruleset = { order: { JMSPropertyGroup: [{ kind: '^(order$' }] } }),
      /pstr_eval: Ruleset\/order\/JMSPropertyGroup\[0\]\.kind: bad regular expression/,
    ],
    ['a missing XSLFile', (j) => (j.pstr_eval.Ruleset = { order: { XSLFile: 'no-such.xsl' } }), /pstr_eval: Ruleset\/order\/XSLFile: .*no-such\.xsl/],
    ['an unknown ClassName', (j) => (j.pstr_eval.ClassName = 'org.qbroker.persister.NoSuchPersister'), /pstr_eval: ClassName: unknown class/],
    ['a link cycle', (j) => (j.node_collect.OutLink = ['out', 'failed', 'failed', 'incoming']), /node_collect: OutLink: links form a cycle/],
  ];
  for (const [what, change, expected] of invalid) {
    const before = out.count;
    const receipt = await flow.reload(r.topology.write('V1:##body##', change));
    expect({ what, outcome: receipt.outcome }).toEqual({ what, outcome: 'refused' });
    expect(receipt.error).toMatch(new RegExp(`${escaped(r.topology.file)}: ${expected.source}`));
    await waitFor(() => out.count >= before + RATE / 2, `${what}: the flow still moving`, 20_000);
  }
  const published = await r.finish();
  const newRuleset = [...out.bodies.values()].filter((b) => !b[0].startsWith('V0:')).length;
  expect({ lost: out.lost(published).length, duplicated: out.duplicated().length, newRuleset }).toEqual({ lost: 0, duplicated: 0, newRuleset: 0 });
  expect(flow.componentViews().map((c) => c.ref)).toEqual(refs);
  expect(flow.status().components.every((c) => c.restarts === 0 && c.reconnects === 0)).toBe(true);
});
