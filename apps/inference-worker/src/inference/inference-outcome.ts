import type { ModelsRunResponse } from '#qdc/contracts';
import type { JobOutcome } from '#qdc/platform';

/** Return value of an inference job (see JobOutcome). */
export type InferenceOutcome = JobOutcome<ModelsRunResponse>;
