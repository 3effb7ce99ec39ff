import { useState } from 'preact/hooks';
import { useApp } from '../../app-context.js';
import { ConfirmButton } from '../../components/confirm-button.js';
import { ErrorMessage } from '../../components/error-message.js';
import { Field } from '../../components/field.js';
import { formatSeconds, formatTime } from '../../components/format.js';
import { Page } from '../../components/page.js';
import { useAction } from '../../hooks/use-action.js';

interface LeaseInfo {
  id: string;
  issue_time: string;
  expire_time: string | null;
  last_renewal: string | null;
  renewable: boolean;
  ttl: number;
}

const CRUMBS = [{ label: 'Access', to: '/access' }];

/** Leases: browse by prefix (sudo), look one up, renew or revoke it, or revoke every lease under a prefix. */
export function Leases() {
  return (
    <Page title="Leases" crumbs={CRUMBS}>
      <LeaseLookup />
      <RevokePrefix />
    </Page>
  );
}

function LeaseLookup() {
  const { api } = useApp();
  const [leaseId, setLeaseId] = useState('');
  const [increment, setIncrement] = useState('');
  const [lease, setLease] = useState<LeaseInfo | undefined>();
  const [prefix, setPrefix] = useState('');
  const [keys, setKeys] = useState<string[] | undefined>();
  const [done, setDone] = useState('');
  const lookup = useAction(async (id: string) => {
    setDone('');
    setLease((await api.write<LeaseInfo>('sys/leases/lookup', { lease_id: id }))?.data ?? undefined);
  });
  const browse = useAction(async (p: string) => {
    setPrefix(p);
    setKeys(await api.list(`sys/leases/lookup/${p}`));
  });
  const renew = useAction(async () => {
    const body: Record<string, unknown> = { lease_id: lease?.id };
    if (increment) body.increment = increment;
    const res = await api.write('sys/leases/renew', body);
    setDone(`Renewed: ${formatSeconds(res?.auth?.lease_duration ?? res?.lease_duration ?? 0)} left.`);
    await lookup.run(lease?.id ?? '');
  });
  const revoke = useAction(async () => {
    await api.write('sys/leases/revoke', { lease_id: lease?.id });
    setDone(`Revoked ${lease?.id}.`);
    setLease(undefined);
    if (keys) await browse.run(prefix);
  });
  return (
    <>
      <section aria-labelledby="browse-heading">
        <h2 id="browse-heading">Browse</h2>
        <form
          class="form"
          onSubmit={(e) => {
            e.preventDefault();
            browse.run(prefix);
          }}
        >
          <Field
            label="List leases under"
            value={prefix}
            onInput={setPrefix}
            hint="A prefix such as auth/userpass/login/ (needs sudo on sys/leases/lookup)."
            isCode
          />
          <div class="actions">
            <button type="submit" class="secondary">
              List
            </button>
            {prefix && (
              <button type="button" class="secondary" onClick={() => browse.run(prefix.replace(/[^/]*\/?$/, ''))}>
                Up one level
              </button>
            )}
          </div>
        </form>
        <ErrorMessage error={browse.error} />
        {keys && keys.length === 0 && <p>No leases under {prefix || 'the root'}.</p>}
        {keys && keys.length > 0 && (
          <ul class="list" aria-label={`Leases under ${prefix || 'the root'}`}>
            {keys.map((k) => (
              <li key={k}>
                <button
                  type="button"
                  class="link code"
                  onClick={() => {
                    if (k.endsWith('/')) browse.run(prefix + k);
                    else {
                      setLeaseId(prefix + k);
                      lookup.run(prefix + k);
                    }
                  }}
                >
                  {k}
                </button>
              </li>
            ))}
          </ul>
        )}
      </section>
      <section aria-labelledby="lookup-heading">
        <h2 id="lookup-heading">Look up a lease</h2>
        <form
          class="form"
          onSubmit={(e) => {
            e.preventDefault();
            lookup.run(leaseId);
          }}
        >
          <Field label="Lease ID" value={leaseId} onInput={setLeaseId} isCode required />
          <div class="actions">
            <button type="submit">Look up</button>
          </div>
        </form>
        <ErrorMessage error={lookup.error} />
        {done && <output>{done}</output>}
        {lease && (
          <>
            <dl class="facts" aria-label="Lease">
              <dt>Lease ID</dt>
              <dd class="code">{lease.id}</dd>
              <dt>Issued</dt>
              <dd>{formatTime(lease.issue_time)}</dd>
              <dt>Expires</dt>
              <dd>{lease.expire_time ? formatTime(lease.expire_time) : 'never'}</dd>
              <dt>Time left</dt>
              <dd>{formatSeconds(lease.ttl)}</dd>
              <dt>Last renewed</dt>
              <dd>{lease.last_renewal ? formatTime(lease.last_renewal) : 'never'}</dd>
              <dt>Renewable</dt>
              <dd>{lease.renewable ? 'yes' : 'no'}</dd>
            </dl>
            <div class="form">
              {lease.renewable && (
                <Field
                  label="Increment"
                  value={increment}
                  onInput={setIncrement}
                  hint="Such as 1h; empty: the lease's own TTL."
                  isCode
                />
              )}
              <div class="actions">
                {lease.renewable && (
                  <button type="button" onClick={() => renew.run()} disabled={renew.isPending}>
                    Renew
                  </button>
                )}
                <ConfirmButton
                  label="Revoke"
                  question={`Revoke ${lease.id}? What it gave out stops working.`}
                  confirmLabel="Revoke now"
                  onConfirm={() => revoke.run()}
                />
              </div>
              <ErrorMessage error={renew.error ?? revoke.error} />
            </div>
          </>
        )}
      </section>
    </>
  );
}

function RevokePrefix() {
  const { api } = useApp();
  const [prefix, setPrefix] = useState('');
  const [done, setDone] = useState('');
  const revoke = useAction(async () => {
    setDone('');
    const target = prefix.trim();
    if (!target) throw new Error('enter a prefix');
    // The server takes a prefix without its trailing slash as the same folder (and writes to `…/` are refused).
    await api.write(`sys/leases/revoke-prefix/${target.replace(/\/+$/, '')}`, {});
    setDone(`Revoked every lease under ${target}.`);
  });
  return (
    <section aria-labelledby="revoke-prefix-heading">
      <h2 id="revoke-prefix-heading">Revoke by prefix</h2>
      <div class="form">
        <Field
          label="Prefix to revoke"
          value={prefix}
          onInput={setPrefix}
          hint="Every lease whose ID starts with it (needs sudo)."
          isCode
        />
        <div class="actions">
          <ConfirmButton
            label="Revoke prefix"
            question={`Revoke every lease under ${prefix || '…'}?`}
            confirmLabel="Revoke all of them"
            onConfirm={() => revoke.run()}
            disabled={!prefix.trim()}
          />
        </div>
        <ErrorMessage error={revoke.error} />
        {done && <output>{done}</output>}
      </div>
    </section>
  );
}
