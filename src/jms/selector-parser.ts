/**
 * Recursive-descent parser of the JMS message selector language (JMS 1.1 §3.8.1.1). Precedence, lowest
 * first: OR, AND, NOT, comparison / BETWEEN / IN / LIKE / IS NULL, binary + -, * /, unary + -.
 *
 * Where the specification restricts the left side of LIKE, IN and IS NULL to an identifier, any value
 * expression is accepted (as ActiveMQ does); the evaluator gives a non-string a false result. Static type
 * errors that no message could ever satisfy (a number where a condition is needed, arithmetic on a string
 * literal) are reported here, with their position, as the broker would refuse them too.
 */
import { SelectorSyntaxError } from './selector-errors';
import { ArithOp, CompareOp, SelectorNode, StaticType } from './selector-ast';
import { Keyword, LONG_RANGE, Token, tokenize } from './selector-lexer';

interface Typed {
  node: SelectorNode;
  type: StaticType;
  pos: number;
}

const COMPARE_OPS: ReadonlySet<string> = new Set(['=', '<>', '<', '<=', '>', '>=']);

export function parseSelector(selector: string): SelectorNode {
  return new Parser(selector).parse();
}

class Parser {
  private readonly tokens: Token[];
  private i = 0;

  constructor(private readonly selector: string) {
    this.tokens = tokenize(selector);
  }

  parse(): SelectorNode {
    if (this.peek().kind === 'eof') this.fail(this.peek(), 'the selector is empty');
    const e = this.orExpr();
    const t = this.peek();
    if (t.kind !== 'eof') this.fail(t, `unexpected ${describe(t)} after a complete condition`);
    this.expectCondition(e, 'the selector');
    return e.node;
  }

  // ---- conditions ------------------------------------------------------------------------

  private orExpr(): Typed {
    let left = this.andExpr();
    while (this.isKeyword('OR')) {
      this.next();
      const right = this.andExpr();
      this.expectCondition(left, 'OR');
      this.expectCondition(right, 'OR');
      left = { node: { t: 'or', left: left.node, right: right.node }, type: 'bool', pos: left.pos };
    }
    return left;
  }

  private andExpr(): Typed {
    let left = this.notExpr();
    while (this.isKeyword('AND')) {
      this.next();
      const right = this.notExpr();
      this.expectCondition(left, 'AND');
      this.expectCondition(right, 'AND');
      left = { node: { t: 'and', left: left.node, right: right.node }, type: 'bool', pos: left.pos };
    }
    return left;
  }

  private notExpr(): Typed {
    if (this.isKeyword('NOT')) {
      const not = this.next();
      const operand = this.notExpr();
      this.expectCondition(operand, 'NOT');
      return { node: { t: 'not', operand: operand.node }, type: 'bool', pos: not.pos };
    }
    return this.comparison();
  }

