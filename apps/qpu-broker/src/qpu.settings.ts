import type { SettingGroup } from '#qdc/platform';
import { QPU_CONFIG_KEYS, loadQpuConfig } from './qpu.config.js';

/** The QPU broker's settings for `.env.example` (npm run env:example): its schema's keys and defaults, one line of meaning each. */
export const qpuSettings = (): SettingGroup => ({
  title: 'QPU broker and its simulation workers (apps/qpu-broker/src/qpu.config.ts)',
  schema: { keys: QPU_CONFIG_KEYS, defaults: loadQpuConfig({}, () => undefined) },
  docs: {
    QDC_QPU_DEVICES_DIR: {
      meaning: 'directory of device files (*.json)',
      shownDefault: 'devices/ of the repository or image',
      example: '/app/devices',
    },
    QDC_QPU_TIME_SCALE: 'simulated device time = shots × shot_time_us × this factor (0 = no waiting)',
    QDC_QPU_JOB_ATTEMPTS: 'executions of a QPU job before it is failed (a worker dying mid-job counts as one)',
    QDC_QPU_REPORT_TIMEOUT_MS: 'how long a worker keeps retrying to hand a result to the broker before giving the job back, ms',
    QDC_QPU_SWEEP_INTERVAL_MS: 'recovery sweep interval (re-enqueue lost hand-overs, fail dead-lettered jobs), ms',
    QDC_IONQ_API_KEY: { meaning: 'IonQ cloud backend (v0.3 API), SECRET: enabled only when set; devices with provider "ionq"' },
    QDC_IONQ_BASE_URL: 'IonQ API base URL',
    QDC_QPU_POLL_INITIAL_MS: 'first status poll of a cloud job, then doubling up to the maximum interval, ms',
    QDC_QPU_POLL_MAX_INTERVAL_MS: 'longest interval between status polls of a cloud job, ms',
    QDC_QPU_POLL_MAX_AGE_MS: 'a cloud job without a final status after this long is failed, ms',
    QDC_LAB_OFFLINE_AFTER_MS: 'lab nodes (docs/lab-integration.md): offline after this long without a heartbeat (nodes heartbeat at a third of it), ms',
    QDC_LAB_ACK_WAIT_MS: 'a lab node that neither reports progress nor acknowledges a job for this long has it redelivered, ms',
    QDC_LAB_MAX_DELIVER: 'deliveries of a lab job (a node dying mid-job counts as one) before it is failed',
    QDC_NATS_AUTH_DIR: {
      meaning:
        'lab credentials directory (labs.json, auth.conf; shared by every broker replica) the admin routes /v0/admin/lab-credentials manage, as `qdc lab …` does; unset: those routes answer 503',
      example: './nats-auth',
    },
    QDC_NATS_PID_FILE: {
      meaning: "nats-server's pid_file on this host: after issuing or revoking lab credentials the broker sends it SIGHUP (reload); unset: reload by hand",
      example: '/var/run/nats-server.pid',
    },
    QDC_QPU_QUEUE_TIMEOUT:
      'a QPU job queued this long for a device that is not online is failed, ms (SPEC §6; the old name QDC_QPU_QUEUE_TIMEOUT_MS is a deprecated alias)',
  },
});
