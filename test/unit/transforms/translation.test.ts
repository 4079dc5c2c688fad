import { Message } from '../../../src/message';
import { BodyTypeError, TransformConfigError, TransformError, XmlInputError, JsonInputError } from '../../../src/transforms/errors';
import { compileTranslation, translationKind } from '../../../src/transforms/translation';
import { contextFor } from './context';

const DECLARATION = '<?xml version="1.0" encoding="UTF-8" standalone="no"?>\n';

function context(warnings: string[] = []) {
  return { ...contextFor('tr'), component: 'eval', logger: { warn: (m: string) => warnings.push(m), error: (m: string) => warnings.push(m) } };
}

function translate(name: string, body: string): string | undefined {
  const msg = Message.text(body);
  compileTranslation({ Translation: name }, context())(msg);
  return msg.bodyText();
}

describe('Translation: start-up (docs/evaluator/rules.md, docs/evaluator/transforms.md)', () => {
  it('is selected by the Translation key', () => {
    expect([translationKind.detect({ Translation: 'XML2JSON' }), translationKind.detect({ XSLFile: 'x.xsl' })]).toEqual([true, false]);
  });

  it('rejects a list as Translation at start-up', () => {
    expect(() => compileTranslation({ Translation: ['XML2JSON'] }, context())).toThrow(TransformConfigError);
  });

  it('rejects a Translation that is not a string, naming ruleset and key', () => {
    expect(() => compileTranslation({ Translation: 42 }, context())).toThrow(/ruleset "tr", key Translation: is a number \(expected a string\)/);
  });

  it('warns once at start-up about an unknown translation name', () => {
    const warnings: string[] = [];
    const run = compileTranslation({ Translation: 'CSV2XML' }, context(warnings));
    run(Message.text('a,b'));
    run(Message.text('c,d'));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/ruleset tr: Translation "CSV2XML" is not one of XML2JSON, JSON2XML, PHP2XML, PHP2JSON/);
  });

  it('leaves the body unchanged with code 0 for an unknown translation name', () => {
    const msg = Message.text('<r/>');
    expect(compileTranslation({ Translation: 'XML2YAML' }, context())(msg)).toBeUndefined();
    expect(msg.bodyText()).toBe('<r/>');
  });

  it('does not warn about a known name in another case', () => {
    const warnings: string[] = [];
    compileTranslation({ Translation: 'xml2Json' }, context(warnings));
    expect(warnings).toEqual([]);
  });
});

describe('Translation XML2JSON (docs/evaluator/transforms.md)', () => {
  it('the XML2JSON example: fixed: the repeated <a> becomes a list (the original kept only "2"); kept: the attribute is dropped', () => {
    expect(translate('XML2JSON', '<r><a>1</a><a>2</a><b x="y">t</b></r>')).toBe('{\n  "r":{"a":["1","2"],"b":"t"}\n}');
  });

  it('writes the original format byte for byte when nothing repeats', () => {
    expect(translate('XML2JSON', '<r><a>2</a><b x="y">t</b></r>')).toBe('{\n  "r":{"a":"2","b":"t"}\n}');
  });

  it('kept: drops attributes, as the original', () => {
    expect(translate('XML2JSON', '<r id="7"><b x="y" z="w">t</b></r>')).toBe('{\n  "r":{"b":"t"}\n}');
  });

  it('kept: drops text mixed with child elements, as attributes', () => {
    expect(translate('XML2JSON', '<r>note<a>1</a>more</r>')).toBe('{\n  "r":{"a":"1"}\n}');
  });

  it('fixed: gathers repeated siblings into a list in document order, even when not adjacent', () => {
    expect(translate('XML2JSON', '<r><a>1</a><b>x</b><a>2</a><a>3</a></r>')).toBe('{\n  "r":{"a":["1","2","3"],"b":"x"}\n}');
  });

  it('makes a list of one element marked type="ARRAY"', () => {
    expect(translate('XML2JSON', '<r><a type="ARRAY">1</a></r>')).toBe('{\n  "r":{"a":["1"]}\n}');
  });

  it('converts nested elements to nested objects and empty elements to ""', () => {
    expect(translate('XML2JSON', '<r><o><p>1</p><q/></o></r>')).toBe('{\n  "r":{"o":{"p":"1","q":""}}\n}');
  });

  it('ignores the whitespace of indented XML', () => {
    expect(translate('XML2JSON', '<r>\n  <a>1</a>\n  <b>2</b>\n</r>\n')).toBe('{\n  "r":{"a":"1","b":"2"}\n}');
  });

  it('decodes entities and CDATA in text', () => {
    expect(translate('XML2JSON', '<r><a>x &amp; y<![CDATA[ <z>]]></a></r>')).toBe('{\n  "r":{"a":"x & y <z>"}\n}');
  });

  it('fails on a body that is not XML', () => {
    expect(() => translate('XML2JSON', '<r><a></r>')).toThrow(XmlInputError);
  });

  it('refuses entity declarations (external entities are never resolved)', () => {
    expect(() => translate('XML2JSON', '<!DOCTYPE r [<!ENTITY x SYSTEM "file:///etc/passwd">]><r>&x;</r>')).toThrow(XmlInputError);
  });
});

