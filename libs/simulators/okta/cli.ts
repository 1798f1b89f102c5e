import { CLI_USAGE, CliUsageError, parseCliOptions } from './cli-options.js';
import { startSimulator } from './simulator.js';

/**
 * `npm run simulator -- --port <p> ...`: starts the simulator, prints exactly one JSON line
 * `{"baseUrl","caCertPath","adminToken"}` on stdout, and runs until SIGINT or SIGTERM.
 * A bad command line exits 2 with the reason and the usage on stderr.
 */
async function main(): Promise<void> {
  let options;
  try {
    options = parseCliOptions(process.argv.slice(2));
  } catch (error) {
    if (!(error instanceof CliUsageError)) throw error;
    process.stderr.write(`${error.message}\n${CLI_USAGE}\n`);
    process.exit(2);
  }
  const simulator = await startSimulator(options);
  const { baseUrl, caCertPath, adminToken } = simulator;
  process.stdout.write(`${JSON.stringify({ baseUrl, caCertPath, adminToken })}\n`);
  const stop = () => {
    simulator.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

await main();
