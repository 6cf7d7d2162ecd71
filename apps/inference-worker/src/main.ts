import 'reflect-metadata';
import { exitOnStartupError } from '#qdc/platform';
import { startInferenceWorker } from './worker.start.js';

startInferenceWorker().catch(exitOnStartupError('inference-worker'));
