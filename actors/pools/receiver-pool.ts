/** ReceiverPool (operation accept): spawns receivers writing the requester's transmit XQueue. */
import { poolDefinition } from './pool-definition';

export const RECEIVER_POOL = poolDefinition('receiver');
