import type { SettingGroup } from '#qdc/platform';
import { SIMULATION_CONFIG_KEYS, loadSimulationConfig } from './simulation.config.js';

/** The simulator's settings for `.env.example` (npm run env:example): its schema's keys and defaults, one line of meaning each. */
export const simulationSettings = (): SettingGroup => ({
  title: 'circuit simulation: QPU broker and simulation workers (apps/qpu-broker/src/simulation/simulation.config.ts)',
  schema: { keys: SIMULATION_CONFIG_KEYS, defaults: loadSimulationConfig({}) },
  docs: {
    QDC_SIM_MEMORY_LIMIT_BYTES: 'largest state vector a simulation may allocate, bytes (twice the vector with mid-circuit measurement)',
    QDC_SIM_INLINE_MAX_QUBITS: 'larger circuits are simulated by the simulation workers, not the broker',
    QDC_SIM_INLINE_MAX_WORK: 'amplitude updates (2^n × instructions × trajectories) the broker does itself (~0.5 s); more goes to the workers',
  },
});
