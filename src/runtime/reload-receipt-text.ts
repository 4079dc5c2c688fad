/**
 * A reload receipt (src/runtime/reload-receipt.ts) as an operator reads it: what `xroute reload` prints and the
 * log's human line. One line per component or link that changed; kept ones are counted, not listed.
 */
import type { ComponentChange, LinkChange, ReloadReceipt } from './reload-receipt';

export function formatReceipt(receipt: ReloadReceipt): string {
  const lines = [headline(receipt)];
  for (const c of receipt.components) if (c.action !== 'kept') lines.push(`  ${c.action.padEnd(8)} ${componentLine(c)}`);
  for (const l of receipt.links) if (l.action !== 'kept') lines.push(`  ${l.action.padEnd(8)} ${linkLine(l)}`);
  const kept = receipt.components.filter((c) => c.action === 'kept').map((c) => c.name);
  if (kept.length > 0) lines.push(`  kept     ${kept.join(', ')}`);
  if (receipt.error !== undefined) lines.push(...receipt.error.split('\n').map((l) => `  ${l}`));
  return lines.join('\n');
}

function headline(r: ReloadReceipt): string {
  const what = r.dryRun ? `dry run of flow ${r.flow}: ${r.outcome === 'applied' ? 'would apply' : r.outcome}` : `reload of flow ${r.flow}: ${r.outcome}`;
  const cost = !r.dryRun && (r.outcome === 'applied' || r.outcome === 'rolled-back') ? ` in ${r.swapMs} ms, ${r.redelivered} redelivered` : '';
  return `${what}${cost} (${r.trigger}, ${r.id})`;
}

function componentLine(c: ComponentChange): string {
  const parts = [`${c.name} (${c.className})`];
  if (c.changed !== undefined && c.changed.length > 0) parts.push(`changed: ${c.changed.join(', ')}`);
  if (c.drained !== undefined) parts.push(`drained: ${c.drained.acknowledged} finished, ${c.drained.returned} given back`);
  if (c.swapMs !== undefined) parts.push(`swap ${c.swapMs} ms`);
  return parts.join('; ');
}

function linkLine(l: LinkChange): string {
  const capacity = l.action === 'resized' ? `capacity ${l.capacity.from} -> ${l.capacity.to}` : `capacity ${l.capacity.to ?? l.capacity.from}`;
  return `link ${l.name} (${capacity}${l.held !== undefined ? `, holds ${l.held}` : ''})`;
}
