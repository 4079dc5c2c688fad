/**
 * JSONFormatter templates (docs/evaluator/transforms.md, docs/evaluator/rules.md): `##.path##` (a name starting with `.`) is
 * the text of the JSON value at that path of a node (the current node, or the item an `each`,
 * `sort` or `uniq` is looking at); every other `##name##` is a message field exactly as in all
 * message templates (docs/evaluator/rules.md).
 *
 * Why the source is cut rather than pre-resolved: there is one template engine
 * (src/rules/template.ts). The source is cut at its `##.path##` placeholders and every piece in
 * between becomes a shared Template (through the kind context), so message fields are resolved by
 * that one implementation. Writing the JSON values into the text first and rendering the result
 * would scan those values again (a JSON string holding `##x##` would be expanded), breaking the
 * single pass of every template (docs/evaluator/rules.md). Cutting keeps both rules of that scan: pieces are scanned from where
 * the previous placeholder ended, as the one left-to-right scan does, and no inserted value is
 * scanned again. The `##.path##` values are inserted as they are (no JSON escaping), as in Java.
 */
import type { Message } from '../message/message';
import { type Template, placeholders } from '../rules/template';
import type { JsonFormatterCompileContext } from './kind-types';
import { JsonPath } from './json-path';
import { compileJsonPathKey } from './json-support';
import type { JsonValue } from './json-text';
import { valueText } from './json-formatter-values';

type Piece = Template | JsonPath;

export class NodeTemplate {
  private constructor(
    readonly source: string,
    private readonly pieces: readonly Piece[],
  ) {}

  static compile(source: string, key: string, ctx: JsonFormatterCompileContext): NodeTemplate {
    const pieces: Piece[] = [];
    let last = 0;
    const text = (end: number): void => {
      if (end > last) pieces.push(ctx.template(source.slice(last, end), key));
    };
    // The one placeholder scanner; a name starting with `.` is a JSON path.
    for (const { name, start, end } of placeholders(source)) {
      if (!name.startsWith('.')) continue;
      text(start);
      pieces.push(compileJsonPathKey(name, key, ctx));
      last = end;
    }
    text(source.length);
    return new NodeTemplate(source, pieces);
  }

  /** True when the template has no placeholder of either kind: it is a static value. */
  get isStatic(): boolean {
    return this.pieces.every((p) => !(p instanceof JsonPath) && p.isStatic);
  }

  /** Renders against a message and a JSON node; a path that does not fit the node throws JsonPathProblem. */
  render(msg: Message, node: JsonValue): string {
    let out = '';
    for (const p of this.pieces) out += p instanceof JsonPath ? valueText(p.select(node)) : p.format(msg);
    return out;
  }
}
