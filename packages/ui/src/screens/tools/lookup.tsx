import { useState } from 'preact/hooks';
import { useApp } from '../../app-context.js';
import { Field } from '../../components/field.js';
import { useAction } from '../../hooks/use-action.js';
import { ToolPage } from './tool-page.js';

interface WrapLookup {
  creation_path: string;
  creation_time: string;
  creation_ttl: number;
}

/** `sys/wrapping/lookup`: what a wrapping token holds the answer of, without spending it. */
export function LookupTool() {
  const { api } = useApp();
  const [token, setToken] = useState('');
  const [found, setFound] = useState<WrapLookup>();
  const action = useAction(async () => {
    setFound(undefined);
    setFound((await api.write<WrapLookup>('sys/wrapping/lookup', { token: token.trim() }))?.data ?? undefined);
  });
  return (
    <ToolPage
      title="Lookup"
      intro="Look up a wrapping token: where its response came from and when it expires. The token is not spent."
      submit="Look up token"
      action={action}
      result={
        found && (
          <dl class="facts" aria-label="Wrapping token">
            <div>
              <dt>Creation path</dt>
              <dd class="code">{found.creation_path}</dd>
            </div>
            <div>
              <dt>Creation time</dt>
              <dd>{found.creation_time}</dd>
            </div>
            <div>
              <dt>Creation TTL</dt>
              <dd>{found.creation_ttl} s</dd>
            </div>
          </dl>
        )
      }
    >
      <Field label="Wrapping token" value={token} onInput={setToken} isCode required />
    </ToolPage>
  );
}
