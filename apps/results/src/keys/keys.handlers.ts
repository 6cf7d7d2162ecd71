import { Injectable } from '@nestjs/common';
import { KeysRpc, type KeysCreateRequest, type OwnerEnsureRequest, type KeysListRequest, type KeysRevokeRequest, type KeysVerifyRequest } from '#qdc/contracts';
import { KeysService, RpcHandler } from '#qdc/platform';

@Injectable()
export class KeysHandlers {
  constructor(private readonly keys: KeysService) {}

  @RpcHandler(KeysRpc.verify)
  verify(msg: KeysVerifyRequest) {
    return this.keys.verify(msg.tokenHash);
  }

  @RpcHandler(KeysRpc.create)
  create(msg: KeysCreateRequest) {
    return this.keys.create(msg);
  }

  @RpcHandler(KeysRpc.list)
  list(msg: KeysListRequest) {
    return this.keys.list(msg.ownerName);
  }

  @RpcHandler(KeysRpc.ensureOwner)
  ensureOwner(msg: OwnerEnsureRequest) {
    return this.keys.ensureOwner(msg.name);
  }

  @RpcHandler(KeysRpc.revoke)
  revoke(msg: KeysRevokeRequest) {
    return this.keys.revoke(msg.id);
  }
}
