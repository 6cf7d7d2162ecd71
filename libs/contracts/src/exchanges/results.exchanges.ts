import { z } from 'zod';
import { ModelBatchResultDto, ModelResultDto } from '../models.js';
import { ResultsCreateManyRequest, ResultsCreateManyResponse } from '../frame-jobs.js';
import {
  MaskedResultDto,
  ResultsCreateRequest,
  ResultsCreateResponse,
  ResultsDeleteRequest,
  ResultsDownloadRequest,
  ResultsDownloadResponse,
  ResultsGetRequest,
  ResultsListRequest,
  ResultsStageInputRequest,
  RunCountsResponse,
  RunRecordedEvent,
  VoteDto,
  VotesDeleteRequest,
  VotesPutRequest,
} from '../results.js';
import { Events, Subjects } from '../subjects.js';
import { defineEvent, defineRpc } from './define.js';

/** A request that carries nothing (the subject says it all). */
export const EmptyRequest = z.object({});
/** The answer of a deletion (the HTTP API's `{"detail": "…"}`). */
export const DetailResponse = z.object({ detail: z.string() });

/** apps/results: results, input files, votes and run counters. */
export const ResultsRpc = {
  /** inference worker → results: store a run's result (idempotent by job id). */
  create: defineRpc({ subject: Subjects.ResultsCreate, request: ResultsCreateRequest, response: ResultsCreateResponse }),
  /** inference worker → results: a frame job's results in one insert. */
  createMany: defineRpc({ subject: Subjects.ResultsCreateMany, request: ResultsCreateManyRequest, response: ResultsCreateManyResponse }),
  /** inference worker → results: a large input, stored while the model runs. */
  stageInput: defineRpc({ subject: Subjects.ResultsStageInput, request: ResultsStageInputRequest, response: EmptyRequest }),
  list: defineRpc({ subject: Subjects.ResultsList, request: ResultsListRequest, response: z.array(MaskedResultDto) }),
  get: defineRpc({ subject: Subjects.ResultsGet, request: ResultsGetRequest, response: z.union([ModelResultDto, ModelBatchResultDto]) }),
  delete: defineRpc({ subject: Subjects.ResultsDelete, request: ResultsDeleteRequest, response: DetailResponse }),
  download: defineRpc({ subject: Subjects.ResultsDownload, request: ResultsDownloadRequest, response: ResultsDownloadResponse }),
  putVote: defineRpc({ subject: Subjects.VotesPut, request: VotesPutRequest, response: VoteDto }),
  deleteVote: defineRpc({ subject: Subjects.VotesDelete, request: VotesDeleteRequest, response: DetailResponse }),
  runCounts: defineRpc({ subject: Subjects.RunCounts, request: EmptyRequest, response: RunCountsResponse }),
} as const;

export const ResultsEvents = {
  /** A model's run counter after a stored run (absolute; the gateway's RunCountsCache applies it with max()). */
  runRecorded: defineEvent({ subject: Events.RunRecorded, payload: RunRecordedEvent }),
} as const;
