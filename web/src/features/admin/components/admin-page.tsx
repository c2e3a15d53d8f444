import { useEffect } from 'react';
import { AdminSessionProvider, useAdminSession } from '../hooks/use-admin-session.tsx';
import { AdminPanel } from './admin-panel.tsx';
import { LoginScreen } from './login-screen.tsx';

function AdminGate() {
  const { session } = useAdminSession();
  if (session === undefined) {
    return (
      <p role="status" className="container-page py-16 text-center text-steel">
        Checking your session…
      </p>
    );
  }
  return session ? <AdminPanel /> : <LoginScreen />;
}

/** /admin (spec section 2): the login screen, then the three tabs and Logout. */
export default function AdminPage() {
  useEffect(() => {
    const previous = document.title;
    document.title = 'Admin | Forgeline Parts';
    const robots = document.createElement('meta');
    robots.name = 'robots';
    robots.content = 'noindex, nofollow';
    document.head.appendChild(robots);
    return () => {
      document.title = previous;
      robots.remove();
    };
  }, []);
  return (
    <AdminSessionProvider>
      <div className="min-h-dvh bg-paper text-ink">
        <AdminGate />
      </div>
    </AdminSessionProvider>
  );
}
