/**
 * OpenQASM 2.0 (the whole language, with qelib1.inc) and the OpenQASM 3 subset: declarations,
 * stdgates.inc, gate definitions, `ctrl @`/`negctrl @`/`inv @`/`pow(k) @`, measurement in all
 * its forms, reset, barrier, constant `for` loops (unrolled) and `if` on bits and registers.
 * Recursive descent over tokens; every error names its line.
 */
import { CircuitError, semanticError, syntaxError, unsupported } from '../errors.js';
import { enterNesting } from '../limits.js';
import {
  addCreg,
  addQreg,
  canonicalGateName,
  canonicalizeControls,
  emptyCircuit,
  gateSignature,
  inverseGate,
  type BarrierOp,
  type Circuit,
  type Condition,
  type GateOp,
  type Operation,
  type Register,
} from '../ir/circuit.js';
import { EXPR_FUNCTIONS, evalExpr, freeNames, num, type Expr, type ExprFunction } from '../ir/expr.js';
import { STANDARD_GATES } from '../ir/gates.js';
import { tokenizeQasm, type Token } from './qasm-lexer.js';

/** Gates of qelib1.inc (OpenQASM 2 standard library). */
export const QELIB1_GATES = [
  'u3',
  'u2',
  'u1',
  'cx',
  'id',
  'u0',
  'u',
  'p',
  'x',
  'y',
  'z',
  'h',
  's',
  'sdg',
  't',
  'tdg',
  'rx',
  'ry',
  'rz',
  'sx',
  'sxdg',
  'cz',
  'cy',
  'swap',
  'ch',
  'ccx',
  'cswap',
  'crx',
  'cry',
  'crz',
  'cu1',
  'cp',
  'cu3',
  'csx',
  'cu',
  'rxx',
  'rzz',
  'rccx',
  'rc3x',
  'c3x',
  'c3sqrtx',
  'c4x',
];
/** Gates of stdgates.inc (OpenQASM 3 standard library). */
export const STDGATES = [
  'p',
  'x',
  'y',
  'z',
  'h',
  's',
  'sdg',
  't',
  'tdg',
  'sx',
  'rx',
  'ry',
  'rz',
  'cx',
  'cy',
  'cz',
  'cp',
  'crx',
  'cry',
  'crz',
  'ch',
  'swap',
  'ccx',
  'cswap',
  'cu',
  'CX',
  'phase',
  'cphase',
  'id',
  'u1',
  'u2',
  'u3',
];

/** qelib1's relative-phase Toffolis, defined (as qelib1 does) in terms of other gates. */
const QELIB1_DEFINED = `
gate rccx a,b,c { u2(0,pi) c; u1(pi/4) c; cx b, c; u1(-pi/4) c; cx a, c; u1(pi/4) c; cx b, c; u1(-pi/4) c; u2(0,pi) c; }
gate rc3x a,b,c,d { u2(0,pi) d; u1(pi/4) d; cx c,d; u1(-pi/4) d; u2(0,pi) d; cx a,d; u1(pi/4) d; cx b,d; u1(-pi/4) d; cx a,d; u1(pi/4) d; cx b,d; u1(-pi/4) d; u2(0,pi) d; u1(pi/4) d; cx c,d; u1(-pi/4) d; u2(0,pi) d; }
`;

const MAX_OPS = 2_000_000;

const UNSUPPORTED_KEYWORDS: Record<string, string> = {
  while: 'while loops depend on run-time values; only constant for loops are supported',
  def: 'subroutines are outside the supported subset',
  extern: 'extern functions are outside the supported subset',
  box: 'timing boxes are outside the supported subset',
  delay: 'delays are outside the supported subset',
  duration: 'durations are outside the supported subset',
  stretch: 'stretches are outside the supported subset',
  input: 'input parameters must be bound to values before simulation or conversion',
  output: 'output declarations are outside the supported subset',
  let: 'aliases (let) are outside the supported subset',
  return: 'return is outside the supported subset',
  break: 'break is outside the supported subset',
  continue: 'continue is outside the supported subset',
  cal: 'pulse calibrations are outside the supported subset',
  defcal: 'pulse calibrations are outside the supported subset',
  defcalgrammar: 'pulse calibrations are outside the supported subset',
  switch: 'switch is outside the supported subset',
  array: 'arrays are outside the supported subset',
  complex: 'complex variables are outside the supported subset',
  end: 'end is outside the supported subset',
};

const SCALAR_TYPES = new Set(['int', 'uint', 'float', 'angle', 'bool']);

interface QubitArg {
  qubits: number[];
  broadcast: boolean;
}

interface Declared {
  reg: Register;
  scalar: boolean;
}

interface DefinitionScope {
  qubits: Map<string, number>;
  params: Set<string>;
}

export interface QasmParseResult {
  circuit: Circuit;
  version: 2 | 3;
}

