/** Properties every component may carry (docs/topology.md). */
import { JsonSchema, boolStr, intStr, str, strMap } from './schema-helpers';
import { secretStr } from './secret-properties';

const SUPERVISION_SCHEMA: JsonSchema = {
  type: 'object',
  description: 'a map with Strategy, MaxRetry, WithinSeconds, Backoff, MaxMessageAttempts, OnGiveUp, GiveUpBackoff, FatalRetrySeconds',
  properties: {
    Strategy: { type: 'string', enum: ['restart', 'resume', 'stop', 'escalate'], description: 'one of "restart", "resume", "stop", "escalate"' },
    MaxRetry: intStr('an integer >= 0 as a string', { min: 0 }),
    WithinSeconds: intStr('an integer > 0 as a string', { min: 0 }),
    Backoff: { type: 'string', pattern: '^\\s*\\d+\\s*,\\s*\\d+\\s*$', description: '"minMs,maxMs", e.g. "200,30000"' },
    MaxMessageAttempts: intStr('an integer > 0 as a string', { min: 0 }),
    OnGiveUp: {
      type: 'string',
      enum: ['restart', 'exit'],
      description: '"restart" (default: the flow restarts the component after GiveUpBackoff, forever) or "exit" (drain and exit the process with code 3)',
    },
    GiveUpBackoff: {
      type: 'string',
      pattern: '^\\s*\\d+\\s*,\\s*\\d+\\s*$',
      description: '"minMs,maxMs" between the flow\'s restarts of a component that gave up, e.g. "1000,300000"',
    },
    FatalRetrySeconds: intStr('seconds between connection attempts after an error retrying soon cannot cure (default "30")', { min: 0 }),
  },
  additionalProperties: false,
};

export const COMMON_PROPERTIES: Record<string, JsonSchema> = {
  Name: str('the component name'),
  ClassName: str('an implementation class name such as "org.qbroker.receiver.RMQReceiver"'),
  Description: str(),
  URI: str('a URI'),
  Operation: str('an operation name'),
  LinkName: str('the name of an XQueue link'),
  Capacity: intStr('a positive integer as a string, e.g. "256"', { min: 1 }),
  Partition: { type: 'string', pattern: '^\\s*\\d+\\s*(,\\s*\\d+\\s*)?$', description: '"offset,length" or "offset", integers' },
  CellID: intStr('an integer cell id as a string', { min: 0 }),
  XAMode: intStr('"0" or "1"', { min: 0 }),
  TextMode: intStr('"0" (bytes) or "1" (text)', { min: 0 }),
  Mode: str('a mode, e.g. "daemon"'),
  Username: str(),
  Password: secretStr('a password'),
  EnableExceptionListener: boolStr(),
  DisplayMask: intStr('an integer bit mask as a string, e.g. "6" or "-1"'),
  Tolerance: intStr('an integer as a string'),
  MaxRetry: intStr('an integer as a string'),
  QuietPeriod: intStr('an integer as a string'),
  Debug: intStr('an integer as a string'),
  BufferSize: intStr('a positive integer as a string', { min: 0 }),
  StringProperty: strMap('a map of property names to string values'),
  WaitTime: intStr('milliseconds as a string', { min: 0 }),
  PauseTime: intStr('milliseconds as a string', { min: 0 }),
  StandbyTime: intStr('milliseconds as a string', { min: 0 }),
  Timeout: intStr('milliseconds as a string', { min: 0 }),
  ReceiveTime: intStr('milliseconds as a string', { min: 0 }),
  MaxIdleTime: intStr('seconds as a string', { min: 0 }),
  Supervision: SUPERVISION_SCHEMA,
  Site: str(),
  Category: str(),
  Type: str(),
};

/** Flow-level (topology) properties besides the component entries. */
export const FLOW_PROPERTIES: Record<string, JsonSchema> = {
  Name: str('the flow name'),
  Description: str(),
  Capacity: intStr('the default link capacity as a string, e.g. "256"', { min: 1 }),
  XAMode: intStr('"0" or "1"', { min: 0 }),
  Receiver: { type: 'array', items: { type: 'string' }, description: 'a list of receiver component names' },
  Node: { type: 'array', items: { type: 'string' }, description: 'a list of node component names' },
  Persister: { type: 'array', items: { type: 'string' }, description: 'a list of persister component names' },
  ConfigDir: str('a directory holding <component>.json files'),
  PluginDir: {
    anyOf: [{ type: 'string' }, { type: 'array', items: { type: 'string' } }],
    description: 'a directory or a list of directories plugins may load from',
  },
  Supervision: SUPERVISION_SCHEMA,
  Operation: str(),
  Mode: str(),
  Site: str(),
  Category: str(),
  Type: str(),
  MaxNumberFlow: intStr(),
  DisplayMask: intStr('an integer bit mask as a string'),
};
