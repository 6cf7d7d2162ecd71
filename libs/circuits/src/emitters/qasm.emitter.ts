/**
 * OpenQASM 2 and 3 source from the IR. Custom gate definitions are kept (bodies lowered to the
 * target's library); standard gates outside qelib1.inc / stdgates.inc become their exact
 * decompositions (OpenQASM 3 keeps controls as `ctrl(n) @`).
 */
import { CircuitError } from '../errors.js';
import { canonicalizeControls, type Circuit, type GateDefinition, type GateOp } from '../ir/circuit.js';
import { QASM2_STYLE, QASM3_STYLE, formatExpr, formatNumber, type FormatStyle } from '../ir/expr.js';
import { STANDARD_GATES } from '../ir/gates.js';
import { QELIB1_GATES, STDGATES } from '../frontends/qasm.parser.js';
import { conditionShape, locate, lowerGate, registerIdentifiers, type Supports } from './lowering.js';
import { expandCircuit } from '../ir/circuit.js';

const QASM2_RESERVED = new Set([
  'qreg',
  'creg',
  'gate',
  'opaque',
  'measure',
  'reset',
  'barrier',
  'if',
  'pi',
  'include',
  'OPENQASM',
  'U',
  'CX',
  'sin',
  'cos',
  'tan',
  'exp',
  'ln',
  'sqrt',
  ...QELIB1_GATES,
]);
const QASM3_RESERVED = new Set([
  ...QASM2_RESERVED,
  'qubit',
  'bit',
  'const',
  'int',
  'uint',
  'float',
  'angle',
  'bool',
  'for',
  'in',
  'while',
  'def',
  'ctrl',
  'negctrl',
  'inv',
  'pow',
  'gphase',
  'else',
  'input',
  'output',
  'let',
  'box',
  'delay',
  'end',
  'return',
  'switch',
  'array',
  'complex',
  'duration',
  'stretch',
  'extern',
  'true',
  'false',
  'tau',
  'euler',
  ...STDGATES,
]);

/** qelib1's gates that the front end defines as custom gates (so they are not redefined). */
const QELIB1_AS_DEFINITIONS = new Set(['rccx', 'rc3x']);

export function emitQasm2(circuit: Circuit): string {
  const qelib = new Set(QELIB1_GATES.filter((g) => STANDARD_GATES.has(g)));
  const supports: Supports = (name, controls) => controls === 0 && qelib.has(name);
  return emit(circuit, 2, supports);
}

export function emitQasm3(circuit: Circuit): string {
  const std = new Set(STDGATES.filter((g) => STANDARD_GATES.has(g)));
  std.add('u').add('gphase');
  const supports: Supports = (name, _controls) => std.has(name);
  return emit(circuit, 3, supports);
}

