/**
 * The one error type of the circuit toolchain. Everything a user can cause (bad syntax, a
 * construct outside the supported subset, a circuit too large to simulate) is a CircuitError;
 * the service maps it to 422. `line` is 1-based in the submitted source.
 */
export type CircuitErrorKind = 'syntax' | 'unsupported' | 'semantic' | 'memory' | 'limit';

export class CircuitError extends Error {
  constructor(
    readonly kind: CircuitErrorKind,
    message: string,
    readonly line?: number,
    readonly construct?: string,
  ) {
    super(line === undefined ? message : `line ${line}: ${message}`);
    this.name = 'CircuitError';
  }
}

export const syntaxError = (line: number | undefined, message: string): CircuitError => new CircuitError('syntax', message, line);
export const unsupported = (line: number | undefined, construct: string, message: string): CircuitError =>
  new CircuitError('unsupported', `unsupported construct \`${construct}\`: ${message}`, line, construct);
export const semanticError = (line: number | undefined, message: string): CircuitError => new CircuitError('semantic', message, line);
