/**
 * A message created fresh carries the JMS defaults the original's messages have: JMSPriority 4 and
 * JMSDeliveryMode 2 (persistent), wherever it is created, so templates and patterns see the same values.
 */
import type { ConsumeMessage } from 'amqplib';
import { Message } from '../../../src/message/message';
import { messageFromJson } from '../../../src/message/json-form';
import { messageFromAmqp, messageToAmqp } from '../../../src/transports/amqp091-mapping';
import { MessageEvaluatorEngine } from '../../../src/evaluator';

const bare: Pick<ConsumeMessage, 'content' | 'fields' | 'properties'> = {
  content: Buffer.from('x'),
  fields: { deliveryTag: 1, redelivered: false, exchange: '', routingKey: 'q', consumerTag: 'c' } as ConsumeMessage['fields'],
  properties: { headers: {} } as unknown as ConsumeMessage['properties'],
};

describe('JMS defaults of a fresh message', () => {
  it('a message built through the API has JMSPriority 4 and JMSDeliveryMode 2', () => {
    const m = Message.text('x');
    expect([m.getField('JMSPriority'), m.getField('JMSDeliveryMode')]).toEqual(['4', '2']);
  });

  it('a message read from a JSON line (xroute eval) without those headers has them at 4 and 2', () => {
    const m = messageFromJson({ body: 'x' });
    expect([m.headers.JMSPriority, m.headers.JMSDeliveryMode]).toEqual([4, 2]);
  });

  it('headers given explicitly are kept', () => {
    const m = messageFromJson({ body: 'x', headers: { JMSPriority: '9', JMSDeliveryMode: '1' } });
    expect([m.headers.JMSPriority, m.headers.JMSDeliveryMode]).toEqual([9, 1]);
  });

  it('an AMQP 0-9-1 delivery without priority or delivery mode is received with 4 and 2', () => {
    const m = messageFromAmqp(bare, { text: true });
    expect([m.headers.JMSPriority, m.headers.JMSDeliveryMode]).toEqual([4, 2]);
  });

  it('an AMQP 0-9-1 delivery marked non-persistent keeps JMSDeliveryMode 1', () => {
    const m = messageFromAmqp({ ...bare, properties: { ...bare.properties, deliveryMode: 1 } }, { text: true });
    expect(m.headers.JMSDeliveryMode).toBe(1);
  });

  it('a fresh message is published persistent with priority 4', () => {
    const p = messageToAmqp(Message.text('x'));
    expect([p.options.deliveryMode, p.options.priority]).toEqual([2, 4]);
  });

  it('templates and pattern groups of an evaluator see the defaults', () => {
    const engine = new MessageEvaluatorEngine(
      {
        Name: 'e',
        Ruleset: {
          r: {
            JMSPropertyGroup: [{ JMSPriority: '^4$', JMSDeliveryMode: '^2$' }],
            FormatterArgument: [{ FieldName: 'seen', Template: ['##JMSPriority##/##JMSDeliveryMode##'] }],
          },
        },
      },
      { baseDir: '.', pluginDirs: [] },
    );
    const m = messageFromJson({ body: 'x', properties: { RuleName: 'r' } });
    engine.evaluate(m);
    expect([m.getProperty('ReturnCode'), m.getProperty('seen')]).toEqual(['0', '4/2']);
  });
});