/**
 * `freeParameters`: OpenQASM 3 `input float` / `input angle` declarations stay free parameters of the circuit
 * (`Circuit.inputs`, for conversion and resource counting); without it they are refused, named.
 */
export function parseQasm(source: string, expectedVersion?: 2 | 3, options: { freeParameters?: boolean } = {}): QasmParseResult {
  const parser = new QasmParser(tokenizeQasm(source), expectedVersion, options.freeParameters ?? false);
  parser.parseProgram();
  if (parser.inputs.length) parser.circuit.inputs = parser.inputs;
  return { circuit: parser.circuit, version: parser.version };
}

class QasmParser {
  readonly circuit: Circuit = emptyCircuit();
  version: 2 | 3;
  private pos = 0;
  private readonly nesting = { depth: 0 };
  private readonly qregs = new Map<string, Declared>();
  private readonly cregs = new Map<string, Declared>();
  private readonly consts = new Map<string, number>();
  private readonly available = new Set<string>();
  private readonly userGates = new Map<string, string>();
  private scope?: DefinitionScope;
  private out: (GateOp | BarrierOp | Operation)[] = this.circuit.ops;
  private condition?: Condition;
  private qelibDefined = false;

  /** Free parameters declared with `input float|angle name;`, in order (only with freeParameters). */
  readonly inputs: string[] = [];

  constructor(
    private readonly tokens: Token[],
    expectedVersion: 2 | 3 | undefined,
    private readonly freeParameters: boolean,
  ) {
    this.version = expectedVersion ?? 2;
  }

  // ---- token helpers ----
  private peek(offset = 0): Token {
    return this.tokens[Math.min(this.pos + offset, this.tokens.length - 1)];
  }
  private next(): Token {
    return this.tokens[this.pos < this.tokens.length - 1 ? this.pos++ : this.pos];
  }
  private is(text: string, offset = 0): boolean {
    const t = this.peek(offset);
    return (t.type === 'sym' || t.type === 'id') && t.text === text;
  }
  private accept(text: string): boolean {
    if (this.is(text)) {
      this.pos++;
      return true;
    }
    return false;
  }
  private expect(text: string, what?: string): Token {
    const t = this.peek();
    if (!this.is(text)) throw syntaxError(t.line, `expected '${text}'${what ? ` ${what}` : ''}; got '${t.text}'`);
    return this.next();
  }
  private identifier(what: string): Token {
    const t = this.next();
    if (t.type !== 'id') throw syntaxError(t.line, `expected ${what}; got '${t.text}'`);
    return t;
  }

  // ---- program ----
  parseProgram(): void {
    if (this.is('OPENQASM')) {
      const line = this.next().line;
      const v = this.next();
      if (v.type !== 'int' && v.type !== 'float') throw syntaxError(line, `expected a version number after OPENQASM; got '${v.text}'`);
      const major = Math.floor(Number(v.text));
      if (major !== 2 && major !== 3) throw new CircuitError('unsupported', `OpenQASM version ${v.text} is not supported (2.0 and 3 are)`, line, 'OPENQASM');
      this.version = major;
      this.expect(';', 'after the version');
    }
    while (this.peek().type !== 'eof') this.statement();
  }

  private statement(): void {
    const t = this.peek();
    if (this.circuit.ops.length > MAX_OPS) throw new CircuitError('limit', `the circuit has more than ${MAX_OPS} operations`, t.line);
    if (t.type === 'sym' && t.text === '{' && this.version === 3) {
      this.block();
      return;
    }
    if (t.type !== 'id') throw syntaxError(t.line, `expected a statement; got '${t.text}'`);
    const kw = t.text;
    if (kw === 'OPENQASM') throw syntaxError(t.line, 'OPENQASM must be the first statement');
    if (kw === 'include') return void this.include();
    if (kw === 'qreg' || kw === 'creg') return void this.oldRegister(kw);
    if (kw === 'gate') return void this.gateDefinition();
    if (kw === 'opaque') return void this.opaque();
    if (kw === 'measure') return void this.measureArrow();
    if (kw === 'reset') return void this.reset();
    if (kw === 'barrier') return void this.barrier();
    if (kw === 'if') return void this.ifStatement();
    if (this.version === 3) {
      if (kw === 'qubit') return void this.qubitDeclaration();
      if (kw === 'bit') return void this.bitDeclaration();
      if (kw === 'const' || SCALAR_TYPES.has(kw)) return void this.scalarDeclaration();
      if (kw === 'for') return void this.forLoop();
      if (kw === 'input') return void this.inputDeclaration();
      if (kw in UNSUPPORTED_KEYWORDS) throw unsupported(t.line, kw, UNSUPPORTED_KEYWORDS[kw]);
      if (this.cregs.has(kw) && (this.is('=', 1) || this.is('[', 1))) return void this.measureAssignment();
      if (this.consts.has(kw))
        throw unsupported(t.line, `${kw} = …`, 'classical variables are constants in the supported subset; assignments are not supported');
    }
    this.gateCall();
  }

