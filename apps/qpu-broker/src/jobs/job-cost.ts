import type { QpuPricing } from '#qdc/contracts';

/**
 * Price of a job from its device's pricing: per_task_cents + shots × per_shot_cents, rounded up to
 * whole cents (prices may have fractions of a cent per shot; charges are whole cents). The product is
 * rounded to micro-cents first so that 0.1 × 30 is 3, not 3.0000000000000004 → 4.
 */
export function estimateCostCents(pricing: QpuPricing, shots: number): number {
  const exact = Math.round((pricing.per_task_cents + shots * pricing.per_shot_cents) * 1e6) / 1e6;
  return Math.ceil(exact);
}

/** What an owner has left: budget − spent − reserved (estimates of queued and running jobs); null = unlimited. */
export function remainingCents(budget: { budgetCents: number | null; spentCents: number; reservedCents: number }): number | null {
  if (budget.budgetCents === null) return null;
  return budget.budgetCents - budget.spentCents - budget.reservedCents;
}
