/**
 * One configuration-error model: every settings reader throws a ConfigValueError naming the component, the
 * property and what was expected; `xroute validate` turns it into a problem in one place (issueOf); the
 * runtime refuses a component without the link its definition declares.
 */
import { ConfigValueError } from '../../../src/errors/config-value-error';
import { issueOf, settingsIssues } from '../../../src/config/config-issues';
import { validateComponentConfig } from '../../../src/config/validate-component';
import {
  AnyComponentDefinition,
  ComponentConfig,
  ComponentDefinition,
  ComponentEnv,
  StatusReporter,
  ValidationContext,
  createBehaviour,
} from '../../../src/runtime/component';
import { XQueue } from '../../../src/xqueue/xqueue';
import { Message } from '../../../src/message/message';
import { memoryLogger } from '../../../src/logging/logger';
import { defaultRegistry } from '../../../actors';
import { parseJobNodeSettings } from '../../../actors/nodes/job-node-config';
import { parseCollectNodeSettings } from '../../../actors/nodes/collect-node-config';
import { readPoolSettings } from '../../../actors/pools/pool';

const registry = defaultRegistry();
const definition = (className: string): AnyComponentDefinition => registry.resolve('test', className);

/** The error a reader throws, or a failure naming what it did instead. */
function thrownBy(read: () => unknown): ConfigValueError {
  try {
    read();
  } catch (e) {
    if (e instanceof ConfigValueError) return e;
    throw new Error(`expected a ConfigValueError, got ${String(e)}`);
  }
  throw new Error('expected a ConfigValueError, the settings read');
}

function settingsError(className: string, config: ComponentConfig): ConfigValueError {
  const def = definition(className);
  if (def.settings === undefined) throw new Error(`${className} declares no settings reader`);
  return thrownBy(() => def.settings!('c1', config, '/tmp', { pluginDirs: [] }));
}

describe('ConfigValueError', () => {
  it('names the component, the property, the value and what was expected', () => {
    const e = new ConfigValueError({ component: 'rcv', property: 'Port', expected: 'an integer from 1 to 65535', got: '99999' });
    expect(e.message).toBe('rcv: Port "99999": expected an integer from 1 to 65535');
    expect(e.detail()).toBe('"99999": expected an integer from 1 to 65535');
  });

  it('says a missing value is missing', () => {
    expect(new ConfigValueError({ component: 'rcv', property: 'QueueName', expected: 'a queue name' }).message).toBe(
      'rcv: QueueName is missing: expected a queue name',
    );
  });

  it('never shows the value of a secret property', () => {
    const e = new ConfigValueError({ component: 'rcv', property: 'Password', expected: 'a string', got: 'hunter22' });
    expect(e.message).not.toContain('hunter22');
    expect(e.got).toBe('***');
  });

  it('masks the password of a URI it quotes', () => {
    expect(new ConfigValueError({ component: 'rcv', property: 'URI', expected: 'an amqp:// URI', got: 'http://u:topsecret@h/' }).message).not.toContain(
      'topsecret',
    );
  });

  it('keeps the error it wraps as cause', () => {
    const cause = new Error('ENOENT');
    expect(new ConfigValueError({ component: 'c', property: 'CAFile', expected: 'a readable PEM file', cause }).cause).toBe(cause);
  });
});

describe('every component reader throws a ConfigValueError with component, property and expected', () => {
  it.each<[string, ComponentConfig, string]>([
    ['receiver.AmqpReceiver', { QueueName: 'q', MaxAttempts: 'many' }, 'MaxAttempts'],
    ['persister.AmqpPersister', { QueueName: 'q', MaxInFlight: '0' }, 'MaxInFlight'],
    ['receiver.JMSReceiver', { URI: 'amqp://h', QueueName: 'q', MessageSelector: "a = 'open" }, 'MessageSelector'],
    ['receiver.JMSSubscriber', { URI: 'amqp://h', TopicName: 't', Dialect: 'websphere' }, 'Dialect'],
    ['persister.JMSPersister', { URI: 'amqp://h', QueueName: 'q', Priority: '12' }, 'Priority'],
    ['persister.JMSPublisher', { URI: 'amqp://h' }, 'TopicName'],
    ['receiver.StreamReceiver', { URI: 'tcp://127.0.0.1:1', Operation: 'read', EOTBytes: 'zz' }, 'EOTBytes'],
    ['persister.StreamPersister', { URI: 'file:///tmp/x', Operation: 'request' }, 'Operation'],
    ['persister.FilePersister', { URI: 'file:///tmp/x', PauseTime: '0' }, 'PauseTime'],
    ['persister.JobPersister', { Script: 'true', MaxJobs: '0' }, 'MaxJobs'],
    ['persister.MessageEvaluator', { Ruleset: { r: { JMSPropertyGroup: [{ Kind: '(' }] } } }, 'Ruleset/r/JMSPropertyGroup[0].Kind'],
  ])('%s', (className, config, property) => {
    const e = settingsError(className, config);
    expect({ component: e.component, property: e.property }).toEqual({ component: expect.any(String), property });
    expect(e.expected).not.toBe('');
    expect(e.message).toContain(property.split('/').pop()!.split('[')[0]);
  });

  it('JobNode', () => {
    const e = thrownBy(() => parseJobNodeSettings('jobs', { OutLink: ['notice', 'bypass', 'w0'], WaitTime: '0' }));
    expect([e.component, e.property, e.expected]).toEqual(['jobs', 'WaitTime', 'a number >= 1']);
  });

  it('CollectNode', () => {
    const e = thrownBy(() => parseCollectNodeSettings('collect', { OutLink: ['done', 'failure', 'nohit', 'eval'], MaxNumberRule: 'x' }));
    expect([e.component, e.property, e.expected]).toEqual(['collect', 'MaxNumberRule', 'an integer']);
  });

  it('PersisterPool', () => {
    const env = { name: 'pool', config: { Heartbeat: '-1' } } as unknown as ComponentEnv;
    const e = thrownBy(() => readPoolSettings('persister', env));
    expect([e.component, e.property, e.expected]).toEqual(['pool', 'Heartbeat', 'a number >= 0.001']);
  });
});

