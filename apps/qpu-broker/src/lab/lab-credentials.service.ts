import { Inject, Injectable, Logger } from '@nestjs/common';
import { RpcError, type CreatedLabCredentialDto, type LabCredentialDto, type RevokedLabCredentialDto } from '#qdc/contracts';
import { LabAuthError, issueLabCredentials, listLabs, reloadNatsServer, removeLab, type LabIdentity } from '#qdc/lab';
import { QDC_CONFIG, type QdcConfig } from '#qdc/platform';
import { QPU_CONFIG, type QpuConfig } from '../qpu.config.js';

const dto = (identity: LabIdentity): LabCredentialDto => ({ lab: identity.lab, public_key: identity.publicKey, added_at: identity.addedAt });

/**
 * Lab credentials for the admin routes: the same nkey users, labs.json and auth.conf as `qdc lab add|remove|list`
 * (libs/lab), in QDC_NATS_AUTH_DIR. A change is applied by reloading nats-server (SIGHUP to QDC_NATS_PID_FILE), at
 * which the server closes a revoked lab's connections. A lab's devices and streams are not touched here.
 */
@Injectable()
export class LabCredentialsService {
  private readonly logger = new Logger(LabCredentialsService.name);

  constructor(
    @Inject(QDC_CONFIG) private readonly config: QdcConfig,
    @Inject(QPU_CONFIG) private readonly qpu: QpuConfig,
  ) {}

  list(): LabCredentialDto[] {
    return listLabs(this.authDir()).map(dto);
  }

  create(lab: string): CreatedLabCredentialDto {
    const issued = this.mapErrors(() => issueLabCredentials(this.authDir(), this.config.QDC_NAMESPACE, lab, { setUp: false }));
    this.logger.log(`lab ${lab}: credentials issued (public key ${issued.identity.publicKey})`);
    return { ...dto(issued.identity), credentials: issued.credentials, reloaded: this.reload() };
  }

  revoke(lab: string): RevokedLabCredentialDto {
    const revoked = this.mapErrors(() => removeLab(this.authDir(), this.config.QDC_NAMESPACE, lab));
    if (!revoked) throw new RpcError('not_found', `lab ${lab} has no credentials`);
    this.logger.log(`lab ${lab}: credentials revoked (public key ${revoked.identity.publicKey})`);
    return { ...dto(revoked.identity), revoked_at: new Date().toISOString(), reloaded: this.reload() };
  }

  private authDir(): string {
    const dir = this.qpu.QDC_NATS_AUTH_DIR;
    if (!dir)
      throw new RpcError('unavailable', 'lab credentials are not managed by this QDC (QDC_NATS_AUTH_DIR is not set on the qpu-broker); use `qdc lab …`');
    return dir;
  }

  /** True when nats-server was told to reload; without QDC_NATS_PID_FILE the operator reloads it. */
  private reload(): boolean {
    const pidFile = this.qpu.QDC_NATS_PID_FILE;
    if (!pidFile) return false;
    try {
      reloadNatsServer(pidFile);
      return true;
    } catch (error) {
      this.logger.error(`could not reload nats-server (${pidFile}): ${(error as Error).message}`);
      return false;
    }
  }

  private mapErrors<T>(action: () => T): T {
    try {
      return action();
    } catch (error) {
      if (!(error instanceof LabAuthError)) throw error;
      throw new RpcError(error.reason === 'invalid' ? 'invalid_input' : 'conflict', error.message);
    }
  }
}