describe('Translation JSON2XML (docs/evaluator/transforms.md)', () => {
  it('writes the JSON inside a <JSON> root with the shared declaration and indentation', () => {
    expect(translate('JSON2XML', '{"a":"1","o":{"p":2.50,"t":true,"n":null}}')).toBe(
      `${DECLARATION}<JSON>\n    <a>1</a>\n    <o>\n        <p>2.50</p>\n        <t>true</t>\n        <n/>\n    </o>\n</JSON>\n`,
    );
  });

  it('writes list items as repeated elements marked type="ARRAY"', () => {
    expect(translate('JSON2XML', '{"a":["1","2"]}')).toBe(`${DECLARATION}<JSON>\n    <a type="ARRAY">1</a>\n    <a type="ARRAY">2</a>\n</JSON>\n`);
  });

  it('names the items of a list without a key of its own "item"', () => {
    expect(translate('JSON2XML', '["x",["y"]]')).toBe(
      `${DECLARATION}<JSON>\n    <item type="ARRAY">x</item>\n    <item type="ARRAY">\n        <item type="ARRAY">y</item>\n    </item>\n</JSON>\n`,
    );
  });

  it('escapes markup characters in text', () => {
    expect(translate('JSON2XML', '{"a":"<b> & </b>"}')).toBe(`${DECLARATION}<JSON>\n    <a>&lt;b&gt; &amp; &lt;/b&gt;</a>\n</JSON>\n`);
  });

  it('keeps a carriage return in text through JSON2XML and XML2JSON', () => {
    expect(translate('XML2JSON', translate('JSON2XML', '{"a":"x\\r\\ny"}')!)).toBe('{\n  "JSON":{"a":"x\\r\\ny"}\n}');
  });

  it('fails naming the key when a key is not an XML element name', () => {
    expect(() => translate('JSON2XML', '{"o":{"1st item":"x"}}')).toThrow(/key "1st item" at \.o\.1st item is not an XML element name/);
  });

  it('fails on a key with a namespace prefix rather than writing an unbound prefix', () => {
    expect(() => translate('JSON2XML', '{"ns:a":"x"}')).toThrow(TransformError);
  });

  it('fails naming the place of a character XML cannot carry', () => {
    expect(() => translate('JSON2XML', '{"a":["ok","bell\\u0007"]}')).toThrow(/text at \.a\[1\] holds a character XML cannot carry/);
  });

  it('fails on a body that is not JSON', () => {
    expect(() => translate('JSON2XML', '{"a":')).toThrow(JsonInputError);
  });

  it('round-trips ordinary data: XML2JSON(JSON2XML(x)) is x under the JSON root', () => {
    const x = {
      id: 'A-7',
      name: 'Zoë & <co>',
      items: [
        { sku: 's1', tags: ['t'] },
        { sku: 's2', tags: ['u', 'v'] },
      ],
      ship: { city: 'Oslo', note: '' },
    };
    const json = translate('XML2JSON', translate('JSON2XML', JSON.stringify(x))!);
    expect(JSON.parse(json!)).toEqual({ JSON: x });
  });
});

