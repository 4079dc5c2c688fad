import { buildTopology } from '../../../src/config/topology';
import { ConfigError } from '../../../src/config/errors';
import { Flow } from '../../../src/runtime/flow';
import { Message } from '../../../src/message/message';
import { defaultRegistry } from '../../../actors';

const evaluatorTopology = (ruleset: Record<string, unknown>) => ({
  Name: 'eval-flow',
  Persister: ['pstr_eval'],
  pstr_eval: { ClassName: 'org.qbroker.persister.MessageEvaluator', URI: 'eval://', LinkName: 'eval', Capacity: '4', Ruleset: ruleset },
});

describe('MessageEvaluator component in a flow', () => {
  const registry = defaultRegistry();

  it('bounces back an evaluated message with ReturnCode 0 and the transformed body', async () => {
    const t = buildTopology(
      evaluatorTopology({ upper: { JMSPropertyGroup: [{ Kind: '^a$' }], FormatterArgument: [{ FieldName: 'body', Template: ['##Kind##:##body##'] }] } }),
      '/t/flow.json',
      registry,
    );
    const flow = Flow.start(t, { registry });
    const { outcome, message } = await flow.send('eval', Message.text('x', { RuleName: 'upper', Kind: 'a', ReturnCode: '7' }));
    expect([outcome, message.getProperty('ReturnCode'), message.getProperty('OriginalRC'), message.bodyText()]).toEqual(['done', '0', '7', 'a:x']);
    await flow.stop();
  });

  it('gives ReturnCode 1 when the pattern does not match', async () => {
    const t = buildTopology(evaluatorTopology({ only_a: { JMSPropertyGroup: [{ Kind: '^a$' }] } }), '/t/flow.json', registry);
    const flow = Flow.start(t, { registry });
    const { message } = await flow.send('eval', Message.text('x', { RuleName: 'only_a', Kind: 'b' }));
    expect(message.getProperty('ReturnCode')).toBe('1');
    await flow.stop();
  });

  it('gives ReturnCode -1 for an unknown rule name', async () => {
    const t = buildTopology(evaluatorTopology({ r: {} }), '/t/flow.json', registry);
    const flow = Flow.start(t, { registry });
    const { message } = await flow.send('eval', Message.text('x', { RuleName: 'nope' }));
    expect(message.getProperty('ReturnCode')).toBe('-1');
    await flow.stop();
  });

  it('rejects a ruleset with a bad regex at load time, naming the ruleset', () => {
    let error: unknown;
    try {
      buildTopology(evaluatorTopology({ broken: { PatternGroup: [{ Pattern: ['(unclosed'] }] } }), '/t/flow.json', registry);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).problems[0]).toMatchObject({ component: 'pstr_eval', property: expect.stringContaining('Ruleset/broken') });
  });
});
