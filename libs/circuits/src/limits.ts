/**
 * Bounds on what a submitted circuit may ask the toolchain to build, checked before anything is
 * allocated: a one-line program (`QuantumCircuit(2**31)`, `[0] * 10**10`, 5 000 nested
 * parentheses) must be a 422 naming the limit, never an exhausted heap or stack.
 */
import { CircuitError } from './errors.js';

/** Qubits (and, separately, clbits) of one circuit: far above any device or simulator, far below memory trouble. */
export const MAX_CIRCUIT_QUBITS = 65_536;
export const MAX_CIRCUIT_CLBITS = 65_536;
/** Elements of one list a Python program builds (`range`, `[x] * n`, `LineQubit.range`). */
export const MAX_LIST_LENGTH = 2_000_000;
/** Nesting of expressions (parentheses, unary chains, powers) in any front end. */
export const MAX_EXPRESSION_DEPTH = 200;
/** Nested calls of functions defined in a Python program (recursion included). */
export const MAX_CALL_DEPTH = 200;
/** Iterations of one `while` loop in a Python program. */
export const MAX_LOOP_ITERATIONS = 100_000;
/** Evaluation steps (statements, calls, circuit operations) of one Python program. */
export const MAX_EVALUATION_STEPS = 2_000_000;
/** Operations a circuit may have once its custom gates are inlined (nested definitions grow exponentially). */
export const MAX_EXPANDED_OPERATIONS = 2_000_000;

export function checkBitCount(kind: 'qubits' | 'clbits', count: number, line?: number): void {
  const max = kind === 'qubits' ? MAX_CIRCUIT_QUBITS : MAX_CIRCUIT_CLBITS;
  if (!Number.isFinite(count) || count > max) {
    throw new CircuitError('limit', `a circuit may have at most ${max} ${kind}; this one asks for ${count}`, line);
  }
}

export function checkListLength(length: number, line?: number): void {
  if (!Number.isFinite(length) || length > MAX_LIST_LENGTH) {
    throw new CircuitError('limit', `a list may have at most ${MAX_LIST_LENGTH} elements; this one would have ${length}`, line);
  }
}

/** Operations a circuit would have after `compose`/`append`/`+=` (checked before copying: repeated self-composition doubles). */
export function checkOperationCount(count: number, line?: number): void {
  if (!Number.isFinite(count) || count > MAX_EXPANDED_OPERATIONS) {
    throw new CircuitError('limit', `a circuit may have at most ${MAX_EXPANDED_OPERATIONS} operations; this one would have ${count}`, line);
  }
}

/** Counts nesting on the way into a recursive-descent rule; call the returned function on the way out. */
export function enterNesting(state: { depth: number }, line?: number): () => void {
  if (++state.depth > MAX_EXPRESSION_DEPTH) {
    state.depth = 0;
    throw new CircuitError('limit', `expressions may be nested at most ${MAX_EXPRESSION_DEPTH} deep`, line);
  }
  return () => {
    state.depth -= 1;
  };
}

/**
 * The engine's own limits (call stack, array length) reached by some other path are still the
 * caller's input: reported as a limit, not as a server fault.
 */
export function asLimitError(error: unknown): unknown {
  if (error instanceof RangeError && /call stack|Invalid (typed )?array length|Array buffer allocation/i.test(error.message)) {
    return new CircuitError('limit', `the circuit is too large or too deeply nested to process (${error.message})`);
  }
  return error;
}

/** Elements of one numpy array a program builds (a 1024×1024 matrix, a 2^20 state vector). */
export const MAX_ARRAY_ELEMENTS = 1 << 20;
/** Multiply-adds of one matrix product (`@`, `np.dot`, `np.kron`) a program may ask for. */
export const MAX_ARRAY_WORK = 1 << 27;

export function checkArrayElements(count: number, line?: number): void {
  if (!Number.isFinite(count) || count > MAX_ARRAY_ELEMENTS) {
    throw new CircuitError('limit', `a numpy array may have at most ${MAX_ARRAY_ELEMENTS} elements; this one would have ${count}`, line);
  }
}
