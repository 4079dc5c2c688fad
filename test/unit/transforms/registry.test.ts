import { defaultRulesetKinds } from '../../../src/evaluator/default-kinds';
import { MessageEvaluatorEngine } from '../../../src/evaluator';
import { RulesetKindRegistry } from '../../../src/rules/ruleset-kinds';
import { BUILTIN_RULESET_KINDS } from '../../../src/rules/kinds';
import { TRANSFORM_KINDS } from '../../../src/transforms';

const kindOf = (ruleset: Record<string, unknown>) => defaultRulesetKinds().detect(ruleset)?.name;

describe('transform kinds in the ruleset-kind registry (docs/evaluator/rules.md)', () => {
  it('selects each kind by its key', () => {
    expect([
      kindOf({ JSONPath: { a: '.a' } }),
      kindOf({ JSONPath: '.a' }),
      kindOf({ JTMPFile: 't.json' }),
      kindOf({ JSONataFile: 't.jsonata' }),
      kindOf({ JSONField: 'src' }),
      kindOf({ XPath: { a: '/a' } }),
      kindOf({ XPath: '/a' }),
      kindOf({ XMLField: 'src' }),
      kindOf({ XSLFile: 'x.xsl' }),
      kindOf({ Translation: 'XML2JSON' }),
    ]).toEqual(['jsonpath-map', 'jcut', 'jsont', 'jsonata', 'jmerge', 'xpath-map', 'xcut', 'xmerge', 'xslt', 'translation']);
  });

  it('lets FormatterArgument win over XSLFile, as in the original', () => {
    expect(kindOf({ FormatterArgument: [], XSLFile: 'x.xsl' })).toBe('formatter');
  });

  it('lets a JSONPath map win over JTMPFile', () => {
    expect(kindOf({ JSONPath: { a: '.a' }, JTMPFile: 't.json' })).toBe('jsonpath-map');
  });

  it('lets JTMPFile (the original JSONT) win over JSONataFile (an xroute kind)', () => {
    expect(kindOf({ JTMPFile: 't.json', JSONataFile: 't.jsonata' })).toBe('jsont');
  });

  it('lets XSLFile win over Translation (Translation is last in the original order)', () => {
    expect(kindOf({ XSLFile: 'x.xsl', Translation: 'XML2JSON' })).toBe('xslt');
  });

  it('lets an XPath map win over XMLField and XSLFile', () => {
    expect(kindOf({ XPath: { a: '/a' }, XMLField: 'src', XSLFile: 'x.xsl' })).toBe('xpath-map');
  });
});

describe('a ruleset-kind registry is built explicitly, from lists', () => {
  it('gives an engine only the kinds it was built with', () => {
    const onlyBuiltIn = new RulesetKindRegistry(BUILTIN_RULESET_KINDS);
    const build = () =>
      new MessageEvaluatorEngine({ Name: 'no_xml', Ruleset: { t: { XSLFile: 'x.xsl' } } }, { baseDir: '.', pluginDirs: [], kinds: onlyBuiltIn });
    expect(build).toThrow(/XSLFile: unknown ruleset key/);
  });

  it('refuses a kind listed twice', () => {
    expect(() => new RulesetKindRegistry([...TRANSFORM_KINDS, TRANSFORM_KINDS[0]])).toThrow(
      `ruleset kind ${JSON.stringify(TRANSFORM_KINDS[0].name)}: is already registered`,
    );
  });

  it('orders the kinds by precedence, whatever the order of the lists', () => {
    const names = (r: RulesetKindRegistry) => r.kinds.map((k) => k.name);
    expect(names(new RulesetKindRegistry([...TRANSFORM_KINDS, ...BUILTIN_RULESET_KINDS]))).toEqual(names(defaultRulesetKinds()));
  });
});