describe('Translation PHP2JSON and PHP2XML (docs/evaluator/transforms.md)', () => {
  const ORDER = 'a:3:{s:2:"id";i:7;s:5:"items";a:2:{i:0;s:2:"s1";i:1;s:2:"s2";}s:4:"paid";b:1;}';

  it('converts a PHP array to JSON under the root key PHP', () => {
    expect(translate('PHP2JSON', ORDER)).toBe('{\n  "PHP":{"id":7,"items":["s1","s2"],"paid":true}\n}');
  });

  it('converts a PHP array to XML under the root element PHP', () => {
    expect(translate('PHP2XML', ORDER)).toBe(
      `${DECLARATION}<PHP>\n    <id>7</id>\n    <items type="ARRAY">s1</items>\n    <items type="ARRAY">s2</items>\n    <paid>true</paid>\n</PHP>\n`,
    );
  });

  it('gives the same JSON through PHP2XML then XML2JSON as PHP2JSON, for strings', () => {
    const php = 'a:2:{s:1:"k";s:1:"v";s:1:"l";a:1:{i:0;a:1:{s:1:"x";s:1:"y";}}}';
    expect(translate('XML2JSON', translate('PHP2XML', php)!)).toBe(translate('PHP2JSON', php));
  });

  it('counts string lengths in UTF-8 bytes', () => {
    expect(translate('PHP2JSON', 'a:1:{s:4:"name";s:7:"Zoë€";}')).toBe('{\n  "PHP":{"name":"Zoë€"}\n}');
  });

  it('fails when a string length counts characters instead of bytes', () => {
    expect(() => translate('PHP2JSON', 's:4:"Zoë€";')).toThrow(/not PHP serialize\(\) output/);
  });

  it('reads null, negative integers, floats and integer keys that are not a list', () => {
    expect(translate('PHP2JSON', 'a:4:{i:5;N;i:6;i:-12;s:1:"d";d:0.5;s:1:"e";d:1.0E+25;}')).toBe('{\n  "PHP":{"5":null,"6":-12,"d":0.5,"e":1.0E+25}\n}');
  });

  it('writes INF and NAN, which JSON cannot hold, as strings', () => {
    expect(translate('PHP2JSON', 'a:2:{i:0;d:INF;i:1;d:NAN;}')).toBe('{\n  "PHP":["INF","NAN"]\n}');
  });

  it('writes an empty PHP array as an empty JSON list', () => {
    expect(translate('PHP2JSON', 'a:0:{}')).toBe('{\n  "PHP":[]\n}');
  });

  it('fails naming the key when an integer key of a map is written as XML', () => {
    expect(() => translate('PHP2XML', 'a:1:{i:5;s:1:"x";}')).toThrow(/key "5" at \.5 is not an XML element name/);
  });

  it('fails on a PHP object (O:), which is not supported', () => {
    expect(() => translate('PHP2JSON', 'O:8:"stdClass":1:{s:1:"a";i:1;}')).toThrow(/an object \(O:\) is not supported/);
  });

  it('fails on a body that is not PHP, naming what it found', () => {
    expect(() => translate('PHP2JSON', '<r/>')).toThrow(/unknown type "<" at byte 0/);
  });

  it('fails on a wrong array count', () => {
    expect(() => translate('PHP2JSON', 'a:2:{i:0;s:1:"x";}')).toThrow(TransformError);
  });

  it('fails on text after the value', () => {
    expect(() => translate('PHP2JSON', 'i:1;i:2;')).toThrow(/unexpected text after the value/);
  });

  it('fails on a truncated body', () => {
    expect(() => translate('PHP2XML', 'a:1:{s:1:"a";s:5:"ab')).toThrow(TransformError);
  });
});

describe('Translation: bodies (docs/evaluator/transforms.md)', () => {
  it('translates a bytes body and keeps it bytes', () => {
    const msg = Message.bytes(Buffer.from('<r><a>é</a></r>', 'utf8'));
    compileTranslation({ Translation: 'XML2JSON' }, context())(msg);
    expect(msg.body.kind).toBe('bytes');
    expect(msg.bodyText()).toBe('{\n  "r":{"a":"é"}\n}');
  });

  it('fails on a map body', () => {
    const msg = Message.map({ a: '1' });
    expect(() => compileTranslation({ Translation: 'XML2JSON' }, context())(msg)).toThrow(BodyTypeError);
  });

  it('fails on a message without a body', () => {
    expect(() => compileTranslation({ Translation: 'JSON2XML' }, context())(new Message())).toThrow(/the message body is absent/);
  });
});
