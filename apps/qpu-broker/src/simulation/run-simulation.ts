import { parseCircuit, simulate } from '#qdc/circuits';
import type { CircuitsSimulateRequest, CircuitsSimulateResponse } from '#qdc/contracts';
import { entryOf } from '../circuits/circuit-entry.js';
import { asRpc } from '../circuits/circuit-errors.js';
import type { SimulationConfig } from './simulation.config.js';

/** Parses and simulates one request (in the broker or in a simulation worker). */
export function runSimulation(request: CircuitsSimulateRequest, config: SimulationConfig, ranOn: 'inline' | 'queue'): CircuitsSimulateResponse {
  const started = performance.now();
  return asRpc(() => {
    const { circuit } = parseCircuit(request.code, entryOf(request));
    const result = simulate(circuit, { method: request.method, shots: request.shots, seed: request.seed, memoryLimitBytes: config.QDC_SIM_MEMORY_LIMIT_BYTES });
    return {
      method: result.method,
      backend: 'statevector',
      shots: result.shots,
      seed: result.seed,
      qubitCount: result.qubitCount,
      counts: result.counts,
      ...(result.statevector ? { statevector: result.statevector } : {}),
      ranOn,
      elapsedMs: Math.round((performance.now() - started) * 10) / 10,
    };
  });
}
