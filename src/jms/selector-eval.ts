/**
 * Evaluation of a parsed JMS selector (JMS 1.1 §3.8.1.2), compiled once into closures.
 *
 * Rules, as the specification gives them:
 *  - an identifier that the message does not have is NULL; NULL in a comparison, arithmetic, BETWEEN, IN or
 *    LIKE makes the result unknown; AND, OR and NOT use SQL's three-valued logic; a message is selected only
 *    when the selector is TRUE;
 *  - numbers compare across exact and approximate types; arithmetic follows Java's numeric promotion
 *    (long op long is a long, with wrap-around and truncating division; anything with a double is a double);
 *    an integer division by zero (an ArithmeticException in Java) is unknown;
 *  - strings and booleans compare only with = and <>; comparing values of different types is FALSE,
 *    and so is LIKE or IN on a value that is not a string; arithmetic on a non-numeric value is unknown
 *    (a string property "2" is not a number: no conversion is applied, as the specification requires).
 */
import { ArithOp, CompareOp, SelectorNode, SelectorValue } from './selector-ast';

/** Gives the value of an identifier (a JMS header or a property); undefined or null means absent. */
export interface SelectorSource {
  get(identifier: string): SelectorValue | undefined;
  /**
   * The values carry their JMS types: integers are bigint and a number is a float or double even when it
   * holds a whole number (123.0). Without it, a whole JS number is taken as an integer.
   */
  readonly jmsTyped?: boolean;
}

export type Evaluator = (source: SelectorSource) => SelectorValue;

export function compileNode(node: SelectorNode): Evaluator {
  switch (node.t) {
    case 'literal': {
      const v = node.value;
      return () => v;
    }
    case 'identifier': {
      const name = node.name;
      return (s) => (s.jmsTyped === true ? (s.get(name) ?? null) : normalise(s.get(name)));
    }
    case 'not': {
      const e = compileNode(node.operand);
      return (s) => not(asCondition(e(s)));
    }
    case 'and': {
      const l = compileNode(node.left);
      const r = compileNode(node.right);
      return (s) => {
        const a = asCondition(l(s));
        if (a === false) return false;
        const b = asCondition(r(s));
        if (b === false) return false;
        return a === null || b === null ? null : true;
      };
    }
    case 'or': {
      const l = compileNode(node.left);
      const r = compileNode(node.right);
      return (s) => {
        const a = asCondition(l(s));
        if (a === true) return true;
        const b = asCondition(r(s));
        if (b === true) return true;
        return a === null || b === null ? null : false;
      };
    }
    case 'compare': {
      const l = compileNode(node.left);
      const r = compileNode(node.right);
      const op = node.op;
      return (s) => compare(op, l(s), r(s));
    }
    case 'arith': {
      const l = compileNode(node.left);
      const r = compileNode(node.right);
      const op = node.op;
      return (s) => arith(op, l(s), r(s));
    }
    case 'negate': {
      const e = compileNode(node.operand);
      return (s) => {
        const v = e(s);
        if (typeof v === 'bigint') return BigInt.asIntN(64, -v);
        if (typeof v === 'number') return -v;
        return null;
      };
    }
    case 'between': {
      const v = compileNode(node.value);
      const lo = compileNode(node.low);
      const hi = compileNode(node.high);
      const negated = node.negated;
      return (s) => {
        const x = v(s);
        const r = and3(compare('>=', x, lo(s)), compare('<=', x, hi(s)));
        return negated ? not(r) : r;
      };
    }
    case 'in': {
      const v = compileNode(node.value);
      const set = new Set(node.list);
      const negated = node.negated;
      return (s) => {
        const x = v(s);
        if (x === null) return null;
        if (typeof x !== 'string') return false;
        return set.has(x) !== negated;
      };
    }
    case 'like': {
      const v = compileNode(node.value);
      const re = node.pattern;
      const negated = node.negated;
      return (s) => {
        const x = v(s);
        if (x === null) return null;
        if (typeof x !== 'string') return false;
        return re.test(x) !== negated;
      };
    }
    case 'isNull': {
      const v = compileNode(node.value);
      const negated = node.negated;
      return (s) => (v(s) === null) !== negated;
    }
  }
}

/** Values from a message: JS integers become exact (long) numbers, other numbers approximate. */
function normalise(v: SelectorValue | undefined): SelectorValue {
  if (v === undefined) return null;
  if (typeof v === 'number' && Number.isSafeInteger(v)) return BigInt(v);
  return v;
}

/** A value used as a condition: only booleans count; anything else (e.g. a string property) is unknown. */
function asCondition(v: SelectorValue): boolean | null {
  return typeof v === 'boolean' ? v : null;
}

function not(v: SelectorValue): boolean | null {
  const c = asCondition(v);
  return c === null ? null : !c;
}

function and3(a: SelectorValue, b: SelectorValue): boolean | null {
  if (a === false || b === false) return false;
  return a === true && b === true ? true : null;
}

function isNumeric(v: SelectorValue): v is bigint | number {
  return typeof v === 'bigint' || typeof v === 'number';
}

function compare(op: CompareOp, a: SelectorValue, b: SelectorValue): boolean | null {
  if (a === null || b === null) return null;
  if (isNumeric(a) && isNumeric(b)) {
    // JS compares bigint with number exactly; NaN compares false except with <>.
    switch (op) {
      case '=':
        return a == b;
      case '<>':
        return a != b;
      case '<':
        return a < b;
      case '<=':
        return a <= b;
      case '>':
        return a > b;
      case '>=':
        return a >= b;
    }
  }
  if (typeof a !== typeof b) return false;
  // same non-numeric type: strings or booleans, equality only
  if (op === '=') return a === b;
  if (op === '<>') return a !== b;
  return false;
}

function arith(op: ArithOp, a: SelectorValue, b: SelectorValue): SelectorValue {
  if (!isNumeric(a) || !isNumeric(b)) return null;
  if (typeof a === 'bigint' && typeof b === 'bigint') {
    switch (op) {
      case '+':
        return BigInt.asIntN(64, a + b);
      case '-':
        return BigInt.asIntN(64, a - b);
      case '*':
        return BigInt.asIntN(64, a * b);
      case '/':
        return b === 0n ? null : BigInt.asIntN(64, a / b);
    }
  }
  const x = Number(a);
  const y = Number(b);
  switch (op) {
    case '+':
      return x + y;
    case '-':
      return x - y;
    case '*':
      return x * y;
    case '/':
      return x / y;
  }
}
