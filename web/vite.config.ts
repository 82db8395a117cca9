import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// The service (npm start) listens on 3000; `npm run dev:web` serves the dashboard with hot
// reload on 5173 and forwards the API to it, so the page stays same-origin (cookies, CSRF).
const api = process.env.DORA_API ?? 'http://127.0.0.1:3000';

export default defineConfig({
  plugins: [react()],
  resolve: {
    // tap pulls React 18 into the root node_modules; the dashboard uses its own React 19 only.
    dedupe: ['react', 'react-dom'],
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    assetsDir: 'assets',
    sourcemap: false,
    target: 'es2022',
    chunkSizeWarningLimit: 300,
  },
  server: {
    host: '127.0.0.1',
    port: 5173,
    // The code lists are data in src/domain (src/domain/vendorProfileCodes.ts), read by the API and the dashboard.
    fs: { allow: ['.', '../src/domain'] },
    proxy: {
      '/api': { target: api, changeOrigin: false },
      '/docs': { target: api },
      '/health': { target: api },
    },
  },
});
