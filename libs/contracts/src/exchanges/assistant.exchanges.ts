import { AgentsListRequest, AgentsListResponse, AgentsRunRequest, AgentsRunResponse } from '../agents.js';
import { AssistantAgentsListResponse, AssistantRunControl, AssistantRunStartRequest, AssistantRunStartResponse, AssistantRunsAlive } from '../assistant.js';
import { Events, Subjects } from '../subjects.js';
import { defineEvent, defineRpc } from './define.js';
import { EmptyRequest } from './results.exchanges.js';

/** apps/assistant: the streaming assistant (its events travel on JetStream, see assistantRunEventsSubject). */
export const AssistantRpc = {
  runStart: defineRpc({ subject: Subjects.AssistantRunStart, request: AssistantRunStartRequest, response: AssistantRunStartResponse }),
  agents: defineRpc({ subject: Subjects.AssistantAgentsList, request: EmptyRequest, response: AssistantAgentsListResponse }),
} as const;

export const AssistantEvents = {
  /** gateway → every assistant replica: a client detached from or re-attached to a run. */
  runControl: defineEvent({ subject: Events.AssistantRunControl, payload: AssistantRunControl }),
  /** assistant → gateways: the runs this replica is still running. */
  runsAlive: defineEvent({ subject: Events.AssistantRunsAlive, payload: AssistantRunsAlive }),
} as const;

/** apps/assistant: the control agents (ising-calibration-v1, …). */
export const AgentsRpc = {
  list: defineRpc({ subject: Subjects.AgentsList, request: AgentsListRequest, response: AgentsListResponse }),
  run: defineRpc({ subject: Subjects.AgentsRun, request: AgentsRunRequest, response: AgentsRunResponse }),
} as const;
