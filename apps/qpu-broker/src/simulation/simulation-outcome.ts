import type { CircuitsSimulateResponse } from '#qdc/contracts';
import type { JobOutcome } from '#qdc/platform';

/** Return value of a simulation job: bad input is a final answer, not a failure to retry. */
export type SimulationOutcome = JobOutcome<CircuitsSimulateResponse>;
