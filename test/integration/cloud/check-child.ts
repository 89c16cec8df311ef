// Runs "Cloudbench: Check Connection" as the command does (settings → createServices → the three
// probes and clients) in a child process whose environment routes Google's hosts through the test's
// proxy (HTTPS_PROXY only, in upper case) and trusts the test's throw-away CA (NODE_EXTRA_CA_CERTS,
// read at start-up). Only the vscode module is a stand-in. Prints one JSON line: the reports.
import { scriptConfiguration } from '../../reliability/scripted-config';
import { fakeExtensionContext } from '../../unit/fakes/vscode';
import type * as ConnectionModule from '../../../src/features/connection/probes';
import type * as ServicesModule from '../../../src/features/services';

interface Scenario {
  name: string;
  settings: Record<string, unknown>;
}

void (async () => {
  const scenarios = JSON.parse(process.argv[2] ?? '[]') as Scenario[];
  const reports: Record<string, string> = {};
  for (const s of scenarios) {
    const undo = scriptConfiguration(s.settings);
    try {
      const { createServices } = require('../../../src/features/services') as typeof ServicesModule;
      const { checkConnection } = require('../../../src/features/connection/probes') as typeof ConnectionModule;
      const services = createServices(fakeExtensionContext({ contributes: {} }, '/nonexistent'));
      reports[s.name] = await checkConnection(services.connection());
    } finally {
      undo();
    }
  }
  process.stdout.write(`${JSON.stringify(reports)}\n`);
  // Keep-alive sockets of the HTTP agents would hold the process open.
  process.exit(0);
})();
