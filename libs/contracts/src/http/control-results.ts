import { z } from 'zod';
import { MaskedResultDto, VoteDto } from '../results.js';
import { ModelBatchResultHttp, ModelResultHttp, PageHttpQuery } from './control-models.js';

/** `GET /model-results`: the caller's results, newest first. Dates are ISO dates (the whole UTC day) or date-times, inclusive. */
export const ModelResultsHttpQuery = PageHttpQuery.extend({
  model_str_id: z.string().optional().meta({ description: 'only results of this model id' }),
  start_date: z.string().optional().meta({ description: 'ISO date or date-time, inclusive' }),
  end_date: z.string().optional().meta({ description: 'ISO date or date-time, inclusive' }),
});
export type ModelResultsHttpQuery = z.infer<typeof ModelResultsHttpQuery>;

/** A result in the list: no file fields, no vote. */
export const MaskedModelResultHttp = MaskedResultDto.meta({ id: 'MaskedModelResult' });
export type MaskedModelResultHttp = z.infer<typeof MaskedModelResultHttp>;

export const MaskedModelResultsHttpResponse = z.array(MaskedModelResultHttp);
export type MaskedModelResultsHttpResponse = z.infer<typeof MaskedModelResultsHttpResponse>;

/** `GET /model-results/{id}`: a single run's result, or a batch's. */
export const StoredModelResultHttp = z.union([ModelResultHttp, ModelBatchResultHttp]);
export type StoredModelResultHttp = z.infer<typeof StoredModelResultHttp>;

export const ModelResultHttpParams = z.object({ id: z.string().meta({ description: 'the result id (UUID)' }) });
export type ModelResultHttpParams = z.infer<typeof ModelResultHttpParams>;

/** `PUT /model-results/{id}/vote`: creates or replaces the caller's vote. */
export const VoteHttpRequest = z
  .object({
    vote: z.union([z.literal(1), z.literal(-1)]),
    feedback: z.string().max(4000).nullish(),
  })
  .meta({ id: 'VoteRequest' });
export type VoteHttpRequest = z.input<typeof VoteHttpRequest>;

export const VoteResponseHttp = VoteDto.meta({ id: 'Vote' });
export type VoteResponseHttp = z.infer<typeof VoteResponseHttp>;