  private block(): void {
    this.expect('{');
    while (!this.is('}')) {
      if (this.peek().type === 'eof') throw syntaxError(this.peek().line, "expected '}' to close the block");
      this.statement();
    }
    this.expect('}');
  }

  private include(): void {
    const line = this.next().line;
    const file = this.next();
    if (file.type !== 'string') throw syntaxError(line, `expected a file name in quotes after include; got '${file.text}'`);
    this.expect(';', 'after include');
    if (file.text === 'qelib1.inc') for (const g of QELIB1_GATES) this.available.add(g);
    else if (file.text === 'stdgates.inc') for (const g of STDGATES) this.available.add(g);
    else throw unsupported(line, `include "${file.text}"`, 'only qelib1.inc (OpenQASM 2) and stdgates.inc (OpenQASM 3) can be included');
  }

  private declareQreg(name: Token, size: number, scalar: boolean): void {
    this.checkFree(name);
    this.qregs.set(name.text, { reg: addQreg(this.circuit, name.text, size), scalar });
  }
  private declareCreg(name: Token, size: number, scalar: boolean): void {
    this.checkFree(name);
    this.cregs.set(name.text, { reg: addCreg(this.circuit, name.text, size), scalar });
  }
  private checkFree(name: Token): void {
    if (this.scope) throw syntaxError(name.line, 'declarations are not allowed inside a gate definition');
    if (this.qregs.has(name.text) || this.cregs.has(name.text) || this.consts.has(name.text) || this.inputs.includes(name.text))
      throw semanticError(name.line, `'${name.text}' is already declared`);
  }

  private registerSize(line: number): number {
    const size = this.intExpr('a register size');
    if (size < 1) throw semanticError(line, `a register needs at least one element; got size ${size}`);
    if (size > 1_000_000) throw new CircuitError('limit', `register size ${size} is too large`, line);
    return size;
  }

  private oldRegister(kind: 'qreg' | 'creg'): void {
    const line = this.next().line;
    const name = this.identifier(`a ${kind} name`);
    this.expect('[', `after ${kind} ${name.text}`);
    const size = this.registerSize(line);
    this.expect(']');
    this.expect(';', `after the ${kind} declaration`);
    if (kind === 'qreg') this.declareQreg(name, size, false);
    else this.declareCreg(name, size, false);
  }

  private qubitDeclaration(): void {
    const line = this.next().line;
    let size = 1;
    let scalar = true;
    if (this.accept('[')) {
      size = this.registerSize(line);
      scalar = false;
      this.expect(']');
    }
    const name = this.identifier('a qubit register name');
    this.expect(';', 'after the qubit declaration');
    this.declareQreg(name, size, scalar);
  }

  private bitDeclaration(): void {
    const line = this.next().line;
    let size = 1;
    let scalar = true;
    if (this.accept('[')) {
      size = this.registerSize(line);
      scalar = false;
      this.expect(']');
    }
    const name = this.identifier('a bit register name');
    this.declareCreg(name, size, scalar);
    if (this.accept('=')) {
      if (!this.is('measure')) throw unsupported(line, 'bit initialiser', 'a bit can only be initialised by a measurement');
      this.next();
      const src = this.qubitArg();
      this.emitMeasure(src, { qubits: this.bitsOf(this.cregs.get(name.text)!), broadcast: !scalar }, line);
    }
    this.expect(';', 'after the bit declaration');
  }

  private scalarDeclaration(): void {
    const first = this.next();
    const isConst = first.text === 'const';
    const type = isConst ? this.identifier('a type after const') : first;
    if (!SCALAR_TYPES.has(type.text)) throw unsupported(type.line, type.text, 'constants of type int, uint, float, angle or bool are supported');
    if (this.accept('[')) {
      this.intExpr('a type width');
      this.expect(']');
    }
    const name = this.identifier('a constant name');
    if (!this.accept('=')) throw unsupported(name.line, `${type.text} ${name.text}`, 'classical variables must be initialised with a constant expression');
    let value: number;
    if (type.text === 'bool' && (this.is('true') || this.is('false'))) value = this.next().text === 'true' ? 1 : 0;
    else value = this.constExpr(`the value of ${name.text}`);
    if (type.text === 'int' || type.text === 'uint') value = Math.trunc(value);
    this.expect(';', `after the declaration of ${name.text}`);
    this.checkFree(name);
    this.consts.set(name.text, value);
  }

