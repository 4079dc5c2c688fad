/**
 * Why a text is not JSON, in the words of someone editing a configuration ("a comma before ]: JSON allows no
 * trailing comma"), told from the offset where it stops being JSON; the JavaScript parser's own text
 * ('Unexpected token ']', ..."er": ["a",]" is not valid JSON') never reaches the user.
 */
const VALUE_END = /["}\]\del]/; // the last character of a string, map, list, number, true/false or null
const VALUE_START = /["{[\d\-tfn]/;

export function jsonSyntaxReason(text: string, offset: number): string {
  if (text.trim() === '') return 'the file is empty: expected a JSON object';
  // the locating scanner recurses and gives up (offset 0) on hostile depth
  if (offset === 0 && deeperThan(text, 1000)) return 'maps and lists nested thousands of levels deep: expected a configuration of at most 64 levels';
  if (offset >= text.length) return 'the text ends before the JSON does: a closing }, ] or " is missing';
  const ch = text[offset];
  const before = text.slice(0, offset).trimEnd();
  const prev = before[before.length - 1] ?? '';
  if ((ch === '}' || ch === ']') && prev === ',') return `a comma before ${ch}: JSON allows no trailing comma`;
  if (ch === "'") return 'a single quote: JSON names and strings need double quotes';
  if (text.charCodeAt(offset) < 0x20) return 'a tab or line break inside a string: write it as \\t or \\n';
  if (isCompleteJson(before)) return 'more text after the end of the JSON value';
  if (VALUE_END.test(prev) && VALUE_START.test(ch)) return 'a comma is missing before this';
  if (ch === '/' && (text[offset + 1] === '/' || text[offset + 1] === '*')) return 'a comment: JSON has no comments';
  if (/[A-Za-z_$]/.test(ch) && (prev === '{' || prev === ',')) return 'a name without quotes: JSON names need double quotes';
  return `unexpected ${JSON.stringify(ch)}`;
}

function isCompleteJson(text: string): boolean {
  if (text === '') return false;
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/** Whether brackets outside strings nest deeper than `max`. */
function deeperThan(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === '[' || c === '{') {
      if (++depth > max) return true;
    } else if (c === ']' || c === '}') depth--;
  }
  return false;
}
