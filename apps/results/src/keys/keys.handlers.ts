import { Injectable } from '@nestjs/common';
import { KeysCreateRequest, OwnerEnsureRequest, KeysListRequest, KeysRevokeRequest, KeysVerifyRequest, Subjects } from '#qdc/contracts';
import { KeysService, RpcHandler } from '#qdc/platform';

@Injectable()
export class KeysHandlers {
  constructor(private readonly keys: KeysService) {}

  @RpcHandler(Subjects.KeysVerify, KeysVerifyRequest)
  verify(msg: KeysVerifyRequest) {
    return this.keys.verify(msg.tokenHash);
  }

  @RpcHandler(Subjects.KeysCreate, KeysCreateRequest)
  create(msg: KeysCreateRequest) {
    return this.keys.create(msg);
  }

  @RpcHandler(Subjects.KeysList, KeysListRequest)
  list(msg: KeysListRequest) {
    return this.keys.list(msg.ownerName);
  }

  @RpcHandler(Subjects.OwnerEnsure, OwnerEnsureRequest)
  ensureOwner(msg: OwnerEnsureRequest) {
    return this.keys.ensureOwner(msg.name);
  }

  @RpcHandler(Subjects.KeysRevoke, KeysRevokeRequest)
  revoke(msg: KeysRevokeRequest) {
    return this.keys.revoke(msg.id);
  }
}
