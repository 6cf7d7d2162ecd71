import { z } from 'zod';
import {
  CreatedLabCredentialDto,
  LabCredentialCreateRequest,
  LabCredentialDto,
  LabCredentialRevokeRequest,
  LabRemoveDevicesRequest,
  LabRemoveDevicesResponse,
  RevokedLabCredentialDto,
} from '../lab.js';
import {
  QpuBudgetDto,
  QpuBudgetGetRequest,
  QpuBudgetSetRequest,
  QpuCancelResponse,
  QpuDeviceDto,
  QpuEstimateRequest,
  QpuEstimateResponse,
  QpuExecutionAck,
  QpuExecutionCompleteRequest,
  QpuExecutionFailRequest,
  QpuExecutionStartRequest,
  QpuExecutionStartResponse,
  QpuJobDto,
  QpuJobHistoryResponse,
  QpuJobRef,
  QpuJobStatusChangedEvent,
  QpuJobsListRequest,
  QpuSubmitRequest,
  QpuSubmitResponse,
} from '../qpu.js';
import { Events, Subjects } from '../subjects.js';
import { defineEvent, defineRpc } from './define.js';
import { EmptyRequest } from './results.exchanges.js';

/** apps/qpu-broker: devices, QPU jobs, their execution by the simulation workers, budgets, lab devices. */
export const QpuRpc = {
  devices: defineRpc({ subject: Subjects.QpuDevices, request: EmptyRequest, response: z.array(QpuDeviceDto) }),
  submit: defineRpc({ subject: Subjects.QpuSubmit, request: QpuSubmitRequest, response: QpuSubmitResponse }),
  estimate: defineRpc({ subject: Subjects.QpuEstimate, request: QpuEstimateRequest, response: QpuEstimateResponse }),
  status: defineRpc({ subject: Subjects.QpuStatus, request: QpuJobRef, response: QpuJobDto }),
  history: defineRpc({ subject: Subjects.QpuJobHistory, request: QpuJobRef, response: QpuJobHistoryResponse }),
  cancel: defineRpc({ subject: Subjects.QpuCancel, request: QpuJobRef, response: QpuCancelResponse }),
  list: defineRpc({ subject: Subjects.QpuJobs, request: QpuJobsListRequest, response: z.array(QpuJobDto) }),
  /** simulation worker → broker: queued → running (a cancelled job is not run). */
  executionStart: defineRpc({ subject: Subjects.QpuExecutionStart, request: QpuExecutionStartRequest, response: QpuExecutionStartResponse }),
  /** simulation worker → broker: the counts, stored before the BullMQ job completes. */
  executionComplete: defineRpc({ subject: Subjects.QpuExecutionComplete, request: QpuExecutionCompleteRequest, response: QpuExecutionAck }),
  executionFail: defineRpc({ subject: Subjects.QpuExecutionFail, request: QpuExecutionFailRequest, response: QpuExecutionAck }),
  setBudget: defineRpc({ subject: Subjects.QpuBudgetSet, request: QpuBudgetSetRequest, response: QpuBudgetDto }),
  getBudget: defineRpc({ subject: Subjects.QpuBudgetGet, request: QpuBudgetGetRequest, response: QpuBudgetDto }),
  /** `qdc lab remove`: a lab's devices leave the catalogue, their open jobs fail. */
  removeLabDevices: defineRpc({ subject: Subjects.LabRemoveDevices, request: LabRemoveDevicesRequest, response: LabRemoveDevicesResponse }),
  /** Lab credentials (nkey users in QDC_NATS_AUTH_DIR): list, issue (the seed in this answer only), revoke (nats-server reloaded). */
  listLabCredentials: defineRpc({ subject: Subjects.LabCredentialsList, request: EmptyRequest, response: z.array(LabCredentialDto) }),
  createLabCredential: defineRpc({ subject: Subjects.LabCredentialsCreate, request: LabCredentialCreateRequest, response: CreatedLabCredentialDto }),
  revokeLabCredential: defineRpc({ subject: Subjects.LabCredentialsRevoke, request: LabCredentialRevokeRequest, response: RevokedLabCredentialDto }),
} as const;

/** A lab device registered or removed: every broker replica reloads the lab devices. */
export const LabDeviceChangedEvent = z.object({ deviceId: z.string().optional(), lab: z.string().optional(), removed: z.array(z.string()).optional() });
export type LabDeviceChangedEvent = z.infer<typeof LabDeviceChangedEvent>;

export const QpuEvents = {
  /** Every persisted state change of a QPU job (gateway event streams, a running simulation's cancellation). */
  jobStatusChanged: defineEvent({ subject: Events.QpuJobStatusChanged, payload: QpuJobStatusChangedEvent }),
  labDeviceChanged: defineEvent({ subject: Events.LabDeviceChanged, payload: LabDeviceChangedEvent }),
} as const;
