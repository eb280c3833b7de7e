import { fileURLToPath } from "node:url";
import tailwindcss from "@tailwindcss/vite";
import react from "@vitejs/plugin-react-swc";
import { defineConfig } from "vite";

/** Where `npm run dev` sends `/api`: the local stack started by `npm start` (docs/dashboard.md). */
const api = process.env.INLET_API_URL ?? "http://localhost:3000";

export default defineConfig({
  root: fileURLToPath(new URL(".", import.meta.url)),
  // React Fast Refresh for `npm run dev`: an edited component is swapped in place and keeps its
  // state. Given no SWC plugins, it leaves the production build to Vite's own JSX compiler (Oxc).
  // Its hint to use `@vitejs/plugin-react` instead is silenced: that plugin's optional Babel peers
  // do not resolve beside jest's Babel 7 (docs/dashboard.md, "Stack, and why").
  plugins: [react({ disableOxcRecommendation: true }), tailwindcss()],
  build: {
    outDir: "dist",
    emptyOutDir: true,
    // dist/.vite/manifest.json: which chunk holds which module, read by the weight test
    // (test/e2e/budget.spec.ts) to check each page is its own chunk.
    manifest: true,
    // The polyfill would be an inline script, which the Content-Security-Policy refuses; every
    // browser the dashboard supports preloads modules natively.
    modulePreload: { polyfill: false },
    rollupOptions: {
      // Radix marks its modules "use client" for React Server Components; a client-only app
      // has nothing to preserve, so the bundler's note about dropping it is noise.
      onwarn(warning, warn) {
        if (warning.code !== "MODULE_LEVEL_DIRECTIVE") warn(warning);
      },
    },
  },
  server: {
    port: 5173,
    proxy: {
      // The API checks a cookie-signed request's Origin against its own (CSRF): the dev
      // server's origin differs, so the proxy presents the API's.
      "/api": { target: api, headers: { origin: new URL(api).origin } },
    },
  },
});
