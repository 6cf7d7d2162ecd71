import { z } from 'zod';

/**
 * Control agents (SPEC §3 "Agents", §6 `ising-calibration-v1`): gateway → assistant. The HTTP body of a run is
 * agent-specific, so it travels as it came (`body`) and the agent parses it with its own schema below.
 */
export const AgentSummary = z.object({ id: z.string(), name: z.string(), description: z.string() });
export type AgentSummary = z.infer<typeof AgentSummary>;

export const AgentsListRequest = z.object({ skip: z.number().int().min(0), limit: z.number().int().min(1).max(1000) });
export type AgentsListRequest = z.infer<typeof AgentsListRequest>;
export const AgentsListResponse = z.array(AgentSummary);
export type AgentsListResponse = z.infer<typeof AgentsListResponse>;

export const AgentsRunRequest = z.object({ ownerId: z.string(), agentId: z.string().min(1).max(200), body: z.unknown() });
export type AgentsRunRequest = z.infer<typeof AgentsRunRequest>;
export const AgentsRunResponse = z.record(z.string(), z.unknown());
export type AgentsRunResponse = z.infer<typeof AgentsRunResponse>;

/** HTTP JSON body limit of agent runs (SPEC §5: 8 MiB, for images). */
export const AGENT_BODY_LIMIT_BYTES = 8 * 1024 * 1024;

const finite = z.number().refine(Number.isFinite, 'expected a finite number');

/** `ising-calibration-v1` request body (SPEC §6). */
export const CalibrationAgentBody = z
  .object({
    image_base64: z.string().min(1).optional(),
    prompt: z.string().max(100_000).optional(),
    max_tokens: z.number().int().min(1).max(100_000).optional(),
    data: z
      .object({
        experiment: z.string().max(200).optional(),
        x: z.array(finite).min(5).max(1_000_000),
        y: z.union([z.array(finite).min(5), z.array(z.array(finite).min(5)).min(1).max(64)]),
        x_label: z.string().max(1000).optional(),
        y_label: z.string().max(1000).optional(),
        units: z.union([z.string().max(100), z.object({ x: z.string().max(100).optional(), y: z.string().max(100).optional() })]).optional(),
        title: z.string().max(1000).optional(),
      })
      .optional(),
  })
  .refine((body) => body.image_base64 !== undefined || body.data !== undefined, { message: 'expected at least one of image_base64 and data' });
export type CalibrationAgentBody = z.infer<typeof CalibrationAgentBody>;

/** Token counts (SPEC §3). */
export const AgentUsage = z.object({ prompt_tokens: z.number().int(), completion_tokens: z.number().int(), total_tokens: z.number().int() });
export type AgentUsage = z.infer<typeof AgentUsage>;
