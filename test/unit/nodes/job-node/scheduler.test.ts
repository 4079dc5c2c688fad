import { Sim } from './scheduler-sim';

describe('JobScheduler: priorities', () => {
  const cases: {
    title: string;
    groups: { name: string; priority?: number; threshold?: number }[];
    workers: number;
    arrivals: string[];
    freeWorkersAfter: number;
    expected: string[];
  }[] = [
    {
      title: 'serves the group with the larger Priority first',
      groups: [
        { name: 'low', priority: 1 },
        { name: 'high', priority: 9 },
      ],
      workers: 1,
      arrivals: ['blocker:low', 'l1:low', 'h1:high'],
      freeWorkersAfter: 1,
      expected: ['blocker', 'h1'],
    },
    {
      title: 'breaks Priority ties in ruleset definition order',
      groups: [
        { name: 'first', priority: 5 },
        { name: 'second', priority: 5 },
        { name: 'blocker', priority: 0 },
      ],
      workers: 1,
      arrivals: ['b:blocker', 's1:second', 'f1:first'],
      freeWorkersAfter: 1,
      expected: ['b', 'f1'],
    },
    {
      title: 'takes the jobs of one group in arrival order',
      groups: [{ name: 'g', threshold: 5 }],
      workers: 1,
      arrivals: ['a:g', 'b:g', 'c:g'],
      freeWorkersAfter: 2,
      expected: ['a', 'b', 'c'],
    },
    {
      title: 'falls through to a lower group when the higher one is at its threshold',
      groups: [
        { name: 'high', priority: 9, threshold: 1 },
        { name: 'low', priority: 1, threshold: 5 },
      ],
      workers: 3,
      arrivals: ['h1:high', 'h2:high', 'l1:low', 'l2:low'],
      freeWorkersAfter: 0,
      expected: ['h1', 'l1', 'l2'],
    },
  ];

  it.each(cases)('$title', ({ groups, workers, arrivals, freeWorkersAfter, expected }) => {
    const sim = new Sim(groups, workers);
    sim.submit(...arrivals);
    for (let i = 0; i < freeWorkersAfter; i++) sim.complete(sim.startedNames()[i]);
    expect(sim.startedNames()).toEqual(expected);
  });
});

describe('JobScheduler: thresholds', () => {
  it('never starts more jobs of a group than its Threshold when several workers free up at once (the original over-dispatches)', () => {
    const sim = new Sim(
      [
        { name: 'A', threshold: 1, priority: 1 },
        { name: 'B', threshold: 2 },
      ],
      2,
    );
    sim.submit('b1:B', 'b2:B', 'a1:A', 'a2:A');
    expect(sim.activeNames()).toEqual(['b1', 'b2']);
    sim.complete('b1', 'b2');
    expect(sim.activeNames()).toEqual(['a1']);
    expect(sim.scheduler.snapshot().workers).toEqual(['busy', 'free']);
  });

  it('dispatches at most threshold minus active jobs of a burst', () => {
    const sim = new Sim([{ name: 'A', threshold: 3 }], 10);
    sim.submit('a1:A', 'a2:A', 'a3:A', 'a4:A', 'a5:A');
    expect(sim.activeNames()).toEqual(['a1', 'a2', 'a3']);
    expect(sim.scheduler.snapshot().groups[0]).toMatchObject({ active: 3, pending: 2, threshold: 3 });
  });

  it('starts the next pending job as soon as a job of its group finishes, not at the next tick', () => {
    const sim = new Sim([{ name: 'A', threshold: 1 }], 4);
    sim.submit('a1:A', 'a2:A');
    sim.complete('a1');
    expect(sim.activeNames()).toEqual(['a2']);
    expect(sim.clock.now()).toBe(0);
  });

  it('uses the worker that has been free longest', () => {
    const sim = new Sim([{ name: 'A', threshold: 9 }], 3);
    sim.submit('a1:A', 'a2:A', 'a3:A');
    sim.complete('a2', 'a1');
    sim.submit('a4:A', 'a5:A');
    expect(sim.started.slice(3)).toEqual([
      { job: 'a4', worker: 1 },
      { job: 'a5', worker: 0 },
    ]);
  });

  it('pauses a group while its dynamic threshold is 0 and resumes it within a second of the window opening', () => {
    let open = false;
    const sim = new Sim([{ name: 'A', threshold: { dynamic: true, at: () => (open ? 2 : 0) } }], 2, 10_000);
    sim.submit('a1:A', 'a2:A', 'a3:A');
    sim.clock.advance(5_000);
    expect(sim.startedNames()).toEqual([]);
    open = true;
    sim.clock.advance(1_000);
    expect(sim.startedNames()).toEqual(['a1', 'a2']);
  });

  it('stops re-checking the window once nothing waits for it', () => {
    let open = false;
    const sim = new Sim([{ name: 'A', threshold: { dynamic: true, at: () => (open ? 1 : 0) } }], 1);
    sim.submit('a1:A');
    open = true;
    sim.clock.advance(1_000);
    sim.complete('a1');
    expect(sim.clock.pending).toBe(0);
  });
});

