import { Injectable } from '@nestjs/common';
import {
  ResultsCreateRequest,
  ResultsCreateManyRequest,
  ResultsDeleteRequest,
  ResultsDownloadRequest,
  ResultsGetRequest,
  ResultsListRequest,
  ResultsStageInputRequest,
  Subjects,
  VotesDeleteRequest,
  VotesPutRequest,
} from '#qdc/contracts';
import { RpcHandler } from '#qdc/platform';
import { ResultsService } from './results.service.js';

/** NATS consumers: parse, delegate, reply. */
@Injectable()
export class ResultsHandlers {
  constructor(private readonly results: ResultsService) {}

  @RpcHandler(Subjects.ResultsCreate, ResultsCreateRequest)
  create(msg: ResultsCreateRequest) {
    return this.results.create(msg);
  }

  @RpcHandler(Subjects.ResultsCreateMany, ResultsCreateManyRequest)
  createMany(msg: ResultsCreateManyRequest) {
    return this.results.createMany(msg);
  }

  @RpcHandler(Subjects.ResultsStageInput, ResultsStageInputRequest)
  stageInput(msg: ResultsStageInputRequest) {
    return this.results.stageInput(msg);
  }

  @RpcHandler(Subjects.ResultsList, ResultsListRequest)
  list(msg: ResultsListRequest) {
    return this.results.list(msg);
  }

  @RpcHandler(Subjects.ResultsGet, ResultsGetRequest)
  get(msg: ResultsGetRequest) {
    return this.results.get(msg.ownerId, msg.id);
  }

  @RpcHandler(Subjects.ResultsDelete, ResultsDeleteRequest)
  async delete(msg: ResultsDeleteRequest) {
    await this.results.delete(msg.ownerId, msg.id);
    return { detail: 'Model result deleted' };
  }

  @RpcHandler(Subjects.ResultsDownload, ResultsDownloadRequest)
  download(msg: ResultsDownloadRequest) {
    return this.results.download(msg.ownerId, msg.id);
  }

  @RpcHandler(Subjects.VotesPut, VotesPutRequest)
  putVote(msg: VotesPutRequest) {
    return this.results.putVote(msg);
  }

  @RpcHandler(Subjects.VotesDelete, VotesDeleteRequest)
  async deleteVote(msg: VotesDeleteRequest) {
    await this.results.deleteVote(msg.ownerId, msg.id);
    return { detail: 'Vote removed' };
  }

  @RpcHandler(Subjects.RunCounts)
  async runCounts() {
    return { counts: await this.results.runCounts() };
  }
}
