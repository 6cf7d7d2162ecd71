import { z } from 'zod';
import { CircuitTargetFramework, MAX_SHOTS, SimulationMethod } from '../circuits.js';

/**
 * Circuit tools (SPEC §4): the bodies the gateway validates (these objects; their messages are the 422 answers) and
 * the answers. Every answer is `{success: true, ...}`; failures are CodaErrorHttpResponse.
 */

const code = (field: string) =>
  z
    .string({ error: `${field} is required: circuit source (Qiskit or Cirq Python, OpenQASM 2 or 3)` })
    .trim()
    .min(1, `${field} must not be empty`)
    .meta({ description: 'Qiskit or Cirq Python source (parsed, never executed), OpenQASM 2 or OpenQASM 3; the framework is detected' });

/** Optional `entry_point`: the Python function whose returned circuit is meant (README "Which circuit"). */
export const EntryPointHttpField = z
  .string({ error: 'entry_point must be a string: the name of a function defined in the code' })
  .trim()
  .regex(/^[A-Za-z_][A-Za-z0-9_]{0,199}$/, 'entry_point must be the name of a Python function (letters, digits and _, at most 200 characters)')
  .nullish()
  .meta({
    description:
      'Python only: the module-level function whose returned circuit is meant (callable without arguments). Without it: the circuit built at top level, else the single function that returns one',
  });

/** Optional `entry_point_args`: what `entry_point` is called with — a JSON list (by position) or object (by name). */
export const EntryPointArgsHttpField = z
  .union([z.array(z.json()), z.record(z.string(), z.json())], {
    error: 'entry_point_args must be a JSON list (passed by position) or object (passed by name) of numbers, strings, booleans, null, lists and objects',
  })
  .nullish()
  .meta({
    description:
      'Python only, with entry_point: the arguments it is called with — a list (positional) or an object (keyword); numbers, strings, booleans, null, lists and dicts',
  });

export const TranspileHttpRequest = z
  .object({
    source_code: code('source_code'),
    target: z
      .string({ error: `target is required: one of ${CircuitTargetFramework.options.join(', ')}` })
      .min(1, `target must be one of ${CircuitTargetFramework.options.join(', ')}`)
      .meta({ description: CircuitTargetFramework.options.join(', ') }),
    entry_point: EntryPointHttpField,
    entry_point_args: EntryPointArgsHttpField,
  })
  .meta({ id: 'TranspileRequest' });
export type TranspileHttpRequest = z.input<typeof TranspileHttpRequest>;

export const TranspileHttpResponse = z
  .object({ success: z.literal(true), source_framework: z.string(), target_framework: CircuitTargetFramework, converted_code: z.string() })
  .meta({ id: 'TranspileResponse' });
export type TranspileHttpResponse = z.infer<typeof TranspileHttpResponse>;

export const SimulateHttpRequest = z
  .object({
    code: code('code'),
    method: SimulationMethod.default('qasm').meta({ description: 'qasm: sampled counts; statevector: also the amplitudes (≤ 16 qubits)' }),
    shots: z.number().int().min(1).max(MAX_SHOTS).default(1024),
    backend: z
      .string()
      .default('auto')
      .meta({ description: 'a simulator name (auto, statevector_simulator, aer_simulator, …); all run on the built-in simulator' }),
    seed_simulator: z.number().int().nonnegative().nullish(),
    entry_point: EntryPointHttpField,
    entry_point_args: EntryPointArgsHttpField,
  })
  .meta({ id: 'SimulateRequest' });
export type SimulateHttpRequest = z.input<typeof SimulateHttpRequest>;

export const SimulateHttpResponse = z
  .object({
    success: z.literal(true),
    method: SimulationMethod,
    counts: z.record(z.string(), z.number().int()).meta({ description: '{bitstring: count}, little-endian (classical bit 0 rightmost), summing to shots' }),
    statevector: z
      .array(z.tuple([z.number(), z.number()]))
      .optional()
      .meta({ description: 'method statevector: amplitudes as [re, im], little-endian' }),
    shots: z.number().int(),
    backend: z.string(),
    seed_simulator: z.number().int(),
    qubit_count: z.number().int(),
    execution_time_ms: z.number(),
  })
  .meta({ id: 'SimulateResponse' });
