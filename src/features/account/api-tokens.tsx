import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { tokenScopeLabels, type CreatedPersonalToken } from '../../../server/contract/tokens';
import { tokensQueryOptions } from '../../api/tokens';
import { Button } from '../../components/ui/button';
import { Checkbox } from '../../components/ui/checkbox';
import { CopyButton } from '../../components/ui/copy-button';
import { TextField } from '../../components/ui/text-field';
import { CommandButton } from '../../app/command-host/command-button';
import { useCommandRunner } from '../../app/command-host/run-command';
import { useCommandForm } from '../../app/command-host/use-command-form';

const blank = { name: '', readOnly: false };
const when = (iso: string | null) => (iso ? new Date(iso).toLocaleString() : 'never');

/**
 * Issue 13: personal API tokens in Account Settings — make one (your role or read-only), see its
 * secret once, see when each was last used, revoke it. Every action runs a `token.*` command.
 */
export function ApiTokens() {
  const runner = useCommandRunner();
  const { data, isPending, isError, error } = useQuery(tokensQueryOptions());
  const [created, setCreated] = useState<CreatedPersonalToken | null>(null);
  const form = useCommandForm<'token.create', { name: string; readOnly: boolean }, 'name'>('token.create', {
    initial: blank,
    toInput: (v) => v,
    onDone: (result) => {
      setCreated(result?.data as CreatedPersonalToken);
      form.reset(blank);
    },
  });
  const { name, readOnly } = form.values!;
  const formError = form.errors.name ?? form.formError;
  const { busy } = form;
  const allowed = runner.check('token.create');
  const tokens = data?.result.data ?? [];

  const create = () => form.submit();

  return (
    <section className="space-y-3" aria-labelledby="api-tokens-heading">
      <h3 id="api-tokens-heading" className="text-sm font-semibold text-slate-500 uppercase dark:text-slate-400">
        API tokens
      </h3>
      <p className="text-xs text-slate-500 dark:text-slate-400">For scripts and curl: send one as <code>Authorization: Bearer …</code>. It acts as you, with your role or read-only.</p>
      {created && (
        <div role="status" className="space-y-1 rounded-md border border-amber-300 bg-amber-50 p-3 text-sm dark:border-amber-700 dark:bg-amber-950">
          <p>
            Token <strong>{created.name}</strong> created. Copy it now: it is not shown again.
          </p>
          <div className="flex items-center gap-2">
            <code aria-label="New API token" className="min-w-0 flex-1 truncate rounded bg-white px-2 py-1 font-mono text-xs dark:bg-slate-900">
              {created.token}
            </code>
            <CopyButton value={created.token} label="API token" />
          </div>
        </div>
      )}
      <form
        className="flex flex-wrap items-end gap-3"
        onSubmit={(e) => {
          e.preventDefault();
          if (name.trim()) void create();
        }}
      >
        <TextField label="Token name" placeholder="What uses it, e.g. ci-deploy" value={name} onChange={(v) => form.set('name', v)} errorMessage={formError ?? undefined} className="min-w-48 flex-1" />
        <Checkbox isSelected={readOnly} onChange={(v) => form.set('readOnly', v)} className="mb-2">
          Read only
        </Checkbox>
        {/* A submit runs token.create itself, so an error shows under the name, not as a toast. */}
        <Button type="submit" isDisabled={!name.trim() || busy} disabledReason={allowed === true ? undefined : allowed}>
          Create token
        </Button>
      </form>
      {isPending && <p className="text-sm text-slate-500 dark:text-slate-400">Loading…</p>}
      {isError && <p className="text-sm text-red-600 dark:text-red-400">{error.message}</p>}
      {!isPending && !isError && !tokens.length && <p className="text-sm text-slate-500 dark:text-slate-400">No API tokens yet.</p>}
      {tokens.length > 0 && (
        <ul aria-label="Your API tokens" className="divide-y divide-slate-100 rounded-md border border-slate-200 dark:divide-slate-800 dark:border-slate-700">
          {tokens.map((t) => (
            <li key={t._id} className="flex items-center gap-3 px-3 py-2 text-sm">
              <div className="min-w-0 flex-1">
                <span className="font-medium">{t.name}</span>
                <span className="ml-2 font-mono text-xs text-slate-500 dark:text-slate-400">{t.prefix}…</span>
                <span className="ml-2 text-xs text-slate-500 dark:text-slate-400">
                  {tokenScopeLabels[t.scope]} · created {when(t.createdAt)} · last used {when(t.lastUsedAt)}
                </span>
              </div>
              {t.revokedAt ? (
                <span className="text-xs text-slate-500 dark:text-slate-400">Revoked {when(t.revokedAt)}</span>
              ) : (
                <CommandButton command="token.revoke" input={{ token: t._id }} size="sm" variant="danger" aria-label={`Revoke ${t.name}`}>
                  Revoke
                </CommandButton>
              )}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
