/**
 * A thread of the batch pool (batch-thread-pool.ts): runs one slice of a batch and answers with the JSON text of
 * its outputs, so the main thread joins text instead of cloning thousands of objects.
 */
import { parentPort } from 'node:worker_threads';
import { ModelInputError, runModelBatch } from '#qdc/characterization';
import type { BatchSliceReply, BatchSliceTask } from './batch-thread-pool.js';

parentPort!.on('message', (task: BatchSliceTask) => {
  let reply: BatchSliceReply;
  try {
    const outputs = runModelBatch(task.model, { shape: [task.rows, task.length], data: task.data });
    reply = { id: task.id, outputsJson: JSON.stringify(outputs) };
  } catch (error) {
    reply = { id: task.id, error: { message: error instanceof Error ? error.message : String(error), inputError: error instanceof ModelInputError } };
  }
  parentPort!.postMessage(reply);
});