  /** `input float[64] theta;` (or `angle`): a free parameter of the program, given a value when it is run. */
  private inputDeclaration(): void {
    const line = this.next().line;
    const type = this.identifier('a type after input');
    if (type.text !== 'float' && type.text !== 'angle')
      throw unsupported(type.line, `input ${type.text}`, 'inputs of type float or angle (gate parameters) are supported');
    if (this.accept('[')) {
      this.intExpr('a type width');
      this.expect(']');
    }
    const name = this.identifier('an input name');
    this.expect(';', `after the declaration of input ${name.text}`);
    if (!this.freeParameters)
      throw semanticError(
        line,
        `input ${name.text} has no value: simulation needs numbers (declare it as const ${type.text} ${name.text} = …; or give the value in its place)`,
      );
    this.checkFree(name);
    this.inputs.push(name.text);
  }

  // ---- gate definitions ----
  private gateDefinition(): void {
    const line = this.next().line;
    const name = this.identifier('a gate name');
    const params = this.accept('(') ? this.nameList(')') : [];
    if (params.length) this.expect(')');
    const qubits = this.nameList('{');
    if (qubits.length === 0) throw syntaxError(line, `gate ${name.text} needs at least one qubit argument`);
    const irName = this.defineName(name);
    const body: (GateOp | BarrierOp)[] = [];
    const saved = { out: this.out, scope: this.scope };
    this.scope = { qubits: new Map(qubits.map((q, i) => [q, i])), params: new Set(params) };
    this.out = body;
    try {
      this.expect('{', `to open the body of gate ${name.text}`);
      while (!this.is('}')) {
        const t = this.peek();
        if (t.type === 'eof') throw syntaxError(t.line, `expected '}' to close gate ${name.text}`);
        if (
          t.type === 'id' &&
          (t.text === 'measure' || t.text === 'reset' || t.text === 'if' || t.text === 'qreg' || t.text === 'creg' || t.text === 'qubit' || t.text === 'bit')
        ) {
          throw syntaxError(t.line, `'${t.text}' is not allowed inside a gate definition (gates are unitary)`);
        }
        this.statement();
      }
      this.expect('}');
    } finally {
      this.out = saved.out;
      this.scope = saved.scope;
    }
    this.circuit.definitions.set(irName, { name: irName, params, qubits: qubits.length, body, line });
  }

  private opaque(): void {
    const line = this.next().line;
    if (this.version === 3) throw unsupported(line, 'opaque', 'opaque is OpenQASM 2; OpenQASM 3 has no opaque gates');
    const name = this.identifier('a gate name');
    const params = this.accept('(') ? this.nameList(')') : [];
    if (params.length) this.expect(')');
    const qubits = this.nameList(';');
    this.expect(';', `after opaque ${name.text}`);
    const irName = this.defineName(name);
    this.circuit.definitions.set(irName, { name: irName, params, qubits: qubits.length, body: null, line });
  }

  /** Registers a user gate; a user gate that shadows a (not included) standard name gets a distinct IR name. */
  private defineName(name: Token): string {
    if (this.scope) throw syntaxError(name.line, 'gate definitions cannot be nested');
    if (this.userGates.has(name.text) || this.available.has(name.text)) throw semanticError(name.line, `gate ${name.text} is already defined`);
    const canonical = canonicalGateName(name.text);
    const irName = STANDARD_GATES.has(canonical) || this.circuit.definitions.has(name.text) ? `${name.text}_def` : name.text;
    this.userGates.set(name.text, irName);
    return irName;
  }

  private nameList(until: string): string[] {
    const names: string[] = [];
    if (this.is(until)) return names;
    do {
      names.push(this.identifier('a name').text);
    } while (this.accept(','));
    return names;
  }

