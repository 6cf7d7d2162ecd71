/** How the console writes numbers, sizes, money and times. */

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const units = ['KiB', 'MiB', 'GiB'];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value.toFixed(value < 10 ? 1 : 0)} ${units[unit]}`;
}

/** Cents as dollars: 1234 → "$12.34"; fractions of a cent keep up to four decimals. */
export function formatCents(cents: number | null | undefined): string {
  if (cents === null || cents === undefined) return '—';
  const dollars = cents / 100;
  const digits = Math.abs(cents - Math.round(cents)) > 1e-9 ? 4 : 2;
  return `$${dollars.toFixed(digits)}`;
}

/** A UTC timestamp in the reader's locale and time zone (the ISO text stays available as the element's dateTime). */
export function formatTime(iso: string | undefined): string {
  if (!iso) return '—';
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : date.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'medium' });
}

/** A short, readable rendering of one output value: scalars as they are, arrays by their first items and length. */
export function formatValue(value: unknown, maxItems = 8): string {
  if (value === null || value === undefined) return String(value);
  if (typeof value === 'number') return Number.isInteger(value) ? String(value) : value.toPrecision(6).replace(/\.?0+(e|$)/, '$1');
  if (typeof value === 'string' || typeof value === 'boolean') return String(value);
  if (Array.isArray(value)) {
    const shown = value.slice(0, maxItems).map((v) => (Array.isArray(v) || (typeof v === 'object' && v !== null) ? JSON.stringify(v) : formatValue(v)));
    return `[${shown.join(', ')}${value.length > maxItems ? `, … (${value.length} items)` : ''}]`;
  }
  const entries = Object.entries(value as Record<string, unknown>);
  const shown = entries.slice(0, maxItems).map(([key, v]) => `${key}: ${typeof v === 'object' && v !== null ? '…' : formatValue(v)}`);
  return `{${shown.join(', ')}${entries.length > maxItems ? ', …' : ''}}`;
}

/** A model output without its plot (a data: URL that is shown as an image, not as text). */
export function outputFields(output: Record<string, unknown>): [string, unknown][] {
  return Object.entries(output).filter(([key]) => key !== 'plot');
}

/** One line summing up an output: its first fields. */
export function outputSummary(output: Record<string, unknown>, fields = 3): string {
  const entries = outputFields(output);
  if (entries.length === 0) return '—';
  return entries
    .slice(0, fields)
    .map(([key, value]) => `${key}: ${formatValue(value, 4)}`)
    .join('; ');
}
