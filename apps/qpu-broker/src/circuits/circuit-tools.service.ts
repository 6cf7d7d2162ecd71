import { Inject, Injectable, Logger } from '@nestjs/common';
import { CircuitError, emitQasm3, estimateResources, parseCircuit, simulationCost, splitCircuit, transpile } from '#qdc/circuits';
import {
  RpcError,
  type CircuitsCodeRequest,
  type CircuitsResourcesResponse,
  type CircuitsSimulateRequest,
  type CircuitsSimulateResponse,
  type CircuitsSplitRequest,
  type CircuitsSplitResponse,
  type CircuitsToQasm3Response,
  type CircuitsTranspileRequest,
  type CircuitsTranspileResponse,
} from '#qdc/contracts';
import { entryOf, keepFree } from './circuit-entry.js';
import { asRpc } from './circuit-errors.js';
import { runSimulation } from '../simulation/run-simulation.js';
import { SIMULATION_CONFIG, type SimulationConfig } from '../simulation/simulation.config.js';
import { SimulationProducer } from '../simulation/simulation.producer.js';

/** The circuit tools: conversions, resources and cutting in process; simulations inline or queued by cost. */
@Injectable()
export class CircuitToolsService {
  private readonly logger = new Logger(CircuitToolsService.name);

  constructor(
    private readonly simulations: SimulationProducer,
    @Inject(SIMULATION_CONFIG) private readonly sim: SimulationConfig,
  ) {}

  transpile(msg: CircuitsTranspileRequest): CircuitsTranspileResponse {
    return asRpc(() => transpile(msg.code, msg.target, keepFree(msg)));
  }

  toOpenQasm3(msg: CircuitsCodeRequest): CircuitsToQasm3Response {
    return asRpc(() => {
      const { framework, circuit } = parseCircuit(msg.code, keepFree(msg));
      return { sourceFramework: framework, openqasm3: emitQasm3(circuit) };
    });
  }

  estimateResources(msg: CircuitsCodeRequest): CircuitsResourcesResponse {
    return asRpc(() => {
      const { framework, circuit } = parseCircuit(msg.code, keepFree(msg));
      return { ...estimateResources(circuit), sourceFramework: framework };
    });
  }

  /**
   * A circuit that parses but cannot be split under the limit is an answer, not a bad request (SPEC §6):
   * `splitError` says why (the gateway answers 200 `{success: false, error}`); only unparsable code is 422.
   */
  split(msg: CircuitsSplitRequest): CircuitsSplitResponse {
    const { framework, circuit } = asRpc(() => parseCircuit(msg.code, entryOf(msg)));
    // Without a limit, halve the circuit: the smallest split that is still a split.
    const max = msg.maxSubcircuitQubits ?? Math.max(1, Math.ceil(circuit.numQubits / 2));
    try {
      const { result } = splitCircuit(circuit, max);
      return { ...result, sourceFramework: framework } as unknown as CircuitsSplitResponse;
    } catch (error) {
      if (!(error instanceof CircuitError)) throw error;
      return { splitError: error.message, originalQubitCount: circuit.numQubits, maxSubcircuitQubits: max, sourceFramework: framework };
    }
  }

  /** Small simulations run here; large ones (qubits or work above the inline limits) go to the simulation queue. */
  async simulate(msg: CircuitsSimulateRequest, requestId: string): Promise<CircuitsSimulateResponse> {
    const cost = asRpc(() => simulationCost(parseCircuit(msg.code, entryOf(msg)).circuit, msg.shots));
    if (cost.bytes > this.sim.QDC_SIM_MEMORY_LIMIT_BYTES) {
      // Refused before queueing: no worker could run it either.
      const mib = (b: number) => `${Math.round(b / 1024 ** 2)} MiB`;
      throw new RpcError(
        'invalid_input',
        `simulating ${cost.qubits} qubits needs ${mib(cost.bytes)} of state vector; the limit is ${mib(this.sim.QDC_SIM_MEMORY_LIMIT_BYTES)}`,
        { kind: 'memory' },
      );
    }
    const inline = cost.qubits <= this.sim.QDC_SIM_INLINE_MAX_QUBITS && cost.work <= this.sim.QDC_SIM_INLINE_MAX_WORK;
    if (inline) return runSimulation(msg, this.sim, 'inline');
    if (!(await this.simulations.hasWorkers())) {
      // No worker process is running (e.g. a deployment without them): answer rather than wait for the timeout.
      this.logger.warn(`[${requestId}] no simulation worker is connected; simulating ${cost.qubits} qubits inline`);
      return runSimulation(msg, this.sim, 'inline');
    }
    this.logger.log(`[${requestId}] queueing a ${cost.qubits}-qubit simulation (work ${cost.work.toExponential(2)})`);
    return this.simulations.simulate({ ...msg, requestId });
  }
}
