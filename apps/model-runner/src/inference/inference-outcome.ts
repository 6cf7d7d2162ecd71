import type { ModelsRunResponse, RpcErrorBody } from '#qdc/contracts';

/**
 * Return value of an inference job. Bad input is a final answer, not a failure to retry,
 * so it completes the job with an error body instead of throwing.
 */
export type InferenceOutcome = { ok: true; response: ModelsRunResponse } | { ok: false; error: RpcErrorBody };