  private comparison(): Typed {
    const left = this.additive();
    const t = this.peek();
    if (t.kind === 'op' && COMPARE_OPS.has(t.text)) {
      this.next();
      const right = this.additive();
      const op = t.text as CompareOp;
      if (op !== '=' && op !== '<>') {
        for (const side of [left, right]) {
          if (side.type === 'str' || side.type === 'bool')
            this.failAt(side.pos, `${side.type === 'str' ? 'strings' : 'booleans'} compare only with = and <>, not ${op}`);
        }
      }
      return { node: { t: 'compare', op, left: left.node, right: right.node }, type: 'bool', pos: left.pos };
    }
    let negated = false;
    if (this.isKeyword('NOT')) {
      this.next();
      negated = true;
      if (!this.isKeywordAt(0, 'BETWEEN', 'IN', 'LIKE')) this.fail(this.peek(), `expected BETWEEN, IN or LIKE after NOT, found ${describe(this.peek())}`);
    }
    if (this.isKeyword('BETWEEN')) {
      this.next();
      this.expectNumeric(left, 'BETWEEN');
      const low = this.additive();
      this.expectNumeric(low, 'BETWEEN');
      this.expectKeyword('AND', 'between the bounds of BETWEEN');
      const high = this.additive();
      this.expectNumeric(high, 'BETWEEN');
      return { node: { t: 'between', negated, value: left.node, low: low.node, high: high.node }, type: 'bool', pos: left.pos };
    }
    if (this.isKeyword('IN')) {
      this.next();
      this.expectStringOperand(left, 'IN');
      this.expectOp('(', 'after IN');
      const list: string[] = [];
      for (;;) {
        const item = this.next();
        if (item.kind !== 'string') this.fail(item, `IN lists hold string literals only, found ${describe(item)}`);
        list.push(item.value);
        if (this.isOp(',')) {
          this.next();
          continue;
        }
        this.expectOp(')', 'to close the IN list');
        break;
      }
      return { node: { t: 'in', negated, value: left.node, list }, type: 'bool', pos: left.pos };
    }
    if (this.isKeyword('LIKE')) {
      this.next();
      this.expectStringOperand(left, 'LIKE');
      const pattern = this.next();
      if (pattern.kind !== 'string') this.fail(pattern, `LIKE needs a string literal pattern, found ${describe(pattern)}`);
      let escape: string | undefined;
      if (this.isKeyword('ESCAPE')) {
        this.next();
        const esc = this.next();
        if (esc.kind !== 'string' || [...esc.value].length !== 1)
          this.fail(esc, `ESCAPE needs a string literal of exactly one character, found ${describe(esc)}`);
        escape = esc.value;
      }
      return { node: { t: 'like', negated, value: left.node, pattern: likeToRegExp(pattern.value, escape) }, type: 'bool', pos: left.pos };
    }
    if (this.isKeyword('IS')) {
      this.next();
      let not = false;
      if (this.isKeyword('NOT')) {
        this.next();
        not = true;
      }
      this.expectKeyword('NULL', 'after IS');
      return { node: { t: 'isNull', negated: not, value: left.node }, type: 'bool', pos: left.pos };
    }
    return left;
  }

  // ---- values ----------------------------------------------------------------------------

  private additive(): Typed {
    let left = this.multiplicative();
    while (this.isOp('+') || this.isOp('-')) {
      const op = this.next().text as ArithOp;
      const right = this.multiplicative();
      left = this.arith(op, left, right);
    }
    return left;
  }

  private multiplicative(): Typed {
    let left = this.unary();
    while (this.isOp('*') || this.isOp('/')) {
      const op = this.next().text as ArithOp;
      const right = this.unary();
      left = this.arith(op, left, right);
    }
    return left;
  }

  private arith(op: ArithOp, left: Typed, right: Typed): Typed {
    this.expectNumeric(left, `'${op}'`);
    this.expectNumeric(right, `'${op}'`);
    return { node: { t: 'arith', op, left: left.node, right: right.node }, type: 'num', pos: left.pos };
  }

  private unary(): Typed {
    if (this.isOp('-') || this.isOp('+')) {
      const sign = this.next();
      const next = this.peek();
      // -9223372036854775808 is a valid long only with its sign.
      if (sign.text === '-' && next.kind === 'exact') {
        this.next();
        return { node: { t: 'literal', value: -next.value }, type: 'num', pos: sign.pos };
      }
      const operand = this.unary();
      this.expectNumeric(operand, `unary '${sign.text}'`);
      return sign.text === '-' ? { node: { t: 'negate', operand: operand.node }, type: 'num', pos: sign.pos } : operand;
    }
    return this.primary();
  }

  private primary(): Typed {
    const t = this.next();
    switch (t.kind) {
      case 'string':
        return { node: { t: 'literal', value: t.value }, type: 'str', pos: t.pos };
      case 'exact':
        if (t.value > LONG_RANGE.max) this.fail(t, `integer literal ${t.text} is out of range for a long`);
        return { node: { t: 'literal', value: t.value }, type: 'num', pos: t.pos };
      case 'approx':
        return { node: { t: 'literal', value: t.value }, type: 'num', pos: t.pos };
      case 'ident': {
        // ActiveMQ's own extensions, not JMS: named so that a selector written for them is refused clearly
        const after = this.peek();
        if (after.kind === 'string' && /^(XPATH|XQUERY)$/i.test(t.text))
          this.fail(t, `${t.text.toUpperCase()} selectors (an ActiveMQ extension) are not supported`);
        if (after.kind === 'op' && after.text === '(') this.fail(t, `function calls such as ${t.text}(...) (ActiveMQ extensions) are not supported`);
        return { node: { t: 'identifier', name: t.text }, type: 'any', pos: t.pos };
      }
      case 'keyword':
        if (t.text === 'TRUE' || t.text === 'FALSE') return { node: { t: 'literal', value: t.text === 'TRUE' }, type: 'bool', pos: t.pos };
        if (t.text === 'NULL') this.fail(t, 'NULL is only allowed in IS [NOT] NULL');
        return this.fail(t, `expected a value but found keyword ${t.text}`);
      case 'op':
        if (t.text === '(') {
          const inner = this.orExpr();
          this.expectOp(')', 'to close the parenthesis');
          return { ...inner, pos: t.pos };
        }
        return this.fail(t, `expected a value but found '${t.text}'`);
      case 'eof':
        return this.fail(t, 'unexpected end of selector, expected a value');
    }
  }

