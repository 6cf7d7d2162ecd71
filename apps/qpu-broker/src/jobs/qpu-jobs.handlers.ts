import { Injectable } from '@nestjs/common';
import {
  QpuBudgetGetRequest,
  QpuBudgetSetRequest,
  QpuEstimateRequest,
  QpuExecutionCompleteRequest,
  QpuExecutionFailRequest,
  QpuExecutionStartRequest,
  QpuJobRef,
  QpuJobsListRequest,
  QpuSubmitRequest,
  Subjects,
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

  @RpcHandler(Subjects.QpuDevices)
  devices() {
    return this.jobs.devices();
  }

  @RpcHandler(Subjects.QpuSubmit, QpuSubmitRequest)
  submit(msg: QpuSubmitRequest) {
    return this.jobs.submit(msg);
  }

  @RpcHandler(Subjects.QpuEstimate, QpuEstimateRequest)
  estimate(msg: QpuEstimateRequest) {
    return this.jobs.estimate(msg);
  }

  @RpcHandler(Subjects.QpuStatus, QpuJobRef)
  status(msg: QpuJobRef) {
    return this.jobs.status(msg);
  }

  @RpcHandler(Subjects.QpuJobHistory, QpuJobRef)
  history(msg: QpuJobRef) {
    return this.jobs.history(msg);
  }

  @RpcHandler(Subjects.QpuCancel, QpuJobRef)
  cancel(msg: QpuJobRef) {
    return this.jobs.cancel(msg);
  }

  @RpcHandler(Subjects.QpuJobs, QpuJobsListRequest)
  list(msg: QpuJobsListRequest) {
    return this.jobs.list(msg);
  }

  @RpcHandler(Subjects.QpuExecutionStart, QpuExecutionStartRequest)
  executionStart(msg: QpuExecutionStartRequest) {
    return this.jobs.executionStart(msg);
  }

  @RpcHandler(Subjects.QpuExecutionComplete, QpuExecutionCompleteRequest)
  executionComplete(msg: QpuExecutionCompleteRequest) {
    return this.jobs.executionComplete(msg);
  }

  @RpcHandler(Subjects.QpuExecutionFail, QpuExecutionFailRequest)
  executionFail(msg: QpuExecutionFailRequest) {
    return this.jobs.executionFail(msg);
  }

  @RpcHandler(Subjects.QpuBudgetSet, QpuBudgetSetRequest)
  setBudget(msg: QpuBudgetSetRequest) {
    return this.budgets.set(msg.ownerName, msg.budgetCents);
  }

  @RpcHandler(Subjects.QpuBudgetGet, QpuBudgetGetRequest)
  getBudget(msg: QpuBudgetGetRequest) {
    return this.budgets.get(msg.ownerName);
  }
}
