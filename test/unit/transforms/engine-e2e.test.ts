import { MessageEvaluatorEngine } from '../../../src/evaluator';
import { Message } from '../../../src/message';
import { FIXTURES } from './context';

const BODY = '<r><a>A1</a><a>A2</a><b>B</b></r>';

const engine = new MessageEvaluatorEngine(
  {
    Name: 'eval_transforms',
    Ruleset: {
      xp: { XPath: { first: '/r/a', dyn: '/r/##el##' } },
      xcut: { XPath: '/r/b' },
      xmerge: { XMLField: 'src', SourceXPath: '/s/*', TargetXPath: '/r/a' },
      xsl: { XSLFile: 'xsl/greeting.xsl', XSLParameter: { who: '##name##', stat: 'static' } },
      jpath: { JSONPath: { orderId: '.order.id' } },
      jt: { JSONataFile: 'jsonata/jt1.jsonata', JSONParameter: { who: '##name##', k: '42' } },
      jcut: { JSONPath: '.order.items' },
      jmerge: { JSONField: 'src', TargetJSONPath: '.order' },
      onlyOrders: { JMSPropertyGroup: [{ kind: '^order$' }], XPath: '/r/b' },
    },
  },
  { baseDir: FIXTURES, pluginDirs: [] },
);

async function evaluate(rule: string, body: string, props: Record<string, string> = {}): Promise<Message> {
  const msg = Message.text(body, { RuleName: rule, ...props });
  await engine.evaluate(msg);
  return msg;
}

describe('transform kinds through MessageEvaluatorEngine', () => {
  afterAll(() => engine.close());

  it('runs an XPath map and returns 0', async () => {
    const msg = await evaluate('xp', BODY, { el: 'b' });
    expect([msg.getProperty('ReturnCode'), msg.getProperty('first'), msg.getProperty('dyn')]).toEqual(['0', 'A1', 'B']);
  });

  it('runs xcut and returns 0', async () => {
    const msg = await evaluate('xcut', BODY);
    expect([msg.getProperty('ReturnCode'), msg.bodyText()!.includes('<b>')]).toEqual(['0', false]);
  });

  it('runs xmerge and returns 0', async () => {
    const msg = await evaluate('xmerge', BODY, { src: '<s><c>C1</c></s>' });
    expect([msg.getProperty('ReturnCode'), msg.bodyText()!.includes('<c>C1</c>')]).toEqual(['0', true]);
  });

  it('runs XSLT and returns 0', async () => {
    const msg = await evaluate('xsl', '<r><a>A1</a></r>', { name: 'Ann' });
    expect([msg.getProperty('ReturnCode'), msg.bodyText()]).toEqual(['0', 'Hi Annstatic: A1']);
  });

  it('runs a JSONPath map and returns 0', async () => {
    const msg = await evaluate('jpath', '{"order":{"id":"A-7"}}');
    expect([msg.getProperty('ReturnCode'), msg.getProperty('orderId')]).toEqual(['0', 'A-7']);
  });

  it('runs a JSONata template and returns 0', async () => {
    const msg = await evaluate('jt', '{"id":"7","items":[{"n":"1"}]}', { name: 'Ann' });
    expect([msg.getProperty('ReturnCode'), msg.bodyText()]).toEqual(['0', '{"id":"7","k":42,"items":[{"n":"1"}],"who":"Ann"}']);
  });

  it('runs jcut and returns 0', async () => {
    const msg = await evaluate('jcut', '{"order":{"id":"A-7","items":[1]}}');
    expect([msg.getProperty('ReturnCode'), msg.bodyText()]).toEqual(['0', '{"order":{"id":"A-7"}}']);
  });

  it('runs jmerge and returns 0', async () => {
    const msg = await evaluate('jmerge', '{"order":{"id":"A-7"}}', { src: '{"tier":"gold"}' });
    expect([msg.getProperty('ReturnCode'), msg.bodyText()]).toEqual(['0', '{"order":{"id":"A-7","tier":"gold"}}']);
  });

  it('gives -1 for a body that is not XML', async () => {
    const msg = await evaluate('xcut', 'not xml');
    expect([msg.getProperty('ReturnCode'), msg.bodyText()]).toEqual(['-1', 'not xml']);
  });

  it('gives -1 for an XXE body', async () => {
    const msg = await evaluate('xsl', '<!DOCTYPE r [<!ENTITY x SYSTEM "file:///etc/passwd">]><r><a>&x;</a></r>');
    expect(msg.getProperty('ReturnCode')).toBe('-1');
  });

  it('gives -1 for a body that is not JSON', async () => {
    const msg = await evaluate('jt', '{"id":');
    expect(msg.getProperty('ReturnCode')).toBe('-1');
  });

  it('gives 1 and leaves the body when the ruleset filter does not match', async () => {
    const msg = await evaluate('onlyOrders', BODY, { kind: 'invoice' });
    expect([msg.getProperty('ReturnCode'), msg.bodyText()]).toEqual(['1', BODY]);
  });

  it('fails at construction for a stylesheet that does not compile, naming component, ruleset and key', () => {
    expect(() => new MessageEvaluatorEngine({ Name: 'ev', Ruleset: { bad: { XSLFile: 'xsl/broken.xsl' } } }, { baseDir: FIXTURES, pluginDirs: [] })).toThrow(
      /component "ev", ruleset "bad", key XSLFile: stylesheet .*broken\.xsl does not compile/,
    );
  });
});
