import 'reflect-metadata';
import { exitOnStartupError } from '#qdc/platform';
import { startSimulationWorker } from './simulation-worker.start.js';

startSimulationWorker().catch(exitOnStartupError('simulation-worker'));
