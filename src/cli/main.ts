/** Process entry of `tracking-admin` (bin/tracking-admin.js and `npm run admin --`). */
import { loadDotEnv } from '../config.js';
import { run } from './run.js';

// `tracking-admin audit … | head` closes the pipe early; that is not an error worth a stack trace.
process.stdout.on('error', (err: NodeJS.ErrnoException) => {
  if (err.code === 'EPIPE') process.exit(0);
  throw err;
});

// ADMIN_URL, ADMIN_TOKEN and DATA_DIR from `.env`, as the server reads them.
loadDotEnv(process.env);
process.exitCode = await run(process.argv.slice(2), {
  stdout: process.stdout,
  stderr: process.stderr,
  env: process.env,
});
