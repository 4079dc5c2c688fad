/**
 * A strict, non-validating XML 1.0 parser into the light tree of xml-dom.ts.
 *
 * Safe by construction: it never loads anything (no external DTD, no external entity) and
 * expands no entity but the five predefined ones and character references (code points
 * checked). A DOCTYPE is accepted unless its internal subset declares an entity or refers to a
 * parameter entity: those are refused, which rules out XXE and "billion laughs". Of the internal
 * subset, the attribute-list declarations are applied (defaults, ID types); an external DTD is never read.
 * Element nesting is bounded ({@link MAX_DEPTH}, libxml2's default), and the parser is a loop
 * rather than a recursion, so no input can exhaust the stack.
 *
 * Refused as not well-formed: mismatched or unclosed tags, duplicate attributes, `<` in an
 * attribute value, text or a second element outside the root, `]]>` in text, `--` in a comment,
 * characters XML 1.0 does not allow, an XML declaration anywhere but at the start.
 * Namespace prefixes are resolved to URIs; an undeclared prefix is accepted (its URI is empty),
 * as a namespace-unaware parser would.
 */
import { XrouteError } from '../foundation/xroute-error';
import {
  CDATA,
  COMMENT,
  PROCESSING_INSTRUCTION,
  TEXT,
  XNode,
  newAttribute,
  newDocument,
  newElement,
  newLeaf,
  newNamespaceDeclaration,
  setIdAttributes,
} from './xml-dom';

export const MAX_DEPTH = 256;
const XML_NAMESPACE = 'http://www.w3.org/XML/1998/namespace';

/** Why a text is not acceptable XML, with the line and column where the parser stopped. */
export class XmlSyntaxError extends XrouteError {
  constructor(readonly reason: string) {
    super(reason);
    this.name = 'XmlSyntaxError';
  }
}

// eslint-disable-next-line no-control-regex -- these control characters are exactly the ones XML 1.0 forbids
const NOT_XML_CHAR = /[\x00-\x08\x0B\x0C\x0E-\x1F\uFFFE\uFFFF]/;

type Scope = Record<string, string>;
// not frozen: element scopes inherit from it, and assigning over a frozen inherited property throws
const ROOT_SCOPE: Scope = Object.assign(Object.create(null) as Scope, { xml: XML_NAMESPACE, '': '' });

export function parseXmlText(input: string): XNode {
  return new Parser(input).parseDocument();
}

interface AttributeDefinition {
  readonly type: string;
  /** The default or fixed value; none for #REQUIRED and #IMPLIED. */
  readonly value: string | undefined;
}

const ATTRIBUTE_TYPES = new Set(['CDATA', 'ID', 'IDREF', 'IDREFS', 'ENTITY', 'ENTITIES', 'NMTOKEN', 'NMTOKENS', 'NOTATION']);

function collapseSpaces(value: string): string {
  return value.replace(/ +/g, ' ').replace(/^ | $/g, '');
}

class Parser {
  private pos = 0;
  private readonly s: string;
  /** The internal subset's attribute-list declarations, by element name. */
  private readonly attlists = new Map<string, Map<string, AttributeDefinition>>();

  constructor(input: string) {
    let s = input.charCodeAt(0) === 0xfeff ? input.slice(1) : input;
    if (s.indexOf('\r') >= 0) s = s.replace(/\r\n?/g, '\n');
    this.s = s;
  }

  private fail(reason: string, at = this.pos): never {
    const before = this.s.slice(0, at);
    const line = before.split('\n').length;
    const column = at - before.lastIndexOf('\n');
    throw new XmlSyntaxError(`line ${line}, column ${column}: ${reason}`);
  }

