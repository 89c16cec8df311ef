// Entry point of the local sandbox (dist/emulator.js). Contract in DESIGN.md:
//   node dist/emulator.js [--host H] [--grpc-port N] [--http-port N] [--seed demo|realistic|empty]
// prints exactly one JSON line {"grpc":"H:PORT","http":"http://H:PORT"} when ready.
import { startSandbox } from './sandbox';
import { SEED_NAMES, isSeedName, type SeedName } from './types';

function parseArgs(argv: string[]): { host: string; grpcPort: number; httpPort: number; seed: SeedName } {
  const opts = { host: '127.0.0.1', grpcPort: 0, httpPort: 0, seed: 'demo' as SeedName };
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i];
    const value = argv[i + 1];
    const need = (): string => {
      if (value === undefined || value.startsWith('--')) throw new Error(`${flag} needs a value`);
      i++;
      return value;
    };
    const port = (): number => {
      const text = need();
      const n = Number(text);
      if (!Number.isInteger(n) || n < 0 || n > 65535)
        throw new Error(`${flag} must be a port number 0-65535, got "${text}"`);
      return n;
    };
    switch (flag) {
      case '--host':
        opts.host = need();
        break;
      case '--grpc-port':
        opts.grpcPort = port();
        break;
      case '--http-port':
        opts.httpPort = port();
        break;
      case '--seed': {
        const s = need();
        if (!isSeedName(s)) throw new Error(`--seed must be ${SEED_NAMES.join(', ')}, got "${s}"`);
        opts.seed = s;
        break;
      }
      case '--help':
        process.stdout.write(
          'usage: emulator [--host H] [--grpc-port N] [--http-port N] [--seed demo|realistic|empty]\n',
        );
        return process.exit(0);
      default:
        throw new Error(`unknown argument "${flag}"`);
    }
  }
  return opts;
}

async function main(): Promise<void> {
  let opts;
  try {
    opts = parseArgs(process.argv.slice(2));
  } catch (err) {
    process.stderr.write(`cloudbench sandbox: ${(err as Error).message}\n`);
    process.exit(2);
  }
  const sandbox = await startSandbox(opts);
  process.stdout.write(JSON.stringify({ grpc: sandbox.grpc, http: sandbox.http }) + '\n');
  let stopping = false;
  const stop = (): void => {
    if (stopping) return;
    stopping = true;
    sandbox.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

main().catch((err) => {
  process.stderr.write(`cloudbench sandbox failed to start: ${(err as Error).stack ?? err}\n`);
  process.exit(1);
});
