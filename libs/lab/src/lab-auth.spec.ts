import { existsSync, mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { nkeys } from '@nats-io/transport-node';
import { LabAuthError, addLab, issueLabCredentials, labPermissions, listLabs, removeLab, renderAuthConf } from './lab-auth.js';

const makeSut = () => {
  const dir = mkdtempSync(join(tmpdir(), 'qdc-lab-auth-'));
  return { sut: (lab: string) => addLab(dir, 'qdc', lab), dir };
};

describe(addLab.name, () => {
  it('writes a private credentials file whose seed matches the public key in the generated authorization block', () => {
    const { sut, dir } = makeSut();
    const first = sut('lab-a');
    expect(first.servicesUrlHint).toMatch(/^nats:\/\/qdc-services:[A-Za-z0-9_-]{32}@<nats-host>:4222$/);
    const credentials = JSON.parse(readFileSync(first.credentials, 'utf8'));
    expect(credentials).toMatchObject({ lab: 'lab-a', namespace: 'qdc' });
    expect(statSync(first.credentials).mode & 0o777).toBe(0o600);
    const publicKey = nkeys.fromSeed(new TextEncoder().encode(credentials.nkey_seed)).getPublicKey();
    const conf = readFileSync(join(dir, 'auth.conf'), 'utf8');
    expect(conf).toContain(`{ nkey: "${publicKey}", permissions: { publish: { allow: ["qdc.lab.lab-a.>"`);
    expect(conf).not.toContain(credentials.nkey_seed);
    expect(sut('lab-b').servicesUrlHint).toBeUndefined();
  });

  it('refuses a lab that already has credentials and an invalid lab id', () => {
    const { sut } = makeSut();
    sut('lab-a');
    expect(() => sut('lab-a')).toThrow(/lab lab-a already has credentials/);
    expect(() => sut('Lab.A')).toThrow("lab 'Lab.A' must be lower-case letters, digits, dashes and underscores");
  });
});

describe(issueLabCredentials.name, () => {
  it('answers the seed without writing it, and without set-up refuses to create the services user', () => {
    const dir = mkdtempSync(join(tmpdir(), 'qdc-lab-issue-'));
    expect(() => issueLabCredentials(dir, 'qdc', 'lab-a', { setUp: false })).toThrow(expect.objectContaining({ reason: 'not_set_up' }));
    expect(existsSync(join(dir, 'labs.json'))).toBe(false);
    addLab(dir, 'qdc', 'first');
    const issued = issueLabCredentials(dir, 'qdc', 'lab-a', { setUp: false });
    expect(issued.servicesUrlHint).toBeUndefined();
    expect(nkeys.fromSeed(new TextEncoder().encode(issued.credentials.nkey_seed)).getPublicKey()).toBe(issued.identity.publicKey);
    expect(existsSync(join(dir, 'lab-a.credentials.json'))).toBe(false);
    expect(readFileSync(join(dir, 'labs.json'), 'utf8')).not.toContain(issued.credentials.nkey_seed);
    expect(listLabs(dir).map((l) => l.lab)).toEqual(['first', 'lab-a']);
    const again = (() => {
      try {
        issueLabCredentials(dir, 'qdc', 'lab-a', { setUp: false });
      } catch (error) {
        return error;
      }
    })();
    expect(again).toBeInstanceOf(LabAuthError);
    expect(again).toMatchObject({ reason: 'exists' });
  });
});

describe(labPermissions.name, () => {
  it('limits a lab to its own subjects, consumers, inbox and stream results, and never to injecting jobs or forging results', () => {
    expect(labPermissions('qdc', 'lab-a')).toEqual({
      publish: {
        allow: ['qdc.lab.lab-a.>', '$JS.API.CONSUMER.MSG.NEXT.qdc-lab-lab-a.*', '$JS.API.CONSUMER.INFO.qdc-lab-lab-a.*', '$JS.ACK.qdc-lab-lab-a.>'],
        deny: ['qdc.lab.lab-a.jobs.>', 'qdc.lab.lab-a.streams.*.results'],
      },
      subscribe: { allow: ['_INBOX_lab-a.>', 'qdc.lab.lab-a.streams.*.results'] },
    });
  });
});

describe(removeLab.name, () => {
  it('takes the lab out of auth.conf and deletes its credentials file, leaving the other labs', () => {
    const dir = mkdtempSync(join(tmpdir(), 'qdc-lab-remove-'));
    addLab(dir, 'qdc', 'lab-a');
    addLab(dir, 'qdc', 'lab-b');
    const keyOfB = JSON.parse(readFileSync(join(dir, 'labs.json'), 'utf8')).labs['lab-b'].public_key as string;
    expect(removeLab(dir, 'qdc', 'lab-a')).toMatchObject({ authConf: join(dir, 'auth.conf'), identity: { lab: 'lab-a' } });
    expect(existsSync(join(dir, 'lab-a.credentials.json'))).toBe(false);
    const conf = readFileSync(join(dir, 'auth.conf'), 'utf8');
    expect(conf).not.toContain('lab-a');
    expect(conf).toContain(keyOfB);
    expect(removeLab(dir, 'qdc', 'lab-a')).toBe(false);
    expect(() => removeLab(dir, 'other', 'lab-b')).toThrow(/is for namespace qdc, not other/);
  });
});

describe(renderAuthConf.name, () => {
  it('renders the services user and one nkey user per lab', () => {
    const conf = renderAuthConf({ namespace: 'qdc', services: { user: 'qdc-services', password: 'pw' }, labs: { x: { public_key: 'UX', added_at: 't' } } });
    expect(conf).toContain('{ user: "qdc-services", password: "pw" }');
    expect(conf).toContain('{ nkey: "UX", permissions: { publish: { allow: ["qdc.lab.x.>"');
    expect(conf.match(/nkey:/g)).toHaveLength(1);
  });
});
