import { Injectable } from '@nestjs/common';
import {
  ResultsRpc,
  type ResultsCreateRequest,
  type ResultsCreateManyRequest,
  type ResultsDeleteRequest,
  type ResultsDownloadRequest,
  type ResultsGetRequest,
  type ResultsListRequest,
  type ResultsStageInputRequest,
  type VotesDeleteRequest,
  type VotesPutRequest,
} from '#qdc/contracts';
import { RpcHandler } from '#qdc/platform';
import { ResultsService } from './results.service.js';

/** NATS consumers: parse, delegate, reply. */
@Injectable()
export class ResultsHandlers {
  constructor(private readonly results: ResultsService) {}

  @RpcHandler(ResultsRpc.create)
  create(msg: ResultsCreateRequest) {
    return this.results.create(msg);
  }

  @RpcHandler(ResultsRpc.createMany)
  createMany(msg: ResultsCreateManyRequest) {
    return this.results.createMany(msg);
  }

  @RpcHandler(ResultsRpc.stageInput)
  stageInput(msg: ResultsStageInputRequest) {
    return this.results.stageInput(msg);
  }

  @RpcHandler(ResultsRpc.list)
  list(msg: ResultsListRequest) {
    return this.results.list(msg);
  }

  @RpcHandler(ResultsRpc.get)
  get(msg: ResultsGetRequest) {
    return this.results.get(msg.ownerId, msg.id);
  }

  @RpcHandler(ResultsRpc.delete)
  async delete(msg: ResultsDeleteRequest) {
    await this.results.delete(msg.ownerId, msg.id);
    return { detail: 'Model result deleted' };
  }

  @RpcHandler(ResultsRpc.download)
  download(msg: ResultsDownloadRequest) {
    return this.results.download(msg.ownerId, msg.id);
  }

  @RpcHandler(ResultsRpc.putVote)
  putVote(msg: VotesPutRequest) {
    return this.results.putVote(msg);
  }

  @RpcHandler(ResultsRpc.deleteVote)
  async deleteVote(msg: VotesDeleteRequest) {
    await this.results.deleteVote(msg.ownerId, msg.id);
    return { detail: 'Vote removed' };
  }

  @RpcHandler(ResultsRpc.runCounts)
  async runCounts() {
    return { counts: await this.results.runCounts() };
  }
}
