import { parseQasm } from '../frontends/qasm.parser.js';
import { estimateResources } from './resources.js';

describe(estimateResources.name, () => {
  it('counts a GHZ circuit like Qiskit does', () => {
    const c = parseQasm(
      'OPENQASM 2.0;\ninclude "qelib1.inc";\nqreg q[3];\ncreg c[3];\nh q[0];\ncx q[0],q[1];\ncx q[1],q[2];\nt q[2];\ntdg q[0];\nbarrier q;\nmeasure q -> c;',
    ).circuit;
    expect(estimateResources(c)).toEqual({
      qubitCount: 3,
      clbitCount: 3,
      depth: 5,
      gateCounts: { h: 1, cx: 2, t: 1, tdg: 1, barrier: 1, measure: 3 },
      gateCount: 5,
      twoQubitGateCount: 2,
      multiQubitGateCount: 0,
      tCount: 2,
      measurementCount: 3,
      resetCount: 0,
    });
  });

  it('inlines custom gates and counts conditions on clbit wires', () => {
    const c = parseQasm(
      'OPENQASM 2.0;\ninclude "qelib1.inc";\ngate g a,b { h a; ccx a,b,b; }\nqreg q[3];\ncreg c[1];\nmeasure q[0] -> c[0];\nif (c==1) ccx q[0],q[1],q[2];\nif (c==1) x q[2];'.replace(
        'ccx a,b,b;',
        'cx a,b;',
      ),
    ).circuit;
    const r = estimateResources(c);
    expect(r.gateCounts).toEqual({ measure: 1, ccx: 1, x: 1 });
    expect(r.depth).toBe(3);
    expect(r.multiQubitGateCount).toBe(1);
  });
});
