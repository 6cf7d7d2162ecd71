// The model catalogue: every family's entries, in listing order (GET /models). Convention: an id's entry (spec, run,
// plot) lives in its family folder's `*.entries.ts` next to the model; the family's index.ts exports one
// `<FAMILY>_ENTRIES` list; a new family is registered by adding that list to FAMILIES below, nowhere else.
import { ModelInputError } from './model-input-error.js';
import type { LengthRule, ModelEntry, ModelSpec, TraceModelEntry } from './model-entry.js';
import { COULOMB_PEAK_ENTRIES } from './coulomb-peaks/index.js';
import { RESONATOR_ENTRIES } from './resonators/index.js';
import { ONE_D_ENTRIES } from './one-d/index.js';
import { CHARGE_STABILITY_ENTRIES } from './charge-stability/index.js';
import { COULOMB_DIAMOND_ENTRIES } from './coulomb-diamonds/index.js';
import { ANTICROSSING_ENTRIES } from './anticrossings/index.js';
import { ELECTRON_UNLOADING_ENTRIES } from './electron-unloading/index.js';
import { DECODING_ENTRIES } from './decoding/index.js';

const FAMILIES: readonly (readonly ModelEntry[])[] = [
  COULOMB_PEAK_ENTRIES,
  RESONATOR_ENTRIES,
  ONE_D_ENTRIES,
  CHARGE_STABILITY_ENTRIES,
  COULOMB_DIAMOND_ENTRIES,
  ANTICROSSING_ENTRIES,
  ELECTRON_UNLOADING_ENTRIES,
  DECODING_ENTRIES,
];

const ENTRIES: readonly ModelEntry[] = FAMILIES.flat();

const BY_ID = new Map<string, ModelEntry>();
for (const entry of ENTRIES) {
  if (BY_ID.has(entry.spec.id)) throw new Error(`model catalogue: two entries for ${entry.spec.id}`);
  BY_ID.set(entry.spec.id, entry);
}

export const MODEL_CATALOGUE: readonly ModelSpec[] = ENTRIES.map((e) => e.spec);

export function findModel(id: string): ModelSpec | undefined {
  return BY_ID.get(id)?.spec;
}

export function modelEntry(id: string): ModelEntry {
  const entry = BY_ID.get(id);
  if (!entry) throw new ModelInputError(`expected a known model id; got ${JSON.stringify(id)}`);
  return entry;
}

function lengthExpectation(rule: LengthRule): string {
  return rule.anyLength ? `of length ≥ ${rule.min}` : `of length ${rule.nominal}`;
}

export function checkTraceLength(entry: TraceModelEntry, length: number, shape: readonly number[]): void {
  const rule = entry.lengths;
  const ok = rule.anyLength ? length >= rule.min : length === rule.nominal;
  if (!ok) throw new ModelInputError(`expected a 1-D trace ${lengthExpectation(rule)}; got shape [${shape.join(', ')}]`);
}

export function describeExpectedTrace(entry: TraceModelEntry): string {
  return `a 1-D trace ${lengthExpectation(entry.lengths)}`;
}
