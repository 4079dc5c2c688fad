/** The parsed form of a JMS message selector. Values follow JMS typing: exact numbers are bigint (Java long). */

/** A selector value: NULL (unknown), a string, a boolean, an exact (bigint) or approximate (number) numeric. */
export type SelectorValue = null | string | boolean | bigint | number;

/** What an expression is known to yield before evaluation ('any' = an identifier, known only at run time). */
export type StaticType = 'bool' | 'num' | 'str' | 'any';

export type CompareOp = '=' | '<>' | '<' | '<=' | '>' | '>=';
export type ArithOp = '+' | '-' | '*' | '/';

export type SelectorNode =
  | { readonly t: 'literal'; readonly value: SelectorValue }
  | { readonly t: 'identifier'; readonly name: string }
  | { readonly t: 'not'; readonly operand: SelectorNode }
  | { readonly t: 'and' | 'or'; readonly left: SelectorNode; readonly right: SelectorNode }
  | { readonly t: 'compare'; readonly op: CompareOp; readonly left: SelectorNode; readonly right: SelectorNode }
  | { readonly t: 'arith'; readonly op: ArithOp; readonly left: SelectorNode; readonly right: SelectorNode }
  | { readonly t: 'negate'; readonly operand: SelectorNode }
  | { readonly t: 'between'; readonly negated: boolean; readonly value: SelectorNode; readonly low: SelectorNode; readonly high: SelectorNode }
  | { readonly t: 'in'; readonly negated: boolean; readonly value: SelectorNode; readonly list: readonly string[] }
  | { readonly t: 'like'; readonly negated: boolean; readonly value: SelectorNode; readonly pattern: RegExp }
  | { readonly t: 'isNull'; readonly negated: boolean; readonly value: SelectorNode };