  parseDocument(): XNode {
    const s = this.s;
    const bad = NOT_XML_CHAR.exec(s);
    if (bad) this.fail(`the character U+${bad[0].charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')} is not allowed in XML`, bad.index);
    if (!(s as unknown as { isWellFormed(): boolean }).isWellFormed()) this.fail('a lone surrogate is not allowed in XML', 0);
    const doc = newDocument();
    if (s.startsWith('<?xml') && isSpace(s.charCodeAt(5))) this.xmlDeclaration();
    let root = false;
    let doctype = false;
    for (;;) {
      this.skipSpace();
      if (this.pos >= s.length) break;
      if (s.charCodeAt(this.pos) !== 60 /* < */) this.fail(root ? 'text after the root element' : 'text before the root element');
      const next = s.charCodeAt(this.pos + 1);
      if (next === 63 /* ? */) doc.children.push(this.processingInstruction(doc));
      else if (s.startsWith('<!--', this.pos)) doc.children.push(this.comment(doc));
      else if (s.startsWith('<!DOCTYPE', this.pos)) {
        if (doctype || root) this.fail('a DOCTYPE must come once, before the root element');
        doctype = true;
        this.doctype();
      } else {
        if (root) this.fail('a second root element');
        root = true;
        this.element(doc);
      }
    }
    if (!root) this.fail('no root element');
    if (this.attlists.size > 0) {
      const ids = new Map<string, string[]>();
      for (const [element, defs] of this.attlists) for (const [name, def] of defs) if (def.type === 'ID') ids.set(element, [...(ids.get(element) ?? []), name]);
      if (ids.size > 0) setIdAttributes(doc, ids);
    }
    return doc;
  }

