/**
 * The functions XSLT 1.0 adds to XPath (current, key, format-number, generate-id,
 * system-property, element-available, function-available, unparsed-entity-uri) and the EXSLT
 * functions this engine supports:
 *  - common (`http://exslt.org/common`): node-set, object-type;
 *  - math (`http://exslt.org/math`): min, max, highest, lowest, abs, sqrt, power;
 *  - sets (`http://exslt.org/sets`): difference, intersection, distinct, has-same-node;
 *  - strings (`http://exslt.org/strings`): tokenize, split, concat, padding.
 * `document()` is deliberately absent: a stylesheet that calls it is refused at start-up.
 */
import { ATTRIBUTE, TEXT, XNode, newDocument, newElement, newLeaf, sortDocumentOrder } from './xml-dom';
import { XContext, XFunction, XPathOptions, XValue, expandQName, nodesArg, stringToNumber, toNum, toStr } from './xpath-compiler';
import type { Runtime } from './xslt-sheet';
import { XsltRuntimeError } from './errors';
import { isResultTreeFragment } from './xslt-output';
import { NumberFormatError, formatNumber } from './xslt-numbers';

const EXSLT_COMMON = 'http://exslt.org/common';
const EXSLT_MATH = 'http://exslt.org/math';
const EXSLT_SETS = 'http://exslt.org/sets';
const EXSLT_STRINGS = 'http://exslt.org/strings';

const XSLT_INSTRUCTIONS = new Set([
  'apply-templates',
  'call-template',
  'for-each',
  'value-of',
  'copy-of',
  'copy',
  'element',
  'attribute',
  'text',
  'if',
  'choose',
  'variable',
  'number',
  'comment',
  'processing-instruction',
  'message',
  'fallback',
]);

const rt = (c: XContext): Runtime => c.rt as Runtime;