describe('JobScheduler: keys (KeyTemplate dedup)', () => {
  it('defers a job whose key is active and runs it when the active one completes', () => {
    const sim = new Sim([{ name: 'A', threshold: 5 }], 3);
    sim.submit('j1:A:K', 'j2:A:K');
    expect(sim.startedNames()).toEqual(['j1']);
    expect(sim.job('j2').state).toBe('deferred');
    sim.complete('j1');
    expect(sim.startedNames()).toEqual(['j1', 'j2']);
  });

  it('runs a released duplicate before later arrivals of its group (arrival order is kept)', () => {
    const sim = new Sim([{ name: 'A', threshold: 1 }], 1);
    sim.submit('j1:A:K', 'j2:A:K', 'j3:A:L');
    sim.complete('j1');
    expect(sim.startedNames()).toEqual(['j1', 'j2']);
    sim.complete('j2');
    expect(sim.startedNames()).toEqual(['j1', 'j2', 'j3']);
  });

  it('serialises three identical jobs one after the other', () => {
    const sim = new Sim([{ name: 'A', threshold: 5 }], 5);
    sim.submit('j1:A:K', 'j2:A:K', 'j3:A:K');
    sim.complete('j1');
    expect(sim.activeNames()).toEqual(['j2']);
    sim.complete('j2');
    expect(sim.activeNames()).toEqual(['j3']);
  });

  it('shares the key space between rulesets', () => {
    const sim = new Sim([{ name: 'A' }, { name: 'B' }], 2);
    sim.submit('a:A:K', 'b:B:K');
    expect(sim.activeNames()).toEqual(['a']);
    sim.complete('a');
    expect(sim.activeNames()).toEqual(['b']);
  });

  it('drops a duplicate at once with the drop policy', () => {
    const sim = new Sim([{ name: 'A', threshold: 5, duplicates: 'drop' }], 2);
    sim.submit('j1:A:K');
    const admission = sim.scheduler.submit({ name: 'j2', group: 'A', key: 'K' });
    expect(admission).toMatchObject({ kind: 'dropped', key: 'K' });
    expect(sim.scheduler.size).toBe(1);
  });

  it('treats jobs without a key as unique', () => {
    const sim = new Sim([{ name: 'A', threshold: 5 }], 2);
    sim.submit('j1:A', 'j2:A');
    expect(sim.activeNames()).toEqual(['j1', 'j2']);
  });
});

describe('JobScheduler: heartbeat queries', () => {
  it('queries an active job every Heartbeat of its group', () => {
    const sim = new Sim([{ name: 'A', heartbeatMs: 10_000 }], 1);
    sim.submit('j1:A');
    sim.clock.advance(9_999);
    expect(sim.queries).toEqual([]);
    sim.clock.advance(1);
    expect(sim.queries).toEqual([{ job: 'j1', worker: 0 }]);
  });

  it('sends no second query while one is outstanding and reports the job as stuck instead', () => {
    const sim = new Sim([{ name: 'A', heartbeatMs: 1_000 }], 1);
    sim.submit('j1:A');
    sim.clock.advance(3_000);
    expect(sim.queries).toHaveLength(1);
    expect(sim.events.filter((e) => e.type === 'stuck').map((e) => (e.type === 'stuck' ? e.unanswered : 0))).toEqual([1, 2]);
  });

  it('sends the next query after the previous one came back', () => {
    const sim = new Sim([{ name: 'A', heartbeatMs: 1_000 }], 1);
    sim.submit('j1:A');
    sim.clock.advance(1_000);
    expect(sim.scheduler.queryReturned(sim.job('j1'), 1)).toBeDefined();
    sim.clock.advance(1_000);
    expect(sim.queries).toHaveLength(2);
    expect(sim.job('j1').queriesAnswered).toBe(1);
  });

  it('stops querying a job once it completed', () => {
    const sim = new Sim([{ name: 'A', heartbeatMs: 1_000 }], 1);
    sim.submit('j1:A');
    sim.complete('j1');
    sim.clock.advance(5_000);
    expect(sim.queries).toEqual([]);
    expect(sim.clock.pending).toBe(0);
  });

  it('ignores a query answer for an earlier dispatch', () => {
    const sim = new Sim([{ name: 'A', heartbeatMs: 1_000 }], 1);
    sim.submit('j1:A');
    sim.clock.advance(1_000);
    sim.fail('j1');
    expect(sim.scheduler.queryReturned(sim.job('j1'), 1)).toBeUndefined();
  });
});

