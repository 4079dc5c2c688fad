/**
 * StreamReceiver and StreamPersister: the default each schema states for an integer setting is the one the
 * reader uses when it is absent.
 */
import { STREAM_RECEIVER_SCHEMA, readStreamReceiverSettings } from '../../../../actors/receivers/stream-receiver';
import { STREAM_PERSISTER_INTEGERS, STREAM_PERSISTER_SCHEMA, readStreamPersisterSettings } from '../../../../actors/persisters/stream-persister-settings';
import { statedDefault } from '../../../support/stated-defaults';

describe('StreamReceiver integer settings left out', () => {
  it('are read as the defaults the schema states', () => {
    const s = readStreamReceiverSettings('r', { URI: 'tcp://localhost:9' }, '.');
    expect({ MaxMsgLength: s.maxMsgLength }).toEqual({ MaxMsgLength: statedDefault(STREAM_RECEIVER_SCHEMA, 'MaxMsgLength') });
  });
});

describe('StreamPersister integer settings left out', () => {
  const s = readStreamPersisterSettings('p', { URI: 'tcp://localhost:9' }, '.');

  it('are read as the defaults the schema states', () => {
    expect({ MaxMsgLength: s.maxMsgLength, Retry: s.retry }).toEqual({
      MaxMsgLength: statedDefault(STREAM_PERSISTER_SCHEMA, 'MaxMsgLength'),
      Retry: statedDefault(STREAM_PERSISTER_SCHEMA, 'Retry'),
    });
  });

  it('read SessionSize as its declared default, which its schema calls "never"', () => {
    expect(s.sessionSize).toBe(STREAM_PERSISTER_INTEGERS.SessionSize.default);
    expect((STREAM_PERSISTER_SCHEMA as { properties: Record<string, { description: string }> }).properties.SessionSize.description).toContain(
      `(${s.sessionSize} = never)`,
    );
  });
});