export function xsltFunctions(): Readonly<Record<string, XFunction>> {
  const functions: Record<string, XFunction> = {
    current: { min: 0, max: 0, call: (c) => [rt(c).current] },
    key: {
      min: 2,
      max: 2,
      call: (c, [name, value]) => keyLookup(rt(c), c.node, runtimeQName(toStr(name!), {}, 'key()'), value!),
      withOptions:
        (o) =>
        (c, [name, value]) =>
          keyLookup(rt(c), c.node, runtimeQName(toStr(name!), o, 'key()'), value!),
    },
    'format-number': {
      min: 2,
      max: 3,
      call: (c, args) => formatNumberCall(c, args, {}),
      withOptions: (o) => (c, args) => formatNumberCall(c, args, o),
    },
    'generate-id': {
      min: 0,
      max: 1,
      call: (c, args) => {
        const nodes = args.length === 0 ? [c.node] : nodesArg(args[0]!, 'generate-id');
        return nodes.length === 0 ? '' : `N${nodes[0]!.order}`;
      },
    },
    'system-property': { min: 1, max: 1, call: (_c, [name]) => systemProperty(toStr(name!)) },
    'element-available': { min: 1, max: 1, call: (_c, [name]) => XSLT_INSTRUCTIONS.has(toStr(name!).replace(/^xsl:/, '')) },
    'function-available': {
      min: 1,
      max: 1,
      call: (_c, [name]) => CORE.has(toStr(name!)),
      withOptions:
        (o) =>
        (_c, [name]) => {
          const expanded = runtimeQName(toStr(name!), o, 'function-available()');
          return expanded.startsWith('{') ? functions[expanded] !== undefined : CORE.has(expanded);
        },
    },
    'unparsed-entity-uri': { min: 1, max: 1, call: () => '' },

    [`{${EXSLT_COMMON}}node-set`]: {
      min: 1,
      max: 1,
      call: (_c, [v]) => (Array.isArray(v) ? (isResultTreeFragment(v) ? v.slice() : v) : [textNode(toStr(v!))]),
    },
    [`{${EXSLT_COMMON}}object-type`]: {
      min: 1,
      max: 1,
      call: (_c, [v]) => (Array.isArray(v) ? (isResultTreeFragment(v) ? 'RTF' : 'node-set') : typeof v),
    },

    [`{${EXSLT_MATH}}min`]: { min: 1, max: 1, call: (_c, [v]) => extreme(nodesArg(v!, 'math:min'), (a, b) => a < b) },
    [`{${EXSLT_MATH}}max`]: { min: 1, max: 1, call: (_c, [v]) => extreme(nodesArg(v!, 'math:max'), (a, b) => a > b) },
    [`{${EXSLT_MATH}}highest`]: { min: 1, max: 1, call: (_c, [v]) => extremeNodes(nodesArg(v!, 'math:highest'), (a, b) => a > b) },
    [`{${EXSLT_MATH}}lowest`]: { min: 1, max: 1, call: (_c, [v]) => extremeNodes(nodesArg(v!, 'math:lowest'), (a, b) => a < b) },
    [`{${EXSLT_MATH}}abs`]: { min: 1, max: 1, call: (_c, [v]) => Math.abs(toNum(v!)) },
    [`{${EXSLT_MATH}}sqrt`]: { min: 1, max: 1, call: (_c, [v]) => Math.sqrt(toNum(v!)) },
    [`{${EXSLT_MATH}}power`]: { min: 2, max: 2, call: (_c, [a, b]) => Math.pow(toNum(a!), toNum(b!)) },

    [`{${EXSLT_SETS}}difference`]: {
      min: 2,
      max: 2,
      call: (_c, [a, b]) => {
        const drop = new Set(nodesArg(b!, 'set:difference'));
        return nodesArg(a!, 'set:difference').filter((n) => !drop.has(n));
      },
    },
    [`{${EXSLT_SETS}}intersection`]: {
      min: 2,
      max: 2,
      call: (_c, [a, b]) => {
        const keep = new Set(nodesArg(b!, 'set:intersection'));
        return nodesArg(a!, 'set:intersection').filter((n) => keep.has(n));
      },
    },
    [`{${EXSLT_SETS}}distinct`]: {
      min: 1,
      max: 1,
      call: (_c, [a]) => {
        const seen = new Set<string>();
        return nodesArg(a!, 'set:distinct').filter((n) => {
          const v = n.stringValue();
          if (seen.has(v)) return false;
          seen.add(v);
          return true;
        });
      },
    },
    [`{${EXSLT_SETS}}has-same-node`]: {
      min: 2,
      max: 2,
      call: (_c, [a, b]) => {
        const other = new Set(nodesArg(b!, 'set:has-same-node'));
        return nodesArg(a!, 'set:has-same-node').some((n) => other.has(n));
      },
    },

    [`{${EXSLT_STRINGS}}tokenize`]: {
      min: 1,
      max: 2,
      call: (_c, args) => {
        const s = toStr(args[0]!);
        const delimiters = args.length > 1 ? toStr(args[1]!) : ' \t\n\r';
        const tokens = delimiters === '' ? [...s] : s.split(new RegExp(`[${[...delimiters].map(escapeClass).join('')}]`)).filter(Boolean);
        return tokenElements(tokens);
      },
    },
    [`{${EXSLT_STRINGS}}split`]: {
      min: 1,
      max: 2,
      call: (_c, args) => {
        const s = toStr(args[0]!);
        const pattern = args.length > 1 ? toStr(args[1]!) : ' ';
        return tokenElements(pattern === '' ? [...s] : s.split(pattern).filter(Boolean));
      },
    },
    [`{${EXSLT_STRINGS}}concat`]: {
      min: 1,
      max: 1,
      call: (_c, [v]) =>
        nodesArg(v!, 'str:concat')
          .map((n) => n.stringValue())
          .join(''),
    },
    [`{${EXSLT_STRINGS}}padding`]: {
      min: 1,
      max: 2,
      call: (_c, args) => {
        const length = Math.max(0, Math.floor(toNum(args[0]!)));
        const pad = args.length > 1 ? toStr(args[1]!) : ' ';
        if (pad === '' || !Number.isFinite(length)) return '';
        return pad.repeat(Math.ceil(length / pad.length)).slice(0, length);
      },
    },
  };
  return functions;
}

const CORE = new Set([
  'last',
  'position',
  'count',
  'id',
  'local-name',
  'namespace-uri',
  'name',
  'string',
  'concat',
  'starts-with',
  'contains',
  'substring-before',
  'substring-after',
  'substring',
  'string-length',
  'normalize-space',
  'translate',
  'boolean',
  'not',
  'true',
  'false',
  'lang',
  'number',
  'sum',
  'floor',
  'ceiling',
  'round',
  'current',
  'key',
  'format-number',
  'generate-id',
  'system-property',
  'element-available',
  'function-available',
  'unparsed-entity-uri',
]);

