import { Message, countInvalidUtf8 } from '../../../src/message/message';
import { XQueue } from '../../../src/xqueue/xqueue';
import { messageEvaluatorComponent } from '../../../actors/persisters/message-evaluator';
import { Harness, runComponent } from '../../support/component-harness';

const CORRUPT = Buffer.from([0x6f, 0x6b, 0xff, 0x20, 0xc3, 0x28, 0x20, 0xef, 0xbf, 0xbd]); // "ok", 0xFF, bad 2-byte, a genuine U+FFFD

describe('invalid UTF-8 in a body is made visible', () => {
  it('counts each invalid sequence but not a genuine U+FFFD', () => {
    expect(countInvalidUtf8(CORRUPT)).toBe(2);
    expect(countInvalidUtf8(Buffer.from('plain é text \uFFFD'))).toBe(0);
  });

  it('reports 0 for text, map and absent bodies', () => {
    expect(Message.text('\uFFFD').invalidUtf8Sequences()).toBe(0);
    expect(new Message().invalidUtf8Sequences()).toBe(0);
  });

  describe('in a MessageEvaluator', () => {
    let harness: Harness | undefined;
    afterEach(() => harness?.stop());

    it('warns once per component and counts every corrupt body in status', async () => {
      const input = new XQueue<Message>('in', 4);
      harness = runComponent(messageEvaluatorComponent, { config: { Name: 'eval', Ruleset: { r: { PatternGroup: [{ Pattern: ['ok'] }] } } }, input });
      const evaluate = (m: Message) => new Promise<Message>((resolve, reject) => input.put(m, (done) => resolve(done)).catch(reject));
      for (let i = 0; i < 3; i++) await evaluate(Message.bytes(CORRUPT, { RuleName: 'r' }));
      await evaluate(Message.bytes(Buffer.from('ok'), { RuleName: 'r' }));
      const warnings = harness.logs.filter((l) => l.level === 'warn' && /invalid UTF-8/.test(l.message));
      expect(warnings).toHaveLength(1);
      expect(warnings[0].meta).toMatchObject({ invalidSequences: 2 });
      expect(JSON.stringify(harness.status.get())).toContain('"invalidUtf8Bodies":3');
    });
  });
});
