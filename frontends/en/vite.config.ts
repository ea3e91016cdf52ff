import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
// Relative, not the package name: Vite bundles the config's relative imports, while a package's
// TypeScript source would be left to Node to load.
import { buildIdPlugin } from '../kit/src/vite-build-id.js';

// Dev server: the app on 5174 (infra/ports.json's frontend-en), the web API and the public API
// proxied to bff-en, so the browser sees one origin as it does when bff-en serves the built app.
const BFF_EN = process.env['BFF_EN_URL'] ?? 'http://127.0.0.1:8082';

export default defineConfig({
  root: import.meta.dirname,
  plugins: [react(), buildIdPlugin()],
  server: {
    port: 5174,
    strictPort: true,
    // Object form, not the string shorthand: the shorthand rewrites Host to bff-en's, and then
    // bff-en's CSRF origin check (Origin must be the host the request was sent to) refuses every POST.
    proxy: { '/api': { target: BFF_EN }, '/v1': { target: BFF_EN } },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // Hashed names under assets/ (Vite's default): bff-en caches them for a year.
    assetsDir: 'assets',
    sourcemap: false,
    target: 'es2022',
  },
});
