/**
 * Reads a Qpid-JMS-style jndi.properties file (Java .properties syntax):
 *   connectionfactory.<name> = amqp://host:5672?jms.username=...
 *   topic.<name> = <physical topic>      queue.<name> = <physical queue>
 *   java.naming.security.principal / java.naming.security.credentials
 */
import { readFileSync } from 'fs';

/** Parses Java .properties text: `key = value`, `key: value` or `key value`; # and ! comments; \ continuation and escapes. */
function parseProperties(text: string): Map<string, string> {
  const out = new Map<string, string>();
  const lines = text.split(/\r\n|\r|\n/);
  for (let i = 0; i < lines.length; i++) {
    let line = lines[i].replace(/^\s+/, '');
    if (line === '' || line.startsWith('#') || line.startsWith('!')) continue;
    while (endsWithContinuation(line) && i + 1 < lines.length) line = line.slice(0, -1) + lines[++i].replace(/^\s+/, '');
    const m = /^((?:\\.|[^\s:=\\])*)\s*[:=]?\s*(.*)$/.exec(line);
    if (!m) continue;
    out.set(unescape(m[1]), unescape(m[2]));
  }
  return out;
}

function endsWithContinuation(line: string): boolean {
  const m = /\\+$/.exec(line);
  return m !== null && m[0].length % 2 === 1;
}

function unescape(s: string): string {
  return s.replace(/\\(u[0-9a-fA-F]{4}|.)/g, (_all, c: string) => {
    if (c.length === 5) return String.fromCharCode(parseInt(c.slice(1), 16));
    return c === 't' ? '\t' : c === 'n' ? '\n' : c === 'r' ? '\r' : c === 'f' ? '\f' : c;
  });
}

export function readPropertiesFile(path: string): Map<string, string> {
  return parseProperties(readFileSync(path, 'utf8'));
}