describe('the validate output of a settings error comes from one place', () => {
  it('is the property and the message without the component and property', () => {
    const e = new ConfigValueError({ component: 'rcv', property: 'Port', expected: 'an integer', got: 'x' });
    expect(issueOf(e)).toEqual({ property: 'Port', message: '"x": expected an integer', severity: 'error' });
  });

  it("never passes on JavaScript's own words for input nobody foresaw", () => {
    expect(issueOf(new TypeError("Cannot read properties of undefined (reading 'trim')")).message).not.toMatch(/undefined|trim/);
  });

  it("collects a reader's warnings before its error", () => {
    const issues = settingsIssues((warn) => {
      warn('Heartbeat', 'means the default');
      throw new ConfigValueError({ component: 'n', property: 'WaitTime', expected: 'a number >= 1', got: '0' });
    });
    expect(issues.map((i) => `${i.severity} ${i.property}`)).toEqual(['warning Heartbeat', 'error WaitTime']);
  });

  it('is what validateComponentConfig reports for a component', () => {
    expect(validateComponentConfig(definition('persister.AmqpPersister'), { QueueName: 'q', MaxInFlight: '0' }, '.')).toEqual([
      { property: 'MaxInFlight', message: '"0": expected a number >= 1', severity: 'error' },
    ]);
  });
});

describe('links a definition declares', () => {
  const env = (over: Partial<ComponentEnv>): ComponentEnv => ({
    name: 'c1',
    className: 'persister.JobPersister',
    config: { Script: 'true' },
    outlinks: [],
    baseDir: '.',
    pluginDirs: [],
    logger: memoryLogger(),
    status: new StatusReporter(),
    registry,
    ...over,
  });

  it('are declared by every node and persister (input) and every receiver (output)', () => {
    for (const def of registry.all()) {
      if (def.role === 'receiver') expect([def.className, def.needsOutput]).toEqual([def.className, true]);
      else expect([def.className, def.needsInput]).toEqual([def.className, true]);
    }
  });

  it('are checked before the behaviour is created: a missing input is a ConfigValueError of LinkName', () => {
    const e = thrownBy(() => createBehaviour(definition('persister.JobPersister'), env({})));
    expect([e.component, e.property, e.message]).toEqual(['c1', 'LinkName', 'c1: LinkName is missing: expected the input XQueue of a persister.JobPersister']);
  });
});

describe('settings the runtime reads once per start', () => {
  const env = (output?: XQueue<Message>): ComponentEnv => ({
    name: 'c1',
    className: 'receiver.Test',
    config: { Size: '3' },
    output,
    outlinks: [],
    baseDir: '/base',
    pluginDirs: ['/plugins'],
    logger: memoryLogger(),
    status: new StatusReporter(),
    registry,
  });
  const reading = () => {
    const reads: { context: ValidationContext; baseDir: string }[] = [];
    const handed: unknown[] = [];
    const def: ComponentDefinition<never, { size: number }> = {
      className: 'receiver.Test',
      role: 'receiver',
      needsOutput: true,
      operations: ['get'],
      description: 'a test receiver',
      schema: {},
      settings: (_name, config, baseDir, context) => {
        reads.push({ context, baseDir });
        return { size: Number(config.Size) };
      },
      create: (_env, settings) => {
        handed.push(settings);
        return {};
      },
    };
    return { def, reads, handed };
  };

  it('are read by the runtime with the definition reader and handed to create', () => {
    const { def, reads, handed } = reading();
    createBehaviour(def, env(new XQueue<Message>('out', 8)));
    expect(handed).toEqual([{ size: 3 }]);
    expect(reads).toHaveLength(1);
    expect(reads[0]).toMatchObject({ baseDir: '/base', context: { pluginDirs: ['/plugins'], outputCapacity: 8 } });
  });

  it('are not read, nor create called, when a link is missing', () => {
    const { def, reads, handed } = reading();
    thrownBy(() => createBehaviour(def, env()));
    expect([reads.length, handed.length]).toEqual([0, 0]);
  });

  it('a reader error reaches the caller as the ConfigValueError it threw, before create', () => {
    const e = thrownBy(() =>
      createBehaviour(definition('persister.JobPersister'), {
        ...env(),
        className: 'persister.JobPersister',
        config: { Script: 'true', MaxJobs: '0' },
        input: new XQueue<Message>('in', 4),
      }),
    );
    expect([e.component, e.property]).toEqual(['c1', 'MaxJobs']);
  });
});

describe('integer settings declared once', () => {
  it('give the schema its default and the reader the same default and range', () => {
    const def = definition('persister.JobPersister');
    const maxJobs = (def.schema as { properties: Record<string, { description: string }> }).properties.MaxJobs;
    expect(maxJobs.description).toBe('jobs run at once (default 1)');
    expect(settingsError('persister.JobPersister', { Script: 'true', MaxJobs: '0' }).expected).toBe('a number >= 1');
  });
});
