import { answerBlocks, inlineSpans, proseBlocks } from './assistant-markdown.js';

describe('answerBlocks', () => {
  it('splits an answer into prose and closed code blocks', () => {
    const answer = 'A Bell state:\n\n```python\nfrom qiskit import QuantumCircuit\nqc = QuantumCircuit(2)\n```\n\nIt is entangled.';
    expect(answerBlocks(answer)).toEqual([
      { type: 'text', text: 'A Bell state:' },
      { type: 'code', info: 'python', code: 'from qiskit import QuantumCircuit\nqc = QuantumCircuit(2)', closed: true },
      { type: 'text', text: 'It is entangled.' },
    ]);
  });

  it('shows a fence that is still streaming as an open code block', () => {
    expect(answerBlocks('Here:\n```qasm\nOPENQASM 2.0;\nqreg')).toEqual([
      { type: 'text', text: 'Here:' },
      { type: 'code', info: 'qasm', code: 'OPENQASM 2.0;\nqreg', closed: false },
    ]);
  });

  it('closes a fence only with the same marker, at least as long', () => {
    const blocks = answerBlocks('````\n```\ninner\n```\n````\nafter');
    expect(blocks).toEqual([
      { type: 'code', info: '', code: '```\ninner\n```', closed: true },
      { type: 'text', text: 'after' },
    ]);
  });

  it('keeps inline triple backticks as prose', () => {
    expect(answerBlocks('use ```x``` here')).toEqual([{ type: 'text', text: 'use ```x``` here' }]);
  });
});

describe('proseBlocks and inlineSpans', () => {
  it('reads paragraphs, lists and headings', () => {
    expect(proseBlocks('## Result\n\n- one\n- two\n\n1. a\n2) b\n\nplain\ntext')).toEqual([
      { type: 'heading', text: 'Result' },
      { type: 'list', ordered: false, items: ['one', 'two'] },
      { type: 'list', ordered: true, items: ['a', 'b'] },
      { type: 'paragraph', text: 'plain\ntext' },
    ]);
  });

  it('reads inline code and bold', () => {
    expect(inlineSpans('run `qc.h(0)` **now**!')).toEqual([
      { type: 'text', text: 'run ' },
      { type: 'code', text: 'qc.h(0)' },
      { type: 'text', text: ' ' },
      { type: 'strong', text: 'now' },
      { type: 'text', text: '!' },
    ]);
  });
});
