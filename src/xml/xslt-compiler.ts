/**
 * XSLT 1.0 stylesheets compiled to JavaScript closures over the light tree (xml-dom.ts).
 *
 * At start-up the stylesheet is parsed (safe-xml's parser), every instruction becomes a closure
 * and every XPath expression, pattern and attribute value template is compiled
 * (xpath-compiler.ts); local variables get slots in a frame, so a transform is calls and array
 * accesses with no lookup by name. Anything this engine does not implement is refused here, with
 * the construct named, rather than misbehaving on a message.
 *
 * Supported: templates with match, name, mode and priority; apply-templates (select, mode, sort,
 * with-param); call-template; param and variable (global and local, select or content);
 * value-of, text, copy, copy-of, element, attribute, attribute-set, comment,
 * processing-instruction, if, choose, for-each, sort, number, key, decimal-format, message,
 * fallback, strip-space/preserve-space, output (xml and text); XPath 1.0 with current(), key(),
 * format-number(), generate-id(), system-property(), element-available(), function-available(),
 * unparsed-entity-uri() and the EXSLT functions in xslt-functions.ts.
 * Refused: xsl:import, xsl:include and document() (a stylesheet reads nothing but the file the
 * configuration names), xsl:namespace-alias, xsl:apply-imports, output method html,
 * cdata-section-elements, extension elements, XSLT 2.0/3.0 instructions.
 */
import { ATTRIBUTE, CDATA, COMMENT, DOCUMENT, ELEMENT, NAMESPACE, NAMESPACE_DECLARATION, PROCESSING_INSTRUCTION, TEXT, XNode, deepCopy } from './xml-dom';
import {
  Eval,
  XContext,
  XFunction,
  XPathError,
  XPathOptions,
  XValue,
  applyPredicates,
  compileAst,
  compileNodeTest,
  expandQName,
  compileStringXPath,
  compileXPath,
  numberToString,
  parseAst,
  toBool,
  toNum,
  toStr,
  xpathRound,
} from './xpath-compiler';
import type { Ast, Step } from './xpath-parser';
import { ResultWriter, TextWriter, TreeWriter, copyNode, resultTreeFragment } from './xslt-output';
import { DEFAULT_DECIMAL_FORMAT, DecimalFormat, formatNumberSequence } from './xslt-numbers';
import { XsltCompileError, XsltRuntimeError } from './errors';
import { GlobalDef, Instr, KeyDef, Matcher, ModeRules, OutputSettings, ParamDef, Runtime, Sheet, Template } from './xslt-sheet';
import { xsltFunctions } from './xslt-functions';

const XSLT_NAMESPACE = 'http://www.w3.org/1999/XSL/Transform';
/** Nested template calls allowed before a transform fails (deep recursion would exhaust the stack). */
const MAX_TEMPLATE_DEPTH = 1500;

/** Compile-time variable scope: a chain of bindings to frame slots. */
class Scope {
  constructor(
    readonly parent: Scope | undefined,
    readonly name: string,
    readonly slot: number,
  ) {}

  find(name: string): number | undefined {
    // eslint-disable-next-line @typescript-eslint/no-this-alias -- a cursor that walks the scope chain from this scope
    for (let s: Scope | undefined = this; s !== undefined; s = s.parent) if (s.name === name) return s.slot;
    return undefined;
  }
}

/** The frame being laid out: a template's, or a global variable's. */
interface FrameLayout {
  size: number;
  readonly where: string;
}

const ROOT_SCOPE = new Scope(undefined, '', -1);

export function compileStylesheet(doc: XNode): Sheet {
  return new StylesheetCompiler(doc).compile();
}

class StylesheetCompiler {
  private readonly templates: Template[] = [];
  private readonly named = new Map<string, Template>();
  private readonly keys = new Map<string, KeyDef[]>();
  private readonly globals: GlobalDef[] = [];
  private readonly globalSlots = new Map<string, number>();
  private readonly attributeSets = new Map<string, Instr[]>();
  private readonly decimalFormats = new Map<string, DecimalFormat>([['', DEFAULT_DECIMAL_FORMAT]]);
  private readonly namespaceCache = new Map<XNode, Map<string, string>>();
  private readonly excluded = new Set<string>([XSLT_NAMESPACE]);
  private output: OutputSettings = { method: 'xml', declaration: declarationFor('UTF-8', undefined), indent: false };
  private strip: Array<{ test: (n: XNode) => boolean; strip: boolean; priority: number }> = [];
  private readonly functions: Readonly<Record<string, XFunction>>;

  /** Extension functions the stylesheet tests with function-available('p:f'): a call compiles, and fails if it runs. */
  private readonly guarded = new Set<string>();
  private methodGiven = false;

