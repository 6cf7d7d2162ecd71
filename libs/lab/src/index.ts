export {
  LabAuthError,
  addLab,
  issueLabCredentials,
  labPermissions,
  listLabs,
  reloadNatsServer,
  removeLab,
  renderAuthConf,
  type LabCredentialsFile,
  type LabIdentity,
} from './lab-auth.js';
export { ExecutorSpec, commandExecutor, httpExecutor, simulatorExecutor, type Executor } from './lab-executors.js';
export { LabNodeConfigError, loadLabNodeEnv, startLabNode, type LabCredentials, type LabNodeEnv, type LabNodeOptions } from './lab-node.js';
export { countsForCircuit, fromNativeGateIR, toNativeGateIR } from './native-gate-ir.js';
