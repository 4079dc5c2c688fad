/**
 * The pool bench's sequential request/reply (pool-bench.ts) in a process that runs one side, for instruction counts and
 * CPU profiles (issue 32). Each round starts a new pool (or new sockets) and times one chain of round trips per child,
 * as the bench does; with `callgrind`, valgrind's counters are zeroed as the last round's chains start and dumped as
 * they end, so the dump holds that round only:
 *   valgrind --tool=callgrind --dump-instr=no node --predictable --max-semi-space-size=64 \
 *     dist/test/bench/pool-probe.js pool 512 40 4 callgrind
 * (instructions per round trip = the `.1` dump's total / (children × round trips per child)).
 * With `kept`, one pool (or one set of sockets) serves every round, as pool-bench.ts's kept design.
 * With `marks`, a line marks where each round's timed part starts (for --trace-gc).
 * Usage: node dist/test/bench/pool-probe.js <pool|raw> <children> <round trips per child> <rounds> [callgrind] [kept] [marks]
 */
import { startTcpPeer } from '../unit/pools/peers';
import { pooledSide, rawSide } from './pool-sides';
import { control } from './callgrind-control';

async function main(): Promise<void> {
  const [side, childrenArg, perArg, roundsArg, ...flags] = process.argv.slice(2);
  const children = Number(childrenArg);
  const per = Number(perArg);
  const rounds = Number(roundsArg);
  if (!['pool', 'raw'].includes(side) || !(children > 0 && per > 0 && rounds > 0))
    throw new Error('usage: pool-probe <pool|raw> <children> <per child> <rounds> [callgrind] [kept] [marks]');
  const peer = await startTcpPeer();
  try {
    const open = () => (side === 'pool' ? pooledSide(peer.port, children) : rawSide(peer.port, children));
    // kept: one pool (or one set of sockets) for every round, as pool-bench.ts's kept design.
    const kept = flags.includes('kept') ? await open() : undefined;
    for (let r = 0; r < rounds; r++) {
      const s = kept ?? (await open());
      peer.received.length = 0;
      const counted = flags.includes('callgrind') && r === rounds - 1;
      if (counted) await control('-z');
      // With --trace-gc: the collections printed after this line and before the round's result fell in its timed part.
      if (flags.includes('marks')) console.log(`round ${r + 1} timed part starts`);
      const cpu0 = process.cpuUsage();
      const t0 = process.hrtime.bigint();
      await Promise.all(Array.from({ length: children }, (_, c) => s.chain(c, per)));
      const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
      const cpu = process.cpuUsage(cpu0);
      if (counted) await control('-d');
      if (!kept) await s.stop();
      const trips = children * per;
      console.log(
        `${side}, ${children} children, round ${r + 1}: ${Math.round(trips / seconds)} round trips/s, CPU ${((cpu.user + cpu.system) / trips).toFixed(2)} µs each (user ${(cpu.user / trips).toFixed(2)}, system ${(cpu.system / trips).toFixed(2)})`,
      );
    }
    await kept?.stop();
  } finally {
    await peer.close();
  }
}

main().catch((err) => {
  console.error(err);
  process.exitCode = 1;
});
