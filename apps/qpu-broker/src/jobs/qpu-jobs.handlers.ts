import { Injectable } from '@nestjs/common';
import {
  QpuRpc,
  type QpuBudgetGetRequest,
  type QpuBudgetSetRequest,
  type QpuEstimateRequest,
  type QpuExecutionCompleteRequest,
  type QpuExecutionFailRequest,
  type QpuExecutionStartRequest,
  type QpuJobRef,
  type QpuJobsListRequest,
  type QpuSubmitRequest,
} from '#qdc/contracts';
import { RpcHandler } from '#qdc/platform';
import { BudgetsService } from '../budgets/budgets.service.js';
import { QpuJobsService } from './qpu-jobs.service.js';

/** NATS consumers of devices, jobs, executions and budgets: parse, delegate, reply. */
@Injectable()
export class QpuJobsHandlers {
  constructor(
    private readonly jobs: QpuJobsService,
    private readonly budgets: BudgetsService,
  ) {}

  @RpcHandler(QpuRpc.devices)
  devices() {
    return this.jobs.devices();
  }

  @RpcHandler(QpuRpc.submit)
  submit(msg: QpuSubmitRequest) {
    return this.jobs.submit(msg);
  }

  @RpcHandler(QpuRpc.estimate)
  estimate(msg: QpuEstimateRequest) {
    return this.jobs.estimate(msg);
  }

  @RpcHandler(QpuRpc.status)
  status(msg: QpuJobRef) {
    return this.jobs.status(msg);
  }

  @RpcHandler(QpuRpc.history)
  history(msg: QpuJobRef) {
    return this.jobs.history(msg);
  }

  @RpcHandler(QpuRpc.cancel)
  cancel(msg: QpuJobRef) {
    return this.jobs.cancel(msg);
  }

  @RpcHandler(QpuRpc.list)
  list(msg: QpuJobsListRequest) {
    return this.jobs.list(msg);
  }

  @RpcHandler(QpuRpc.executionStart)
  executionStart(msg: QpuExecutionStartRequest) {
    return this.jobs.executionStart(msg);
  }

  @RpcHandler(QpuRpc.executionComplete)
  executionComplete(msg: QpuExecutionCompleteRequest) {
    return this.jobs.executionComplete(msg);
  }

  @RpcHandler(QpuRpc.executionFail)
  executionFail(msg: QpuExecutionFailRequest) {
    return this.jobs.executionFail(msg);
  }

  @RpcHandler(QpuRpc.setBudget)
  setBudget(msg: QpuBudgetSetRequest) {
    return this.budgets.set(msg.ownerName, msg.budgetCents);
  }

  @RpcHandler(QpuRpc.getBudget)
  getBudget(msg: QpuBudgetGetRequest) {
    return this.budgets.get(msg.ownerName);
  }
}
