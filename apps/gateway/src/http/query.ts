import { invalid } from './api-errors.js';

/** Parses an optional integer query parameter with bounds; 422 (FastAPI-style) otherwise. */
export function intQuery(raw: unknown, name: string, fallback: number, min: number, max: number): number {
  if (raw === undefined || raw === '') return fallback;
  const text = String(raw);
  if (!/^-?\d+$/.test(text)) throw invalid(['query', name], `expected an integer; got '${text}'`, 'int_parsing');
  const value = Number(text);
  if (value < min) throw invalid(['query', name], `expected ${name} ≥ ${min}; got ${value}`, 'greater_than_equal');
  if (value > max) throw invalid(['query', name], `expected ${name} ≤ ${max}; got ${value}`, 'less_than_equal');
  return value;
}

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})?$/;

/**
 * An inclusive date bound: a date means the whole day (UTC), a date-time means that instant
 * (UTC unless it carries an offset).
 */
export function dateBoundQuery(raw: unknown, name: string, bound: 'start' | 'end'): string | undefined {
  if (raw === undefined || raw === '') return undefined;
  const text = String(raw);
  // JavaScript rolls 2026-02-30 over to 2026-03-02; a calendar date that does not exist is an error.
  const [year, month, day] = text.slice(0, 10).split('-').map(Number);
  if (/^\d{4}-\d{2}-\d{2}/.test(text) && !isCalendarDate(year, month, day)) {
    throw invalid(['query', name], `not a valid date: '${text}' (${text.slice(0, 10)} does not exist)`, 'datetime_parsing');
  }
  let date: Date;
  if (DATE_ONLY.test(text)) {
    date = new Date(`${text}T00:00:00.000Z`);
    if (!Number.isNaN(date.getTime()) && bound === 'end') date = new Date(date.getTime() + 86_400_000 - 1);
  } else if (DATE_TIME.test(text)) {
    const withZone = /(Z|[+-]\d{2}:?\d{2})$/.test(text) ? text : `${text}Z`;
    date = new Date(withZone.replace(' ', 'T'));
  } else {
    throw invalid(['query', name], `expected an ISO date (2026-01-31) or date-time (2026-01-31T12:00:00Z); got '${text}'`, 'datetime_parsing');
  }
  if (Number.isNaN(date.getTime())) throw invalid(['query', name], `not a valid date: '${text}'`, 'datetime_parsing');
  return date.toISOString();
}

function isCalendarDate(year: number, month: number, day: number): boolean {
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

/** `true/false/1/0` (any case), as the SPEC allows for form booleans. */
export function boolField(raw: string | undefined, loc: (string | number)[]): boolean {
  if (raw === undefined || raw === '') return false;
  const text = raw.trim().toLowerCase();
  if (text === 'true' || text === '1') return true;
  if (text === 'false' || text === '0') return false;
  throw invalid(loc, `expected a boolean (true, false, 1 or 0); got '${raw}'`, 'bool_parsing');
}
