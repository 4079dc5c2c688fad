import '../../../src/rules/kinds';
import '../../../src/transforms';
import { detectRulesetKind } from '../../../src/rules/ruleset-kinds';

const kindOf = (ruleset: Record<string, unknown>) => detectRulesetKind(ruleset)?.name;

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
