import { z } from 'zod';
import { AgentSummary, AgentUsage, CalibrationAgentBody } from '../agents.js';

/** `GET /v0/control/agents` (SPEC §3). */
export const ControlAgentHttp = AgentSummary.meta({ id: 'ControlAgent' });
export type ControlAgentHttp = z.infer<typeof ControlAgentHttp>;
export const ControlAgentsHttpResponse = z.array(ControlAgentHttp);
export type ControlAgentsHttpResponse = z.infer<typeof ControlAgentsHttpResponse>;

export const ControlAgentHttpParams = z.object({ agent_id: z.string().meta({ description: 'e.g. ising-calibration-v1' }) });
export type ControlAgentHttpParams = z.infer<typeof ControlAgentHttpParams>;

/** `POST /agents/ising-calibration-v1` (SPEC §6): a calibration plot (PNG/JPEG, base64 or data: URL) or its arrays; JSON up to 8 MiB. */
export const CalibrationAgentHttpRequest = CalibrationAgentBody.meta({
  id: 'CalibrationAgentRequest',
  description: 'at least one of image_base64 and data',
});
export type CalibrationAgentHttpRequest = z.input<typeof CalibrationAgentHttpRequest>;

const FitParameterHttp = z.object({ value: z.number(), stderr: z.number(), unit: z.string() });

/** SPEC §6 `assessment`. */
export const CalibrationAssessmentHttp = z
  .object({
    experiment: z.string().meta({
      description: 'rabi-amplitude, rabi-time, ramsey, t1, t2-echo, drag, resonator-spectroscopy, qubit-spectroscopy, chevron, iq-readout or unknown',
    }),
    status: z.enum(['success', 'needs-adjustment', 'failed', 'no-signal']),
    fit: z.object({ model: z.string(), parameters: z.record(z.string(), FitParameterHttp), r_squared: z.number() }).nullable(),
    reliability: z.number().min(0).max(1),
    next_step: z.string(),
    series: z.number().int(),
  })
  .meta({ id: 'CalibrationAssessment' });
export type CalibrationAssessmentHttp = z.infer<typeof CalibrationAssessmentHttp>;

export const CalibrationAgentHttpResponse = z
  .object({
    content: z.string().meta({ description: 'a readable summary of the assessment (and the VLM’s text when one is configured)' }),
    model: z.string(),
    usage: AgentUsage,
    assessment: CalibrationAssessmentHttp,
    disagreements: z.array(z.string()).optional().meta({ description: 'where the built-in assessment and the VLM disagree (only with a VLM)' }),
  })
  .meta({ id: 'CalibrationAgentResponse' });
export type CalibrationAgentHttpResponse = z.infer<typeof CalibrationAgentHttpResponse>;
