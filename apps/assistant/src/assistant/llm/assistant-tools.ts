import { Injectable } from '@nestjs/common';
import { estimateResources, parseCircuit, simulate, simulationCost, transpile, emitQasm3 } from '#qdc/circuits';
import { QpuRpc } from '#qdc/contracts';
import { RpcClient } from '#qdc/platform';
import { KnowledgeService } from '../knowledge.service.js';
import type { ChatTool } from './openai-chat.client.js';

/** The model's tools run in process on libs/circuits; simulations are bounded so a tool call stays fast. */
const MAX_TOOL_QUBITS = 20;
const MAX_TOOL_WORK = 2 ** 26;
const MAX_TOOL_SHOTS = 100_000;

const code = { type: 'string', description: 'circuit source: Qiskit or Cirq Python (a documented subset, never executed), OpenQASM 2 or 3' };

export const TOOL_DEFINITIONS: ChatTool[] = [
  {
    type: 'function',
    function: {
      name: 'simulate',
      description: "Simulate a circuit on QDC's statevector simulator and return measurement counts (bitstrings little-endian: classical bit 0 rightmost).",
      parameters: {
        type: 'object',
        properties: { code, shots: { type: 'integer', minimum: 1, maximum: MAX_TOOL_SHOTS }, seed: { type: 'integer' } },
        required: ['code'],
      },
    },
  },
  {
    type: 'function',
    function: {
      name: 'transpile',
      description: 'Convert a circuit to another framework: qiskit, cirq, openqasm2, openqasm3, pennylane or braket.',
      parameters: {
        type: 'object',
        properties: { code, target: { type: 'string', enum: ['qiskit', 'cirq', 'openqasm2', 'openqasm3', 'pennylane', 'braket'] } },
        required: ['code', 'target'],
      },
    },
  },
  {
    type: 'function',
    function: {
      name: 'to_openqasm3',
      description: 'Convert a circuit to OpenQASM 3.',
      parameters: { type: 'object', properties: { code }, required: ['code'] },
    },
  },
  {
    type: 'function',
    function: {
      name: 'estimate_resources',
      description: 'Qubit and classical bit counts, depth, gate counts, two-qubit and T counts of a circuit.',
      parameters: { type: 'object', properties: { code }, required: ['code'] },
    },
  },
  {
    type: 'function',
    function: {
      name: 'list_qpus',
      description: 'The QPU devices this QDC can run circuits on (id, provider, qubits, native gates, status, queue depth, pricing in cents).',
      parameters: { type: 'object', properties: {} },
    },
  },
  {
    type: 'function',
    function: {
      name: 'list_characterization_models',
      description: 'The device-characterization models QDC serves (id, name, description, input requirements).',
      parameters: { type: 'object', properties: {} },
    },
  },
  {
    type: 'function',
    function: {
      name: 'search_docs',
      description: "Search QDC's own documentation and knowledge base (concepts, models, API usage); returns the best sections with their paths.",
      parameters: { type: 'object', properties: { query: { type: 'string' } }, required: ['query'] },
    },
  },
];

@Injectable()
export class AssistantTools {
  readonly definitions = TOOL_DEFINITIONS;

  constructor(
    private readonly knowledge: KnowledgeService,
    private readonly rpc: RpcClient,
  ) {}

  /** Runs a tool; failures are returned to the model as `{error}` so it can correct itself. */
  async call(name: string, rawArguments: string): Promise<Record<string, unknown>> {
    let args: Record<string, unknown>;
    try {
      args = rawArguments.trim() ? (JSON.parse(rawArguments) as Record<string, unknown>) : {};
    } catch {
      return { error: `the arguments are not valid JSON: ${rawArguments.slice(0, 200)}` };
    }
    try {
      return await this.dispatch(name, args);
    } catch (error) {
      return { error: (error as Error).message };
    }
  }

  private async dispatch(name: string, args: Record<string, unknown>): Promise<Record<string, unknown>> {
    const source = (): string => {
      if (typeof args.code !== 'string' || !args.code.trim()) throw new Error('`code` (circuit source) is required');
      return args.code;
    };
    switch (name) {
      case 'simulate': {
        const circuit = parseCircuit(source()).circuit;
        const shots = Math.min(MAX_TOOL_SHOTS, Math.max(1, Number(args.shots ?? 1024) | 0));
        const cost = simulationCost(circuit, shots);
        if (cost.qubits > MAX_TOOL_QUBITS || cost.work > MAX_TOOL_WORK)
          throw new Error(
            `the assistant simulates up to ${MAX_TOOL_QUBITS} qubits and ${MAX_TOOL_WORK} amplitude updates per call; this circuit has ${cost.qubits} qubits and needs ${cost.work}`,
          );
        const r = simulate(circuit, { shots, ...(typeof args.seed === 'number' ? { seed: args.seed } : {}) });
        return { counts: r.counts, shots: r.shots, qubit_count: r.qubitCount, seed: r.seed };
      }
      case 'transpile': {
        const r = transpile(source(), String(args.target ?? ''));
        return { source_framework: r.sourceFramework, target_framework: r.targetFramework, converted_code: r.code };
      }
      case 'to_openqasm3':
        return { openqasm3: emitQasm3(parseCircuit(source()).circuit) };
      case 'estimate_resources': {
        const r = estimateResources(parseCircuit(source()).circuit);
        return { ...r } as Record<string, unknown>;
      }
      case 'list_qpus': {
        // Asked of the QPU broker (it owns devices and queues); a broker that does not answer is an error the model can report.
        const devices = await this.rpc.call(QpuRpc.devices, {}, { timeoutMs: 5_000 });
        return {
          devices: devices.map((d) => ({
            id: d.id,
            name: d.name,
            provider: d.provider,
            num_qubits: d.num_qubits,
            native_gates: d.native_gates,
            status: d.status,
            queue_depth: d.queue_depth,
            pricing: d.pricing,
          })),
        };
      }
      case 'list_characterization_models': {
        // Loaded on first use: the catalogue pulls in every model (and its weights), which the offline engine never needs.
        const { MODEL_CATALOGUE } = await import('#qdc/characterization');
        return {
          models: MODEL_CATALOGUE.map((m) => ({ id: m.id, name: m.name, description: m.description, input: m.inputShapeRequirements, batch: m.batch })),
        };
      }
      case 'search_docs': {
        const query = String(args.query ?? '');
        if (!query.trim()) throw new Error('`query` is required');
        return { results: this.knowledge.docs.search(query, 3).map((h) => ({ source: `${h.path} § ${h.heading}`, text: h.body.slice(0, 1500) })) };
      }
      default:
        return { error: `unknown tool '${name}'; available: ${TOOL_DEFINITIONS.map((t) => t.function.name).join(', ')}` };
    }
  }
}
