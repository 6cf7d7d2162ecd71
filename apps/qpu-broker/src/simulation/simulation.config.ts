import { z } from 'zod';
import { DEFAULT_MEMORY_LIMIT_BYTES } from '#qdc/circuits';

/**
 * Simulator settings (README › Configuration), validated once at boot. The broker simulates
 * small circuits itself and sends the rest to the `simulation` queue, whose workers scale out.
 */
const SimulationConfigSchema = z.object({
  QDC_SIM_MEMORY_LIMIT_BYTES: z.coerce.number().int().positive().default(DEFAULT_MEMORY_LIMIT_BYTES),
  QDC_SIM_INLINE_MAX_QUBITS: z.coerce.number().int().nonnegative().default(20),
  /** Amplitude updates (2^n × instructions × trajectories) the broker may do inline; ~0.5 s. */
  QDC_SIM_INLINE_MAX_WORK: z.coerce
    .number()
    .positive()
    .default(2 ** 28),
  QDC_SIM_TIMEOUT_MS: z.coerce.number().int().positive().default(300_000),
});

export type SimulationConfig = z.infer<typeof SimulationConfigSchema>;
export const SIMULATION_CONFIG = Symbol('SIMULATION_CONFIG');

/** Every setting name of this schema (`.env.example` is generated from these). */
export const SIMULATION_CONFIG_KEYS: readonly string[] = Object.keys(SimulationConfigSchema.shape);

export function loadSimulationConfig(env: NodeJS.ProcessEnv = process.env): SimulationConfig {
  const parsed = SimulationConfigSchema.safeParse(env);
  if (!parsed.success) throw new Error(`invalid simulator configuration: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
  return parsed.data;
}

export const simulationConfigProvider = { provide: SIMULATION_CONFIG, useFactory: () => loadSimulationConfig() };
