import path from 'node:path';
import { Message } from '../../../src/message/message';
import { ComponentConfigError } from '../../../actors/support/config-values';
import { EventReplyParser, ReplyParseError, createReplyParser, readParserSpec } from '../../../actors/persisters/stream-reply-parser';

const PLUGIN_DIR = path.resolve(__dirname, '../../fixtures/pools/plugins');

const POSTABLE =
  'SITE=TEST&CATEGORY=APP&NAME=disk&type=Monitor&priority=WARNING&hostname=h1&program=qb&username=ops&pid=42&date=1700000000000' +
  '&summary=disk __equal__ 91%, see "df"&delimiter= ~ &content=mount ~ /var ~ note ~ a __tilde__ b';

describe('EventReplyParser', () => {
  it('reads the postable attributes into properties with the original names', () => {
    const msg = new Message();
    new EventReplyParser(null).parse(POSTABLE, msg);
    expect(Object.fromEntries(msg.properties)).toEqual({
      site: 'TEST',
      category: 'APP',
      name: 'disk',
      type: 'Monitor',
      priority: 'WARNING',
      hostname: 'h1',
      program: 'qb',
      owner: 'ops',
      pid: '42',
      date: '1700000000000',
      mount: '/var',
      note: 'a ~ b',
    });
  });

  it('puts the unescaped summary into the body', () => {
    const msg = new Message();
    new EventReplyParser(null).parse(POSTABLE, msg);
    expect(msg.bodyText()).toBe('disk = 91%, see "df"');
  });

  it('turns the escaped carriage returns and ampersands of a summary back into text', () => {
    const msg = new Message();
    new EventReplyParser(null).parse('SITE=S&summary=a __ampersand__ b\rline2__cr__', msg);
    expect(msg.bodyText()).toBe('a & b\nline2\r');
  });

  it('keeps priority INFO when the reply names no known priority', () => {
    const msg = new Message();
    new EventReplyParser(null).parse('SITE=S&priority=LOUD', msg);
    expect(msg.getProperty('priority')).toBe('INFO');
  });

  it('takes the postable text from the first group of ParserArgument', () => {
    const msg = new Message();
    new EventReplyParser('^EVENT: (.*)$').parse('EVENT: SITE=S&NAME=n&summary=hi', msg);
    expect(msg.getProperty('site')).toBe('S');
    expect(msg.getProperty('name')).toBe('n');
    expect(msg.bodyText()).toBe('hi');
  });

  it('throws a ReplyParseError for a reply that does not match ParserArgument', () => {
    expect(() => new EventReplyParser('^EVENT: (.*)$').parse('garbage', new Message())).toThrow(ReplyParseError);
  });

  it('throws a ReplyParseError for text that holds no event attribute', () => {
    expect(() => new EventReplyParser(null).parse('hello world', new Message())).toThrow(/not a postable event/);
  });

  it('throws a ReplyParseError for a date that is not epoch milliseconds', () => {
    expect(() => new EventReplyParser(null).parse('SITE=S&date=yesterday', new Message())).toThrow(ReplyParseError);
  });
});

describe('createReplyParser', () => {
  it('selects the built-in EventParser by its full class name', () => {
    expect(createReplyParser('sp', { className: 'org.qbroker.event.EventParser', argument: null }, [])).toBeInstanceOf(EventReplyParser);
  });

  it('selects the built-in EventParser by its last two name parts', () => {
    expect(createReplyParser('sp', { className: 'event.EventParser', argument: null }, [])).toBeInstanceOf(EventReplyParser);
  });

  it('loads a plugin parser from a PluginDir and passes it ParserArgument', () => {
    const parser = createReplyParser('sp', { className: 'tagged-parser', argument: { field: 'Result' } }, [PLUGIN_DIR]);
    const msg = new Message();
    parser.parse('7|done', msg);
    expect(msg.getProperty('ReturnCode')).toBe('7');
    expect(msg.getProperty('Result')).toBe('done');
  });

  it('turns an error thrown by a plugin parser into a ReplyParseError naming the class, with the error as its cause', () => {
    const parser = createReplyParser('sp', { className: 'tagged-parser', argument: null }, [PLUGIN_DIR]);
    expect(() => parser.parse('!nope', new Message())).toThrow(new ReplyParseError('tagged-parser', 'refused reply !nope', new Error('refused reply !nope')));
  });

  it('refuses a plugin that lies outside every PluginDir', () => {
    const attempt = () => createReplyParser('sp', { className: '../outside-parser', argument: null }, [PLUGIN_DIR]);
    expect(attempt).toThrow(ComponentConfigError);
    expect(attempt).toThrow(/Parser\/ClassName "\.\.\/outside-parser".*not found in PluginDir/);
  });

  it('refuses a plugin parser when no PluginDir is configured', () => {
    expect(() => createReplyParser('sp', { className: 'tagged-parser', argument: null }, [])).toThrow(/no PluginDir is configured/);
  });
});

describe('readParserSpec', () => {
  it('reads ClassName and ParserArgument', () => {
    expect(readParserSpec('sp', { ClassName: 'event.EventParser', ParserArgument: '(.*)' })).toEqual({ className: 'event.EventParser', argument: '(.*)' });
  });

  it('rejects a Parser map without ClassName, naming Parser/ClassName', () => {
    expect(() => readParserSpec('sp', { ParserArgument: 'x' })).toThrow(expect.objectContaining({ property: 'Parser/ClassName' }));
  });
});
