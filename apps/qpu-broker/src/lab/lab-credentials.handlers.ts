import { Injectable } from '@nestjs/common';
import {
  QpuRpc,
  type CreatedLabCredentialDto,
  type LabCredentialCreateRequest,
  type LabCredentialDto,
  type LabCredentialRevokeRequest,
  type RevokedLabCredentialDto,
} from '#qdc/contracts';
import { RpcHandler } from '#qdc/platform';
import { LabCredentialsService } from './lab-credentials.service.js';

/** `/v0/admin/lab-credentials` (through the gateway): list, issue and revoke labs' NATS credentials. */
@Injectable()
export class LabCredentialsHandlers {
  constructor(private readonly credentials: LabCredentialsService) {}

  @RpcHandler(QpuRpc.listLabCredentials)
  list(): LabCredentialDto[] {
    return this.credentials.list();
  }

  @RpcHandler(QpuRpc.createLabCredential)
  create(request: LabCredentialCreateRequest): CreatedLabCredentialDto {
    return this.credentials.create(request.lab);
  }

  @RpcHandler(QpuRpc.revokeLabCredential)
  revoke(request: LabCredentialRevokeRequest): RevokedLabCredentialDto {
    return this.credentials.revoke(request.lab);
  }
}
