import 'reflect-metadata';
import { exitOnStartupError } from '#qdc/platform';
import { startQpuBroker } from './qpu-broker.start.js';

startQpuBroker().catch(exitOnStartupError('qpu-broker'));
