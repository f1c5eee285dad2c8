import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { useState, type FormEvent } from 'react';
import { signin } from '../../api/auth';
import { api, ApiError } from '../../api/client';
import { queryKeys } from '../../api/query-keys';
import { Button } from '../../components/ui/button';
import { TextField } from '../../components/ui/text-field';
import { storeUser } from '../../lib/stored-user';

/**
 * The sign-in form. It calls the API directly rather than through a command: commands need a
 * signed-in context (history, permissions), which does not exist yet on this page.
 */
export function LoginPage() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const res = await signin(api, { email, password });
      storeUser(res.result);
      queryClient.setQueryData(queryKeys.auth.whoami, res);
      await navigate({ to: '/' });
    } catch (err) {
      setError(err instanceof ApiError ? err.message : 'Cannot reach the server. Try again.');
    } finally {
      setBusy(false);
    }
  };

  return (
    <main className="flex min-h-screen items-center justify-center bg-slate-50 p-4 dark:bg-slate-950">
      <form onSubmit={submit} className="w-full max-w-sm space-y-4 rounded-lg border border-slate-200 bg-white p-6 shadow-sm dark:border-slate-800 dark:bg-slate-900">
        <div>
          <h1 className="text-xl font-semibold">Opsdeck</h1>
          <p className="text-sm text-slate-500 dark:text-slate-400">Sign in to the console</p>
        </div>
        <TextField label="Email" type="email" autoComplete="username" value={email} onChange={setEmail} isRequired autoFocus />
        <TextField label="Password" type="password" autoComplete="current-password" value={password} onChange={setPassword} isRequired />
        {error && (
          <p role="alert" className="text-sm text-red-600 dark:text-red-400">
            {error}
          </p>
        )}
        <Button type="submit" variant="primary" className="w-full" isDisabled={busy}>
          {busy ? 'Signing in…' : 'Sign in'}
        </Button>
      </form>
    </main>
  );
}