  // ---- quantum statements ----
  private gateCall(): void {
    const start = this.peek();
    const modifiers: { kind: 'ctrl' | 'negctrl' | 'inv' | 'pow'; n: number; line: number }[] = [];
    while (this.peek().type === 'id' && ['ctrl', 'negctrl', 'inv', 'pow'].includes(this.peek().text) && (this.is('@', 1) || this.is('(', 1))) {
      const m = this.next();
      if (this.version === 2) throw syntaxError(m.line, `gate modifier '${m.text} @' is OpenQASM 3; this program is OpenQASM 2`);
      let n = 1;
      if (this.accept('(')) {
        if (m.text === 'pow') {
          const k = this.constExpr('the power');
          if (!Number.isInteger(k)) throw unsupported(m.line, `pow(${k}) @`, 'only integer powers are supported');
          n = k;
        } else {
          n = this.intExpr('the number of controls');
          if (n < 1) throw semanticError(m.line, `${m.text}(${n}) needs at least one control`);
        }
        this.expect(')');
      } else if (m.text === 'pow') throw syntaxError(m.line, 'pow needs an exponent: pow(k) @');
      this.expect('@', `after the ${m.text} modifier`);
      modifiers.push({ kind: m.text as 'ctrl', n, line: m.line });
    }
    const nameTok = this.identifier('a gate name');
    const line = nameTok.line;
    const resolved = this.resolveGate(nameTok);
    const params: Expr[] = [];
    if (this.accept('(')) {
      if (!this.is(')')) {
        do params.push(this.expr());
        while (this.accept(','));
      }
      this.expect(')', `to close the parameters of ${nameTok.text}`);
    }
    if (params.length !== resolved.params) throw semanticError(line, `gate ${nameTok.text} takes ${resolved.params} parameter(s); got ${params.length}`);
    const args: QubitArg[] = [];
    if (resolved.qubits > 0 || modifiers.some((m) => m.kind === 'ctrl' || m.kind === 'negctrl')) {
      do args.push(this.qubitArg());
      while (this.accept(','));
    }
    this.expect(';', `after the arguments of ${nameTok.text}`);
    const extraControls = modifiers.filter((m) => m.kind === 'ctrl' || m.kind === 'negctrl').reduce((sum, m) => sum + m.n, 0);
    const expected = resolved.qubits + extraControls;
    if (args.length !== expected)
      throw semanticError(
        line,
        `gate ${nameTok.text}${extraControls ? ` with ${extraControls} control(s)` : ''} takes ${expected} qubit argument(s); got ${args.length}`,
      );
    for (const qubits of this.broadcast(args, line, `gate ${nameTok.text}`)) {
      if (new Set(qubits).size !== qubits.length) throw semanticError(line, `gate ${nameTok.text} is applied to the same qubit more than once`);
      let ops: GateOp[] = [{ kind: 'gate', name: resolved.irName, qubits: qubits.slice(extraControls), params, line }];
      // Modifiers apply right to left; control qubits come first, in modifier order.
      let controlCursor = extraControls;
      for (let k = modifiers.length - 1; k >= 0; k--) {
        const m = modifiers[k];
        if (m.kind === 'inv') ops = ops.reverse().flatMap((op) => inverseGate(this.circuit, op));
        else if (m.kind === 'pow') {
          const base =
            m.n < 0
              ? ops
                  .slice()
                  .reverse()
                  .flatMap((op) => inverseGate(this.circuit, op))
              : ops;
          ops = Array.from({ length: Math.abs(m.n) }, () => base).flat();
        } else {
          controlCursor -= m.n;
          const ctrls = qubits.slice(controlCursor, controlCursor + m.n);
          const controlledOps = ops.map((op) => ({ ...op, qubits: [...ctrls, ...op.qubits], controls: (op.controls ?? 0) + m.n }));
          const flips: GateOp[] = m.kind === 'negctrl' ? ctrls.map((q) => ({ kind: 'gate', name: 'x', qubits: [q], params: [], line })) : [];
          ops = [...flips, ...controlledOps, ...flips];
        }
      }
      for (const op of ops) this.emit(canonicalizeControls(op));
    }
    if (start.type === 'eof') throw syntaxError(start.line, 'unexpected end of file');
  }

  private resolveGate(name: Token): { irName: string; qubits: number; params: number } {
    const user = this.userGates.get(name.text);
    if (user) return { irName: user, ...gateSignature(this.circuit, user)! };
    const builtins = this.version === 2 ? ['U', 'CX'] : ['U', 'gphase'];
    if (builtins.includes(name.text) || this.available.has(name.text)) {
      if (name.text === 'rccx' || name.text === 'rc3x') {
        this.defineQelibExtras();
        return { irName: name.text, ...gateSignature(this.circuit, name.text)! };
      }
      const canonical = canonicalGateName(name.text);
      const std = STANDARD_GATES.get(canonical)!;
      return { irName: canonical, qubits: std.qubits, params: std.params };
    }
    if (name.text in UNSUPPORTED_KEYWORDS) throw unsupported(name.line, name.text, UNSUPPORTED_KEYWORDS[name.text]);
    const lib = this.version === 2 ? 'qelib1.inc' : 'stdgates.inc';
    const hint =
      STANDARD_GATES.has(canonicalGateName(name.text)) || STDGATES.includes(name.text) || QELIB1_GATES.includes(name.text)
        ? ` (it is in ${lib}: add include "${lib}";)`
        : '';
    throw semanticError(name.line, `unknown gate or statement '${name.text}'${hint}`);
  }

  private defineQelibExtras(): void {
    if (this.qelibDefined) return;
    this.qelibDefined = true;
    const tokens = tokenizeQasm(QELIB1_DEFINED);
    const inner = new QasmParser(tokens, 2, false);
    for (const g of QELIB1_GATES) if (g !== 'rccx' && g !== 'rc3x') inner.available.add(g);
    inner.parseProgram();
    for (const [k, v] of inner.circuit.definitions) this.circuit.definitions.set(k, v);
  }

