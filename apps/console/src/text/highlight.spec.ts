import { highlight, languageOf, type Token } from './highlight.js';

const kinds = (tokens: Token[]) => tokens.filter((t) => t.text.trim()).map((t) => `${t.kind}:${t.text.trim()}`);

describe('highlight', () => {
  const bell = [
    'from qiskit import QuantumCircuit',
    '',
    '# Bell state',
    'qc = QuantumCircuit(2, 2)',
    'qc.h(0)',
    "qc.measure([0, 1], [0, 1])  # 'counts'",
    's = """multi',
    'line"""',
    'x = 1.5e-3 + 0x1F + 2j',
  ].join('\n');

  it('gives Python source back unchanged, token by token', () => {
    expect(
      highlight(bell, 'python')
        .map((t) => t.text)
        .join(''),
    ).toBe(bell);
  });

  it('marks Python keywords, calls, comments, strings and numbers', () => {
    const k = kinds(highlight(bell, 'python'));
    expect(k).toEqual(expect.arrayContaining(['keyword:from', 'keyword:import', 'comment:# Bell state', 'function:QuantumCircuit', 'function:h']));
    expect(k).toEqual(expect.arrayContaining(["comment:# 'counts'", 'string:"""multi\nline"""', 'number:1.5e-3', 'number:0x1F', 'number:2j']));
    expect(k).not.toContain('keyword:qc');
  });

  it('marks OpenQASM keywords, gates, comments and numbers', () => {
    const qasm =
      'OPENQASM 2.0;\ninclude "qelib1.inc";\n/* two\nqubits */ qreg q[2];\ncreg c[2];\nh q[0];\ncx q[0],q[1];\nrz(pi/2) q[1]; // phase\nmeasure q -> c;';
    const tokens = highlight(qasm, 'qasm');
    expect(tokens.map((t) => t.text).join('')).toBe(qasm);
    expect(kinds(tokens)).toEqual(
      expect.arrayContaining([
        'keyword:OPENQASM',
        'number:2.0',
        'string:"qelib1.inc"',
        'comment:/* two\nqubits */',
        'keyword:qreg',
        'builtin:h',
        'builtin:cx',
        'builtin:pi',
        'comment:// phase',
        'keyword:measure',
      ]),
    );
  });

  it('survives an unterminated string or comment (code still streaming in)', () => {
    for (const [src, lang] of [
      ['print("half', 'python'],
      ["s = '''open", 'python'],
      ['/* open', 'qasm'],
    ] as const) {
      expect(
        highlight(src, lang)
          .map((t) => t.text)
          .join(''),
      ).toBe(src);
    }
  });
});

describe('languageOf', () => {
  it('reads the fence info string, else the source', () => {
    expect(languageOf('python', '')).toBe('python');
    expect(languageOf('qasm', '')).toBe('qasm');
    expect(languageOf('OpenQASM3 title', '')).toBe('qasm');
    expect(languageOf('json', '{}')).toBe('plain');
    expect(languageOf('', 'OPENQASM 3.0;\nqubit q;')).toBe('qasm');
    expect(languageOf('', 'import cirq\n')).toBe('python');
    expect(languageOf('', 'hello')).toBe('plain');
  });
});
