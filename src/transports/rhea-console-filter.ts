/**
 * rhea writes "Received transfer when credit was 0" straight to console.error each time a broker sends a
 * delivery beyond the credit granted (RabbitMQ 3.10's AMQP 1.0 plugin does so routinely; xroute keeps those
 * deliveries, see actors/receivers/amqp10-consumer.ts). Under load that floods stderr with lines no operator can act on.
 * This filter drops exactly that message (matched on rhea's format string) and counts it instead; every
 * other console.error passes through unchanged.
 */
const RHEA_CREDIT_MESSAGE = 'Received transfer when credit was %d';

let installed = false;
let dropped = 0;

export function installRheaConsoleFilter(): void {
  if (installed) return;
  installed = true;
  const original = console.error.bind(console);
  console.error = (...args: unknown[]): void => {
    if (args[0] === RHEA_CREDIT_MESSAGE) {
      dropped++;
      return;
    }
    original(...args);
  };
}

/**
 * How many of rhea's credit-overrun lines were dropped (deliveries beyond the granted credit).
 * @public read by its test through a fresh require of this module, which knip cannot follow.
 */
export function rheaCreditOverruns(): number {
  return dropped;
}