  private emit(op: GateOp | BarrierOp | Operation): void {
    if (this.condition && op.kind !== 'barrier') this.out.push({ ...op, condition: this.condition } as Operation);
    else this.out.push(op);
  }

  private broadcast(args: QubitArg[], line: number, what: string): number[][] {
    const sizes = new Set(args.filter((a) => a.broadcast).map((a) => a.qubits.length));
    if (sizes.size > 1) throw semanticError(line, `${what}: registers of different sizes (${[...sizes].join(' and ')}) cannot be broadcast together`);
    const length = sizes.size ? [...sizes][0] : 1;
    return Array.from({ length }, (_, k) => args.map((a) => (a.broadcast ? a.qubits[k] : a.qubits[0])));
  }

  private qubitArg(): QubitArg {
    const name = this.identifier('a qubit or register');
    if (this.scope) {
      const local = this.scope.qubits.get(name.text);
      if (local === undefined) throw semanticError(name.line, `'${name.text}' is not an argument of this gate`);
      if (this.is('[')) throw syntaxError(name.line, 'gate arguments cannot be indexed inside a gate definition');
      return { qubits: [local], broadcast: false };
    }
    const decl = this.qregs.get(name.text);
    if (!decl) {
      if (this.cregs.has(name.text)) throw semanticError(name.line, `'${name.text}' is a classical register; expected qubits`);
      throw semanticError(name.line, `unknown qubit register '${name.text}'`);
    }
    return this.indexInto(decl, name);
  }

  private bitsOf(decl: Declared): number[] {
    return Array.from({ length: decl.reg.size }, (_, i) => decl.reg.offset + i);
  }

  private indexInto(decl: Declared, name: Token): QubitArg {
    if (!this.accept('[')) return { qubits: this.bitsOf(decl), broadcast: !decl.scalar };
    if (decl.scalar) throw semanticError(name.line, `'${name.text}' is a single ${this.qregs.has(name.text) ? 'qubit' : 'bit'} and cannot be indexed`);
    const first = this.intExpr('an index');
    let indices = [first];
    let broadcast = false;
    if (this.accept(':')) {
      if (this.version === 2) throw syntaxError(name.line, 'ranges in indices are OpenQASM 3');
      let step = 1;
      let end = this.intExpr('the end of the range');
      if (this.accept(':')) {
        step = end;
        end = this.intExpr('the end of the range');
      }
      indices = rangeValues(first, step, end, name.line);
      broadcast = true;
    }
    this.expect(']', `to close the index of ${name.text}`);
    for (const i of indices) {
      const k = i < 0 && this.version === 3 ? decl.reg.size + i : i;
      if (k < 0 || k >= decl.reg.size) throw semanticError(name.line, `index ${i} is out of range for ${name.text}[${decl.reg.size}]`);
    }
    return { qubits: indices.map((i) => decl.reg.offset + (i < 0 ? decl.reg.size + i : i)), broadcast };
  }

  private clbitArg(): QubitArg {
    const name = this.identifier('a classical bit or register');
    const decl = this.cregs.get(name.text);
    if (!decl) {
      if (this.qregs.has(name.text)) throw semanticError(name.line, `'${name.text}' is a qubit register; expected classical bits`);
      throw semanticError(name.line, `unknown classical register '${name.text}'`);
    }
    return this.indexInto(decl, name);
  }

  private emitMeasure(q: QubitArg, c: QubitArg, line: number): void {
    if (q.broadcast !== c.broadcast || q.qubits.length !== c.qubits.length) {
      throw semanticError(line, `measure: ${q.qubits.length} qubit(s) into ${c.qubits.length} bit(s); the sizes must match`);
    }
    q.qubits.forEach((qubit, i) => {
      this.emit({ kind: 'measure', qubit, clbit: c.qubits[i], line });
    });
  }

  private measureArrow(): void {
    const line = this.next().line;
    if (this.scope) throw syntaxError(line, 'measure is not allowed inside a gate definition');
    const q = this.qubitArg();
    if (this.accept('->')) {
      const c = this.clbitArg();
      this.expect(';', 'after measure');
      this.emitMeasure(q, c, line);
      return;
    }
    if (this.version === 2) throw syntaxError(line, "expected '->' after measure's qubits");
    this.expect(';', 'after measure');
    // A measurement without a destination still collapses the qubit: record it into an anonymous bit.
    const reg = addCreg(this.circuit, `_m${this.circuit.cregs.length}`, q.qubits.length);
    q.qubits.forEach((qubit, i) => {
      this.emit({ kind: 'measure', qubit, clbit: reg.offset + i, line });
    });
  }

  private measureAssignment(): void {
    const line = this.peek().line;
    const c = this.clbitArg();
    this.expect('=', 'in the measurement assignment');
    if (!this.accept('measure')) throw unsupported(line, 'classical assignment', 'bits can only be assigned a measurement (c = measure q)');
    const q = this.qubitArg();
    this.expect(';', 'after the measurement');
    this.emitMeasure(q, c, line);
  }