  constructor(private readonly doc: XNode) {
    this.functions = xsltFunctions();
    const visit = (n: XNode): void => {
      for (const a of n.attrs)
        for (const m of a.value.matchAll(/function-available\(\s*(?:'([^']*)'|"([^"]*)")\s*\)/g)) this.guarded.add((m[1] ?? m[2]!).trim());
      for (const c of n.children) if (c.type === ELEMENT) visit(c);
    };
    visit(doc);
  }

  compile(): Sheet {
    const root = this.doc.documentElement()!;
    let top: XNode[];
    if (root.ns === XSLT_NAMESPACE && (root.local === 'stylesheet' || root.local === 'transform')) {
      this.excludePrefixes(root, root.attribute('exclude-result-prefixes'));
      this.excludePrefixes(root, root.attribute('extension-element-prefixes'));
      top = root.children.filter((c) => c.type === ELEMENT);
    } else {
      // a literal result element as the stylesheet: one template for "/"
      if (root.attrs.every((a) => !(a.ns === XSLT_NAMESPACE && a.local === 'version')))
        throw new XsltCompileError('the root element is neither xsl:stylesheet nor xsl:transform nor a literal result element with xsl:version');
      top = [];
      this.addTemplate('/', [root], 'the literal result element stylesheet', undefined, '', undefined, root);
    }
    // declarations first, so templates see every global variable, key and attribute set
    for (const el of top) if (el.ns === XSLT_NAMESPACE && (el.local === 'variable' || el.local === 'param')) this.registerGlobal(el);
    for (const el of top) if (el.ns === XSLT_NAMESPACE) this.declaration(el);
    for (const el of top) if (el.ns === XSLT_NAMESPACE && el.local === 'template') this.template(el);
    if (!this.methodGiven) this.refuseImplicitHtml(root);
    return {
      output: this.output,
      modes: this.indexModes(),
      named: this.named,
      keys: this.keys,
      globals: this.globals,
      decimalFormats: this.decimalFormats,
      stripSpace: this.strip.length === 0 ? undefined : this.stripTest(),
    };
  }

  // --- top-level declarations -----------------------------------------------------------------

  private declaration(el: XNode): void {
    switch (el.local) {
      case 'template':
        return;
      case 'output':
        return this.outputDeclaration(el);
      case 'param':
      case 'variable':
        return this.globalVariable(el);
      case 'key':
        return this.keyDeclaration(el);
      case 'attribute-set':
        return this.attributeSet(el);
      case 'decimal-format':
        return this.decimalFormat(el);
      case 'strip-space':
      case 'preserve-space':
        return this.spaceDeclaration(el);
      case 'import':
      case 'include':
        throw new XsltCompileError(`xsl:${el.local} is not supported: a stylesheet may read no file but the XSLFile the configuration names`);
      case 'namespace-alias':
        throw new XsltCompileError('xsl:namespace-alias is not supported');
      default:
        throw new XsltCompileError(`xsl:${el.local} is not an XSLT 1.0 declaration this engine supports`);
    }
  }

  /**
   * Without an xsl:output method, a result whose first element is `html` is HTML output (XSLT 1.0 §16), which this
   * engine does not write: refused when an `html` literal result element has no literal result element around it.
   */
  private refuseImplicitHtml(root: XNode): void {
    const visit = (n: XNode): void => {
      if (n.ns !== XSLT_NAMESPACE) {
        if (n.ns === '' && n.local.toLowerCase() === 'html') {
          throw new XsltCompileError(
            'the implicit html output method (no xsl:output method and an html result element) is not supported: declare xsl:output method="xml" or "text"',
          );
        }
        if (n !== root || root.ns !== XSLT_NAMESPACE) return;
      }
      for (const c of n.children) if (c.type === ELEMENT) visit(c);
    };
    visit(root);
  }

  private outputDeclaration(el: XNode): void {
    if (el.attribute('method') !== undefined) this.methodGiven = true;
    const method = el.attribute('method') ?? 'xml';
    if (method !== 'xml' && method !== 'text') throw new XsltCompileError(`xsl:output method="${method}" is not supported (only xml and text)`);
    if (el.attribute('cdata-section-elements') !== undefined) throw new XsltCompileError('xsl:output cdata-section-elements is not supported');
    const omit = el.attribute('omit-xml-declaration') === 'yes';
    const system = el.attribute('doctype-system');
    const pub = el.attribute('doctype-public');
    this.output = {
      method,
      declaration: method === 'text' || omit ? undefined : declarationFor('UTF-8', el.attribute('standalone')),
      indent: el.attribute('indent') === 'yes',
      doctype: system !== undefined || pub !== undefined ? { system, public: pub } : undefined,
    };
  }

  /** Gives every global variable and parameter its slot first, so any declaration may refer to any global. */
  private registerGlobal(el: XNode): void {
    const name = required(el, 'name');
    if (this.globalSlots.has(name)) throw new XsltCompileError(`the global variable or parameter $${name} is declared twice`);
    this.globalSlots.set(name, this.globalSlots.size);
  }

  private globalVariable(el: XNode): void {
    const name = required(el, 'name');
    const layout: FrameLayout = { size: 0, where: `xsl:${el.local} name="${name}"` };
    const value = this.wrap(layout.where, () => this.variableValue(el, ROOT_SCOPE, layout));
    this.globals[this.globalSlots.get(name)!] = { name, isParam: el.local === 'param', value, frameSize: layout.size };
  }

  private keyDeclaration(el: XNode): void {
    const name = this.qname(required(el, 'name'), el);
    const def: KeyDef = { match: this.pattern(required(el, 'match'), el).match, use: this.xpath(required(el, 'use'), el, ROOT_SCOPE) };
    const list = this.keys.get(name) ?? [];
    list.push(def);
    this.keys.set(name, list);
  }

  private attributeSet(el: XNode): void {
    const name = required(el, 'name');
    const layout: FrameLayout = { size: 0, where: `xsl:attribute-set name="${name}"` };
    const list = this.attributeSets.get(name) ?? [];
    const used = this.useAttributeSets(el, el.attribute('use-attribute-sets'));
    if (used !== undefined) list.push(used);
    for (const c of el.children) {
      if (c.type !== ELEMENT) continue;
      if (c.ns !== XSLT_NAMESPACE || c.local !== 'attribute') throw new XsltCompileError(`xsl:attribute-set "${name}" may hold only xsl:attribute`);
      list.push(this.instruction(c, ROOT_SCOPE, layout));
    }
    this.attributeSets.set(name, list);
  }

  private decimalFormat(el: XNode): void {
    const f: Record<string, string> = { ...DEFAULT_DECIMAL_FORMAT };
    const keys: Array<[string, keyof DecimalFormat]> = [
      ['decimal-separator', 'decimalSeparator'],
      ['grouping-separator', 'groupingSeparator'],
      ['infinity', 'infinity'],
      ['minus-sign', 'minusSign'],
      ['NaN', 'nan'],
      ['percent', 'percent'],
      ['per-mille', 'perMille'],
      ['zero-digit', 'zeroDigit'],
      ['digit', 'digit'],
      ['pattern-separator', 'patternSeparator'],
    ];
    for (const [attr, key] of keys) {
      const v = el.attribute(attr);
      if (v !== undefined) f[key] = v;
    }
    const name = el.attribute('name');
    this.decimalFormats.set(name === undefined ? '' : this.qname(name, el), f as unknown as DecimalFormat);
  }

  private spaceDeclaration(el: XNode): void {
    const strip = el.local === 'strip-space';
    for (const name of required(el, 'elements').split(/\s+/).filter(Boolean)) {
      const ast = parseAstOrFail(name, el);
      if (ast.t !== 'path' || ast.steps.length !== 1) throw new XsltCompileError(`xsl:${el.local} elements="${name}" is not a name test`);
      const step = ast.steps[0]!;
      const test = compileNodeTest(step.test, false, this.options(el, ROOT_SCOPE));
      const priority = step.test.kind === 'any' ? -0.5 : step.test.kind === 'prefix-any' ? -0.25 : 0;
      this.strip.push({ test: (n) => n.type === ELEMENT && test(n), strip, priority });
    }
  }

  private stripTest(): (el: XNode) => boolean {
    const rules = [...this.strip].reverse();
    return (el) => {
      let best: { strip: boolean; priority: number } | undefined;
      for (const r of rules) if (r.test(el) && (best === undefined || r.priority > best.priority)) best = r;
      return best?.strip ?? false;
    };
  }

  private excludePrefixes(el: XNode, list: string | undefined): void {
    for (const prefix of (list ?? '').split(/\s+/).filter(Boolean)) {
      const uri = this.namespaces(el).get(prefix === '#default' ? '' : prefix);
      if (uri === undefined) throw new XsltCompileError(`exclude-result-prefixes names the undeclared prefix ${prefix}`);
      this.excluded.add(uri);
    }
  }

  // --- templates ----------------------------------------------------------------------------

  private template(el: XNode): void {
    const match = el.attribute('match');
    const nameValue = el.attribute('name');
    const name = nameValue === undefined ? undefined : this.qname(nameValue, el);
    const modeValue = el.attribute('mode');
    if (match === undefined && name === undefined) throw new XsltCompileError('an xsl:template needs a match or a name');
    const priority = el.attribute('priority');
    if (priority !== undefined && !Number.isFinite(Number(priority))) throw new XsltCompileError(`xsl:template priority="${priority}" is not a number`);
    this.addTemplate(
      match,
      el.children,
      match !== undefined ? `xsl:template match="${match}"` : `xsl:template name="${nameValue}"`,
      name,
      modeValue === undefined ? '' : this.qname(modeValue, el),
      priority === undefined ? undefined : Number(priority),
      el,
    );
  }

  private addTemplate(
    match: string | undefined,
    content: XNode[],
    describe: string,
    name: string | undefined,
    mode: string,
    priority: number | undefined,
    el: XNode,
  ): void {
    const layout: FrameLayout = { size: 0, where: describe };
    const params: ParamDef[] = [];
    let scope = ROOT_SCOPE;
    // leading xsl:param elements
    const body: XNode[] = [];
    for (const c of content) {
      if (c.type === ELEMENT && c.ns === XSLT_NAMESPACE && c.local === 'param' && body.every((b) => b.type !== ELEMENT)) {
        const pname = required(c, 'name');
        const slot = layout.size++;
        params.push({ name: pname, slot, value: this.variableValue(c, scope, layout) });
        scope = new Scope(scope, pname, slot);
      } else body.push(c);
    }
    const compiled = this.wrap(describe, () => this.sequence(body, scope, layout, el));
    const make = (extra: Pick<Template, 'match' | 'priority' | 'position' | 'indexName'>): Template => ({
      name,
      mode,
      params,
      body: compiled,
      describe,
      frameSize: layout.size,
      ...extra,
    });
    if (name !== undefined) {
      if (this.named.has(name)) throw new XsltCompileError(`two templates are named "${name}"`);
      this.named.set(name, make({ priority: 0, position: this.templates.length }));
    }
    if (match === undefined) return;
    for (const alt of this.wrap(describe, () => this.patternAlternatives(match, el))) {
      this.templates.push(make({ match: alt.match, priority: priority ?? alt.priority, position: this.templates.length, indexName: alt.indexName }));
    }
  }

  private indexModes(): Map<string, ModeRules> {
    const modes = new Map<string, ModeRules>();
    const order = (a: Template, b: Template): number => b.priority - a.priority || b.position - a.position;
    for (const t of this.templates) {
      let rules = modes.get(t.mode);
      if (rules === undefined) modes.set(t.mode, (rules = { generic: [], elements: new Map(), attributes: new Map() }));
      if (t.indexName === undefined) rules.generic.push(t);
      else {
        const map = t.indexName.attribute ? rules.attributes : rules.elements;
        map.set(t.indexName.local, [...(map.get(t.indexName.local) ?? []), t]);
      }
    }
    for (const rules of modes.values()) {
      rules.generic.sort(order);
      for (const map of [rules.elements, rules.attributes]) for (const [k, list] of map) map.set(k, [...list, ...rules.generic].sort(order));
    }
    return modes;
  }

  private wrap<T>(where: string, step: () => T): T {
    try {
      return step();
    } catch (e) {
      if (e instanceof XsltCompileError && !e.message.startsWith('in ')) throw new XsltCompileError(`in ${where}: ${e.message}`, e);
      throw e;
    }
  }

  // --- patterns -----------------------------------------------------------------------------

  private pattern(source: string, el: XNode, scope = ROOT_SCOPE): { match: Matcher } {
    const alts = this.patternAlternatives(source, el, scope);
    if (alts.length === 1) return alts[0]!;
    const matchers = alts.map((a) => a.match);
    return { match: (n, rt) => matchers.some((m) => m(n, rt)) };
  }

  private patternAlternatives(
    source: string,
    el: XNode,
    scope = ROOT_SCOPE,
  ): Array<{ match: Matcher; priority: number; indexName?: { attribute: boolean; local: string } }> {
    const ast = parseAstOrFail(source, el);
    const alts: Ast[] = [];
    const collect = (a: Ast): void => {
      if (a.t === 'union') {
        collect(a.a);
        collect(a.b);
      } else alts.push(a);
    };
    collect(ast);
    return alts.map((a) => this.patternAlternative(a, source, el, scope));
  }

  private patternAlternative(
    ast: Ast,
    source: string,
    el: XNode,
    scope: Scope,
  ): { match: Matcher; priority: number; indexName?: { attribute: boolean; local: string } } {
    const options = this.options(el, scope);
    let start: 'root' | 'context' | Eval;
    let steps: Step[];
    if (ast.t === 'path') {
      steps = ast.steps;
      if (ast.start === 'root' || ast.start === 'context') start = ast.start;
      else start = this.patternStart(ast.start, source, options);
    } else {
      start = this.patternStart(ast, source, options);
      steps = [];
    }
    interface PStep {
      readonly attribute: boolean;
      readonly test: (n: XNode) => boolean;
      readonly preds: Eval[];
      readonly descendant: boolean;
    }
    const psteps: PStep[] = [];
    let descendant = false;
    for (const s of steps) {
      if (s.axis === 'descendant-or-self' && s.test.kind === 'node' && s.preds.length === 0) {
        descendant = true;
        continue;
      }
      if (s.axis !== 'child' && s.axis !== 'attribute')
        throw new XsltCompileError(`the pattern "${source}" uses the ${s.axis} axis; patterns allow only child and attribute steps, "/" and "//"`);
      psteps.push({
        attribute: s.axis === 'attribute',
        test: compileNodeTest(s.test, s.axis === 'attribute', options),
        preds: s.preds.map((p) => compileAst(p, options)),
        descendant,
      });
      descendant = false;
    }
    const absolute = start === 'root';
    const base = typeof start === 'function' ? start : undefined;
    const stepMatches = (s: PStep, n: XNode, rt: Runtime): boolean => {
      if (s.attribute ? n.type !== ATTRIBUTE : n.type === ATTRIBUTE || n.type === DOCUMENT || n.parent === null) return false;
      if (!s.test(n)) return false;
      if (s.preds.length === 0) return true;
      const parent = n.parent!;
      const candidates = (s.attribute ? parent.attrs.filter((a) => a.type === ATTRIBUTE) : parent.children).filter(s.test);
      return applyPredicates(candidates, s.preds, rt).includes(n);
    };
    const matchFrom = (i: number, n: XNode, rt: Runtime): boolean => {
      const s = psteps[i]!;
      if (!stepMatches(s, n, rt)) return false;
      const up = n.parent;
      if (i === 0) {
        if (base !== undefined) return ancestorsMatch(up, s.descendant, (a) => (base({ node: a, pos: 1, size: 1, rt }) as XNode[]).includes(a));
        if (!absolute) return true;
        return s.descendant ? n.root().type === DOCUMENT : up !== null && up.type === DOCUMENT;
      }
      return ancestorsMatch(up, s.descendant, (a) => matchFrom(i - 1, a, rt));
    };
    const last = psteps.length - 1;
    let match: Matcher;
    if (psteps.length === 0) {
      match = base !== undefined ? (n, rt) => (base({ node: n, pos: 1, size: 1, rt }) as XNode[]).includes(n) : (n) => n.type === DOCUMENT;
    } else match = (n, rt) => matchFrom(last, n, rt);
    return { match, priority: defaultPriority(ast, steps), indexName: indexNameOf(steps) };
  }

  private patternStart(ast: Ast, source: string, options: XPathOptions): Eval {
    if (ast.t === 'call' && (ast.name === 'id' || ast.name === 'key') && ast.args.every((a) => a.t === 'str')) {
      const e = compileAst(ast, options);
      return (c) => {
        const v = e(c);
        return Array.isArray(v) ? v : [];
      };
    }
    throw new XsltCompileError(`"${source}" is not an XSLT 1.0 pattern`);
  }

  // --- instructions -------------------------------------------------------------------------

  private sequence(nodes: readonly XNode[], scope: Scope, layout: FrameLayout, parent: XNode): Instr {
    const instrs: Instr[] = [];
    let s = scope;
    for (const n of nodes) {
      if (n.type === TEXT || n.type === CDATA) {
        if (isWhitespace(n.value) && n.type === TEXT) continue;
        const text = n.value;
        instrs.push((_c, rt) => rt.out.text(text));
        continue;
      }
      if (n.type !== ELEMENT) continue;
      if (n.ns === XSLT_NAMESPACE && n.local === 'variable') {
        const name = required(n, 'name');
        const value = this.variableValue(n, s, layout);
        const slot = layout.size++;
        instrs.push((c, rt) => {
          rt.frame[slot] = value(c, rt);
        });
        s = new Scope(s, name, slot);
        continue;
      }
      if (n.ns === XSLT_NAMESPACE && n.local === 'param')
        throw new XsltCompileError(
          `xsl:param name="${n.attribute('name')}" must come first in ${parent.ns === XSLT_NAMESPACE ? 'xsl:' + parent.local : 'its template'}`,
        );
      instrs.push(this.instruction(n, s, layout));
    }
    if (instrs.length === 0) return () => undefined;
    if (instrs.length === 1) return instrs[0]!;
    if (instrs.length === 2) {
      const [a, b] = instrs as [Instr, Instr];
      return (c, rt) => {
        a(c, rt);
        b(c, rt);
      };
    }
    return (c, rt) => {
      for (let i = 0; i < instrs.length; i++) instrs[i]!(c, rt);
    };
  }

  /** The value of an xsl:variable, xsl:param or xsl:with-param: its select, its content as a tree, or "". */
  private variableValue(el: XNode, scope: Scope, layout: FrameLayout): (c: XContext, rt: Runtime) => XValue {
    const select = el.attribute('select');
    if (select !== undefined) {
      const e = this.xpath(select, el, scope);
      return (c) => e(c);
    }
    const content = el.children.filter((c) => !(c.type === TEXT && isWhitespace(c.value)));
    if (content.length === 0) return () => '';
    const body = this.sequence(el.children, scope, layout, el);
    return (c, rt) => {
      const saved = rt.out;
      const tree = new TreeWriter();
      rt.out = tree;
      try {
        body(c, rt);
      } finally {
        rt.out = saved;
      }
      return resultTreeFragment(tree.doc);
    };
  }

  private instruction(el: XNode, scope: Scope, layout: FrameLayout): Instr {
    if (el.ns !== XSLT_NAMESPACE) return this.literalElement(el, scope, layout);
    switch (el.local) {
      case 'value-of': {
        const e = this.xpathString(required(el, 'select'), el, scope);
        const raw = el.attribute('disable-output-escaping') === 'yes';
        return (c, rt) => rt.out.text(e(c), raw);
      }
      case 'text': {
        const text = el.children.map((c) => c.value).join('');
        const raw = el.attribute('disable-output-escaping') === 'yes';
        return (_c, rt) => rt.out.text(text, raw);
      }
      case 'apply-templates':
        return this.applyTemplates(el, scope, layout);
      case 'call-template':
        return this.callTemplate(el, scope, layout);
      case 'for-each':
        return this.forEach(el, scope, layout);
      case 'if': {
        const test = this.xpath(required(el, 'test'), el, scope);
        const body = this.sequence(el.children, scope, layout, el);
        return (c, rt) => {
          if (toBool(test(c))) body(c, rt);
        };
      }
      case 'choose':
        return this.choose(el, scope, layout);
      case 'copy-of': {
        const e = this.xpath(required(el, 'select'), el, scope);
        return (c, rt) => {
          const v = e(c);
          if (Array.isArray(v)) for (const n of v) copyNode(n, rt.out, true);
          else rt.out.text(toStr(v));
        };
      }
      case 'copy':
        return this.copy(el, scope, layout);
      case 'element':
        return this.element(el, scope, layout);
      case 'attribute':
        return this.attribute(el, scope, layout);
      case 'comment': {
        const content = this.textContent(el, scope, layout);
        return (c, rt) => rt.out.comment(content(c, rt));
      }
      case 'processing-instruction': {
        const name = this.avt(required(el, 'name'), el, scope);
        const content = this.textContent(el, scope, layout);
        return (c, rt) => rt.out.processingInstruction(name(c), content(c, rt).trimStart());
      }
      case 'number':
        return this.number(el, scope);
      case 'message': {
        const content = this.textContent(el, scope, layout);
        const terminate = el.attribute('terminate') === 'yes';
        return (c, rt) => {
          const text = content(c, rt);
          if (terminate) throw new XsltRuntimeError(`terminated by xsl:message: ${text}`);
        };
      }
      case 'fallback':
        return () => undefined;
      case 'apply-imports':
        throw new XsltCompileError('xsl:apply-imports is not supported (xsl:import is not)');
      default:
        return this.unknownInstruction(el, scope, layout);
    }
  }

  /**
   * An instruction XSLT 1.0 does not know. In forwards-compatible mode (a version other than 1.0 in scope, as
   * XSLT 1.0 §2.5 says) it runs its xsl:fallback children, or fails the transform if it runs without one; XSLT
   * 2.0/3.0 instructions and any unknown instruction of a 1.0 stylesheet are refused.
   */
  private unknownInstruction(el: XNode, scope: Scope, layout: FrameLayout): Instr {
    if (XSLT2_INSTRUCTIONS.has(el.local) || !forwardsCompatible(el))
      throw new XsltCompileError(`xsl:${el.local} is not an XSLT 1.0 instruction this engine supports`);
    const fallbacks = el.children.filter((c) => c.type === ELEMENT && c.ns === XSLT_NAMESPACE && c.local === 'fallback');
    if (fallbacks.length === 0) {
      return () => {
        throw new XsltRuntimeError(`xsl:${el.local} is not an XSLT 1.0 instruction and has no xsl:fallback`);
      };
    }
    return this.sequence(
      fallbacks.flatMap((f) => f.children),
      scope,
      layout,
      el,
    );
  }

  private literalElement(el: XNode, scope: Scope, layout: FrameLayout): Instr {
    const extension = el.parent === null ? [] : this.extensionNamespaces(el);
    if (extension.includes(el.ns)) throw new XsltCompileError(`the extension element ${el.name} is not supported`);
    const name = el.name;
    const ns = el.ns;
    const namespaces = [...this.namespaces(el)].filter(([prefix, uri]) => prefix !== 'xml' && !this.excluded.has(uri) && !this.localExcluded(el).has(uri));
    const attrs: Array<[string, string, Eval]> = [];
    for (const a of el.attrs) {
      if (a.type !== ATTRIBUTE || a.ns === XSLT_NAMESPACE) continue;
      attrs.push([a.name, a.ns, this.avt(a.value, el, scope)]);
    }
    const sets = this.useAttributeSets(el, el.attrs.find((a) => a.ns === XSLT_NAMESPACE && a.local === 'use-attribute-sets')?.value);
    const body = this.sequence(el.children, scope, layout, el);
    return (c, rt) => {
      const out = rt.out;
      out.startElement(name, ns);
      for (let i = 0; i < namespaces.length; i++) out.namespace(namespaces[i]![0], namespaces[i]![1]);
      if (sets !== undefined) sets(c, rt);
      for (let i = 0; i < attrs.length; i++) {
        const a = attrs[i]!;
        out.attribute(a[0], a[1], toStr(a[2](c)));
      }
      body(c, rt);
      out.endElement();
    };
  }

  private localExcluded(el: XNode): Set<string> {
    const found = new Set<string>();
    for (let n: XNode | null = el; n !== null && n.type === ELEMENT; n = n.parent) {
      for (const a of n.attrs) {
        if (a.ns === XSLT_NAMESPACE && (a.local === 'exclude-result-prefixes' || a.local === 'extension-element-prefixes')) {
          for (const p of a.value.split(/\s+/).filter(Boolean)) {
            const uri = this.namespaces(n).get(p === '#default' ? '' : p);
            if (uri !== undefined) found.add(uri);
          }
        }
      }
    }
    return found;
  }

  private extensionNamespaces(el: XNode): string[] {
    const out: string[] = [];
    for (let n: XNode | null = el; n !== null && n.type === ELEMENT; n = n.parent) {
      const list =
        n.ns === XSLT_NAMESPACE
          ? n.attribute('extension-element-prefixes')
          : n.attrs.find((a) => a.ns === XSLT_NAMESPACE && a.local === 'extension-element-prefixes')?.value;
      for (const p of (list ?? '').split(/\s+/).filter(Boolean)) {
        const uri = this.namespaces(n).get(p === '#default' ? '' : p);
        if (uri !== undefined) out.push(uri);
      }
    }
    return out;
  }

  private useAttributeSets(el: XNode, list: string | undefined): Instr | undefined {
    if (list === undefined) return undefined;
    const names = list.split(/\s+/).filter(Boolean);
    for (const n of names)
      if (!this.attributeSets.has(n) && !this.pendingSet(el, n)) throw new XsltCompileError(`use-attribute-sets names the unknown attribute set "${n}"`);
    return (c, rt) => {
      for (const n of names) for (const i of this.attributeSets.get(n) ?? []) i(c, rt);
    };
  }

  /** An attribute set declared later in the stylesheet counts as known. */
  private pendingSet(el: XNode, name: string): boolean {
    const root = el.root().documentElement();
    return (
      root !== undefined &&
      root.children.some((c) => c.type === ELEMENT && c.ns === XSLT_NAMESPACE && c.local === 'attribute-set' && c.attribute('name') === name)
    );
  }

  private sortKeys(el: XNode, scope: Scope): Array<(nodes: XNode[], c: XContext, rt: Runtime) => Array<string | number>> {
    return el.children
      .filter((c) => c.type === ELEMENT && c.ns === XSLT_NAMESPACE && c.local === 'sort')
      .map((s) => {
        const select = this.xpath(s.attribute('select') ?? '.', s, scope);
        const dataType = this.avt(s.attribute('data-type') ?? 'text', s, scope);
        return (nodes, c, rt) => {
          const numeric = toStr(dataType(c)) === 'number';
          const saved = rt.current;
          const ctx: XContext = { node: nodes[0]!, pos: 0, size: nodes.length, rt };
          const keys = nodes.map((n, i) => {
            ctx.node = n;
            ctx.pos = i + 1;
            rt.current = n;
            const v = select(ctx);
            return numeric ? toNum(v) : toStr(v);
          });
          rt.current = saved;
          return keys;
        };
      });
  }

  private sorter(el: XNode, scope: Scope): ((nodes: XNode[], c: XContext, rt: Runtime) => XNode[]) | undefined {
    const sorts = el.children.filter((c) => c.type === ELEMENT && c.ns === XSLT_NAMESPACE && c.local === 'sort');
    if (sorts.length === 0) return undefined;
    const keys = this.sortKeys(el, scope);
    const orders = sorts.map((s) => this.avt(s.attribute('order') ?? 'ascending', s, scope));
    const caseOrders = sorts.map((s) => this.avt(s.attribute('case-order') ?? 'lower-first', s, scope));
    return (nodes, c, rt) => {
      const values = keys.map((k) => k(nodes, c, rt));
      const descending = orders.map((o) => toStr(o(c)) === 'descending');
      const upperFirst = caseOrders.map((o) => toStr(o(c)) === 'upper-first');
      const index = nodes.map((_, i) => i);
      index.sort((a, b) => {
        for (let k = 0; k < values.length; k++) {
          const d = compareSortKeys(values[k]![a]!, values[k]![b]!, upperFirst[k]!);
          if (d !== 0) return descending[k] ? -d : d;
        }
        return a - b;
      });
      return index.map((i) => nodes[i]!);
    };
  }

  private withParams(el: XNode, scope: Scope, layout: FrameLayout): Array<[string, (c: XContext, rt: Runtime) => XValue]> {
    return el.children
      .filter((c) => c.type === ELEMENT && c.ns === XSLT_NAMESPACE && c.local === 'with-param')
      .map((w) => [required(w, 'name'), this.variableValue(w, scope, layout)]);
  }

  private applyTemplates(el: XNode, scope: Scope, layout: FrameLayout): Instr {
    const selectSource = el.attribute('select');
    const select = selectSource === undefined ? undefined : this.xpath(selectSource, el, scope);
    const modeValue = el.attribute('mode');
    const mode = modeValue === undefined ? '' : this.qname(modeValue, el);
    const sort = this.sorter(el, scope);
    const params = this.withParams(el, scope, layout);
    this.checkChildren(el, ['sort', 'with-param']);
    return (c, rt) => {
      let nodes: XNode[];
      if (select === undefined) nodes = c.node.children;
      else {
        const v = select(c);
        if (!Array.isArray(v)) throw new XsltRuntimeError(`apply-templates select="${selectSource}" gives a ${typeof v}, not a node set`);
        nodes = v;
      }
      if (nodes.length === 0) return;
      if (sort !== undefined) nodes = sort(nodes, c, rt);
      const passed = params.length === 0 ? undefined : new Map(params.map(([n, v]) => [n, v(c, rt)]));
      applyTemplatesTo(nodes, mode, rt, passed);
    };
  }

  private callTemplate(el: XNode, scope: Scope, layout: FrameLayout): Instr {
    const nameValue = required(el, 'name');
    const name = this.qname(nameValue, el);
    const params = this.withParams(el, scope, layout);
    this.checkChildren(el, ['with-param']);
    const root = el.root().documentElement()!;
    const named = (t: XNode): boolean =>
      t.type === ELEMENT &&
      t.ns === XSLT_NAMESPACE &&
      t.local === 'template' &&
      t.attribute('name') !== undefined &&
      this.qname(t.attribute('name')!, t) === name;
    if (!root.children.some(named)) throw new XsltCompileError(`xsl:call-template names the unknown template "${nameValue}"`);
    return (c, rt) => {
      const t = rt.sheet.named.get(name)!;
      const passed = params.length === 0 ? undefined : new Map(params.map(([n, v]) => [n, v(c, rt)]));
      invoke(t, c.node, c.pos, c.size, rt, passed);
    };
  }

  private forEach(el: XNode, scope: Scope, layout: FrameLayout): Instr {
    const source = required(el, 'select');
    const select = this.xpath(source, el, scope);
    const sort = this.sorter(el, scope);
    const body = this.sequence(
      el.children.filter((c) => !(c.type === ELEMENT && c.ns === XSLT_NAMESPACE && c.local === 'sort')),
      scope,
      layout,
      el,
    );
    return (c, rt) => {
      const v = select(c);
      if (!Array.isArray(v)) throw new XsltRuntimeError(`for-each select="${source}" gives a ${typeof v}, not a node set`);
      const nodes = sort === undefined ? v : sort(v, c, rt);
      const saved = rt.current;
      const ctx: XContext = { node: c.node, pos: 0, size: nodes.length, rt };
      for (let i = 0; i < nodes.length; i++) {
        ctx.node = rt.current = nodes[i]!;
        ctx.pos = i + 1;
        body(ctx, rt);
      }
      rt.current = saved;
    };
  }

  private choose(el: XNode, scope: Scope, layout: FrameLayout): Instr {
    const branches: Array<[Eval | undefined, Instr]> = [];
    for (const c of el.children) {
      if (c.type === TEXT && isWhitespace(c.value)) continue;
      if (c.type !== ELEMENT || c.ns !== XSLT_NAMESPACE || (c.local !== 'when' && c.local !== 'otherwise'))
        throw new XsltCompileError('xsl:choose may hold only xsl:when and xsl:otherwise');
      branches.push([c.local === 'when' ? this.xpath(required(c, 'test'), c, scope) : undefined, this.sequence(c.children, scope, layout, c)]);
    }
    return (c, rt) => {
      for (const [test, body] of branches) {
        if (test === undefined || toBool(test(c))) {
          body(c, rt);
          return;
        }
      }
    };
  }

  private copy(el: XNode, scope: Scope, layout: FrameLayout): Instr {
    const sets = this.useAttributeSets(el, el.attribute('use-attribute-sets'));
    const body = this.sequence(el.children, scope, layout, el);
    return (c, rt) => {
      const n = c.node;
      if (n.type === ELEMENT) {
        copyNode(n, rt.out, false);
        if (sets !== undefined) sets(c, rt);
        body(c, rt);
        rt.out.endElement();
      } else if (n.type === DOCUMENT) body(c, rt);
      else copyNode(n, rt.out, false);
    };
  }

  private element(el: XNode, scope: Scope, layout: FrameLayout): Instr {
    const name = this.avt(required(el, 'name'), el, scope);
    const nsAvt = el.attribute('namespace');
    const namespace = nsAvt === undefined ? undefined : this.avt(nsAvt, el, scope);
    const inScope = this.namespaces(el);
    const sets = this.useAttributeSets(el, el.attribute('use-attribute-sets'));
    const body = this.sequence(el.children, scope, layout, el);
    return (c, rt) => {
      const qname = toStr(name(c));
      const ns = namespace !== undefined ? toStr(namespace(c)) : resolveQName(qname, inScope, true);
      rt.out.startElement(qname, ns);
      if (sets !== undefined) sets(c, rt);
      body(c, rt);
      rt.out.endElement();
    };
  }

  private attribute(el: XNode, scope: Scope, layout: FrameLayout): Instr {
    if (required(el, 'name').trim() === 'xmlns')
      throw new XsltCompileError('xsl:attribute name="xmlns" is not allowed: namespace declarations are not attributes');
    const name = this.avt(required(el, 'name'), el, scope);
    const nsAvt = el.attribute('namespace');
    const namespace = nsAvt === undefined ? undefined : this.avt(nsAvt, el, scope);
    const inScope = this.namespaces(el);
    const content = this.textContent(el, scope, layout);
    return (c, rt) => {
      const qname = toStr(name(c));
      if (qname === 'xmlns') throw new XsltRuntimeError('xsl:attribute cannot make an attribute named xmlns');
      const ns = namespace !== undefined ? toStr(namespace(c)) : resolveQName(qname, inScope, false);
      rt.out.attribute(qname, ns, content(c, rt));
    };
  }

  /** Content instantiated as text only (xsl:attribute, xsl:comment, xsl:message...). */
  private textContent(el: XNode, scope: Scope, layout: FrameLayout): (c: XContext, rt: Runtime) => string {
    const select = el.attribute('select');
    if (select !== undefined && el.local === 'attribute') throw new XsltCompileError('xsl:attribute select= is XSLT 2.0, not supported');
    const body = this.sequence(el.children, scope, layout, el);
    return (c, rt) => {
      const saved = rt.out;
      const text = new TextWriter();
      rt.out = text;
      try {
        body(c, rt);
      } finally {
        rt.out = saved;
      }
      return text.out;
    };
  }

  private number(el: XNode, scope: Scope): Instr {
    const valueSource = el.attribute('value');
    const value = valueSource === undefined ? undefined : this.xpath(valueSource, el, scope);
    const level = el.attribute('level') ?? 'single';
    if (level !== 'single' && level !== 'multiple' && level !== 'any') throw new XsltCompileError(`xsl:number level="${level}" is not single, multiple or any`);
    const count = el.attribute('count');
    const countMatch = count === undefined ? undefined : this.pattern(count, el, scope).match;
    const fromSource = el.attribute('from');
    const from = fromSource === undefined ? undefined : this.pattern(fromSource, el, scope).match;
    const format = this.avt(el.attribute('format') ?? '1', el, scope);
    const separatorAvt = el.attribute('grouping-separator');
    const sizeAvt = el.attribute('grouping-size');
    const separator = separatorAvt === undefined ? undefined : this.avt(separatorAvt, el, scope);
    const size = sizeAvt === undefined ? undefined : this.avt(sizeAvt, el, scope);
    return (c, rt) => {
      let numbers: number[];
      if (value !== undefined) {
        const n = xpathRound(toNum(value(c)));
        if (!Number.isFinite(n)) {
          rt.out.text(numberToString(n));
          return;
        }
        numbers = [n < 0 ? 0 : n]; // a negative value is an error XSLT 1.0 lets a processor recover from; libxslt writes 0
      } else numbers = countNodes(c.node, level, countMatch, from, rt);
      rt.out.text(
        formatNumberSequence(numbers, {
          format: toStr(format(c)),
          groupingSeparator: separator === undefined ? undefined : toStr(separator(c)),
          groupingSize: size === undefined ? undefined : toNum(size(c)),
        }),
      );
    };
  }

  private checkChildren(el: XNode, allowed: string[]): void {
    for (const c of el.children) {
      if (c.type === TEXT && isWhitespace(c.value)) continue;
      if (c.type === COMMENT || c.type === PROCESSING_INSTRUCTION) continue;
      if (c.type !== ELEMENT || c.ns !== XSLT_NAMESPACE || !allowed.includes(c.local))
        throw new XsltCompileError(`xsl:${el.local} may hold only ${allowed.map((a) => 'xsl:' + a).join(' and ')}`);
    }
  }

  // --- expressions --------------------------------------------------------------------------

  private options(el: XNode, scope: Scope): XPathOptions {
    const namespaces = this.namespaces(el);
    return {
      names: 'namespaces',
      resolvePrefix: (p) => namespaces.get(p),
      functions: this.functions,
      unknownFunction: (name) =>
        name.includes(':') && this.guarded.has(name)
          ? () => {
              throw new XsltRuntimeError(`the extension function ${name}() is not available (the stylesheet's function-available() test should have said so)`);
            }
          : undefined,
      variable: (name) => {
        const slot = scope.find(name);
        if (slot !== undefined) return (c) => (c.rt as Runtime).frame[slot]!;
        const g = this.globalSlots.get(name);
        if (g !== undefined) return (c) => globalValue(c.rt as Runtime, g);
        return undefined;
      },
    };
  }

  private xpath(source: string, el: XNode, scope: Scope): Eval {
    return this.compiled(source, el, () => compileXPath(source, this.options(el, scope)));
  }

  /** An expression whose value is used as a string (value-of, attribute value templates). */
  private xpathString(source: string, el: XNode, scope: Scope): (c: XContext) => string {
    return this.compiled(source, el, () => compileStringXPath(source, this.options(el, scope)));
  }

  /** What `compile` makes of the XPath `source` of `el`; its XPathError becomes an XsltCompileError that names both. */
  private compiled<T>(source: string, el: XNode, compile: () => T): T {
    try {
      return compile();
    } catch (e) {
      if (e instanceof XPathError) throw new XsltCompileError(`the XPath "${source}" in ${describeElement(el)}: ${e.message}`, e);
      throw e;
    }
  }

  /** An attribute value template: literal text with `{expression}` parts (`{{` and `}}` escape braces). */
  private avt(source: string, el: XNode, scope: Scope): (c: XContext) => string {
    if (!source.includes('{') && !source.includes('}')) return () => source;
    const parts: Array<string | ((c: XContext) => string)> = [];
    let text = '';
    for (let i = 0; i < source.length; i++) {
      const ch = source[i]!;
      if (ch === '{' && source[i + 1] === '{') {
        text += '{';
        i++;
      } else if (ch === '}' && source[i + 1] === '}') {
        text += '}';
        i++;
      } else if (ch === '{') {
        const end = findClosingBrace(source, i + 1);
        if (end < 0) throw new XsltCompileError(`the attribute value template "${source}" in ${describeElement(el)} has an unclosed "{"`);
        if (text !== '') parts.push(text);
        text = '';
        parts.push(this.xpathString(source.slice(i + 1, end), el, scope));
        i = end;
      } else if (ch === '}') throw new XsltCompileError(`the attribute value template "${source}" in ${describeElement(el)} has a lone "}"`);
      else text += ch;
    }
    if (text !== '') parts.push(text);
    if (parts.length === 1 && typeof parts[0] !== 'string') return parts[0]!;
    return (c) => {
      let s = '';
      for (const p of parts) s += typeof p === 'string' ? p : p(c);
      return s;
    };
  }

  /** A QName attribute value (template, mode, key, decimal-format name) as its expanded name: `local` or `{uri}local`. */
  private qname(value: string, el: XNode): string {
    return expandQName(value.trim(), (p) => this.namespaces(el).get(p), `"${value}" in ${describeElement(el)}`);
  }

  private namespaces(el: XNode): Map<string, string> {
    let m = this.namespaceCache.get(el);
    if (m !== undefined) return m;
    m = el.parent !== null && el.parent.type === ELEMENT ? new Map(this.namespaces(el.parent)) : new Map([['xml', 'http://www.w3.org/XML/1998/namespace']]);
    for (const a of el.attrs) if (a.type === NAMESPACE_DECLARATION) m.set(a.local, a.value);
    this.namespaceCache.set(el, m);
    return m;
  }
}

/** XSLT 2.0/3.0 instructions: refused even in forwards-compatible mode, since SaxonJS ran them natively. */
const XSLT2_INSTRUCTIONS = new Set([
  'analyze-string',
  'assert',
  'break',
  'catch',
  'document',
  'evaluate',
  'fork',
  'for-each-group',
  'iterate',
  'map',
  'map-entry',
  'merge',
  'namespace',
  'next-iteration',
  'next-match',
  'on-empty',
  'on-non-empty',
  'perform-sort',
  'result-document',
  'sequence',
  'source-document',
  'try',
  'where-populated',
  'array',
  'array-member',
  'matching-substring',
  'non-matching-substring',
]);

/** Whether the nearest version in scope (`version` on xsl:stylesheet, `xsl:version` on a literal result element) is not 1.0. */
function forwardsCompatible(el: XNode): boolean {
  for (let n: XNode | null = el; n !== null && n.type === ELEMENT; n = n.parent) {
    const v =
      n.ns === XSLT_NAMESPACE
        ? n.local === 'stylesheet' || n.local === 'transform'
          ? n.attribute('version')
          : undefined
        : n.attrs.find((a) => a.ns === XSLT_NAMESPACE && a.local === 'version')?.value;
    if (v !== undefined) return v.trim() !== '1.0';
  }
  return false;
}

// --- runtime ------------------------------------------------------------------------------------

export function applyTemplatesTo(nodes: XNode[], mode: string, rt: Runtime, passed: Map<string, XValue> | undefined): void {
  const rules = rt.sheet.modes.get(mode);
  const size = nodes.length;
  for (let i = 0; i < size; i++) {
    const n = nodes[i]!;
    const t = rules === undefined ? undefined : findTemplate(rules, n, rt);
    if (t !== undefined) invoke(t, n, i + 1, size, rt, passed);
    else builtIn(n, mode, rt, passed);
  }
}

function findTemplate(rules: ModeRules, n: XNode, rt: Runtime): Template | undefined {
  const list =
    n.type === ELEMENT
      ? (rules.elements.get(n.local) ?? rules.generic)
      : n.type === ATTRIBUTE
        ? (rules.attributes.get(n.local) ?? rules.generic)
        : rules.generic;
  for (let i = 0; i < list.length; i++) if (list[i]!.match!(n, rt)) return list[i];
  return undefined;
}

/** The built-in rules; like libxslt and XSLT 2.0 (and SaxonJS before), they pass their parameters on. */
function builtIn(n: XNode, mode: string, rt: Runtime, passed: Map<string, XValue> | undefined): void {
  switch (n.type) {
    case DOCUMENT:
    case ELEMENT: {
      const saved = rt.current;
      applyTemplatesTo(n.children, mode, rt, passed);
      rt.current = saved;
      return;
    }
    case TEXT:
    case CDATA:
    case ATTRIBUTE:
      rt.out.text(n.value);
      return;
  }
}

function invoke(t: Template, node: XNode, pos: number, size: number, rt: Runtime, passed: Map<string, XValue> | undefined): void {
  if (++rt.depth > MAX_TEMPLATE_DEPTH) throw new XsltRuntimeError(`templates nested deeper than ${MAX_TEMPLATE_DEPTH} (endless recursion?) in ${t.describe}`);
  const savedFrame = rt.frame;
  const savedCurrent = rt.current;
  rt.frame = new Array<XValue>(t.frameSize);
  rt.current = node;
  const c: XContext = { node, pos, size, rt };
  for (const p of t.params) {
    const given = passed?.get(p.name);
    rt.frame[p.slot] = given !== undefined ? given : p.value(c, rt);
  }
  t.body(c, rt);
  rt.frame = savedFrame;
  rt.current = savedCurrent;
  rt.depth--;
}

const COMPUTING = null;

function globalValue(rt: Runtime, slot: number): XValue {
  const known = rt.globals[slot];
  if (known !== undefined && known !== COMPUTING) return known;
  const def = rt.sheet.globals[slot]!;
  if (known === COMPUTING) throw new XsltRuntimeError(`the global variable $${def.name} depends on itself`);
  rt.globals[slot] = COMPUTING;
  let value: XValue;
  if (def.isParam && Object.prototype.hasOwnProperty.call(rt.params, def.name)) value = rt.params[def.name]!;
  else {
    const savedFrame = rt.frame;
    const savedCurrent = rt.current;
    const root = rt.current.root();
    rt.frame = new Array<XValue>(def.frameSize);
    rt.current = root;
    try {
      value = def.value({ node: root, pos: 1, size: 1, rt }, rt);
    } finally {
      rt.frame = savedFrame;
      rt.current = savedCurrent;
    }
  }
  rt.globals[slot] = value;
  return value;
}

/** The nodes xsl:number counts for the current node, per level. */
function countNodes(node: XNode, level: string, count: Matcher | undefined, from: Matcher | undefined, rt: Runtime): number[] {
  const counted: Matcher = count ?? ((n) => n.type === node.type && n.name === node.name && n.ns === node.ns);
  if (level === 'any') {
    let total = 0;
    const all: XNode[] = [];
    // the preceding and ancestor-or-self axes: no attribute or namespace node but the node itself
    const walk = (n: XNode): void => {
      all.push(n);
      if ((node.type === ATTRIBUTE || node.type === NAMESPACE) && node.parent === n) all.push(node);
      for (const c of n.children) walk(c);
    };
    walk(node.root());
    const at = all.indexOf(node);
    for (let i = at; i >= 0; i--) {
      const n = all[i]!;
      if (from !== undefined && i < at && from(n, rt)) break;
      if (counted(n, rt)) total++;
    }
    return total === 0 ? [] : [total];
  }
  const ancestors: XNode[] = [];
  for (let n: XNode | null = node; n !== null; n = n.parent) {
    if (from !== undefined && from(n, rt)) break;
    if (counted(n, rt)) {
      ancestors.push(n);
      if (level === 'single') break;
    }
  }
  return ancestors.reverse().map((n) => {
    if (n.parent === null) return 1;
    let k = 1;
    for (const s of n.parent.children) {
      if (s === n) break;
      if (counted(s, rt)) k++;
    }
    return k;
  });
}

// --- helpers ------------------------------------------------------------------------------------

function ancestorsMatch(start: XNode | null, anyAncestor: boolean, test: (n: XNode) => boolean): boolean {
  if (!anyAncestor) return start !== null && test(start);
  for (let a = start; a !== null; a = a.parent) if (test(a)) return true;
  return false;
}

function defaultPriority(ast: Ast, steps: Step[]): number {
  if (ast.t !== 'path' || ast.start !== 'context' || steps.length !== 1 || steps[0]!.preds.length > 0) return 0.5;
  const test = steps[0]!.test;
  if (test.kind === 'name') return 0;
  if (test.kind === 'pi') return test.target !== undefined ? 0 : -0.5;
  if (test.kind === 'prefix-any') return -0.25;
  return -0.5;
}

function indexNameOf(steps: Step[]): { attribute: boolean; local: string } | undefined {
  const last = steps[steps.length - 1];
  if (last === undefined || last.test.kind !== 'name') return undefined;
  return { attribute: last.axis === 'attribute', local: last.test.local };
}

function compareSortKeys(a: string | number, b: string | number, upperFirst: boolean): number {
  if (typeof a === 'number' && typeof b === 'number') {
    if (Number.isNaN(a)) return Number.isNaN(b) ? 0 : -1;
    if (Number.isNaN(b)) return 1;
    return a < b ? -1 : a > b ? 1 : 0;
  }
  const x = String(a);
  const y = String(b);
  if (x === y) return 0;
  const lx = x.toLowerCase();
  const ly = y.toLowerCase();
  if (lx !== ly) return lx < ly ? -1 : 1;
  return (x < y ? -1 : 1) * (upperFirst ? 1 : -1);
}

function resolveQName(qname: string, namespaces: Map<string, string>, element: boolean): string {
  const colon = qname.indexOf(':');
  if (colon < 0) return element ? (namespaces.get('') ?? '') : '';
  const uri = namespaces.get(qname.slice(0, colon));
  if (uri === undefined) throw new XsltRuntimeError(`the name ${qname} has an undeclared prefix`);
  return uri;
}

function findClosingBrace(s: string, from: number): number {
  let quote = '';
  for (let i = from; i < s.length; i++) {
    const ch = s[i]!;
    if (quote !== '') {
      if (ch === quote) quote = '';
    } else if (ch === '"' || ch === "'") quote = ch;
    else if (ch === '}') return i;
  }
  return -1;
}

function required(el: XNode, name: string): string {
  const v = el.attribute(name);
  if (v === undefined) throw new XsltCompileError(`${describeElement(el)} needs the attribute ${name}`);
  return v;
}

function describeElement(el: XNode): string {
  const attr = el.attribute('name') ?? el.attribute('match') ?? el.attribute('select') ?? el.attribute('test');
  return `<${el.name}${attr !== undefined ? ` "${attr}"` : ''}>`;
}

function parseAstOrFail(source: string, el: XNode): Ast {
  try {
    return parseAst(source);
  } catch (e) {
    if (e instanceof XPathError) throw new XsltCompileError(`the pattern "${source}" in ${describeElement(el)}: ${e.message}`, e);
    throw e;
  }
}

function isWhitespace(s: string): boolean {
  return /^[ \t\n\r]*$/.test(s);
}

function declarationFor(encoding: string, standalone: string | undefined): string {
  return `<?xml version="1.0" encoding="${encoding}"${standalone === 'yes' || standalone === 'no' ? ` standalone="${standalone}"` : ''}?>`;
}

/** A copy of a source document without the whitespace-only text nodes xsl:strip-space removes. */
export function stripSpace(doc: XNode, strip: (el: XNode) => boolean): XNode {
  const copy = deepCopy(doc);
  const visit = (n: XNode): void => {
    if (n.type === ELEMENT && strip(n)) {
      for (let i = n.children.length - 1; i >= 0; i--) {
        const c = n.children[i]!;
        if (c.type === TEXT && isWhitespace(c.value)) n.children.splice(i, 1);
      }
    }
    for (const c of n.children) visit(c);
  };
  visit(copy);
  return copy;
}

export function newRuntime(sheet: Sheet, source: XNode, params: Readonly<Record<string, string>>, out: ResultWriter): Runtime {
  return { out, frame: [], current: source, depth: 0, sheet, globals: new Array(sheet.globals.length), params, keyIndexes: undefined };
}
