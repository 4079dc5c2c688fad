/**
 * The public surface of actors/pools: the pool components.
 * Other actor folders import only the names listed here, each from the module that defines it, never through this
 * index (eslint.config.mjs reads this list and enforces both); the registry, actors/index.ts, and tests import it.
 */
export { PERSISTER_POOL } from './persister-pool';
export { RECEIVER_POOL } from './receiver-pool';
