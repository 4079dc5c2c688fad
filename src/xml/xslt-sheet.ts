/**
 * A compiled XSLT stylesheet (xslt-compiler.ts makes it) and the state of one transformation, shared by the
 * compiler and the functions XSLT adds to XPath (xslt-functions.ts).
 */
import { XNode } from './xml-dom';
import { Eval, XContext, XValue } from './xpath-compiler';
import { ResultWriter } from './xslt-output';
import { DecimalFormat } from './xslt-numbers';

/** The state of one transformation. */
export interface Runtime {
  out: ResultWriter;
  frame: XValue[];
  current: XNode;
  depth: number;
  readonly sheet: Sheet;
  readonly globals: (XValue | undefined | null)[];
  readonly params: Readonly<Record<string, string>>;
  /** key()'s indexes, per document and key name; made on the first key() call. */
  keyIndexes: Map<XNode, Map<string, Map<string, XNode[]>>> | undefined;
}

export type Instr = (c: XContext, rt: Runtime) => void;
export type Matcher = (n: XNode, rt: Runtime) => boolean;

export interface Template {
  readonly match?: Matcher;
  readonly name?: string;
  readonly mode: string;
  readonly priority: number;
  readonly position: number;
  readonly params: readonly ParamDef[];
  readonly body: Instr;
  readonly frameSize: number;
  /** The local name of an element (or attribute) the pattern's last step names, for indexing. */
  readonly indexName?: { attribute: boolean; local: string };
  readonly describe: string;
}

export interface ParamDef {
  readonly name: string;
  readonly slot: number;
  readonly value: (c: XContext, rt: Runtime) => XValue;
}

export interface KeyDef {
  readonly match: Matcher;
  readonly use: Eval;
}

export interface ModeRules {
  readonly generic: Template[];
  readonly elements: Map<string, Template[]>;
  readonly attributes: Map<string, Template[]>;
}

export interface OutputSettings {
  readonly method: 'xml' | 'text';
  readonly declaration: string | undefined;
  readonly indent: boolean;
  readonly doctype?: { system?: string; public?: string };
}

export interface Sheet {
  readonly output: OutputSettings;
  readonly modes: Map<string, ModeRules>;
  readonly named: Map<string, Template>;
  readonly keys: Map<string, KeyDef[]>;
  readonly globals: readonly GlobalDef[];
  readonly decimalFormats: Map<string, DecimalFormat>;
  readonly stripSpace?: (el: XNode) => boolean;
}

export interface GlobalDef {
  readonly name: string;
  readonly isParam: boolean;
  readonly value: (c: XContext, rt: Runtime) => XValue;
  readonly frameSize: number;
}
