import 'reflect-metadata';
import { exitOnStartupError } from '#qdc/platform';
import { startLabStreams } from './lab-streams.start.js';

startLabStreams().catch(exitOnStartupError('lab-streams'));
