/**
 * What rhea's decoder loses of an AMQP 1.0 value's type, kept for JMS selectors and property text
 * (docs/components/jms-subscriber.md#selectors):
 *
 *   - a long beyond ±2^53: rhea gives its 8 raw bytes (a Buffer, which looked like an absent or binary
 *     property) and rounds the values just above 2^53; here every long outside the safe integer range is an
 *     exact bigint;
 *   - a double or float: rhea gives a JS number, the same as for an int or a long, so `d / 2` became integer
 *     arithmetic for `d = 123.0` and the property text was "123" where JMS gives "123.0". The keys of such
 *     values in a decoded map (the application properties, the annotations) are listed under FLOATING on that map.
 *
 * Installed once, when this module loads, on rhea's shared type table (rhea has no per-connection decoder).
 */
import rhea = require('rhea');

/** On a map decoded by rhea: the keys whose values were AMQP doubles or floats, with which of the two. */
const FLOATING: unique symbol = Symbol('xroute.amqp10.floating');

export type FloatingType = 'Double' | 'Float';
type DecodedMap = Record<string, unknown> & { [FLOATING]?: ReadonlyMap<string, FloatingType> };

interface RheaTyped {
  type?: { name?: string };
  value: unknown;
}
interface RheaTypes {
  by_code: Record<number, { read?: (buffer: Buffer, offset: number) => unknown }>;
  unwrap(o: unknown, leaveDescribed?: boolean): unknown;
  unwrap_map_simple(o: { value: RheaTyped[] }): Record<string, unknown>;
}

const types = rhea.types as unknown as RheaTypes;
const LONG = 0x81;

function readLong(buffer: Buffer, offset: number): number | bigint {
  const v = buffer.readBigInt64BE(offset);
  return v >= BigInt(Number.MIN_SAFE_INTEGER) && v <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(v) : v;
}

function install(): void {
  const long = types.by_code[LONG];
  if (long.read === readLong) return;
  long.read = readLong;
  const unwrapMap = types.unwrap_map_simple;
  types.unwrap_map_simple = function unwrapMapKeepingFloating(o) {
    const map = unwrapMap(o) as DecodedMap;
    let floating: Map<string, FloatingType> | undefined;
    const items = o.value;
    for (let k = 1; k < items.length; k += 2) {
      const name = items[k]?.type?.name;
      if (name === 'Double' || name === 'Float') (floating ??= new Map()).set(String(types.unwrap(items[k - 1], true)), name);
    }
    if (floating !== undefined) Object.defineProperty(map, FLOATING, { value: floating, enumerable: false });
    return map;
  };
}

install();

/** 'Double' or 'Float' when `key` of a map rhea decoded held an AMQP double or float, else undefined. */
export function floatingType(map: object | undefined, key: string): FloatingType | undefined {
  return (map as DecodedMap | undefined)?.[FLOATING]?.get(key);
}
