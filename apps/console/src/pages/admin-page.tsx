import type { CreatedApiKey, CreatedLabCredential, QpuBudget } from '@qdc/client';
import { useState } from 'preact/hooks';
import { labStreams } from '../api/lab-streams.js';
import { useApp } from '../app-context.js';
import { copyText } from '../components/code-block.js';
import { ConfirmButton } from '../components/confirm-button.js';
import { ErrorNote, Loading } from '../components/error-note.js';
import { formatCents, formatTime } from '../format.js';
import { useAsync, useTitle } from '../hooks.js';
import { pathOf } from '../router.js';

const SCOPES = ['control', 'coda', 'admin'] as const;

/** For admin keys: API keys, QPU budgets, lab credentials and lab streams (each stream opens its live view). */
export function AdminPage() {
  useTitle('Admin');
  return (
    <>
      <h1 tabIndex={-1}>Admin</h1>
      <KeysSection />
      <BudgetsSection />
      <LabCredentialsSection />
      <StreamsSection />
    </>
  );
}

function KeysSection() {
  const { api, announce } = useApp();
  const [owner, setOwner] = useState('');
  const [listOwner, setListOwner] = useState('');
  const keys = useAsync((signal) => api.client.admin.keys.list({ owner: listOwner || undefined }, { signal }), [listOwner]);
  const [name, setName] = useState('');
  const [keyOwner, setKeyOwner] = useState('');
  const [scopes, setScopes] = useState<Set<string>>(new Set(['control', 'coda']));
  const [created, setCreated] = useState<CreatedApiKey | undefined>(undefined);
  const [error, setError] = useState<unknown>(undefined);
  const [busy, setBusy] = useState(false);

  const create = async (event: Event) => {
    event.preventDefault();
    setError(undefined);
    if (!name.trim()) return setError(new Error('Give the key a name.'));
    if (scopes.size === 0) return setError(new Error('Choose at least one scope.'));
    setBusy(true);
    try {
      const key = await api.client.admin.keys.create({
        name: name.trim(),
        owner: keyOwner.trim() || undefined,
        scopes: [...scopes] as (typeof SCOPES)[number][],
      });
      setCreated(key);
      setName('');
      announce(`Key ${key.name} created; copy its token now.`);
      keys.reload();
    } catch (e) {
      setError(e);
    } finally {
      setBusy(false);
    }
  };
  const revoke = async (id: string, keyName: string) => {
    setError(undefined);
    try {
      await api.client.admin.keys.revoke(id);
      announce(`Key ${keyName} revoked.`);
      keys.reload();
    } catch (e) {
      setError(e);
    }
  };

  return (
    <section class="panel" aria-labelledby="keys-heading">
      <h2 id="keys-heading">API keys</h2>
      <form class="filters" onSubmit={create} aria-labelledby="create-key-heading">
        <h3 id="create-key-heading">Create a key</h3>
        <div class="field">
          <label for="key-name">Name</label>
          <input id="key-name" value={name} onInput={(e) => setName(e.currentTarget.value)} autocomplete="off" />
        </div>
        <div class="field">
          <label for="key-owner">Owner</label>
          <input id="key-owner" value={keyOwner} onInput={(e) => setKeyOwner(e.currentTarget.value)} aria-describedby="key-owner-hint" autocomplete="off" />
          <p id="key-owner-hint" class="hint">
            The user or team whose results the key sees; default: the name.
          </p>
        </div>
        <fieldset>
          <legend>Scopes</legend>
          {SCOPES.map((scope) => (
            <div class="field checkbox" key={scope}>
              <input
                id={`scope-${scope}`}
                type="checkbox"
                checked={scopes.has(scope)}
                onChange={(e) => {
                  const next = new Set(scopes);
                  if (e.currentTarget.checked) next.add(scope);
                  else next.delete(scope);
                  setScopes(next);
                }}
              />
              <label for={`scope-${scope}`}>{scope}</label>
            </div>
          ))}
        </fieldset>
        <div class="buttons">
          <button type="submit" disabled={busy}>
            Create key
          </button>
        </div>
      </form>
      {created && (
        <div class="note note-warning" role="status">
          <p>
            Key <strong>{created.name}</strong> ({created.owner}; {created.scopes.join(', ')}) was created. Its token is shown only now:
          </p>
          <p>
            <code class="token">{created.token}</code>{' '}
            <button type="button" class="small" onClick={() => copyText(created.token).then(() => announce('Token copied.'))}>
              Copy token
            </button>{' '}
            <button type="button" class="small" onClick={() => setCreated(undefined)}>
              Done
            </button>
          </p>
        </div>
      )}
      <ErrorNote error={error} />
      <form
        class="toolbar"
        onSubmit={(e) => {
          e.preventDefault();
          setListOwner(owner.trim());
        }}
      >
        <label for="keys-owner">Owner filter</label>
        <input id="keys-owner" value={owner} onInput={(e) => setOwner(e.currentTarget.value)} />
        <button type="submit">Show keys</button>
      </form>
      {keys.loading && <Loading what="the keys" />}
      <ErrorNote error={keys.error} context="Could not list the keys" />
      {keys.value && (
        <div class="table-scroll">
          <table>
            <caption>
              {keys.value.length} keys{listOwner ? ` of ${listOwner}` : ''}
            </caption>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Owner</th>
                <th scope="col">Scopes</th>
                <th scope="col">Token</th>
                <th scope="col">Created</th>
                <th scope="col">State</th>
              </tr>
            </thead>
            <tbody>
              {keys.value.map((k) => (
                <tr key={k.id}>
                  <th scope="row">{k.name}</th>
                  <td>{k.owner}</td>
                  <td>{k.scopes.join(', ')}</td>
                  <td>
                    <code>{k.token_hint}</code>
                  </td>
                  <td>
                    <time dateTime={k.created_at}>{formatTime(k.created_at)}</time>
                  </td>
                  <td>
                    {k.revoked_at ? (
                      `revoked ${formatTime(k.revoked_at)}`
                    ) : (
                      <ConfirmButton
                        label={`Revoke ${k.name}`}
                        question={`Revoke key ${k.name} of ${k.owner}? Requests with it fail at once.`}
                        onConfirm={() => revoke(k.id, k.name)}
                      />
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

function BudgetsSection() {
  const { api, announce } = useApp();
  const [owner, setOwner] = useState('');
  const [budget, setBudget] = useState<QpuBudget | undefined>(undefined);
  const [cents, setCents] = useState('');
  const [unlimited, setUnlimited] = useState(false);
  const [error, setError] = useState<unknown>(undefined);
  const [busy, setBusy] = useState(false);

  const show = (b: QpuBudget) => {
    setBudget(b);
    setUnlimited(b.budget_cents === null);
    setCents(b.budget_cents === null ? '' : String(b.budget_cents));
  };
  const act = async (what: () => Promise<void>) => {
    setError(undefined);
    if (!owner.trim()) return setError(new Error('Enter an owner.'));
    setBusy(true);
    try {
      await what();
    } catch (e) {
      setError(e);
    } finally {
      setBusy(false);
    }
  };
  const lookUp = (event: Event) => {
    event.preventDefault();
    act(async () => show(await api.client.admin.budgets.get(owner.trim())));
  };
  const save = () =>
    act(async () => {
      const value = unlimited ? null : Number(cents);
      if (value !== null && (!Number.isInteger(value) || value < 0)) throw new Error('The budget is a whole number of cents (0 or more), or unlimited.');
      show(await api.client.admin.budgets.set(owner.trim(), value));
      announce(`Budget of ${owner.trim()} saved.`);
    });

  return (
    <section class="panel" aria-labelledby="budgets-heading">
      <h2 id="budgets-heading">QPU budgets</h2>
      <form class="toolbar" onSubmit={lookUp}>
        <label for="budget-owner">Owner</label>
        <input
          id="budget-owner"
          value={owner}
          onInput={(e) => {
            setOwner(e.currentTarget.value);
            setBudget(undefined);
          }}
        />
        <button type="submit" disabled={busy}>
          Look up budget
        </button>
      </form>
      {budget && (
        <>
          <dl class="facts">
            <dt>Budget</dt>
            <dd>{budget.budget_cents === null ? 'unlimited' : formatCents(budget.budget_cents)}</dd>
            <dt>Spent</dt>
            <dd>{formatCents(budget.spent_cents)}</dd>
            <dt>Reserved (queued and running jobs)</dt>
            <dd>{formatCents(budget.reserved_cents)}</dd>
            <dt>Remaining</dt>
            <dd>{budget.remaining_cents === null ? 'unlimited' : formatCents(budget.remaining_cents)}</dd>
          </dl>
          <div class="row">
            <div class="field">
              <label for="budget-cents">Budget in cents</label>
              <input id="budget-cents" type="number" min={0} step={1} value={cents} disabled={unlimited} onInput={(e) => setCents(e.currentTarget.value)} />
            </div>
            <div class="field checkbox">
              <input id="budget-unlimited" type="checkbox" checked={unlimited} onChange={(e) => setUnlimited(e.currentTarget.checked)} />
              <label for="budget-unlimited">Unlimited</label>
            </div>
          </div>
          <button type="button" onClick={save} disabled={busy}>
            Save budget
          </button>
        </>
      )}
      <ErrorNote error={error} />
    </section>
  );
}

function LabCredentialsSection() {
  const { api, announce } = useApp();
  const credentials = useAsync((signal) => api.client.admin.labCredentials.list({ signal }), []);
  const [lab, setLab] = useState('');
  const [created, setCreated] = useState<CreatedLabCredential | undefined>(undefined);
  const [error, setError] = useState<unknown>(undefined);
  const [busy, setBusy] = useState(false);

  const create = async (event: Event) => {
    event.preventDefault();
    setError(undefined);
    if (!lab.trim()) return setError(new Error('Enter the lab id.'));
    setBusy(true);
    try {
      const issued = await api.client.admin.labCredentials.create({ lab: lab.trim() });
      setCreated(issued);
      setLab('');
      announce(`Credentials of lab ${issued.lab} issued; copy them now.`);
      credentials.reload();
    } catch (e) {
      setError(e);
    } finally {
      setBusy(false);
    }
  };
  const revoke = async (id: string) => {
    setError(undefined);
    try {
      const revoked = await api.client.admin.labCredentials.revoke(id);
      announce(`Credentials of lab ${id} revoked${revoked.reloaded ? '' : '; reload nats-server to apply'}.`);
      if (created?.lab === id) setCreated(undefined);
      credentials.reload();
    } catch (e) {
      setError(e);
    }
  };
  const file = created && `${JSON.stringify(created.credentials, null, 2)}\n`;

  return (
    <section class="panel" aria-labelledby="lab-credentials-heading">
      <h2 id="lab-credentials-heading">Lab credentials</h2>
      <p class="hint">
        A lab’s node connects to NATS with its lab’s credentials (<code>qdc node start --credentials &lt;file&gt;</code>) and may use only its lab’s subjects.
        Revoking them closes the lab’s connections when nats-server reloads; its devices and streams stay.
      </p>
      <form class="toolbar" onSubmit={create}>
        <label for="lab-credential-lab">Lab id</label>
        <input
          id="lab-credential-lab"
          value={lab}
          onInput={(e) => setLab(e.currentTarget.value)}
          autocomplete="off"
          aria-describedby="lab-credential-lab-hint"
        />
        <button type="submit" disabled={busy}>
          Create credentials
        </button>
        <p id="lab-credential-lab-hint" class="hint">
          Lower-case letters, digits, dashes and underscores.
        </p>
      </form>
      {created && file && (
        <div class="note note-warning" role="status">
          <p>
            Credentials of lab <strong>{created.lab}</strong> were issued. Save them as <code>{created.lab}.credentials.json</code> for the lab’s node: they are
            shown only now and QDC does not keep the seed.
            {!created.reloaded && ' nats-server was not reloaded by QDC: reload it (nats-server --signal reload) before the node connects.'}
          </p>
          <pre class="code">
            <code class="token">{file}</code>
          </pre>
          <p>
            <button type="button" class="small" onClick={() => copyText(file).then(() => announce('Credentials copied.'))}>
              Copy credentials
            </button>{' '}
            <button type="button" class="small" onClick={() => setCreated(undefined)}>
              Done
            </button>
          </p>
        </div>
      )}
      <ErrorNote error={error} />
      {credentials.loading && <Loading what="the lab credentials" />}
      <ErrorNote error={credentials.error} context="Could not list the lab credentials" />
      {credentials.value && credentials.value.length === 0 && <p>No lab has credentials.</p>}
      {credentials.value && credentials.value.length > 0 && (
        <div class="table-scroll">
          <table>
            <caption>{credentials.value.length} labs with credentials</caption>
            <thead>
              <tr>
                <th scope="col">Lab</th>
                <th scope="col">Public key</th>
                <th scope="col">Issued</th>
                <th scope="col">Actions</th>
              </tr>
            </thead>
            <tbody>
              {credentials.value.map((c) => (
                <tr key={c.lab}>
                  <th scope="row">{c.lab}</th>
                  <td>
                    <code>{c.public_key}</code>
                  </td>
                  <td>
                    <time dateTime={c.added_at}>{formatTime(c.added_at)}</time>
                  </td>
                  <td>
                    <ConfirmButton
                      label={`Revoke credentials of ${c.lab}`}
                      question={`Revoke the credentials of lab ${c.lab}? Its nodes and instruments are cut off at nats-server's reload.`}
                      onConfirm={() => revoke(c.lab)}
                    />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

function StreamsSection() {
  const { api, announce } = useApp();
  const streams = useAsync(() => labStreams.list(api), []);
  const models = useAsync((signal) => api.client.models.list({ limit: 1000 }, { signal }), []);
  const [lab, setLab] = useState('');
  const [name, setName] = useState('');
  const [chosen, setChosen] = useState<string[]>([]);
  const [inFlight, setInFlight] = useState('');
  const [maxLag, setMaxLag] = useState('');
  const [error, setError] = useState<unknown>(undefined);
  const [busy, setBusy] = useState(false);

  const create = async (event: Event) => {
    event.preventDefault();
    setError(undefined);
    setBusy(true);
    try {
      const stream = await labStreams.create(api, {
        lab: lab.trim(),
        name: name.trim(),
        models: chosen,
        ...(inFlight ? { max_in_flight: Number(inFlight) } : {}),
        ...(maxLag ? { max_lag_ms: Number(maxLag) } : {}),
      });
      announce(`Stream ${stream.lab}/${stream.name} declared.`);
      streams.reload();
    } catch (e) {
      setError(e);
    } finally {
      setBusy(false);
    }
  };
  const remove = async (l: string, n: string) => {
    setError(undefined);
    try {
      await labStreams.remove(api, l, n);
      announce(`Stream ${l}/${n} removed.`);
      streams.reload();
    } catch (e) {
      setError(e);
    }
  };

  return (
    <section class="panel" aria-labelledby="admin-streams-heading">
      <h2 id="admin-streams-heading">Lab streams</h2>
      <form class="filters" onSubmit={create} aria-labelledby="declare-heading">
        <h3 id="declare-heading">Declare a stream</h3>
        <div class="field">
          <label for="declare-lab">Lab</label>
          <input id="declare-lab" value={lab} onInput={(e) => setLab(e.currentTarget.value)} autocomplete="off" />
        </div>
        <div class="field">
          <label for="declare-name">Stream name</label>
          <input id="declare-name" value={name} onInput={(e) => setName(e.currentTarget.value)} autocomplete="off" />
        </div>
        <div class="field">
          <label for="declare-models">Models</label>
          <select
            id="declare-models"
            multiple
            size={6}
            onChange={(e) => setChosen(Array.from(e.currentTarget.selectedOptions, (o) => o.value))}
            aria-describedby="declare-models-hint"
          >
            {(models.value ?? []).map((m) => (
              <option key={m.id} value={m.id} selected={chosen.includes(m.id)}>
                {m.id}
              </option>
            ))}
          </select>
          <p id="declare-models-hint" class="hint">
            Run on every frame (Ctrl or Shift to choose several).
          </p>
        </div>
        <div class="field">
          <label for="declare-in-flight">Frames in flight</label>
          <input id="declare-in-flight" type="number" min={1} max={256} value={inFlight} onInput={(e) => setInFlight(e.currentTarget.value)} />
        </div>
        <div class="field">
          <label for="declare-lag">Max lag (ms)</label>
          <input id="declare-lag" type="number" min={1} value={maxLag} onInput={(e) => setMaxLag(e.currentTarget.value)} />
        </div>
        <div class="buttons">
          <button type="submit" disabled={busy}>
            Declare stream
          </button>
        </div>
      </form>
      <ErrorNote error={error} />
      {streams.loading && <Loading what="the streams" />}
      <ErrorNote error={streams.error} context="Could not list the streams" />
      {streams.value && streams.value.length > 0 && (
        <div class="table-scroll">
          <table>
            <caption>{streams.value.length} streams</caption>
            <thead>
              <tr>
                <th scope="col">Stream</th>
                <th scope="col">Models</th>
                <th scope="col">Frames subject</th>
                <th scope="col">Actions</th>
              </tr>
            </thead>
            <tbody>
              {streams.value.map((s) => (
                <tr key={`${s.lab}/${s.name}`}>
                  <th scope="row">
                    <a href={pathOf('lab-streams', s.lab, s.name)}>
                      {s.lab}/{s.name}
                    </a>
                  </th>
                  <td>{s.models.join(', ')}</td>
                  <td>
                    <code>{s.subjects.frames}</code>
                  </td>
                  <td>
                    <ConfirmButton
                      label={`Remove ${s.lab}/${s.name}`}
                      question={`Remove stream ${s.lab}/${s.name}? Frames not yet analysed are dropped.`}
                      onConfirm={() => remove(s.lab, s.name)}
                    />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
