import { z } from 'zod';
import { LabStreamCreateRequest, LabStreamDeleteRequest, LabStreamDeleteResponse, LabStreamDto, LabStreamListRequest } from '../lab-streams.js';
import { Subjects } from '../subjects.js';
import { defineRpc } from './define.js';

/** The lab-streams service (apps/lab-streams): live instrument streams. */
export const LabStreamsRpc = {
  create: defineRpc({ subject: Subjects.LabStreamCreate, request: LabStreamCreateRequest, response: LabStreamDto }),
  list: defineRpc({ subject: Subjects.LabStreamList, request: LabStreamListRequest, response: z.array(LabStreamDto) }),
  delete: defineRpc({ subject: Subjects.LabStreamDelete, request: LabStreamDeleteRequest, response: LabStreamDeleteResponse }),
} as const;
