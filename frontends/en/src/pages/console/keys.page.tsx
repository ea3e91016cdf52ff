import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { webApi } from '../../api/web.api.js';
import type { ApiKey } from '../../api/web-api.types.js';
import { CopyButton } from '../../components/copy-button.js';
import { rememberTryKey } from '../../store/try-key.js';
import { ConfirmAction } from './confirm-action.js';
import { formatDate } from './format.js';
import './console.css';

interface NewSecret {
  secret: string;
  keyName: string;
  rotated: boolean;
}

/** The secret of a key just created or rotated: shown this once (auth keeps only its hash), with Copy. */
function SecretPanel({ shown, onDone }: { shown: NewSecret; onDone: () => void }) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), [shown]);
  return (
    <section className="secret-panel" aria-labelledby="secret-heading">
      <h2 id="secret-heading" ref={heading} tabIndex={-1}>
        {shown.rotated ? 'Your replacement key' : 'Your new key'}: {shown.keyName || 'Unnamed key'}
      </h2>
      <p>Copy it now: it will not be shown again. Keep it secret, as every lookup made with it counts against your account.</p>
      <div className="secret-row">
        <code data-new-key>{shown.secret}</code>
        <CopyButton text={shown.secret} primary />
      </div>
      <p className="figure-note">
        The <Link to="/docs">documentation</Link>’s “Try it” box uses this key while this tab stays open.{' '}
        <button type="button" className="link-button" onClick={onDone}>
          I have saved it
        </button>
      </p>
    </section>
  );
}

function KeyRow({ apiKey, onSecret }: { apiKey: ApiKey; onSecret: (secret: NewSecret) => void }) {
  const [rotate, rotating] = webApi.useRotateKeyMutation();
  const [revoke, revoking] = webApi.useRevokeKeyMutation();
  const name = apiKey.name || 'Unnamed key';
  return (
    <tr data-key-id={apiKey.id}>
      <th scope="row">{name}</th>
      <td data-label="Key">
        <code>{apiKey.prefix}…</code>
      </td>
      <td data-label="Created">{formatDate(apiKey.created_at)}</td>
      <td data-label="Actions" className="actions-cell">
        <ConfirmAction
          label="Rotate"
          question={`Replace “${name}”? The current key stops working at once.`}
          confirmLabel="Yes, rotate"
          busy={rotating.isLoading}
          onConfirm={async () => {
            const answer = await rotate(apiKey.id);
            if ('data' in answer && answer.data)
              onSecret({ secret: answer.data.secret, keyName: answer.data.key.name, rotated: true });
          }}
        />
        <ConfirmAction
          label="Revoke"
          question={`Revoke “${name}”? Calls with it will be refused.`}
          confirmLabel="Yes, revoke"
          danger
          busy={revoking.isLoading}
          onConfirm={() => revoke(apiKey.id)}
        />
      </td>
    </tr>
  );
}

/** API keys: create (the secret is shown once), copy, rotate, revoke. */
export function KeysPage() {
  const keys = webApi.useKeysQuery();
  const [create, creating] = webApi.useCreateKeyMutation();
  const [name, setName] = useState('');
  const [secret, setSecret] = useState<NewSecret | null>(null);
  const show = (shown: NewSecret) => {
    // The docs page's try-it box reads it (sessionStorage['ipdata.tryKey']).
    rememberTryKey(shown.secret);
    setSecret(shown);
  };
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const answer = await create({ name: name.trim() });
    if ('data' in answer && answer.data) {
      show({ secret: answer.data.secret, keyName: answer.data.key.name, rotated: false });
      setName('');
    }
  };
  const list = keys.data?.keys ?? [];
  return (
    <div className="console-page">
      <h1>API keys</h1>
      <p>
        Send a key with every call to the API, as <code>Authorization: Bearer &lt;key&gt;</code> or in the <code>X-API-Key</code>{' '}
        header: see the <Link to="/docs">documentation</Link>.
      </p>
      <form className="inline-form" onSubmit={(event) => void submit(event)}>
        <div className="field-inline">
          <label htmlFor="key-name">Key name</label>
          <input
            id="key-name"
            value={name}
            maxLength={100}
            placeholder="e.g. production server"
            onChange={(event) => setName(event.target.value)}
          />
        </div>
        <button type="submit" className="button primary" disabled={creating.isLoading}>
          Create key
        </button>
      </form>
      {secret && <SecretPanel shown={secret} onDone={() => setSecret(null)} />}
      {keys.isLoading && <p className="loading">Loading your keys…</p>}
      {keys.isSuccess && list.length === 0 && <p>You have no API key yet: create one above.</p>}
      {list.length > 0 && (
        <div className="table-scroll">
          <table className="keys-table stack-on-phone">
            <caption>Your API keys</caption>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Key</th>
                <th scope="col">Created</th>
                <th scope="col">Actions</th>
              </tr>
            </thead>
            <tbody>
              {list.map((apiKey) => (
                <KeyRow key={apiKey.id} apiKey={apiKey} onSecret={show} />
              ))}
            </tbody>
          </table>
        </div>
      )}
    </div>
  );
}
