import { useState } from 'preact/hooks';
import { useApp } from '../../app-context.js';
import { ActionForm } from '../../components/action-form.js';
import { Field, TextAreaField } from '../../components/field.js';
import { MaskedValue } from '../../components/masked-value.js';
import { useAction } from '../../hooks/use-action.js';
import { parsePairs, splitList } from './access-shared.js';

interface Generated {
  secret_id: string;
  secret_id_accessor: string;
  secret_id_ttl: number;
  secret_id_num_uses: number;
}

/**
 * `Generate secret ID` (`role/<name>/secret-id`): metadata, CIDR blocks, TTL and uses; the secret ID
 * the server answers is shown once, masked until `Reveal`, and held only by this component (gone
 * when the screen is left or `Done` pressed: the server keeps only its digest).
 */
export function SecretIdGenerate(p: { base: string; onGenerated?(): void }) {
  const { api } = useApp();
  const [metadata, setMetadata] = useState('');
  const [cidrs, setCidrs] = useState('');
  const [ttl, setTtl] = useState('');
  const [uses, setUses] = useState('');
  const [generated, setGenerated] = useState<Generated>();
  const generate = useAction(async () => {
    setGenerated(undefined);
    const body: Record<string, unknown> = {};
    const pairs = parsePairs(metadata);
    if (Object.keys(pairs).length > 0) body.metadata = pairs;
    if (cidrs.trim()) body.cidr_list = splitList(cidrs);
    if (ttl.trim()) body.ttl = ttl.trim();
    if (uses.trim()) {
      if (!/^\d+$/.test(uses.trim())) throw new Error(`uses: ${JSON.stringify(uses)} is not a whole number`);
      body.num_uses = Number(uses.trim());
    }
    const answer = await api.write<Generated>(`${p.base}/secret-id`, body);
    if (!answer?.data?.secret_id) throw new Error('the server answered no secret ID');
    setGenerated(answer.data);
    p.onGenerated?.();
  });
  return (
    <section aria-labelledby="generate-heading">
      <h2 id="generate-heading">Generate secret ID</h2>
      <ActionForm action={generate} submitLabel="Generate secret ID" class="form">
        <TextAreaField
          label="Metadata"
          value={metadata}
          onInput={setMetadata}
          rows={2}
          hint="key=value lines, copied onto the tokens it logs in to."
        />
        <Field label="CIDR blocks" value={cidrs} onInput={setCidrs} isCode hint="Comma-separated; empty: any." />
        <Field label="Secret ID TTL" value={ttl} onInput={setTtl} isCode hint="Such as 24h; empty: the role's." />
        <Field
          label="Uses"
          value={uses}
          onInput={setUses}
          inputMode="numeric"
          hint="Empty: the role's (0: unlimited)."
        />
      </ActionForm>
      {generated && (
        <section aria-labelledby="generated-heading" class="generated">
          <h3 id="generated-heading">New secret ID</h3>
          <p>Shown once: the server keeps only a digest of it. Copy it now.</p>
          <dl class="facts" aria-label="New secret ID">
            <div>
              <dt>secret_id</dt>
              <dd>
                <MaskedValue name="secret_id" value={generated.secret_id} />
              </dd>
            </div>
            <div>
              <dt>secret_id_accessor</dt>
              <dd class="code">{generated.secret_id_accessor}</dd>
            </div>
            <div>
              <dt>secret_id_ttl</dt>
              <dd class="code">{generated.secret_id_ttl}</dd>
            </div>
            <div>
              <dt>secret_id_num_uses</dt>
              <dd class="code">{generated.secret_id_num_uses}</dd>
            </div>
          </dl>
          <div class="actions">
            <button type="button" class="secondary" onClick={() => setGenerated(undefined)}>
              Done
            </button>
          </div>
        </section>
      )}
    </section>
  );
}
