// `npm run dev`: the API server (restarting on change) and Vite's dev server side by side.
import { spawn } from 'node:child_process';

const children = [
  spawn(process.execPath, ['--import', 'tsx', '--watch', 'apps/server/src/main.ts'], { stdio: 'inherit' }),
  spawn('npm', ['run', 'dev', '-w', 'apps/web'], { stdio: 'inherit' }),
];
const stop = () => {
  for (const child of children) child.kill('SIGTERM');
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
for (const child of children) child.on('exit', stop);
