/**
 * The wire shapes, taken from the zod schemas of the HTTP routes (libs/contracts/src/http) as types only: the
 * import is erased at build time, so the client ships no zod. Requests are the schemas' input types (defaults
 * optional), answers their output types.
 */
import type * as Http from '../../../libs/contracts/src/http/index.js';

export type ValidationIssue = Http.ValidationIssueHttp;
export type CodaError = Http.CodaErrorHttpResponse;

// control: models and results
export type Model = Http.ModelHttp;
export type ModelResult = Http.ModelResultHttp;
export type ModelBatchResult = Http.ModelBatchResultHttp;
export type MaskedModelResult = Http.MaskedModelResultHttp;
export type StoredModelResult = Http.StoredModelResultHttp;
export type ModelResultsQuery = Partial<Http.ModelResultsHttpQuery>;
export type PageQuery = Partial<Http.PageHttpQuery>;
export type Vote = Http.VoteHttpRequest['vote'];
export type VoteResponse = Http.VoteResponseHttp;
export type DetailResponse = Http.DetailHttpResponse;

// control agents
export type ControlAgent = Http.ControlAgentHttp;
export type CalibrationAgentRequest = Http.CalibrationAgentHttpRequest;
export type CalibrationAgentResponse = Http.CalibrationAgentHttpResponse;

// coda: circuit tools
export type TranspileRequest = Http.TranspileHttpRequest;
export type TranspileResponse = Http.TranspileHttpResponse;
export type SimulateRequest = Http.SimulateHttpRequest;
export type SimulateResponse = Http.SimulateHttpResponse;
export type CodeRequest = Http.CodeHttpRequest;
export type ToOpenQasm3Response = Http.ToOpenQasm3HttpResponse;
export type EstimateResourcesResponse = Http.EstimateResourcesHttpResponse;
export type SplitCircuitRequest = Http.SplitCircuitHttpRequest;
/** `success: false` with 200 is an answer, not an error: a circuit that cannot be split under the limit. */
export type SplitCircuitResponse = Http.SplitCircuitHttpResponse;

// coda: QPUs
export type QpuDevice = Http.QpuDeviceHttp;
export type QpuDevicesResponse = Http.QpuDevicesHttpResponse;
export type QpuEstimateRequest = Http.QpuJobHttpRequest;
export type QpuSubmitRequest = Http.QpuSubmitHttpRequest;
export type QpuSubmitResponse = Http.QpuSubmitHttpResponse;
export type QpuEstimateResponse = Http.QpuEstimateHttpResponse;
export type QpuStatusResponse = Http.QpuStatusHttpResponse;
export type QpuJob = Http.QpuJobHttp;
export type QpuJobStatus = Http.QpuJobHttp['status'];
export type QpuCancelResponse = Http.QpuCancelHttpResponse;
export type QpuJobsQuery = Partial<Http.QpuJobsHttpQuery>;
export type QpuJobsResponse = Http.QpuJobsHttpResponse;
export type QpuJobEvent = Http.QpuJobEventHttp;

// coda: assistant
export type AssistantRequest = Http.AssistantRequestHttp;
export type AssistantEvent = Http.AssistantEventHttp;
export type AssistantAgentsResponse = Http.AssistantAgentsHttpResponse;

// system
export type Health = Http.HealthHttpResponse;

// admin
export type ApiKey = Http.ApiKeyHttp;
export type ApiKeyCreateRequest = Http.ApiKeyCreateHttpRequest;
export type CreatedApiKey = Http.CreatedApiKeyHttp;
export type QpuBudget = Http.QpuBudgetHttp;
export type LabStreamEvent = Http.LabStreamEventHttp;
export type LabStream = Http.LabStreamHttp;
export type LabStreamCreateRequest = Http.LabStreamCreateHttpRequest;
export type LabStreamDeleteResponse = Http.LabStreamDeleteHttpResponse;
export type LabCredential = Http.LabCredentialHttp;
export type LabCredentialCreateRequest = Http.LabCredentialCreateHttpRequest;
export type CreatedLabCredential = Http.CreatedLabCredentialHttp;
export type RevokedLabCredential = Http.RevokedLabCredentialHttp;

// webhooks
export type Webhook = Http.WebhookHttp;
export type WebhookWithSecret = Http.WebhookWithSecretHttp;
export type WebhookCreateRequest = Http.WebhookCreateHttpRequest;
export type WebhookDelivery = Http.WebhookDeliveryHttp;
export type WebhookDeliveriesQuery = Http.WebhookDeliveriesHttpQuery;
