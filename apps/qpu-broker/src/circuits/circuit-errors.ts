import { CircuitError } from '#qdc/circuits';
import { RpcError } from '#qdc/contracts';

/** Runs a circuit-library call; a CircuitError (the caller's fault) becomes an `invalid_input` RpcError. */
export function asRpc<T>(fn: () => T): T {
  try {
    return fn();
  } catch (error) {
    if (error instanceof CircuitError)
      throw new RpcError('invalid_input', error.message, { kind: error.kind, line: error.line ?? null, construct: error.construct ?? null });
    throw error;
  }
}
