/**
 * docs/differences.md keeps up with what the code does: a JMSSubscriber on RabbitMQ gets the headers of AMQP 0-9-1
 * publishers through its header relay (test/integration/jms covers the relay), so the known limitations must not
 * say that selectors miss them.
 */
import fs from 'node:fs';
import path from 'node:path';
import { repoRoot } from '../../support/doc-pages';

const text = fs.readFileSync(path.join(repoRoot, 'docs/differences.md'), 'utf8').replace(/\s+/g, ' ');

it('says that a JMSSubscriber selects on the properties of AMQP 0-9-1 publishers, through the header relay', () => {
  expect(text).not.toContain('so selectors on properties only see messages published over AMQP 1.0.');
  expect(text).toContain('A JMSSubscriber on a RabbitMQ topic selects on the properties of messages published over AMQP 0-9-1 too');
  expect(text).toContain('(jms-migration.md#headers-of-amqp-0-9-1-publishers-jmssubscriber-on-rabbitmq)');
});
