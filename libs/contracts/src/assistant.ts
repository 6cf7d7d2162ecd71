import { z } from 'zod';

/**
 * The unified assistant (gateway ⇄ apps/assistant). A run is started by request/reply; its events
 * are published on a per-run JetStream subject (`assistantRunEventsSubject`) so a client that
 * reconnects with Last-Event-ID replays what it missed; detach/attach/cancel travel as events.
 */
export const AssistantChatMessage = z.object({
  role: z.enum(['user', 'assistant', 'system']),
  content: z.string(),
});
export type AssistantChatMessage = z.infer<typeof AssistantChatMessage>;

export const AssistantBudget = z.enum(['low', 'medium', 'high']);
export type AssistantBudget = z.infer<typeof AssistantBudget>;
export const AssistantCodeMode = z.enum(['inline', 'file']);
export type AssistantCodeMode = z.infer<typeof AssistantCodeMode>;
/** `learn` explains (a circuit only when one is asked for in so many words); `build` (default) writes circuits. */
export const AssistantMode = z.enum(['build', 'learn']);
export type AssistantMode = z.infer<typeof AssistantMode>;

export const AssistantRunStartRequest = z.object({
  runId: z.string().uuid(),
  ownerId: z.string().uuid(),
  threadId: z.string().min(1).max(200).optional(),
  messages: z.array(AssistantChatMessage).min(1),
  budget: AssistantBudget,
  codeMode: AssistantCodeMode,
  mode: AssistantMode.default('build'),
});
export type AssistantRunStartRequest = z.infer<typeof AssistantRunStartRequest>;
export const AssistantRunStartResponse = z.object({ runId: z.string().uuid(), threadId: z.string() });
export type AssistantRunStartResponse = z.infer<typeof AssistantRunStartResponse>;

/** detach: the client went away (cancel after the grace period unless it reattaches); cancel: now. */
export const AssistantRunControl = z.object({ runId: z.string().uuid(), action: z.enum(['detach', 'attach', 'cancel']) });
export type AssistantRunControl = z.infer<typeof AssistantRunControl>;

/** Every assistant replica lists its running runs periodically, so a gateway notices a run whose process died. */
export const AssistantRunsAlive = z.object({ runIds: z.array(z.string().uuid()) });
export type AssistantRunsAlive = z.infer<typeof AssistantRunsAlive>;
/** How often the alive list is sent: the keepalive interval, at most this. */
export const ASSISTANT_ALIVE_MAX_INTERVAL_MS = 5_000;
/** A run missing from this many consecutive alive lists (plus a second of slack) is considered lost. */
export const ASSISTANT_ALIVE_MISSES = 3;
export const assistantAliveIntervalMs = (keepaliveMs: number): number => Math.min(ASSISTANT_ALIVE_MAX_INTERVAL_MS, keepaliveMs);

export const AssistantAgentsListResponse = z.object({ agents: z.array(z.object({ name: z.string(), description: z.string() })) });
export type AssistantAgentsListResponse = z.infer<typeof AssistantAgentsListResponse>;

/** Headers of every run event: the run's owner (checked on resume) and the event's index in the run. */
export const ASSISTANT_OWNER_HEADER = 'Qdc-Owner';
export const ASSISTANT_EVENT_INDEX_HEADER = 'Qdc-Event-Index';

/** JetStream stream holding run events (per namespace); `*` is the run id. */
export const assistantRunStream = (namespace: string): string => `${namespace}-assistant-runs`;
export const assistantRunEventsSubject = (runId: string): string => `assistant.run-events.v1.${runId}`;
