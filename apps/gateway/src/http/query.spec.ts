import { ValidationFailed } from './api-errors.js';
import { boolField, dateBoundQuery, intQuery } from './query.js';

const issue = (fn: () => unknown) => {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(ValidationFailed);
    return (error as ValidationFailed).issues[0]!;
  }
  throw new Error('expected a validation error');
};

describe('query parsing', () => {
  it('parses bounded integers with FastAPI-style errors', () => {
    expect(intQuery(undefined, 'limit', 100, 1, 1000)).toBe(100);
    expect(intQuery('7', 'limit', 100, 1, 1000)).toBe(7);
    expect(issue(() => intQuery('0', 'limit', 100, 1, 1000))).toEqual({
      loc: ['query', 'limit'],
      msg: 'expected limit ≥ 1; got 0',
      type: 'greater_than_equal',
    });
    expect(issue(() => intQuery('1001', 'limit', 100, 1, 1000)).type).toBe('less_than_equal');
    expect(issue(() => intQuery('1.5', 'skip', 0, 0, 10)).type).toBe('int_parsing');
  });

  it('makes date bounds inclusive: a date covers the whole UTC day', () => {
    expect(dateBoundQuery('2026-03-04', 'start_date', 'start')).toBe('2026-03-04T00:00:00.000Z');
    expect(dateBoundQuery('2026-03-04', 'end_date', 'end')).toBe('2026-03-04T23:59:59.999Z');
    expect(dateBoundQuery('2026-03-04T10:20:30Z', 'end_date', 'end')).toBe('2026-03-04T10:20:30.000Z');
    expect(dateBoundQuery('2026-03-04T10:20:30+02:00', 'start_date', 'start')).toBe('2026-03-04T08:20:30.000Z');
    expect(dateBoundQuery('2026-03-04T10:20', 'start_date', 'start')).toBe('2026-03-04T10:20:00.000Z');
    expect(issue(() => dateBoundQuery('03/04/2026', 'start_date', 'start')).loc).toEqual(['query', 'start_date']);
    expect(issue(() => dateBoundQuery('2026-13-45', 'start_date', 'start')).type).toBe('datetime_parsing');
    expect(issue(() => dateBoundQuery('2026-02-30', 'start_date', 'start'))).toEqual({
      loc: ['query', 'start_date'],
      msg: "not a valid date: '2026-02-30' (2026-02-30 does not exist)",
      type: 'datetime_parsing',
    });
    expect(issue(() => dateBoundQuery('2025-02-29T10:00:00Z', 'end_date', 'end')).type).toBe('datetime_parsing');
    expect(dateBoundQuery('2028-02-29', 'start_date', 'start')).toBe('2028-02-29T00:00:00.000Z');
  });

  it('reads form booleans as true/false/1/0', () => {
    expect([boolField('true', []), boolField('1', []), boolField('TRUE', []), boolField('false', []), boolField('0', []), boolField(undefined, [])]).toEqual([
      true,
      true,
      true,
      false,
      false,
      false,
    ]);
    expect(issue(() => boolField('yes', ['body', 'plot']))).toMatchObject({ loc: ['body', 'plot'], type: 'bool_parsing' });
  });
});
