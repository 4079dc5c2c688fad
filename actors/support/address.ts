/**
 * Splits a URI into scheme, host, port and path, the parts the pools' scheme table and the stream and
 * file components use. Deliberately lenient (the original's URIs are not always valid URLs, e.g.
 * "file://-" for stdout): nothing is percent-decoded and the query string is returned untouched.
 */
export interface Address {
  /** lower case, e.g. "tcp" */
  readonly scheme: string;
  /** "" when the URI has no authority */
  readonly host: string;
  readonly port?: number;
  /** Everything between the authority and "?" (may be ""). */
  readonly path: string;
  /** The text after "?" without it, or "" */
  readonly query: string;
  readonly raw: string;
}

const URI_RE = /^([A-Za-z][A-Za-z0-9+.-]*):(?:\/\/([^/?#]*))?([^?#]*)(?:\?([^#]*))?/;

/** Undefined when the text has no scheme. */
export function parseAddress(uri: string): Address | undefined {
  const m = URI_RE.exec(uri.trim());
  if (!m) return undefined;
  let authority = m[2] ?? '';
  const at = authority.lastIndexOf('@');
  if (at >= 0) authority = authority.slice(at + 1);
  let host = authority;
  let port: number | undefined;
  const v6 = /^\[([^\]]*)\](?::(\d*))?$/.exec(authority);
  if (v6) {
    host = v6[1];
    if (v6[2]) port = Number(v6[2]);
  } else {
    const colon = authority.lastIndexOf(':');
    if (colon >= 0 && /^\d*$/.test(authority.slice(colon + 1))) {
      host = authority.slice(0, colon);
      if (colon + 1 < authority.length) port = Number(authority.slice(colon + 1));
    }
  }
  return { scheme: m[1].toLowerCase(), host, port, path: m[3] ?? '', query: m[4] ?? '', raw: uri };
}

/**
 * The local path of a file URI: everything after "file://" (or "file:") up to "?". "file:///tmp/a" is
 * "/tmp/a"; "file://data/a" is the relative path "data/a"; "file://-" and "file://" name stdout ("-").
 */
export function filePathOf(uri: string): string {
  const m = /^file:(?:\/\/)?([^?#]*)/i.exec(uri.trim());
  const p = m ? m[1] : '';
  return p === '' ? '-' : p;
}
