import { FenceGate, REPAIR_ROUNDS } from './llm.engine.js';

describe(FenceGate.name, () => {
  function factory() {
    const passed: string[] = [];
    return { sut: new FenceGate((t) => passed.push(t)), passed };
  }

  it('passes prose through and holds everything from the first fence on', () => {
    const { sut, passed } = factory();
    for (const chunk of ['Here is ', 'the circuit:\n`', '``python\nqc.h(0)\n', '```\nDone.']) sut.push(chunk);
    expect(passed.join('')).toBe('Here is the circuit:\n');
    expect(sut.held()).toBe('```python\nqc.h(0)\n```\nDone.');
  });

  it('does not hold single backticks of inline code', () => {
    const { sut, passed } = factory();
    sut.push('Use `qc.h(0)` then ');
    sut.push('measure.');
    expect(passed.join('')).toBe('Use `qc.h(0)` then measure.');
    expect(sut.held()).toBe('');
  });
});

describe('REPAIR_ROUNDS', () => {
  it('follows the budget: low 0, medium 1, high up to 3', () => {
    expect(REPAIR_ROUNDS).toEqual({ low: 0, medium: 1, high: 3 });
  });
});
