/**
 * XSLT engine adapter: SaxonJS 2.7 (npm `saxon-js`, XSLT 3.0, runs XSLT 1.0 stylesheets in
 * backwards-compatible mode). Chosen over xslt-processor and xslt-ts after a conformance and
 * speed comparison (see /work/notes/readme-transforms.md): it is the only candidate that got
 * keys, modes, xsl:sort with an AVT order and xsl:number right, and the fastest once compiled.
 *
 * SaxonJS on Node normally runs pre-compiled SEF files. A stylesheet is compiled from source
 * here, once, the way the `xslt3` command does it (the XX compiler that ships inside saxon-js,
 * reached through exported but undocumented entry points; the version is pinned exactly and
 * the unit tests exercise this path). Each transform then reuses the compiled tree.
 *
 * Safety: the source text is checked for entity declarations before SaxonJS parses it (see
 * safe-xml.ts); SaxonJS's own parser does not resolve entities or load DTDs either.
 */
import { TransformProblem } from './errors';
import { pathToFileURL } from 'node:url';
import { parseXml } from './safe-xml';

/** Why a stylesheet does not compile, or a transform failed; callers add ruleset and key. */
export class XsltProblem extends TransformProblem {
  constructor(reason: string) {
    super(reason);
    this.name = 'XsltProblem';
  }
}

/** The part of the SaxonJS API this adapter uses. */
interface SaxonApi {
  setLogLevel(level: number): void;
  getPlatform(): { resource(name: string): SefNode; parseXmlFromString(text: string): { _saxonBaseUri?: string } };
  XdmMap: new () => { inSituPut(key: unknown, value: unknown[]): void };
  XS: { QName: { fromParts(prefix: string, uri: string, local: string): unknown } };
  checkOptions(options: Record<string, unknown>): { principalResult: unknown };
  internalTransform(stylesheet: SefNode, source: unknown, options: { principalResult: unknown }): void;
  transform(options: Record<string, unknown>): { principalResult: unknown };
  XPath: { sefToJSON(node: unknown, relocatable: boolean): SefNode };
}

/** A node of a compiled stylesheet (SEF) tree. */
interface SefNode {
  N: string;
  C?: SefNode[];
  parentNode?: SefNode;
  [key: string]: unknown;
}

// eslint-disable-next-line @typescript-eslint/no-require-imports
const saxon = require('saxon-js') as SaxonApi;
// SaxonJS prints diagnostics (e.g. the trace of a terminating xsl:message) straight to the
// console; this adapter reports every failure through its errors instead.
saxon.setLogLevel(0);

const SEF_NAMESPACE = 'http://ns.saxonica.com/xslt/export';
const CHECKSUM_KEY = String.fromCharCode(931); // 'Σ', the SEF checksum property

export class CompiledStylesheet {
  private constructor(
    readonly path: string,
    private readonly sef: SefNode,
  ) {}

  /** Compiles stylesheet source text; `path` gives the base URI for xsl:include and xsl:import. */
  static compile(path: string, text: string): CompiledStylesheet {
    try {
      const platform = saxon.getPlatform();
      const compiler = platform.resource('compiler');
      addParentPointers(compiler);
      const options: Record<string, unknown> = {
        destination: 'application',
        initialMode: 'compile-complete',
        templateParams: { 'Q{}options': { noXPath: false } },
        stylesheetParams: new saxon.XdmMap(),
        tunnelParams: {},
        functionParams: {},
        stylesheetInternal: compiler,
        stylesheetText: '',
      };
      (options.stylesheetParams as InstanceType<SaxonApi['XdmMap']>).inSituPut(saxon.XS.QName.fromParts('', '', 'staticParameters'), [new saxon.XdmMap()]);
      const source = platform.parseXmlFromString(text);
      source._saxonBaseUri = pathToFileURL(path).href;
      const checked = saxon.checkOptions(options);
      saxon.internalTransform(compiler, source, checked);
      const result = Array.isArray(checked.principalResult) ? checked.principalResult[0] : checked.principalResult;
      const sef = saxon.XPath.sefToJSON((result as { firstChild: unknown }).firstChild, false);
      addChecksum(sef);
      return new CompiledStylesheet(path, sef);
    } catch (e) {
      throw new XsltProblem(`stylesheet ${path} does not compile: ${(e as Error).message}`);
    }
  }

  /** Transforms XML text with string parameters and returns the serialised output. */
  transform(xml: string, params: Readonly<Record<string, string>>): string {
    parseXml(xml);
    const messages: string[] = [];
    try {
      const result = saxon.transform({
        stylesheetInternal: this.sef,
        sourceText: xml,
        destination: 'serialized',
        stylesheetParams: params,
        logLevel: 0,
        // xsl:message output goes into the error, never to the console
        deliverMessage: (message: { textContent?: string | null }) => void messages.push(message.textContent ?? ''),
      }).principalResult;
      return typeof result === 'string' ? result : '';
    } catch (e) {
      const said = messages.length > 0 ? ` (xsl:message: ${messages.join('; ')})` : '';
      throw new XsltProblem(`transform with ${this.path} failed: ${(e as Error).message}${said}`);
    }
  }
}

function addParentPointers(node: SefNode): void {
  for (const child of node.C ?? []) {
    child.parentNode = node;
    addParentPointers(child);
  }
}

/** The checksum SaxonJS verifies on a SEF tree (same algorithm as the xslt3 command's export). */
function addChecksum(root: SefNode): void {
  const hash = (s: string, seed: number): number => {
    let h = seed << 8;
    for (let i = 0; i < s.length; i++) h = (h << 1) + s.charCodeAt(i);
    return h;
  };
  const pair = (a: string, b: string, seed: number): number => hash(a, seed) ^ hash(b, seed);
  let sum = 0;
  let counter = 0;
  const visit = (node: SefNode): void => {
    sum ^= pair(node.N, SEF_NAMESPACE, counter++);
    for (const key in node) {
      if (Object.prototype.hasOwnProperty.call(node, key) && key !== 'N' && key !== 'C' && key !== CHECKSUM_KEY) {
        sum ^= pair(key, '', counter);
        sum ^= hash(node[key] as string, counter);
      }
    }
    node.C?.forEach(visit);
    sum ^= 1;
  };
  visit(root);
  root[CHECKSUM_KEY] = (sum < 0 ? 4294967295 + sum + 1 : sum).toString(16);
}
