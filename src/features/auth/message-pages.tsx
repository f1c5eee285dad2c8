import { Link } from '@tanstack/react-router';

function Message({ text }: { text: string }) {
  return (
    <main className="flex min-h-screen flex-col items-center justify-center gap-4 p-8 text-center">
      <p className="text-lg">{text}</p>
      <Link to="/login" className="text-sm text-blue-600 hover:underline dark:text-blue-400">
        Go to sign in
      </Link>
    </main>
  );
}

export function LogoutPage() {
  return <Message text="You are now logged out. Kindly log in again from the portal" />;
}

export function SessionExpiredPage() {
  return <Message text="Session Expired. Kindly try to log in through the portal." />;
}
