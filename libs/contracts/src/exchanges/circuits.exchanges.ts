import {
  CircuitsCodeRequest,
  CircuitsResourcesResponse,
  CircuitsSimulateRequest,
  CircuitsSimulateResponse,
  CircuitsSplitRequest,
  CircuitsSplitResponse,
  CircuitsToQasm3Response,
  CircuitsTranspileRequest,
  CircuitsTranspileResponse,
} from '../circuits.js';
import { Subjects } from '../subjects.js';
import { defineRpc } from './define.js';

/** apps/qpu-broker: the circuit tools (gateway → broker). */
export const CircuitToolsRpc = {
  transpile: defineRpc({ subject: Subjects.CircuitsTranspile, request: CircuitsTranspileRequest, response: CircuitsTranspileResponse }),
  toOpenQasm3: defineRpc({ subject: Subjects.CircuitsToQasm3, request: CircuitsCodeRequest, response: CircuitsToQasm3Response }),
  estimateResources: defineRpc({ subject: Subjects.CircuitsResources, request: CircuitsCodeRequest, response: CircuitsResourcesResponse }),
  split: defineRpc({ subject: Subjects.CircuitsSplit, request: CircuitsSplitRequest, response: CircuitsSplitResponse }),
  /** Small circuits are simulated by the broker itself, large ones queued on `simulation` (SimulationJobs.simulate). */
  simulate: defineRpc({ subject: Subjects.CircuitsSimulate, request: CircuitsSimulateRequest, response: CircuitsSimulateResponse }),
} as const;
