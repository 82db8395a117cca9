import type { ReactNode } from 'react';

/** The frame of the pages before sign-in: one centred card. */
export function AuthFrame({ title, intro, children, footer }: { title: string; intro?: ReactNode; children: ReactNode; footer?: ReactNode }) {
  return (
    <div className="auth">
      <main className="auth-card" id="main">
        <div className="auth-brand">
          <img src="/favicon.svg" alt="" width="32" height="32" />
          <span>DORA Vendor Service</span>
        </div>
        <h1>{title}</h1>
        {intro && <div className="auth-intro">{intro}</div>}
        {children}
        {footer && <div className="auth-footer">{footer}</div>}
      </main>
    </div>
  );
}