  // ---- helpers ---------------------------------------------------------------------------

  private expectCondition(e: Typed, where: string): void {
    if (e.type === 'num' || e.type === 'str') this.failAt(e.pos, `${where} needs a condition, found a ${e.type === 'num' ? 'numeric' : 'string'} value`);
  }

  private expectNumeric(e: Typed, where: string): void {
    if (e.type === 'str' || e.type === 'bool') this.failAt(e.pos, `${where} needs numeric operands, found a ${e.type === 'str' ? 'string' : 'boolean'}`);
  }

  private expectStringOperand(e: Typed, where: string): void {
    if (e.type === 'num' || e.type === 'bool') this.failAt(e.pos, `${where} applies to strings, found a ${e.type === 'num' ? 'numeric' : 'boolean'} value`);
  }

  private peek(offset = 0): Token {
    return this.tokens[Math.min(this.i + offset, this.tokens.length - 1)];
  }

  private next(): Token {
    const t = this.peek();
    if (this.i < this.tokens.length - 1) this.i++;
    return t;
  }

  private isKeyword(k: Keyword): boolean {
    const t = this.peek();
    return t.kind === 'keyword' && t.text === k;
  }

  private isKeywordAt(offset: number, ...ks: Keyword[]): boolean {
    const t = this.peek(offset);
    return t.kind === 'keyword' && ks.includes(t.text);
  }

  private isOp(op: string): boolean {
    const t = this.peek();
    return t.kind === 'op' && t.text === op;
  }

  private expectKeyword(k: Keyword, where: string): void {
    const t = this.next();
    if (t.kind !== 'keyword' || t.text !== k) this.fail(t, `expected ${k} ${where}, found ${describe(t)}`);
  }

  private expectOp(op: string, where: string): void {
    const t = this.next();
    if (t.kind !== 'op' || t.text !== op) this.fail(t, `expected '${op}' ${where}, found ${describe(t)}`);
  }

  private fail(t: Token, reason: string): never {
    return this.failAt(t.pos, reason);
  }

  private failAt(pos: number, reason: string): never {
    throw new SelectorSyntaxError(this.selector, pos + 1, reason);
  }
}

function describe(t: Token): string {
  switch (t.kind) {
    case 'eof':
      return 'the end of the selector';
    case 'keyword':
      return `keyword ${t.text}`;
    case 'ident':
      return `identifier ${t.text}`;
    default:
      return `'${t.text}'`;
  }
}

/**
 * LIKE: '_' is any one character, '%' any sequence. The escape character makes a following '_', '%' or escape
 * character literal; anywhere else (also last) it is an ordinary pattern character, wildcard or not, as ActiveMQ
 * reads it (docs/components/jms-subscriber.md#selectors), so the broker and xroute select the same messages.
 */
function likeToRegExp(pattern: string, escape: string | undefined): RegExp {
  let re = '';
  const chars = [...pattern];
  for (let k = 0; k < chars.length; k++) {
    const c = chars[k];
    const next = chars[k + 1];
    if (escape !== undefined && c === escape && (next === '_' || next === '%' || next === escape)) {
      re += escapeRegExp(next);
      k++;
    } else if (c === '_') re += '.';
    else if (c === '%') re += '.*';
    else re += escapeRegExp(c);
  }
  return new RegExp(`^${re}$`, 'su');
}

function escapeRegExp(c: string): string {
  return c.replace(/[\\^$.*+?()[\]{}|]/g, '\\$&');
}
