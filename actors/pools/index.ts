/**
 * The public surface of actors/pools: the pool components and the client API a program uses to send
 * requests to a pool. Other actor folders import from here, never from a file of this folder (the lint
 * config enforces it).
 */
export { PERSISTER_POOL } from './persister-pool';
export { RECEIVER_POOL } from './receiver-pool';
