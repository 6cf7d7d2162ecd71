import { z } from 'zod';
import { ModelBatchResultDto, ModelResultDto } from '../models.js';

/** `skip` and `limit` of every list route (FastAPI's bounds: skip ≥ 0, 1 ≤ limit ≤ 1000). */
export const PageHttpQuery = z.object({
  skip: z.number().int().min(0).default(0),
  limit: z.number().int().min(1).max(1000).default(100),
});
export type PageHttpQuery = z.infer<typeof PageHttpQuery>;

/** A catalogue model (SPEC §3): every field required. */
export const ModelHttp = z
  .object({
    id: z.string().meta({ description: 'the model id, with its version suffix' }),
    name: z.string(),
    description: z.string(),
    released: z.string().meta({ format: 'date-time', description: 'ISO-8601 UTC' }),
    number_of_runs: z.number().int().meta({ description: 'runs by all owners' }),
    input_shape_requirements: z.string().meta({ description: 'human-readable' }),
    nn_input_shape_requirements: z.array(z.string()).nullable(),
    nn_output_shape_requirements: z.array(z.string()).nullable(),
  })
  .meta({ id: 'Model' });
export type ModelHttp = z.infer<typeof ModelHttp>;

export const ModelsHttpResponse = z.array(ModelHttp);
export type ModelsHttpResponse = z.infer<typeof ModelsHttpResponse>;

export const ModelHttpParams = z.object({ model_id: z.string() });
export type ModelHttpParams = z.infer<typeof ModelHttpParams>;

/** A form boolean: `true`, `false`, `1` or `0` in any case (the JSON Schema pattern shows the lower-case spelling). */
const FormBoolean = z
  .union([z.boolean(), z.string().regex(/^(true|false|1|0)$/i)])
  .default(false)
  .meta({ description: 'true, false, 1 or 0 (any case)' });

/**
 * `multipart/form-data` of `POST /models` and `POST /models/batch`. `data` is the array file: `.npy` (v1/v2/v3) or `.pt`
 * (torch.save zip) holding one tensor, detected from its content; for a batch a 2-D `(batch_size, trace_length)` array.
 */
export const ModelRunHttpForm = z
  .object({
    model: z.string().min(1).meta({ description: 'a model id from GET /models' }),
    data: z.custom<Blob | Uint8Array>().meta({ type: 'string', format: 'binary', description: '.npy or .pt file holding one array' }),
    plot: FormBoolean.meta({ description: 'adds output.plot, a data: URL of the input with the detections drawn (true, false, 1 or 0; any case)' }),
    dark_mode: FormBoolean.meta({ description: 'the plot on a dark theme (true, false, 1 or 0; any case)' }),
  })
  .meta({ id: 'ModelRunForm' });
export type ModelRunHttpForm = z.input<typeof ModelRunHttpForm>;

/** A stored run (SPEC §3), as `POST /models` and `GET /model-results/{id}` answer it. */
export const ModelResultHttp = ModelResultDto.meta({ id: 'ModelResult', description: '`user_vote` is the caller’s vote: 1, -1 or null' });
export type ModelResultHttp = z.infer<typeof ModelResultHttp>;

/** A batch run: one output per row, in row order; no input_file_size, no user_vote. */
export const ModelBatchResultHttp = ModelBatchResultDto.meta({ id: 'ModelBatchResult' });
export type ModelBatchResultHttp = z.infer<typeof ModelBatchResultHttp>;