  private reset(): void {
    const line = this.next().line;
    if (this.scope) throw syntaxError(line, 'reset is not allowed inside a gate definition');
    const q = this.qubitArg();
    this.expect(';', 'after reset');
    for (const qubit of q.qubits) this.emit({ kind: 'reset', qubit, line });
  }

  private barrier(): void {
    const line = this.next().line;
    const qubits: number[] = [];
    if (!this.is(';')) {
      do qubits.push(...this.qubitArg().qubits);
      while (this.accept(','));
    } else if (this.version === 2) throw syntaxError(line, 'barrier needs at least one argument in OpenQASM 2');
    else if (this.scope) qubits.push(...this.scope.qubits.values());
    else for (let q = 0; q < this.circuit.numQubits; q++) qubits.push(q);
    this.expect(';', 'after barrier');
    this.out.push({ kind: 'barrier', qubits, line });
  }

  private ifStatement(): void {
    const line = this.next().line;
    if (this.scope) throw syntaxError(line, 'if is not allowed inside a gate definition');
    if (this.condition) throw unsupported(line, 'nested if', 'conditions cannot be nested in the supported subset');
    this.expect('(', 'after if');
    const negate = this.version === 3 && this.accept('!');
    const name = this.identifier('a classical register');
    const decl = this.cregs.get(name.text);
    if (!decl) throw semanticError(name.line, `unknown classical register '${name.text}' in the condition`);
    let bits = this.bitsOf(decl);
    if (this.is('[')) {
      if (this.version === 2) throw syntaxError(line, 'OpenQASM 2 conditions compare a whole register: if (c == n)');
      const arg = this.indexInto(decl, name);
      if (arg.qubits.length !== 1) throw unsupported(line, 'if on a slice', 'conditions test one bit or a whole register');
      bits = arg.qubits;
    }
    let value: number;
    if (this.accept('==')) {
      if (this.is('true') || this.is('false')) value = this.next().text === 'true' ? 1 : 0;
      else value = this.intExpr('the value to compare with');
    } else if (this.version === 3 && bits.length === 1) value = 1;
    else throw syntaxError(line, `expected '==' in the condition; got '${this.peek().text}'`);
    if (negate) {
      if (bits.length !== 1) throw unsupported(line, '!register', 'negation applies to a single bit');
      value = 1 - value;
    }
    if (value < 0 || value >= 2 ** bits.length) throw semanticError(line, `${name.text} has ${bits.length} bit(s) and can never equal ${value}`);
    this.expect(')', 'to close the condition');
    this.conditionalBody({ clbits: bits, value });
    if (this.version === 3 && this.is('else')) {
      const elseLine = this.next().line;
      if (bits.length !== 1) throw unsupported(elseLine, 'else', 'else is supported after a condition on a single bit');
      this.conditionalBody({ clbits: bits, value: 1 - value });
    }
  }

  private conditionalBody(condition: Condition): void {
    this.condition = condition;
    try {
      if (this.is('{')) {
        if (this.version === 2) throw syntaxError(this.peek().line, 'OpenQASM 2 if takes a single operation, not a block');
        this.block();
      } else this.statement();
    } finally {
      this.condition = undefined;
    }
  }

  private forLoop(): void {
    const line = this.next().line;
    if (this.scope) throw unsupported(line, 'for', 'loops inside gate definitions are not supported');
    if (this.peek().type === 'id' && SCALAR_TYPES.has(this.peek().text) && this.peek(1).type === 'id') {
      this.next();
      if (this.accept('[')) {
        this.intExpr('a type width');
        this.expect(']');
      }
    }
    const variable = this.identifier('a loop variable');
    this.expect('in', 'after the loop variable');
    let values: number[];
    if (this.accept('[')) {
      const start = this.intExpr('the start of the range');
      this.expect(':', 'in the range');
      let step = 1;
      let end = this.intExpr('the end of the range');
      if (this.accept(':')) {
        step = end;
        end = this.intExpr('the end of the range');
      }
      this.expect(']', 'to close the range');
      values = rangeValues(start, step, end, line);
    } else if (this.accept('{')) {
      values = [];
      do values.push(this.constExpr('a set element'));
      while (this.accept(','));
      this.expect('}', 'to close the set');
    } else {
      throw unsupported(line, 'for … in', 'loops run over a constant range [a:b] / [a:s:b] or a set {…}');
    }
    if (this.qregs.has(variable.text) || this.cregs.has(variable.text)) throw semanticError(line, `loop variable '${variable.text}' shadows a register`);
    const bodyStart = this.pos;
    const previous = this.consts.get(variable.text);
    let bodyEnd = bodyStart;
    if (values.length === 0) {
      this.skipStatement();
      return;
    }
    for (const v of values) {
      this.pos = bodyStart;
      this.consts.set(variable.text, v);
      this.statement();
      bodyEnd = this.pos;
    }
    this.pos = bodyEnd;
    if (previous === undefined) this.consts.delete(variable.text);
    else this.consts.set(variable.text, previous);
  }

