import type { ReactNode } from 'react';

export const metadata = { title: 'Northwind Dental' };

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <head>
        {/* The kit's swap script (copied to public/ by `npm run dev`/`build`): async, never blocks. */}
        <script
          async
          src="/dni-swap.min.js"
          data-endpoint="/tracking-number"
          data-numbers="+14155550100"
          data-timeout-ms="800"
        />
      </head>
      <body style={{ fontFamily: 'system-ui, sans-serif', margin: 0, background: '#f2f7f5' }}>
        <header style={{ background: '#0f5c4a', color: '#fff', padding: '20px 32px' }}>
          <h1 style={{ margin: 0 }}>Northwind Dental</h1>
          <nav>
            <a href="/" style={{ color: '#cdeee4', marginRight: 16 }}>
              Home
            </a>
            <a href="/about" style={{ color: '#cdeee4' }}>
              About
            </a>
          </nav>
        </header>
        <main style={{ padding: '24px 32px', maxWidth: 680 }}>{children}</main>
      </body>
    </html>
  );
}