function emit(source: Circuit, version: 2 | 3, supports: Supports): string {
  const target = version === 2 ? 'OpenQASM 2' : 'OpenQASM 3';
  if (version === 2 && source.inputs?.length)
    throw new CircuitError(
      'unsupported',
      `OpenQASM 2 has no free parameters (${source.inputs.join(', ')}); give their values with entry_point_args, or convert to OpenQASM 3 (input float)`,
    );
  const style: FormatStyle = version === 2 ? QASM2_STYLE : QASM3_STYLE;
  const reserved = version === 2 ? QASM2_RESERVED : QASM3_RESERVED;
  // Controlled custom gates cannot be written in OpenQASM 2: inline them.
  const needsInline = version === 2 && source.ops.some((op) => op.kind === 'gate' && op.controls && !STANDARD_GATES.has(op.name));
  const circuit = needsInline ? expandCircuit(source) : source;
  const defNames = [...circuit.definitions.keys()].filter((n) => !(version === 2 && QELIB1_AS_DEFINITIONS.has(n)));
  const defIds = new Map(defNames.map((n, i) => [n, registerIdentifiers(defNames, reserved)[i]]));
  if (version === 2) for (const n of QELIB1_AS_DEFINITIONS) if (circuit.definitions.has(n)) defIds.set(n, n);
  const usedNames = new Set([...defIds.values()]);
  const qids = registerIdentifiers(
    circuit.qregs.map((r) => r.name),
    new Set([...reserved, ...usedNames]),
  );
  const cids = registerIdentifiers(
    circuit.cregs.map((r) => r.name),
    new Set([...reserved, ...usedNames, ...qids]),
  );
  const qubit = (q: number) => {
    const { reg, index } = locate(circuit.qregs, q);
    return `${qids[reg]}[${index}]`;
  };
  const clbit = (c: number) => {
    const { reg, index } = locate(circuit.cregs, c);
    return `${cids[reg]}[${index}]`;
  };
  const lines: string[] = [version === 2 ? 'OPENQASM 2.0;' : 'OPENQASM 3.0;', version === 2 ? 'include "qelib1.inc";' : 'include "stdgates.inc";'];

  const gateText = (op: GateOp, args: string[]): string[] => {
    const lowered = STANDARD_GATES.has(op.name) ? lowerGate(canonicalizeControls(op), supports, target) : [op];
    return lowered.map((g) => {
      const controls = g.controls ?? 0;
      if (version === 2 && controls) throw new CircuitError('unsupported', `OpenQASM 2 cannot control gate ${g.name}`, g.line);
      const name = g.name === 'u' && version === 3 ? 'U' : (defIds.get(g.name) ?? g.name);
      const params = g.params.length ? `(${g.params.map((p) => formatExpr(p, style)).join(', ')})` : '';
      const modifier = controls ? (controls === 1 ? 'ctrl @ ' : `ctrl(${controls}) @ `) : '';
      const qargs = g.qubits.map((q) => args[q]);
      return g.name === 'gphase' && qargs.length === 0 ? `gphase${params};` : `${modifier}${name}${params} ${qargs.join(', ')};`;
    });
  };

  for (const name of defNames) {
    const def = circuit.definitions.get(name)!;
    lines.push(...definitionText(def, defIds.get(name)!, version, gateText));
  }
  // Free parameters (OpenQASM 3 §"Inputs and outputs"): given values when the program is run.
  for (const name of circuit.inputs ?? []) lines.push(`input float[64] ${name};`);
  for (let r = 0; r < circuit.qregs.length; r++)
    lines.push(version === 2 ? `qreg ${qids[r]}[${circuit.qregs[r].size}];` : `qubit[${circuit.qregs[r].size}] ${qids[r]};`);
  for (let r = 0; r < circuit.cregs.length; r++)
    lines.push(version === 2 ? `creg ${cids[r]}[${circuit.cregs[r].size}];` : `bit[${circuit.cregs[r].size}] ${cids[r]};`);
  if (version === 3 && circuit.globalPhase) lines.push(`gphase(${formatNumber(circuit.globalPhase, style)});`);

  const allQubits = Array.from({ length: circuit.numQubits }, (_, q) => qubit(q));
  for (const op of circuit.ops) {
    let body: string[];
    if (op.kind === 'gate') body = gateText(op, allQubits);
    else if (op.kind === 'measure')
      body = [version === 2 ? `measure ${qubit(op.qubit)} -> ${clbit(op.clbit)};` : `${clbit(op.clbit)} = measure ${qubit(op.qubit)};`];
    else if (op.kind === 'reset') body = [`reset ${qubit(op.qubit)};`];
    else body = op.qubits.length ? [`barrier ${op.qubits.map(qubit).join(', ')};`] : [];
    const condition = op.kind !== 'barrier' ? op.condition : undefined;
    if (!condition) {
      lines.push(...body);
      continue;
    }
    const shape = conditionShape(circuit.cregs, condition.clbits);
    let test: string;
    if (shape.kind === 'register') test = `${cids[shape.reg]} == ${condition.value}`;
    else if (shape.kind === 'bit' && version === 3) test = `${cids[shape.reg]}[${shape.index}] == ${condition.value}`;
    else if (shape.kind === 'bit' && circuit.cregs[shape.reg].size === 1) test = `${cids[shape.reg]} == ${condition.value}`;
    else
      throw new CircuitError(
        'unsupported',
        `${target} cannot condition on ${condition.clbits.length === 1 ? 'one bit of a larger register' : 'part of a register'}`,
        op.line,
      );
    if (version === 2) lines.push(...body.map((b) => `if(${test.replace(' == ', '==')}) ${b}`));
    else lines.push(`if (${test}) { ${body.join(' ')} }`);
  }
  return `${lines.join('\n')}\n`;
}

function definitionText(def: GateDefinition, id: string, version: 2 | 3, gateText: (op: GateOp, args: string[]) => string[]): string[] {
  const args = Array.from({ length: def.qubits }, (_, i) => `a${i}`);
  const params = def.params.length ? `(${def.params.join(', ')})` : '';
  if (!def.body) {
    if (version === 3) throw new CircuitError('unsupported', `OpenQASM 3 has no opaque gates (gate ${def.name})`, def.line);
    return [`opaque ${id}${params} ${args.join(', ')};`];
  }
  const body: string[] = [];
  for (const op of def.body) {
    if (op.kind === 'barrier') body.push(`barrier ${op.qubits.map((q) => args[q]).join(', ')};`);
    else body.push(...gateText(op as GateOp, args));
  }
  return [`gate ${id}${params} ${args.join(', ')} {`, ...body.map((b) => `  ${b}`), '}'];
}