  /** Skips one statement or block without interpreting it (a loop over an empty range). */
  private skipStatement(): void {
    let depth = 0;
    for (;;) {
      const t = this.next();
      if (t.type === 'eof') return;
      if (t.text === '{') depth++;
      if (t.text === '}' && --depth <= 0) return;
      if (t.text === ';' && depth === 0) return;
    }
  }

  // ---- expressions ----
  private intExpr(what: string): number {
    const line = this.peek().line;
    const v = this.constExpr(what);
    if (!Number.isInteger(v)) throw semanticError(line, `expected an integer for ${what}; got ${v}`);
    return v;
  }

  private constExpr(what: string): number {
    const line = this.peek().line;
    const e = this.expr();
    const free = [...freeNames(e)];
    if (free.length) throw semanticError(line, `${what} must be a constant; '${free[0]}' is not`);
    const v = evalExpr(e);
    if (!Number.isFinite(v)) throw semanticError(line, `${what} is not a finite number`);
    return v;
  }

  private expr(): Expr {
    let left = this.term();
    while (this.is('+') || this.is('-')) {
      const op = this.next().text as '+' | '-';
      left = fold({ k: 'bin', op, a: left, b: this.term() });
    }
    return left;
  }

  private term(): Expr {
    let left = this.unary();
    while (this.is('*') || this.is('/') || this.is('%')) {
      const t = this.next();
      const right = this.unary();
      if (t.text === '%') {
        const a = evalExpr(left);
        const b = evalExpr(right);
        left = num(a - b * Math.floor(a / b));
      } else left = fold({ k: 'bin', op: t.text as '*' | '/', a: left, b: right });
    }
    return left;
  }

  private unary(): Expr {
    const leave = enterNesting(this.nesting, this.peek().line);
    try {
      if (this.accept('-')) return fold({ k: 'neg', a: this.unary() });
      if (this.accept('+')) return this.unary();
      return this.power();
    } finally {
      leave();
    }
  }

  private power(): Expr {
    const base = this.primary();
    if (this.is('^') || this.is('**')) {
      const t = this.next();
      if (t.text === '**' && this.version === 2) throw syntaxError(t.line, "OpenQASM 2 writes powers with '^'");
      return fold({ k: 'bin', op: '^', a: base, b: this.unary() });
    }
    return base;
  }

  private primary(): Expr {
    const t = this.next();
    if (t.type === 'int' || t.type === 'float') return num(Number(t.text));
    if (t.type === 'sym' && t.text === '(') {
      const e = this.expr();
      this.expect(')', 'to close the parenthesis');
      return e;
    }
    if (t.type === 'id') {
      const fnName = t.text === 'arcsin' ? 'asin' : t.text === 'arccos' ? 'acos' : t.text === 'arctan' ? 'atan' : t.text === 'log' ? 'ln' : t.text;
      if ((EXPR_FUNCTIONS as readonly string[]).includes(fnName) && this.is('(')) {
        this.next();
        const a = this.expr();
        this.expect(')', `to close ${t.text}(`);
        return fold({ k: 'fn', name: fnName as ExprFunction, a });
      }
      if (['pi', 'π', 'tau', 'τ', 'euler', 'ℇ'].includes(t.text))
        return { k: 'id', name: t.text === 'π' ? 'pi' : t.text === 'τ' ? 'tau' : t.text === 'ℇ' ? 'euler' : t.text };
      const c = this.consts.get(t.text);
      if (c !== undefined) return num(c);
      if (this.scope?.params.has(t.text)) return { k: 'id', name: t.text };
      if (this.inputs.includes(t.text)) return { k: 'id', name: t.text };
      throw semanticError(t.line, `unknown identifier '${t.text}' in an expression`);
    }
    throw syntaxError(t.line, `expected an expression; got '${t.text}'`);
  }
}

/** Folds constant sub-expressions so main-program parameters are plain numbers. */
function fold(e: Expr): Expr {
  return freeNames(e).size === 0 && !(e.k === 'id') ? num(evalExpr(e)) : e;
}

/** OpenQASM 3 ranges include their end: [0:2] is 0, 1, 2. */
function rangeValues(start: number, step: number, end: number, line: number): number[] {
  if (step === 0) throw semanticError(line, 'a range step cannot be 0');
  const out: number[] = [];
  for (let v = start; step > 0 ? v <= end : v >= end; v += step) {
    out.push(v);
    if (out.length > MAX_OPS) throw new CircuitError('limit', 'the range is too long', line);
  }
  return out;
}
