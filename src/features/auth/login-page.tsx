import { ApiError } from '../../api/client';
import { Button } from '../../components/ui/button';
import { TextField } from '../../components/ui/text-field';
import { useCommandForm } from '../../app/command-host/use-command-form';

/** What the form says when a sign-in fails: the server's refusal as it words it, else that it could not be reached. */
function signInError(err: unknown): string {
  const cause = err instanceof Error && err.cause !== undefined ? err.cause : err;
  if (cause instanceof ApiError) return cause.message;
  // A refusal of the gate itself (an empty field) is worded by the command.
  if ((err as { outcome?: string }).outcome === 'refused') return (err as Error).message;
  return 'Cannot reach the server. Try again.';
}

/**
 * The sign-in form. It runs `session.signin` through the command gate like every other action
 * (the signed-out host gives it the gate without a user); the command stores the session and
 * opens the dashboard.
 */
export function LoginPage() {
  // A refusal of the gate (an empty field) is the command's to word: no field is marked.
  const form = useCommandForm<'session.signin', { email: string; password: string }, never>('session.signin', {
    initial: { email: '', password: '' },
    toInput: (v) => v,
    field: () => undefined,
    failure: signInError,
    onDone: () => {},
  });
  const { email, password } = form.values!;
  const { formError: error, busy, submit } = form;

  return (
    <main className="flex min-h-screen items-center justify-center bg-slate-50 p-4 dark:bg-slate-950">
      <form onSubmit={submit} className="w-full max-w-sm space-y-4 rounded-lg border border-slate-200 bg-white p-6 shadow-sm dark:border-slate-800 dark:bg-slate-900">
        <div>
          <h1 className="text-xl font-semibold">Opsdeck</h1>
          <p className="text-sm text-slate-500 dark:text-slate-400">Sign in to the console</p>
        </div>
        <TextField label="Email" type="email" autoComplete="username" value={email} onChange={(v) => form.set('email', v)} isRequired autoFocus />
        <TextField label="Password" type="password" autoComplete="current-password" value={password} onChange={(v) => form.set('password', v)} isRequired />
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