  private xmlDeclaration(): void {
    const end = this.s.indexOf('?>');
    if (end < 0) this.fail('unterminated XML declaration');
    const text = this.s.slice(5, end);
    if (!/^\s+version\s*=\s*(["'])1\.\d*\1(\s+encoding\s*=\s*(["'])[A-Za-z][\w.-]*\3)?(\s+standalone\s*=\s*(["'])(yes|no)\5)?\s*$/.test(text))
      this.fail('malformed XML declaration');
    this.pos = end + 2;
  }

  private skipSpace(): void {
    const s = this.s;
    while (this.pos < s.length && isSpace(s.charCodeAt(this.pos))) this.pos++;
  }

  private name(): string {
    const s = this.s;
    const start = this.pos;
    if (!isNameStart(s.charCodeAt(start))) this.fail('a name was expected');
    let p = start + 1;
    while (p < s.length && isNameChar(s.charCodeAt(p))) p++;
    this.pos = p;
    return s.slice(start, p);
  }

  private comment(parent: XNode): XNode {
    const start = this.pos + 4;
    const end = this.s.indexOf('--', start);
    if (end < 0) this.fail('unterminated comment');
    if (this.s.charCodeAt(end + 2) !== 62) this.fail('"--" inside a comment', end);
    this.pos = end + 3;
    const node = newLeaf(COMMENT, this.s.slice(start, end), parent);
    return node;
  }

  private processingInstruction(parent: XNode): XNode {
    this.pos += 2;
    const target = this.name();
    if (target.toLowerCase() === 'xml') this.fail('an XML declaration is only allowed at the very start');
    if (target.includes(':')) this.fail('a processing instruction target may not contain ":"');
    const end = this.s.indexOf('?>', this.pos);
    if (end < 0) this.fail('unterminated processing instruction');
    if (end > this.pos && !isSpace(this.s.charCodeAt(this.pos))) this.fail('space expected after the processing instruction target');
    let dataStart = this.pos;
    while (dataStart < end && isSpace(this.s.charCodeAt(dataStart))) dataStart++;
    this.pos = end + 2;
    const node = newLeaf(PROCESSING_INSTRUCTION, this.s.slice(dataStart, end), parent, target);
    return node;
  }

  /** Skips a DOCTYPE; refuses entity declarations and parameter-entity references in its internal subset. */
  private doctype(): void {
    const s = this.s;
    this.pos += 9;
    if (!isSpace(s.charCodeAt(this.pos))) this.fail('space expected after <!DOCTYPE');
    this.skipSpace();
    this.name();
    const spaced = (): boolean => {
      const before = this.pos;
      this.skipSpace();
      return this.pos > before;
    };
    const space = spaced();
    if (space && (s.startsWith('SYSTEM', this.pos) || s.startsWith('PUBLIC', this.pos))) {
      const isPublic = s.startsWith('PUBLIC', this.pos);
      this.pos += 6;
      if (!spaced()) this.fail('space expected after SYSTEM or PUBLIC');
      const id = this.quotedLiteral();
      if (isPublic && !/^[\x20\n\ra-zA-Z0-9\-'()+,./:=?;!*#@$_%]*$/.test(id))
        this.fail("a public identifier may hold only letters, digits, spaces and -'()+,./:=?;!*#@$_%");
      if (isPublic) {
        if (!spaced()) this.fail('space expected between the public and the system identifier');
        this.quotedLiteral();
      }
      this.skipSpace();
    }
    if (s.charCodeAt(this.pos) === 91 /* [ */) {
      this.internalSubset();
      this.skipSpace();
    }
    if (s.charCodeAt(this.pos) !== 62 /* > */) this.fail('DOCTYPE improperly terminated');
    this.pos++;
  }

  private quotedLiteral(): string {
    const c = this.s.charCodeAt(this.pos);
    if (c !== 34 && c !== 39) this.fail('a quoted literal was expected');
    return this.quoted();
  }

  private quoted(): string {
    const quote = this.s[this.pos]!;
    const end = this.s.indexOf(quote, this.pos + 1);
    if (end < 0) this.fail('unterminated quoted string');
    const value = this.s.slice(this.pos + 1, end);
    this.pos = end + 1;
    return value;
  }

  private internalSubset(): void {
    const s = this.s;
    this.pos++;
    for (;;) {
      this.skipSpace();
      if (this.pos >= s.length) this.fail('unterminated DOCTYPE internal subset');
      const c = s.charCodeAt(this.pos);
      if (c === 93 /* ] */) {
        this.pos++;
        return;
      }
      if (c === 37 /* % */) this.fail('parameter entity references are not allowed (external entities are never resolved)');
      if (s.startsWith('<!--', this.pos)) {
        this.comment(newDocument());
        continue;
      }
      if (s.startsWith('<?', this.pos)) {
        this.processingInstruction(newDocument());
        continue;
      }
      if (s.startsWith('<!ENTITY', this.pos)) this.fail('entity declarations in a DOCTYPE are not allowed (external entities are never resolved)');
      if (!/^<!(?:ELEMENT|ATTLIST|NOTATION)\s/.test(s.slice(this.pos, this.pos + 11)))
        this.fail('the internal subset may hold only ELEMENT, ATTLIST and NOTATION declarations, comments and processing instructions');
      // a markup declaration (ELEMENT, ATTLIST, NOTATION): read up to its '>' outside quotes; ATTLIST is kept
      const start = this.pos;
      this.pos += 2;
      for (;;) {
        if (this.pos >= s.length) this.fail('unterminated markup declaration');
        const d = s.charCodeAt(this.pos);
        if (d === 34 || d === 39) this.quoted();
        else if (d === 62) {
          this.pos++;
          break;
        } else if (d === 37) this.fail('parameter entity references are not allowed (external entities are never resolved)');
        else this.pos++;
      }
      if (s.startsWith('<!ATTLIST', start)) this.attributeList(start);
    }
  }

  /**
   * An attribute-list declaration of the internal subset (XML 1.0 §3.3): the defaults are applied to the elements
   * that lack the attribute, values of other types than CDATA are normalised, and ID attributes are what id() finds.
   * The first declaration of an attribute counts.
   */
  private attributeList(start: number): void {
    const tokens = this.s.slice(start + 9, this.pos - 1).match(/"[^"]*"|'[^']*'|\([^)]*\)|[^\s()"']+/g) ?? [];
    const element = tokens[0];
    if (element === undefined) this.fail('malformed ATTLIST declaration', start);
    const list = this.attlists.get(element) ?? new Map<string, AttributeDefinition>();
    this.attlists.set(element, list);
    for (let i = 1; i < tokens.length;) {
      const name = tokens[i++]!;
      let type = tokens[i++];
      if (type === 'NOTATION') i++;
      let value: string | undefined;
      const d = tokens[i++];
      if (type === undefined || d === undefined) this.fail('malformed ATTLIST declaration', start);
      if (d === '#FIXED') value = tokens[i++];
      else if (d !== '#REQUIRED' && d !== '#IMPLIED') value = d;
      if (value !== undefined && !/^["']/.test(value)) this.fail('malformed ATTLIST declaration', start);
      if (type.startsWith('(')) {
        if (!/^\(\s*[\p{L}\p{N}_.:-]+(?:\s*\|\s*[\p{L}\p{N}_.:-]+)*\s*\)$/u.test(type))
          this.fail(`malformed enumeration ${type} in an ATTLIST declaration`, start);
        type = 'NMTOKEN';
      } else if (!ATTRIBUTE_TYPES.has(type)) this.fail(`unknown attribute type ${type} in an ATTLIST declaration`, start);
      let literal = value?.slice(1, -1);
      if (literal !== undefined) {
        if (literal.includes('<')) this.fail('"<" is not allowed in an attribute value', start);
        literal = literal.replace(/[\t\n]/g, ' ');
        if (literal.includes('&')) literal = this.decode(literal, start);
        if (type !== 'CDATA') literal = collapseSpaces(literal);
      }
      if (!list.has(name)) list.set(name, { type, value: literal });
    }
  }

  /**
   * Applies the element's attribute-list declarations: defaults for absent attributes (a defaulted `xmlns`
   * declares its namespace), normalised tokens. Returns the element's own namespace scope.
   */
  private declaredAttributes(el: XNode, defs: ReadonlyMap<string, AttributeDefinition>, own: Scope | undefined, scope: Scope): Scope | undefined {
    for (const a of el.attrs) {
      const def = defs.get(a.name);
      if (def !== undefined && def.type !== 'CDATA') a.value = collapseSpaces(a.value);
    }
    for (const [name, def] of defs) {
      if (def.value === undefined || el.attrs.some((a) => a.name === name)) continue;
      if (name === 'xmlns' || name.startsWith('xmlns:')) {
        el.attrs.push(newNamespaceDeclaration(name, def.value, el));
        own ??= Object.create(scope) as Scope;
        own[name === 'xmlns' ? '' : name.slice(6)] = def.value;
      } else el.attrs.push(newAttribute(name, '', name, '', def.value, el));
    }
    return own;
  }

  /** Parses the root element and everything inside it with an explicit stack. */
  private element(doc: XNode): void {
    const s = this.s;
    const stack: XNode[] = [];
    const scopes: Scope[] = [];
    let parent = doc;
    let scope = ROOT_SCOPE;
    for (;;) {
      // at '<' of a start tag
      this.pos++;
      const name = this.name();
      const el = newElement(name, '', name, '', parent);
      let own: Scope | undefined;
      let selfClosing = false;
      /** A prefixed name on this element (itself or an attribute): its names need resolving. */
      let prefixed = name.indexOf(':') > 0;
      for (;;) {
        const spaced = this.pos < s.length && isSpace(s.charCodeAt(this.pos));
        this.skipSpace();
        const c = s.charCodeAt(this.pos);
        if (c === 62 /* > */) {
          this.pos++;
          break;
        }
        if (c === 47 /* / */ && s.charCodeAt(this.pos + 1) === 62) {
          this.pos += 2;
          selfClosing = true;
          break;
        }
        if (this.pos >= s.length) this.fail(`unterminated start tag <${name}`);
        if (!spaced) this.fail(`space expected between attributes of <${name}>`);
        const attrName = this.name();
        this.skipSpace();
        if (s.charCodeAt(this.pos) !== 61 /* = */) this.fail(`"=" expected after attribute ${attrName}`);
        this.pos++;
        this.skipSpace();
        const value = this.attributeValue();
        const attrs = el.attrs;
        for (let i = 0; i < attrs.length; i++) if (attrs[i]!.name === attrName) this.fail(`duplicate attribute ${attrName} on <${name}>`);
        if (attrName === 'xmlns' || attrName.startsWith('xmlns:')) {
          own ??= Object.create(scope) as Scope;
          own[attrName === 'xmlns' ? '' : attrName.slice(6)] = value;
          el.attrs.push(newNamespaceDeclaration(attrName, value, el));
        } else {
          el.attrs.push(newAttribute(attrName, '', attrName, '', value, el));
          if (attrName.indexOf(':') > 0) prefixed = true;
        }
      }
      // kept to one call: a bigger loop body slows every document's parse
      if (this.attlists.size !== 0 && this.attlists.has(name)) {
        own = this.declaredAttributes(el, this.attlists.get(name)!, own, scope);
        prefixed = true;
      }
      const elScope = own ?? scope;
      const resolved = prefixed || elScope[''] !== '' ? resolveNames(el, elScope) : el;
      parent.children.push(resolved);
      if (!selfClosing) {
        if (stack.length >= MAX_DEPTH) this.fail(`elements nested deeper than ${MAX_DEPTH}`);
        stack.push(parent);
        scopes.push(scope);
        parent = resolved;
        scope = elScope;
      } else if (stack.length === 0) {
        return;
      }
      // content up to the next start tag, or the end of the root
      for (;;) {
        const lt = s.indexOf('<', this.pos);
        if (lt < 0) this.fail(`unclosed element <${parent.name}>`, s.length);
        if (lt > this.pos) this.text(parent, lt);
        const next = s.charCodeAt(lt + 1);
        if (next === 47 /* / */) {
          this.pos = lt + 2;
          // the usual case compared in place; anything else is read as a name to be reported
          const open = parent.name;
          if (s.startsWith(open, this.pos) && !isNameChar(s.charCodeAt(this.pos + open.length))) this.pos += open.length;
          else {
            const closing = this.name();
            this.fail(`</${closing}> does not close <${open}>`);
          }
          this.skipSpace();
          if (s.charCodeAt(this.pos) !== 62) this.fail(`">" expected to end </${open}>`);
          this.pos++;
          parent = stack.pop()!;
          scope = scopes.pop()!;
          if (stack.length === 0) return;
          continue;
        }
        this.pos = lt;
        if (next === 33 /* ! */) {
          if (s.startsWith('<!--', lt)) parent.children.push(this.comment(parent));
          else if (s.startsWith('<![CDATA[', lt)) this.cdata(parent);
          else this.fail('markup declarations are only allowed in the DOCTYPE');
          continue;
        }
        if (next === 63 /* ? */) {
          parent.children.push(this.processingInstruction(parent));
          continue;
        }
        break; // a child start tag
      }
    }
  }

  private cdata(parent: XNode): void {
    const start = this.pos + 9;
    const end = this.s.indexOf(']]>', start);
    if (end < 0) this.fail('unterminated CDATA section');
    this.pos = end + 3;
    const node = newLeaf(CDATA, this.s.slice(start, end), parent);
    parent.children.push(node);
  }

  /** Text from the current position up to `end`, references decoded; joined to a preceding text node. */
  private text(parent: XNode, end: number): void {
    const s = this.s;
    const raw = s.slice(this.pos, end);
    const bracket = raw.indexOf(']]>');
    if (bracket >= 0) this.fail('"]]>" is not allowed in text', this.pos + bracket);
    const value = raw.indexOf('&') >= 0 ? this.decode(raw, this.pos) : raw;
    this.pos = end;
    const children = parent.children;
    const last = children.length > 0 ? children[children.length - 1]! : undefined;
    if (last !== undefined && last.type === TEXT) {
      last.value += value;
      return;
    }
    const node = newLeaf(TEXT, value, parent);
    children.push(node);
  }

  private attributeValue(): string {
    const s = this.s;
    const quote = s.charCodeAt(this.pos);
    if (quote !== 34 && quote !== 39) this.fail('a quoted attribute value was expected');
    const start = this.pos + 1;
    // one pass to the closing quote (values are short: cheaper than a search per character class)
    let end = start;
    let lt = -1;
    let rewrite = false;
    for (let c = s.charCodeAt(end); c !== quote; c = s.charCodeAt(++end)) {
      if (end >= s.length) this.fail('unterminated attribute value');
      if (c === 60 /* < */ && lt < 0) lt = end;
      else if (c === 38 /* & */ || c === 9 || c === 10) rewrite = true;
    }
    if (lt >= 0) this.fail('"<" is not allowed in an attribute value', lt);
    this.pos = end + 1;
    const raw = s.slice(start, end);
    if (!rewrite) return raw;
    // literal tabs and newlines become spaces; character references to them stay as they are
    const spaced = /[\t\n]/.test(raw) ? raw.replace(/[\t\n]/g, ' ') : raw;
    return spaced.indexOf('&') >= 0 ? this.decode(spaced, start) : spaced;
  }

  /** Decodes the predefined entities and character references; refuses any other entity. */
  private decode(raw: string, offset: number): string {
    let out = '';
    let from = 0;
    for (let amp = raw.indexOf('&'); amp >= 0; amp = raw.indexOf('&', from)) {
      out += raw.slice(from, amp);
      const semi = raw.indexOf(';', amp);
      if (semi < 0) this.fail('"&" must start an entity or character reference', offset + amp);
      const ref = raw.slice(amp + 1, semi);
      out += this.reference(ref, offset + amp);
      from = semi + 1;
    }
    return out + raw.slice(from);
  }

  private reference(ref: string, at: number): string {
    switch (ref) {
      case 'lt':
        return '<';
      case 'gt':
        return '>';
      case 'amp':
        return '&';
      case 'quot':
        return '"';
      case 'apos':
        return "'";
    }
    if (ref.charCodeAt(0) !== 35 /* # */) {
      if (/^[A-Za-z_:][\w.:-]*$/.test(ref)) this.fail(`undeclared entity &${ref}; (only the predefined entities are allowed)`, at);
      this.fail('"&" must start an entity or character reference', at);
    }
    const hex = ref.charCodeAt(1) === 120; /* x */
    const digits = ref.slice(hex ? 2 : 1);
    // any number of digits (leading zeros are legal); a value past U+10FFFF is not a character
    if (!(hex ? /^[0-9A-Fa-f]+$/ : /^[0-9]+$/).test(digits)) this.fail(`malformed character reference &${ref};`, at);
    const code = parseInt(digits, hex ? 16 : 10);
    if (!isXmlCodePoint(code)) this.fail(`character reference &${ref}; is not an XML character`, at);
    return String.fromCodePoint(code);
  }
}

/** Gives an element and its attributes their prefix, local name and namespace URI. */
function resolveNames(el: XNode, scope: Scope): XNode {
  const colon = el.name.indexOf(':');
  const attrs = el.attrs;
  let out = el;
  if (colon > 0 || scope[''] !== '') {
    const prefix = colon > 0 ? el.name.slice(0, colon) : '';
    out = newElement(el.name, prefix, colon > 0 ? el.name.slice(colon + 1) : el.name, scope[prefix] ?? '', el.parent);
    out.order = el.order;
    for (const a of attrs) {
      a.parent = out;
      out.attrs.push(a);
    }
  }
  for (let i = 0; i < attrs.length; i++) {
    const a = out.attrs[i]!;
    const c = a.type === 2 ? a.name.indexOf(':') : -1;
    if (c > 0) {
      const prefix = a.name.slice(0, c);
      const resolved = newAttribute(a.name, prefix, a.name.slice(c + 1), scope[prefix] ?? '', a.value, out);
      out.attrs[i] = resolved;
    }
  }
  return out;
}

function isSpace(c: number): boolean {
  return c === 32 || c === 10 || c === 9 || c === 13;
}

function isXmlCodePoint(c: number): boolean {
  return c === 9 || c === 10 || c === 13 || (c >= 0x20 && c <= 0xd7ff) || (c >= 0xe000 && c <= 0xfffd) || (c >= 0x10000 && c <= 0x10ffff);
}

function isNameStart(c: number): boolean {
  if (c < 128) return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || c === 95 || c === 58;
  return (
    (c >= 0xc0 && c <= 0xd6) ||
    (c >= 0xd8 && c <= 0xf6) ||
    (c >= 0xf8 && c <= 0x2ff) ||
    (c >= 0x370 && c <= 0x37d) ||
    (c >= 0x37f && c <= 0x1fff) ||
    (c >= 0x200c && c <= 0x200d) ||
    (c >= 0x2070 && c <= 0x218f) ||
    (c >= 0x2c00 && c <= 0x2fef) ||
    (c >= 0x3001 && c <= 0xd7ff) ||
    (c >= 0xf900 && c <= 0xfdcf) ||
    (c >= 0xfdf0 && c <= 0xfffd) ||
    (c >= 0xd800 && c <= 0xdbff) // a high surrogate: a supplementary character (#x10000-#xEFFFF)
  );
}

function isNameChar(c: number): boolean {
  if (c < 128) return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 95 || c === 58 || c === 45 || c === 46;
  return isNameStart(c) || (c >= 0xdc00 && c <= 0xdfff) || c === 0xb7 || (c >= 0x300 && c <= 0x36f) || (c >= 0x203f && c <= 0x2040);
}
