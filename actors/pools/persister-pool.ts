/** PersisterPool (operation accept): spawns persisters reading the requester's transmit XQueue. */
import { poolDefinition } from './pool-definition';

export const PERSISTER_POOL = poolDefinition('persister');
