import type { CircuitsSimulateResponse, RpcErrorBody } from '#qdc/contracts';

/** Return value of a simulation job: bad input is a final answer, not a failure to retry. */
export type SimulationOutcome = { ok: true; response: CircuitsSimulateResponse } | { ok: false; error: RpcErrorBody };
