/**
 * Rewrites standard gates into what a target can express: the gate itself, its base gate with
 * controls (`ch` → controlled `h`), or its exact decomposition, recursively. Global phases that
 * end up uncontrolled are returned separately (targets without `gphase` drop them: every
 * emitter is exact up to global phase, and exact where the target can say it).
 */
import { CircuitError } from '../errors.js';
import { canonicalizeControls, expandCircuit, type Circuit, type GateOp, type Operation } from '../ir/circuit.js';
import { decomposeGate } from '../ir/decompositions.js';
import { evalExpr } from '../ir/expr.js';
import { STANDARD_GATES } from '../ir/gates.js';

/** Whether the target writes gate `name` with `controls` extra controls directly. */
export type Supports = (name: string, controls: number) => boolean;

export function lowerGate(op: GateOp, supports: Supports, target: string, depth = 0): GateOp[] {
  const controls = op.controls ?? 0;
  if (op.name === 'gphase' && controls === 0) return supports('gphase', 0) ? [op] : [];
  if (supports(op.name, controls)) return [op];
  // A controlled global phase (from a controlled custom gate's body) is a phase gate on the controls.
  if (op.name === 'gphase' && controls > 0) return lowerGate(canonicalizeControls(op), supports, target, depth + 1);
  const gate = STANDARD_GATES.get(op.name);
  if (!gate) throw new CircuitError('unsupported', `${target} output: gate ${op.name} is not a standard gate`, op.line);
  if (gate.controls > 0 && gate.baseName && supports(gate.baseName, controls + gate.controls)) {
    return [{ ...op, name: gate.baseName, controls: controls + gate.controls }];
  }
  const steps = depth < 24 ? decomposeGate(op) : undefined;
  if (!steps) throw new CircuitError('unsupported', `${target} cannot express gate ${op.name}${controls ? ` with ${controls} extra control(s)` : ''}`, op.line);
  return steps.map(canonicalizeControls).flatMap((s) => lowerGate(s, supports, target, depth + 1));
}

/** Every operation of the (custom-gate-expanded) circuit, gates lowered for the target. */
export function lowerCircuit(circuit: Circuit, supports: Supports, target: string): { ops: Operation[]; globalPhase: number } {
  const expanded = expandCircuit(circuit);
  let globalPhase = expanded.globalPhase;
  const ops: Operation[] = [];
  for (const op of expanded.ops) {
    if (op.kind !== 'gate') {
      ops.push(op);
      continue;
    }
    for (const g of lowerGate(op, (n, c) => n !== 'gphase' && supports(n, c), target)) {
      if (g.name === 'gphase' && !g.controls) globalPhase += evalExpr(g.params[0]);
      else ops.push(g);
    }
  }
  return { ops, globalPhase };
}

/** Identifiers for registers: valid in the target, unique, not reserved. */
export function registerIdentifiers(names: string[], reserved: Set<string>, valid = /^[a-z][A-Za-z0-9_]*$/): string[] {
  const used = new Set<string>();
  return names.map((name) => {
    let base = name.replace(/[^A-Za-z0-9_]/g, '_');
    if (!valid.test(base)) base = `r${base.replace(/^[^a-z]*/, '') || 'eg'}`;
    if (!valid.test(base)) base = 'reg';
    let id = base;
    for (let k = 1; used.has(id) || reserved.has(id); k++) id = `${base}${k}`;
    used.add(id);
    return id;
  });
}

/** Where a flat bit index lives: register position and index inside it. */
export function locate(regs: { offset: number; size: number }[], bit: number): { reg: number; index: number } {
  for (let r = 0; r < regs.length; r++) if (bit >= regs[r].offset && bit < regs[r].offset + regs[r].size) return { reg: r, index: bit - regs[r].offset };
  throw new Error(`bit ${bit} belongs to no register`);
}

/** The register a condition tests as a whole, or the single bit it tests, or neither. */
export function conditionShape(
  regs: { offset: number; size: number }[],
  clbits: number[],
): { kind: 'register'; reg: number } | { kind: 'bit'; reg: number; index: number } | { kind: 'other' } {
  if (clbits.length === 1) return { kind: 'bit', ...locate(regs, clbits[0]) };
  const r = regs.findIndex((reg) => reg.size === clbits.length && clbits.every((b, i) => b === reg.offset + i));
  return r >= 0 ? { kind: 'register', reg: r } : { kind: 'other' };
}