export type SimulateHttpResponse = z.infer<typeof SimulateHttpResponse>;

/** Body of to-openqasm3 and estimate-resources. */
export const CodeHttpRequest = z
  .object({ code: code('code'), entry_point: EntryPointHttpField, entry_point_args: EntryPointArgsHttpField })
  .meta({ id: 'CodeRequest' });
export type CodeHttpRequest = z.input<typeof CodeHttpRequest>;

export const ToOpenQasm3HttpResponse = z
  .object({ success: z.literal(true), openqasm3: z.string(), source_framework: z.string() })
  .meta({ id: 'ToOpenQasm3Response' });
export type ToOpenQasm3HttpResponse = z.infer<typeof ToOpenQasm3HttpResponse>;

export const EstimateResourcesHttpResponse = z
  .object({
    success: z.literal(true),
    qubit_count: z.number().int(),
    clbit_count: z.number().int(),
    depth: z.number().int(),
    gate_counts: z.record(z.string(), z.number().int()),
    gate_count: z.number().int(),
    two_qubit_gate_count: z.number().int(),
    multi_qubit_gate_count: z.number().int(),
    t_count: z.number().int(),
    measurement_count: z.number().int(),
    reset_count: z.number().int(),
    source_framework: z.string(),
  })
  .meta({ id: 'EstimateResourcesResponse' });
export type EstimateResourcesHttpResponse = z.infer<typeof EstimateResourcesHttpResponse>;

export const SplitCircuitHttpRequest = z
  .object({
    code: code('code'),
    max_subcircuit_qubits: z.number().int().min(1).max(64).nullish().meta({ description: 'default ⌈n/2⌉' }),
    entry_point: EntryPointHttpField,
    entry_point_args: EntryPointArgsHttpField,
  })
  .meta({ id: 'SplitCircuitRequest' });
export type SplitCircuitHttpRequest = z.input<typeof SplitCircuitHttpRequest>;

const QubitRef = z.object({ cut: z.number().int(), qubit: z.number().int() });

/** A split (libs/circuits `SplitResult`, keys in snake_case). */
export const SplitCircuitHttpSuccess = z
  .object({
    success: z.literal(true),
    original_qubit_count: z.number().int(),
    max_subcircuit_qubits: z.number().int(),
    cuts: z.array(z.object({ cut: z.number().int(), qubit: z.number().int(), after_operation: z.number().int() })),
    subcircuits: z.array(
      z.object({
        index: z.number().int(),
        qubit_count: z.number().int(),
        qubits: z.array(z.object({ qubit: z.number().int(), segment: z.number().int() })),
        openqasm3: z.string().meta({ description: 'the subcircuit with `out` (original results) and `cut` (cut outputs, measured in Z) registers' }),
        cut_inputs: z.array(QubitRef),
        cut_outputs: z.array(QubitRef),
        results: z.array(z.object({ clbit: z.number().int(), qubit: z.number().int() })),
      }),
    ),
    recombination: z.object({
      method: z.string(),
      num_cuts: z.number().int(),
      terms: z.array(z.object({ basis: z.string(), preparations: z.array(z.object({ state: z.string(), coefficient: z.number() })) })),
      normalisation: z.string(),
      basis_change: z.record(z.string(), z.string()),
      preparation_circuits: z.record(z.string(), z.string()),
      subcircuit_runs: z.number().int(),
    }),
    source_framework: z.string(),
  })
  .meta({ id: 'SplitCircuitResponse' });

/** Well formed but not splittable under the limit: 200 with `success: false` (SPEC §6). */
export const SplitCircuitHttpRefusal = z
  .object({
    success: z.literal(false),
    error: z.string(),
    original_qubit_count: z.number().int(),
    max_subcircuit_qubits: z.number().int(),
    source_framework: z.string(),
  })
  .meta({ id: 'SplitCircuitRefusal' });

export const SplitCircuitHttpResponse = z.discriminatedUnion('success', [SplitCircuitHttpSuccess, SplitCircuitHttpRefusal]);
export type SplitCircuitHttpResponse = z.infer<typeof SplitCircuitHttpResponse>;
