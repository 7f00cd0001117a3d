import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// In development the API runs as its own process on port 3000. The proxy keeps the browser's Host
// header (no changeOrigin) so the server's Origin check sees one site, exactly as in production.
const api = 'http://localhost:3000';

export default defineConfig({
  plugins: [react(), tailwindcss()],
  server: {
    proxy: {
      '/api': { target: api },
      '/healthz': { target: api },
      '/socket.io': { target: api, ws: true },
    },
  },
});
