/**
 * The indices a model's output points at in a 1-D trace (`peak_indices`, `dip_indices`, `cut_off_index`,
 * `threshold_index`, …): any field named `*_index` (a number) or `*_indices` (numbers), drawn as markers.
 */
export function markerIndices(output: Record<string, unknown>): number[] {
  const out: number[] = [];
  for (const [key, value] of Object.entries(output)) {
    if (key.endsWith('_index') && typeof value === 'number' && Number.isFinite(value)) out.push(value);
    else if (key.endsWith('_indices') && Array.isArray(value)) for (const v of value) if (typeof v === 'number' && Number.isFinite(v)) out.push(v);
  }
  return out;
}
