import { CircuitError } from '../errors.js';
import { evalExpr } from '../ir/expr.js';
import { expandCircuit, type GateOp } from '../ir/circuit.js';
import { circuitUnitary, equalUnitaries, equivalentUpToGlobalPhase } from '../simulator/unitary.js';
import { simulate } from '../simulator/simulate.js';
import { parseQasm } from './qasm.parser.js';

const q2 = (body: string) => parseQasm(`OPENQASM 2.0;\ninclude "qelib1.inc";\n${body}`).circuit;
const q3 = (body: string) => parseQasm(`OPENQASM 3.0;\ninclude "stdgates.inc";\n${body}`).circuit;
const gates = (ops: unknown[]) =>
  (ops as GateOp[])
    .filter((o) => o.kind === 'gate')
    .map((o) => `${o.name}${o.params.length ? `(${o.params.map((p) => +evalExpr(p).toFixed(6)).join(',')})` : ''} ${o.qubits.join(',')}`);

function errorOf(fn: () => unknown): CircuitError {
  try {
    fn();
  } catch (error) {
    if (error instanceof CircuitError) return error;
    throw error;
  }
  throw new Error('expected a CircuitError');
}

describe('parseQasm (OpenQASM 2)', () => {
  it('reads registers, qelib1 gates, parameters with pi arithmetic and measurement', () => {
    const c = q2('qreg q[2]; qreg r[1]; creg c[3];\nh q[0];\nrx(pi/2) r[0];\nu3(-pi, 2*pi/3, 0.5e-1) q[1];\ncx q[0], r[0];\nmeasure q[0] -> c[2];');
    expect(c.numQubits).toBe(3);
    expect(c.cregs).toEqual([{ name: 'c', size: 3, offset: 0 }]);
    expect(gates(c.ops)).toEqual(['h 0', 'rx(1.570796) 2', 'u3(-3.141593,2.094395,0.05) 1', 'cx 0,2']);
    expect(c.ops.at(-1)).toMatchObject({ kind: 'measure', qubit: 0, clbit: 2, line: 8 });
  });

  it('evaluates every expression form', () => {
    const c = q2('qreg q[1]; rz(-(1+2)*3/4^2 + sin(pi/2) + cos(0) + tan(0) + exp(0) + ln(1) + sqrt(4)) q[0];');
    expect(evalExpr((c.ops[0] as GateOp).params[0])).toBeCloseTo(-9 / 16 + 1 + 1 + 0 + 1 + 0 + 2);
  });

  it('broadcasts gates, measure and reset over registers', () => {
    const c = q2('qreg a[2]; qreg b[2]; creg c[2]; h a; cx a, b; cx a[0], b; measure b -> c; reset a;');
    expect(gates(c.ops)).toEqual(['h 0', 'h 1', 'cx 0,2', 'cx 1,3', 'cx 0,2', 'cx 0,3']);
    expect(c.ops.filter((o) => o.kind === 'measure')).toHaveLength(2);
    expect(c.ops.filter((o) => o.kind === 'reset')).toHaveLength(2);
  });

  it('keeps gate definitions and expands them, with parameters bound symbolically', () => {
    const c = q2('gate rot(theta, phi) a, b { rz(theta/2) a; cx a, b; ry(phi) b; }\nqreg q[2];\nrot(pi, 0.25) q[0], q[1];');
    expect(c.definitions.get('rot')).toMatchObject({ params: ['theta', 'phi'], qubits: 2 });
    expect(gates(expandCircuit(c).ops)).toEqual(['rz(1.570796) 0', 'cx 0,1', 'ry(0.25) 1']);
  });

  it('accepts opaque gates but refuses to expand them', () => {
    const c = q2('opaque magic(a) x, y; qreg q[2]; magic(0.1) q[0], q[1];');
    expect(c.definitions.get('magic')?.body).toBeNull();
    expect(() => expandCircuit(c)).toThrow(/opaque gate magic/);
  });

  it('conditions an operation on a whole register', () => {
    const c = q2('qreg q[1]; creg c[2]; if (c==2) x q[0];');
    expect(c.ops[0]).toMatchObject({ name: 'x', condition: { clbits: [0, 1], value: 2 } });
  });

  it('defines qelib1 relative-phase Toffolis', () => {
    const c = q2('qreg q[3]; x q[0]; x q[1]; rccx q[0],q[1],q[2]; creg c[3]; measure q -> c;');
    expect(simulate(c, { shots: 10, seed: 1 }).counts).toEqual({ '111': 10 });
  });

  it('supports the U and CX built-ins without an include', () => {
    const c = parseQasm('OPENQASM 2.0; qreg q[2]; U(pi,0,pi) q[0]; CX q[0],q[1];').circuit;
    expect(gates(c.ops)).toEqual(['u(3.141593,0,3.141593) 0', 'cx 0,1']);
  });

  it.each([
    ['qreg q[1]; h q[0]', /line 3: expected ';'/],
    ['qreg q[1];\nfoo q[0];', /line 4: unknown gate or statement 'foo'/],
    ['qreg q[2]; cx q[0];', /takes 2 qubit argument\(s\); got 1/],
    ['qreg q[1]; rx q[0];', /takes 1 parameter\(s\); got 0/],
    ['qreg q[2]; h q[2];', /index 2 is out of range for q\[2\]/],
    ['qreg q[2]; cx q[0], q[0];', /same qubit more than once/],
    ['qreg a[2]; qreg b[3]; cx a, b;', /different sizes/],
    ['qreg q[1]; creg c[1]; measure q[0] -> d[0];', /unknown classical register 'd'/],
    ['qreg q[1]; qreg q[2];', /already declared/],
    ['include "other.inc";', /unsupported construct `include "other.inc"`/],
    ['qreg q[1]; ctrl @ x q[0];', /OpenQASM 3/],
    ['qreg q[1]; rx(theta) q[0];', /unknown identifier 'theta'/],
    ['gate g a { measure a -> c[0]; }', /not allowed inside a gate definition/],
    ['qreg q[1]; h q[0]; ?', /unexpected character '\?'/],
  ])('reports %s precisely', (body, message) => {
    expect(errorOf(() => q2(body)).message).toMatch(message);
  });

  it('names the missing include for standard gates', () => {
    expect(() => parseQasm('OPENQASM 2.0;\nqreg q[1];\nh q[0];')).toThrow(/line 3: unknown gate or statement 'h' \(it is in qelib1.inc/);
  });
});

describe('parseQasm (OpenQASM 3)', () => {
  it('reads new- and old-style declarations, constants and measurement assignment forms', () => {
    const c = q3(
      'const int n = 3;\nconst float theta = pi / 4;\nqubit[n] q;\nqubit a;\nbit[n] c;\nbit b;\nqreg old[1];\ncreg oc[1];\nrx(theta) q[0];\nh a;\nc[0] = measure q[0];\nc[1:2] = measure q[1:2];\nb = measure a;\nmeasure old[0] -> oc[0];\nbit d = measure q[2];',
    );
    expect(c.numQubits).toBe(5);
    expect(c.numClbits).toBe(6);
    const measures = c.ops.filter((o) => o.kind === 'measure').map((o) => (o.kind === 'measure' ? `${o.qubit}->${o.clbit}` : ''));
    expect(measures).toEqual(['0->0', '1->1', '2->2', '3->3', '4->4', '2->5']);
  });

  it('unrolls constant for loops over ranges and sets', () => {
    const c = q3('qubit[4] q;\nfor int i in [0:2] { cx q[i], q[i+1]; }\nfor uint k in {0, 3} h q[k];\nfor i in [3:-2:0] x q[i];');
    expect(gates(c.ops)).toEqual(['cx 0,1', 'cx 1,2', 'cx 2,3', 'h 0', 'h 3', 'x 3', 'x 1']);
  });

  it('applies ctrl @, negctrl @, inv @ and pow(k) @ modifiers with the right unitary', () => {
    const cases: [string, string][] = [
      ['ctrl @ x q[0], q[1];', 'cx q[0], q[1];'],
      ['ctrl(2) @ x q[0], q[1], q[2];', 'ccx q[0], q[1], q[2];'],
      ['ctrl @ rz(0.3) q[1], q[0];', 'crz(0.3) q[1], q[0];'],
      ['negctrl @ x q[0], q[1];', 'x q[0]; cx q[0], q[1]; x q[0];'],
      ['inv @ s q[0];', 'sdg q[0];'],
      ['inv @ U(0.1, 0.2, 0.3) q[0];', 'U(-0.1, -0.3, -0.2) q[0];'],
      ['pow(2) @ s q[0];', 'z q[0];'],
      ['pow(-1) @ t q[0];', 'tdg q[0];'],
      ['ctrl @ inv @ s q[0], q[1];', 'cp(-pi/2) q[0], q[1];'],
      ['ctrl @ h q[2], q[0];', 'ch q[2], q[0];'],
      ['ctrl @ gphase(0.5) q[0];', 'p(0.5) q[0];'],
      ['ctrl(2) @ sx q[0], q[1], q[2];', 'h q[2]; ctrl @ cp(pi/2) q[0], q[1], q[2]; h q[2];'],
    ];
    for (const [modified, reference] of cases) {
      const a = circuitUnitary(q3(`qubit[3] q;\n${modified}`));
      const b = circuitUnitary(q3(`qubit[3] q;\n${reference}`));
      expect([modified, equalUnitaries(a, b) || equivalentUpToGlobalPhase(a, b)]).toEqual([modified, true]);
    }
  });

  it('inverts and controls custom gates', () => {
    const c = q3('gate mine(t) a, b { h a; ctrl @ rx(t) a, b; s b; }\nqubit[3] q;\nmine(0.4) q[0], q[1];\ninv @ mine(0.4) q[0], q[1];');
    const identity = circuitUnitary(q3('qubit[3] q;'));
    expect(equalUnitaries(circuitUnitary(c), identity)).toBe(true);
    const controlled = q3(
      'gate mine(t) a, b { h a; ctrl @ rx(t) a, b; s b; }\nqubit[3] q;\nx q[2];\nctrl @ mine(0.4) q[2], q[0], q[1];\nx q[2];\nctrl @ mine(0.4) q[2], q[0], q[1];',
    );
    expect(simulate(controlled, { method: 'statevector', shots: 1, seed: 1 }).statevector!.length).toBe(8);
  });

  it('conditions statements and blocks on bits and registers, with else on a bit', () => {
    const c = q3(
      'qubit[2] q; bit[2] c;\nc[0] = measure q[0];\nif (c[0]) x q[1];\nif (c == 3) { h q[0]; h q[1]; }\nif (c[1] == 0) { z q[0]; } else { y q[0]; }\nif (!c[0]) x q[0];',
    );
    const conds = c.ops.filter((o) => o.kind === 'gate').map((o) => (o as GateOp).condition);
    expect(conds).toEqual([
      { clbits: [0], value: 1 },
      { clbits: [0, 1], value: 3 },
      { clbits: [0, 1], value: 3 },
      { clbits: [1], value: 0 },
      { clbits: [1], value: 1 },
      { clbits: [0], value: 0 },
    ]);
  });

  it('accepts gphase, barrier without arguments, reset and pragmas', () => {
    const c = q3('#pragma anything here\nqubit[2] q;\ngphase(pi);\nbarrier;\nreset q;\nbarrier q[0], q[1];');
    expect(c.ops.map((o) => o.kind)).toEqual(['gate', 'barrier', 'reset', 'reset', 'barrier']);
  });

  it.each([
    ['qubit[2] q;\nwhile (true) { h q[0]; }', /line 4: unsupported construct `while`/],
    ['def f() {}', /unsupported construct `def`/],
    ['input float theta;', /line 3: input theta has no value: simulation needs numbers/],
    ['qubit q; pow(0.5) @ x q;', /unsupported construct `pow\(0.5\) @`: only integer powers/],
    ['int n = 2; n = 3;', /unsupported construct `n = …`/],
    ['qubit[2] q; h q[0] q[1];', /expected ';'/],
    ['qubit[1] q; bit[2] c; c = measure q;', /sizes must match/],
    ['qubit q; h q[0];', /single qubit and cannot be indexed/],
    ['qubit q; for i in q { h q; }', /unsupported construct `for … in`/],
    ['qubit q; x q; /* open', /unterminated/],
  ])('reports %s precisely', (body, message) => {
    expect(errorOf(() => q3(body)).message).toMatch(message);
  });

  it('refuses unknown versions', () => {
    expect(() => parseQasm('OPENQASM 4.0;')).toThrow(/version 4.0 is not supported/);
  });
});
