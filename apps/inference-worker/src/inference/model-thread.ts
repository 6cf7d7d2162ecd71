/**
 * A thread of the model pool (model-thread-pool.ts): runs one slice of a batch or one whole run and answers with
 * the JSON text of its output, so the main thread joins text instead of cloning thousands of objects.
 */
import { parentPort } from 'node:worker_threads';
import { ModelInputError, runModel, runModelBatch } from '#qdc/characterization';
import type { ModelThreadReply, ModelThreadTask } from './model-thread-pool.js';

parentPort!.on('message', (task: ModelThreadTask) => {
  let reply: ModelThreadReply;
  try {
    const output =
      task.kind === 'slice'
        ? runModelBatch(task.model, { shape: [task.rows, task.length], data: task.data })
        : runModel(task.model, { shape: task.shape, data: task.data });
    reply = { id: task.id, json: JSON.stringify(output) };
  } catch (error) {
    reply = { id: task.id, error: { message: error instanceof Error ? error.message : String(error), inputError: error instanceof ModelInputError } };
  }
  parentPort!.postMessage(reply);
});