/** A QName a function reads from its argument, expanded with the prefixes of the expression's element. */
function runtimeQName(qname: string, options: Pick<XPathOptions, 'resolvePrefix'>, where: string): string {
  try {
    return expandQName(qname.trim(), options.resolvePrefix, where);
  } catch (e) {
    throw new XsltRuntimeError((e as Error).message, e);
  }
}

function formatNumberCall(c: XContext, args: XValue[], options: Pick<XPathOptions, 'resolvePrefix'>): XValue {
  const name = args.length > 2 ? toStr(args[2]!) : '';
  const format = rt(c).sheet.decimalFormats.get(runtimeQName(name, options, 'format-number()'));
  if (format === undefined) throw new XsltRuntimeError(`format-number() names the unknown decimal format "${name}"`);
  try {
    return formatNumber(toNum(args[0]!), toStr(args[1]!), format);
  } catch (e) {
    if (e instanceof NumberFormatError) throw new XsltRuntimeError(`format-number(): ${e.message}`, e);
    throw e;
  }
}

function systemProperty(name: string): XValue {
  switch (name.replace(/^xsl:/, '')) {
    case 'version':
      return 1;
    case 'vendor':
      return 'xroute';
    case 'vendor-url':
      return 'https://github.com/xroute';
    default:
      return '';
  }
}

function textNode(s: string): XNode {
  const doc = newDocument();
  const t = newLeaf(TEXT, s, doc);
  doc.children.push(t);
  return t;
}

function tokenElements(tokens: string[]): XNode[] {
  const doc = newDocument();
  return tokens.map((t) => {
    const el = newElement('token', '', 'token', '', doc);
    el.children.push(newLeaf(TEXT, t, el));
    doc.children.push(el);
    return el;
  });
}

function escapeClass(ch: string): string {
  return /[\]\\^-]/.test(ch) ? `\\${ch}` : ch;
}

function extreme(nodes: XNode[], better: (a: number, b: number) => boolean): number {
  if (nodes.length === 0) return NaN;
  let best: number | undefined;
  for (const n of nodes) {
    const v = stringToNumber(n.stringValue());
    if (Number.isNaN(v)) return NaN;
    if (best === undefined || better(v, best)) best = v;
  }
  return best!;
}

function extremeNodes(nodes: XNode[], better: (a: number, b: number) => boolean): XNode[] {
  const best = extreme(nodes, better);
  return Number.isNaN(best) ? [] : nodes.filter((n) => stringToNumber(n.stringValue()) === best);
}

/** key(): looks the value up in the key's index of the context node's document, built on first use. */
function keyLookup(runtime: Runtime, context: XNode, name: string, value: XValue): XNode[] {
  const defs = runtime.sheet.keys.get(name);
  if (defs === undefined) throw new XsltRuntimeError(`key() names the unknown key "${name}"`);
  const root = context.root();
  const all = (runtime.keyIndexes ??= new Map());
  let indexes = all.get(root);
  if (indexes === undefined) all.set(root, (indexes = new Map()));
  let index = indexes.get(name);
  if (index === undefined) {
    const built = new Map<string, XNode[]>();
    index = built;
    indexes.set(name, built);
    const saved = runtime.current;
    const visit = (n: XNode): void => {
      for (const def of defs) {
        if (!def.match(n, runtime)) continue;
        runtime.current = n;
        const used = def.use({ node: n, pos: 1, size: 1, rt: runtime });
        for (const v of Array.isArray(used) ? used.map((u) => u.stringValue()) : [toStr(used)]) {
          const list = built.get(v);
          if (list === undefined) built.set(v, [n]);
          else if (list[list.length - 1] !== n) list.push(n);
        }
      }
      for (const a of n.attrs) if (a.type === ATTRIBUTE) visit(a);
      for (const c of n.children) visit(c);
    };
    visit(root);
    runtime.current = saved;
  }
  if (!Array.isArray(value)) return index.get(toStr(value)) ?? [];
  const found: XNode[] = [];
  for (const n of value) for (const m of index.get(n.stringValue()) ?? []) found.push(m);
  return sortDocumentOrder(found);
}
