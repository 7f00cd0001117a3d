/** How the journeys start a Cohort server: from the sources, like `npm run dev` without the watcher. */
export const TEST_SERVER_ARGS = ['--import', 'tsx', 'apps/server/src/main.ts'];

/**
 * The settings every Cohort server under the journeys runs with, whatever the developer's shell
 * exports: the embedded database in `dataDir`, Google sign-in unconfigured, and no public STUN
 * server (a test machine is offline: calls on loopback need host candidates only).
 */
export function testServerEnv(port: number, dataDir: string): Record<string, string> {
  return {
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    GOOGLE_CLIENT_ID: '',
    DATABASE_URL: '',
    STUN_URLS: '',
  };
}
