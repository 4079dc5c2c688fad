/** Where a stream component connects: a TCP peer, a local file, or stdout ("file://-"). */
import path from 'node:path';
import { filePathOf, parseAddress } from '../support/address';
import { ComponentConfigError } from '../support/config-values';

export type StreamTarget = { kind: 'tcp'; host: string; port: number } | { kind: 'file'; path: string } | { kind: 'stdio' };

export function parseStreamTarget(component: string, uri: string, baseDir: string): StreamTarget {
  const a = parseAddress(uri);
  if (a?.scheme === 'tcp') {
    if (a.host === '' || a.port === undefined || a.port <= 0 || a.port > 65535) throw new ComponentConfigError(component, 'URI', uri, 'tcp://host:port');
    return { kind: 'tcp', host: a.host, port: a.port };
  }
  if (a?.scheme === 'file') {
    const p = filePathOf(uri);
    return p === '-' ? { kind: 'stdio' } : { kind: 'file', path: path.resolve(baseDir, p) };
  }
  throw new ComponentConfigError(component, 'URI', uri, 'tcp://host:port or file://path (file://- for the standard stream)');
}

export function describeTarget(t: StreamTarget): string {
  return t.kind === 'tcp' ? `tcp://${t.host}:${t.port}` : t.kind === 'file' ? `file://${t.path}` : 'stdio';
}
