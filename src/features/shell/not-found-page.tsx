import { Link } from '@tanstack/react-router';

export function NotFoundPage() {
  return (
    <div className="flex min-h-[60vh] flex-col items-center justify-center gap-3 p-8 text-center">
      <p className="text-5xl font-bold text-slate-500 dark:text-slate-400">404</p>
      <h1 className="text-xl font-semibold">Page not found</h1>
      <p className="text-sm text-slate-500 dark:text-slate-400">Sorry, the page you visited does not exist.</p>
      <Link to="/" className="text-sm text-blue-600 hover:underline dark:text-blue-400">
        Back to the dashboard
      </Link>
    </div>
  );
}
