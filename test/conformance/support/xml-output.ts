/**
 * Comparing serialised XML results of two processors. Only what XML itself does not distinguish is normalised,
 * each rule explicit:
 * 1. the XML declaration at the start with the newline libxslt writes after it (libxslt writes
 *    `<?xml version="1.0"?>` and a newline, xroute `<?xml version="1.0" encoding="UTF-8"?>` and no newline), and
 *    the newlines at the very end;
 * 2. the order of attributes and namespace declarations within one start tag (XML gives them no order);
 * 3. a character reference to a non-ASCII character is that character (libxslt writes references for
 *    characters its output encoding cannot hold; xroute writes UTF-8);
 * 4. with `indent="yes"` only: whitespace-only text between two tags (each processor indents its own way);
 * 5. a CDATA section is the text it holds (escaped as text);
 * 6. line breaks between the DOCTYPE, comments and processing instructions before the root element (libxml2
 *    writes each node of the document on its own line; they are not content).
 * An oracle's bytes are decoded by the encoding its declaration names.
 */

/** The text of an XML file or output, decoded by the encoding its XML declaration names (UTF-8 otherwise), as a body reaches the parser. */
export function decodeXml(bytes: Buffer): string {
  const head = bytes.subarray(0, 200).toString('latin1');
  const label = /^<\?xml[^>]*encoding=["']([^"']+)["']/.exec(head)?.[1];
  if (label === undefined) return bytes.toString('utf8');
  try {
    return new TextDecoder(label).decode(bytes);
  } catch {
    return bytes.toString('utf8');
  }
}

const START_TAG = /<([^\s/>!?]+)((?:\s+[^\s=/>]+\s*=\s*(?:"[^"]*"|'[^']*'))+)\s*(\/?)>/g;
const ATTRIBUTE = /([^\s=]+)\s*=\s*("[^"]*"|'[^']*')/g;

export function normaliseXmlOutput(text: string, options: { indented: boolean; newlineAfterDeclaration: boolean }): string {
  let s = text.replace(options.newlineAfterDeclaration ? /^<\?xml[^?]*\?>\n/ : /^<\?xml[^?]*\?>/, '').replace(/\n+$/, '');
  s = s.replace(START_TAG, (_m, name: string, attrs: string, close: string) => {
    const list = [...attrs.matchAll(ATTRIBUTE)].map((a) => `${a[1]}=${a[2]}`).sort();
    return `<${name} ${list.join(' ')}${close}>`;
  });
  s = s.replace(/&#(x[0-9a-fA-F]+|[0-9]+);/g, (m, ref: string) => {
    const code = ref.startsWith('x') ? parseInt(ref.slice(1), 16) : Number(ref);
    return code >= 0x80 ? String.fromCodePoint(code) : m;
  });
  s = s.replace(/<!\[CDATA\[([\s\S]*?)\]\]>/g, (_m, t: string) => t.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;'));
  s = s.replace(/^(?:\s*(?:<!DOCTYPE[^>]*>|<!--[\s\S]*?-->|<\?[\s\S]*?\?>))+\s*/, (prolog) => prolog.replace(/>\s+</g, '><').trim());
  if (options.indented) s = s.replace(/>\s+</g, '><').trim();
  return s;
}
