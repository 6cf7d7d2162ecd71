import 'reflect-metadata';
import { exitOnStartupError } from '#qdc/platform';
import { startGateway } from './gateway.start.js';

startGateway().catch(exitOnStartupError('gateway'));
