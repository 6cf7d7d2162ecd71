import { canTransition, isTerminal } from './job-state.js';
import { estimateCostCents, remainingCents } from './job-cost.js';
import { decideSubmission, submissionBodyHash, type SubmissionContext } from './submission-decision.js';

const now = new Date('2026-11-25T12:00:00Z');
const context = (over: Partial<SubmissionContext> = {}): SubmissionContext => ({
  existing: null,
  bodyHash: 'h1',
  now,
  budget: { budgetCents: null, spentCents: 0, reservedCents: 0 },
  estimateCents: 40,
  acceptOverage: false,
  ...over,
});

describe(decideSubmission.name, () => {
  it('creates a job when there is no key and no budget', () => {
    expect(decideSubmission(context())).toEqual({ kind: 'create', replacesExpiredKey: false, charge: { creditsAppliedCents: 40, overageCents: 0 } });
  });

  it('replays the first job for the same key and body within 24 h', () => {
    const existing = { jobId: 'j1', bodyHash: 'h1', createdAt: new Date(now.getTime() - 23 * 3600e3) };
    expect(decideSubmission(context({ existing }))).toEqual({ kind: 'replay', jobId: 'j1' });
  });

  it('refuses the same key with another body (409), even when the budget would refuse too', () => {
    const existing = { jobId: 'j1', bodyHash: 'other', createdAt: now };
    const decision = decideSubmission(context({ existing, budget: { budgetCents: 0, spentCents: 0, reservedCents: 0 } }));
    expect(decision.kind).toBe('conflict');
  });

  it('treats a key older than 24 h as new', () => {
    const existing = { jobId: 'j1', bodyHash: 'other', createdAt: new Date(now.getTime() - 24 * 3600e3 - 1) };
    expect(decideSubmission(context({ existing }))).toMatchObject({ kind: 'create', replacesExpiredKey: true });
  });

  it('refuses an estimate over what is left (budget − spent − reserved) unless overage is accepted', () => {
    const budget = { budgetCents: 100, spentCents: 30, reservedCents: 31 };
    const over = decideSubmission(context({ budget }));
    expect(over).toMatchObject({ kind: 'over-budget', remainingCents: 39 });
    expect((over as { message: string }).message).toMatch(/estimated at 40 cents but the budget has 39 cents left/);
    expect(decideSubmission(context({ budget, acceptOverage: true })).kind).toBe('create');
    expect(decideSubmission(context({ budget: { ...budget, reservedCents: 30 } })).kind).toBe('create');
  });

  it('pays from what is left (credits_applied) and, with accept_overage, the rest as overage', () => {
    const charge = (budget: SubmissionContext['budget'], acceptOverage = false) =>
      (decideSubmission(context({ budget, acceptOverage })) as { charge?: unknown }).charge;
    expect(charge({ budgetCents: 100, spentCents: 30, reservedCents: 30 })).toEqual({ creditsAppliedCents: 40, overageCents: 0 });
    expect(charge({ budgetCents: 100, spentCents: 30, reservedCents: 31 }, true)).toEqual({ creditsAppliedCents: 39, overageCents: 1 });
    // Already over budget (earlier overage): nothing is left to apply.
    expect(charge({ budgetCents: 100, spentCents: 130, reservedCents: 0 }, true)).toEqual({ creditsAppliedCents: 0, overageCents: 40 });
    expect(charge({ budgetCents: null, spentCents: 1e6, reservedCents: 0 })).toEqual({ creditsAppliedCents: 40, overageCents: 0 });
  });
});

describe(submissionBodyHash.name, () => {
  const job = { code: 'OPENQASM 2.0;', backend: 'd', shots: 100, sourceFramework: 'openqasm2' };
  it('is the same for the same normalised body and differs for any field', () => {
    expect(submissionBodyHash(job, false)).toBe(submissionBodyHash({ ...job }, false));
    for (const other of [
      { ...job, shots: 101 },
      { ...job, backend: 'e' },
      { ...job, code: 'x' },
      { ...job, sourceFramework: undefined },
    ]) {
      expect(submissionBodyHash(other, false)).not.toBe(submissionBodyHash(job, false));
    }
    expect(submissionBodyHash(job, true)).not.toBe(submissionBodyHash(job, false));
  });
});

describe('job state machine', () => {
  it('allows exactly the SPEC transitions', () => {
    const all = ['queued', 'running', 'completed', 'failed', 'cancelled'] as const;
    const allowed = all.flatMap((from) => all.filter((to) => canTransition(from, to)).map((to) => `${from}→${to}`));
    expect(allowed).toEqual(['queued→running', 'queued→failed', 'queued→cancelled', 'running→completed', 'running→failed', 'running→cancelled']);
    expect(all.filter(isTerminal)).toEqual(['completed', 'failed', 'cancelled']);
  });
});

describe(estimateCostCents.name, () => {
  it('is per task + shots × per shot, rounded up to whole cents without float noise', () => {
    expect(estimateCostCents({ per_task_cents: 30, per_shot_cents: 0.1 }, 100)).toBe(40);
    expect(estimateCostCents({ per_task_cents: 30, per_shot_cents: 0.1 }, 30)).toBe(33);
    expect(estimateCostCents({ per_task_cents: 30, per_shot_cents: 0.1 }, 33)).toBe(34);
    expect(estimateCostCents({ per_task_cents: 0, per_shot_cents: 0 }, 1000)).toBe(0);
  });

  it('leaves unlimited budgets unlimited', () => {
    expect(remainingCents({ budgetCents: null, spentCents: 5, reservedCents: 5 })).toBeNull();
    expect(remainingCents({ budgetCents: 10, spentCents: 5, reservedCents: 7 })).toBe(-2);
  });
});
