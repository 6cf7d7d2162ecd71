import { z } from 'zod';

/**
 * A device file (`<QDC_QPU_DEVICES_DIR>/*.json`): the SPEC §6 device fields. `provider` picks the
 * backend: `qdc-sim` devices run on the simulation workers with their `noise` figures; `ionq` devices
 * go to IonQ's cloud API (only when QDC_IONQ_API_KEY is set), with `ionq_target` naming IonQ's target.
 */
export const DeviceFile = z
  .object({
    id: z.string().regex(/^[a-z0-9][a-z0-9._-]{0,63}$/, 'lower-case letters, digits, dots, dashes and underscores'),
    name: z.string().min(1),
    provider: z.string().min(1),
    num_qubits: z.number().int().min(1).max(64),
    native_gates: z.array(z.string().min(1)).min(1),
    coupling_map: z.array(z.tuple([z.number().int().nonnegative(), z.number().int().nonnegative()])).nullable(),
    status: z.enum(['online', 'offline', 'maintenance']).default('online'),
    pricing: z.object({ per_task_cents: z.number().nonnegative(), per_shot_cents: z.number().nonnegative() }),
    noise: z.record(z.string(), z.unknown()).optional(),
    max_shots: z.number().int().min(1),
    shot_time_us: z.number().nonnegative(),
    ionq_target: z.string().optional(),
  })
  .passthrough();
export type DeviceFile = z.infer<typeof DeviceFile>;