describe('JobScheduler: TimeToLive', () => {
  it('expires a job active longer than its TimeToLive: abort, ended as expired, group freed', () => {
    const sim = new Sim([{ name: 'A', ttlMs: 60_000 }], 2);
    sim.submit('j1:A', 'j2:A');
    sim.clock.advance(60_000);
    expect(sim.aborts).toEqual([{ job: 'j1', worker: 0 }]);
    expect(sim.endings()).toEqual(['j1:expired']);
    expect(sim.activeNames()).toEqual(['j2']);
    expect(sim.started[1]).toEqual({ job: 'j2', worker: 1 });
  });

  it('keeps the worker of an expired job unavailable until the worker lets go of the request', () => {
    const sim = new Sim([{ name: 'A', ttlMs: 1_000, threshold: 5 }], 1);
    sim.submit('j1:A', 'j2:A');
    sim.clock.advance(1_000);
    expect(sim.scheduler.workerStateOf(0)).toBe('draining');
    expect(sim.startedNames()).toEqual(['j1']);
    expect(sim.scheduler.complete(sim.job('j1'), 1)).toBeUndefined();
    expect(sim.startedNames()).toEqual(['j1', 'j2']);
    expect(sim.endings()).toEqual(['j1:expired']);
  });

  it('frees the worker at once when the request was withdrawn before the worker took it', () => {
    const sim = new Sim([{ name: 'A', ttlMs: 1_000, threshold: 5 }], 1);
    sim.abortWithdraws = true;
    sim.submit('j1:A', 'j2:A');
    sim.clock.advance(1_000);
    expect(sim.startedNames()).toEqual(['j1', 'j2']);
  });

  it('releases the key of an expired job to its waiting duplicate', () => {
    const sim = new Sim([{ name: 'A', ttlMs: 1_000, threshold: 5 }], 2);
    sim.submit('j1:A:K', 'j2:A:K');
    sim.clock.advance(1_000);
    expect(sim.activeNames()).toEqual(['j2']);
  });

  it('does not expire a job that completed in time', () => {
    const sim = new Sim([{ name: 'A', ttlMs: 1_000 }], 1);
    sim.submit('j1:A');
    sim.clock.advance(999);
    sim.complete('j1');
    sim.clock.advance(10_000);
    expect(sim.endings()).toEqual(['j1:completed']);
  });
});

describe('JobScheduler: worker failure', () => {
  it('redispatches a job whose worker failed, ahead of later arrivals', () => {
    const sim = new Sim([{ name: 'A', threshold: 1 }], 1);
    sim.submit('j1:A', 'j2:A');
    sim.fail('j1');
    expect(sim.startedNames()).toEqual(['j1', 'j1']);
    expect(sim.events.map((e) => e.type)).toEqual(['scheduled', 'redispatched', 'scheduled']);
  });

  it('reports the job as failed once it used up MaxDispatch', () => {
    const sim = new Sim([{ name: 'A', maxDispatch: 2 }], 1);
    sim.submit('j1:A');
    sim.fail('j1');
    sim.fail('j1');
    expect(sim.startedNames()).toEqual(['j1', 'j1']);
    expect(sim.endings()).toEqual(['j1:failed']);
  });

  it('reports the job as failed at once with the report policy', () => {
    const sim = new Sim([{ name: 'A', failedJobs: 'report' }], 1);
    sim.submit('j1:A');
    sim.fail('j1');
    expect(sim.endings()).toEqual(['j1:failed']);
    expect(sim.scheduler.workerStateOf(0)).toBe('free');
  });

  it('keeps the key of a redispatched job so its duplicate still waits', () => {
    const sim = new Sim([{ name: 'A', threshold: 5 }], 2);
    sim.submit('j1:A:K', 'j2:A:K');
    sim.fail('j1');
    expect(sim.activeNames()).toEqual(['j1']);
    expect(sim.job('j2').state).toBe('deferred');
  });
});

describe('JobScheduler: routing and back pressure', () => {
  it('answers bypass for a bypass ruleset and keeps nothing', () => {
    const sim = new Sim([{ name: 'nohit', bypass: true }, { name: 'A' }], 1);
    expect(sim.scheduler.submit({ name: 'x', group: 'nohit' })).toEqual({ kind: 'bypass', group: 0 });
    expect(sim.scheduler.size).toBe(0);
  });

  it('keeps every job pending while all workers are busy', () => {
    const sim = new Sim([{ name: 'A', threshold: 9 }], 2);
    sim.submit('j1:A', 'j2:A', 'j3:A', 'j4:A');
    expect(sim.activeNames()).toEqual(['j1', 'j2']);
    expect(sim.scheduler.snapshot().groups[0]).toMatchObject({ active: 2, pending: 2 });
  });

  it('leaves the job pending when its worker refuses it and dispatches it when the worker is ready', () => {
    const sim = new Sim([{ name: 'A' }], 1);
    sim.refusing.add(0);
    sim.submit('j1:A');
    expect(sim.scheduler.workerStateOf(0)).toBe('blocked');
    expect(sim.job('j1').state).toBe('pending');
    sim.refusing.clear();
    sim.scheduler.workerReady(0);
    expect(sim.startedNames()).toEqual(['j1']);
    expect(sim.job('j1').dispatches).toBe(1);
  });

  it('lists pending and deferred jobs per group in arrival order', () => {
    const sim = new Sim([{ name: 'A' }, { name: 'B' }], 1);
    sim.submit('a1:A:K', 'a2:A', 'b1:B:K', 'a3:A');
    expect(sim.scheduler.snapshot().waiting.map((j) => `${j.payload.name}:${j.state}`)).toEqual(['a2:pending', 'a3:pending', 'b1:deferred']);
  });
});
