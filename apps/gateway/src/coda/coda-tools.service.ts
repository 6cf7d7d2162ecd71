import { Inject, Injectable } from '@nestjs/common';
import {
  type CircuitEntryPointArgs,
  CodeHttpRequest as CodeBody,
  RpcError,
  SimulateHttpRequest as SimulateBody,
  SplitCircuitHttpRequest as SplitBody,
  CircuitToolsRpc,
  TranspileHttpRequest as TranspileBody,
} from '#qdc/contracts';
import { QDC_CONFIG, RpcClient, type QdcConfig } from '#qdc/platform';
import { parseBody } from '../http/parse-body.js';

/** `entryPoint` and `entryPointArgs` for a broker message, only when the caller gave them. */
export const withEntryPoint = (entryPoint: string | null | undefined, entryPointArgs?: CircuitEntryPointArgs | null) => ({
  ...(entryPoint ? { entryPoint } : {}),
  ...(entryPointArgs != null ? { entryPointArgs } : {}),
});

/** Simulator names clients send; all run on the built-in statevector simulator. */
const BACKENDS = [
  'auto',
  'default',
  'local',
  'simulator',
  'statevector',
  'statevector_simulator',
  'qasm_simulator',
  'aer_simulator',
  'aer_simulator_statevector',
  'qiskit',
  'qiskit_aer',
  'cirq',
  'cirq_simulator',
  'default.qubit',
  'lightning.qubit',
  'braket_sv',
  'local_simulator',
];
/** Simulations may take the whole simulation timeout; the NATS request waits a little longer. */
const SIMULATE_REPLY_MARGIN_MS = 5_000;

/** Coda circuit tools: HTTP bodies (SPEC §4 field names) ⇄ qpu-broker messages. */
@Injectable()
export class CodaToolsService {
  constructor(
    private readonly rpc: RpcClient,
    @Inject(QDC_CONFIG) private readonly config: QdcConfig,
  ) {}

  async transpile(body: unknown, requestId: string) {
    const { source_code, target, entry_point, entry_point_args } = parseBody(TranspileBody, body);
    const r = await this.rpc.call(CircuitToolsRpc.transpile, { code: source_code, target, ...withEntryPoint(entry_point, entry_point_args) }, { requestId });
    return { success: true, source_framework: r.sourceFramework, target_framework: r.targetFramework, converted_code: r.code };
  }

  async simulate(body: unknown, requestId: string) {
    const b = parseBody(SimulateBody, body);
    if (!BACKENDS.includes(b.backend)) throw new RpcError('invalid_input', `backend '${b.backend}' is not available; use one of ${BACKENDS.join(', ')}`);
    const r = await this.rpc.call(
      CircuitToolsRpc.simulate,
      {
        code: b.code,
        method: b.method,
        shots: b.shots,
        backend: b.backend,
        ...(b.seed_simulator == null ? {} : { seed: b.seed_simulator }),
        ...withEntryPoint(b.entry_point, b.entry_point_args),
      },
      { requestId, timeoutMs: Math.max(this.config.QDC_SIM_TIMEOUT_MS + SIMULATE_REPLY_MARGIN_MS, this.config.QDC_NATS_TIMEOUT_MS) },
    );
    return {
      success: true,
      method: r.method,
      counts: r.counts,
      ...(r.statevector ? { statevector: r.statevector } : {}),
      shots: r.shots,
      backend: r.backend,
      seed_simulator: r.seed,
      qubit_count: r.qubitCount,
      execution_time_ms: r.elapsedMs,
    };
  }

  async toOpenQasm3(body: unknown, requestId: string) {
    const b = parseBody(CodeBody, body);
    const r = await this.rpc.call(CircuitToolsRpc.toOpenQasm3, { code: b.code, ...withEntryPoint(b.entry_point, b.entry_point_args) }, { requestId });
    return { success: true, openqasm3: r.openqasm3, source_framework: r.sourceFramework };
  }

  async estimateResources(body: unknown, requestId: string) {
    const b = parseBody(CodeBody, body);
    const r = await this.rpc.call(CircuitToolsRpc.estimateResources, { code: b.code, ...withEntryPoint(b.entry_point, b.entry_point_args) }, { requestId });
    return {
      success: true,
      qubit_count: r.qubitCount,
      clbit_count: r.clbitCount,
      depth: r.depth,
      gate_counts: r.gateCounts,
      gate_count: r.gateCount,
      two_qubit_gate_count: r.twoQubitGateCount,
      multi_qubit_gate_count: r.multiQubitGateCount,
      t_count: r.tCount,
      measurement_count: r.measurementCount,
      reset_count: r.resetCount,
      source_framework: r.sourceFramework,
    };
  }

  async split(body: unknown, requestId: string) {
    const b = parseBody(SplitBody, body);
    const r = await this.rpc.call(
      CircuitToolsRpc.split,
      {
        code: b.code,
        ...(b.max_subcircuit_qubits == null ? {} : { maxSubcircuitQubits: b.max_subcircuit_qubits }),
        ...withEntryPoint(b.entry_point, b.entry_point_args),
      },
      { requestId },
    );
    if (typeof r.splitError === 'string') {
      // Well formed, but not splittable under the limit: 200 with success false (SPEC §6).
      return {
        success: false,
        error: r.splitError,
        original_qubit_count: r.originalQubitCount,
        max_subcircuit_qubits: r.maxSubcircuitQubits,
        source_framework: r.sourceFramework,
      };
    }
    return { success: true, ...(snakeCase(r) as Record<string, unknown>) };
  }
}

/** camelCase keys → snake_case, recursively (the split description is built by libs/circuits). */
function snakeCase(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(snakeCase);
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value).map(([k, v]) => [/^[0-9+]|^[A-Z]$|^\+i$/.test(k) ? k : k.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`), snakeCase(v)]),
    );
  }
  return value;
}
