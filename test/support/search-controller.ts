// What the search integration tests set up alike: a search controller on fresh services (no
// extension folder), and the sandbox events they ingest. Required after the `vscode` fake is in
// place (and after freshProductModules), so the controller is the product's current module.
import type { ResolvedWindow } from '../../src/core/secops/timerange';
import type * as ControllerModule from '../../src/features/search/controller';
import type * as ServicesModule from '../../src/features/services';
import { fakeExtensionContext } from '../unit/fakes/vscode';

/** A udmSearch the controller made, whole or read as it arrived. */
export interface SearchCall {
  query: string;
  startTime: number;
  endTime: number;
  limit?: number;
}

/**
 * A controller whose time range is `window()` and whose every udmSearch (whole or streamed) is told
 * to `onSearch` before it goes to the service.
 */
export function searchControllerForTests(
  window: () => ResolvedWindow,
  onSearch: (request: SearchCall) => void,
): InstanceType<typeof ControllerModule.SearchController> {
  const { createServices } = require('../../src/features/services') as typeof ServicesModule;
  const { SearchController } = require('../../src/features/search/controller') as typeof ControllerModule;
  const controller = new SearchController(createServices(fakeExtensionContext({ contributes: {} }, '/nonexistent')));
  controller.currentWindow = window;
  const client = controller.getClient();
  const whole = client.udmSearch.bind(client);
  client.udmSearch = (request, signal) => {
    onSearch(request as SearchCall);
    return whole(request, signal);
  };
  const streamed = client.udmSearchStreaming.bind(client);
  client.udmSearchStreaming = (request, onEvents, signal) => {
    onSearch(request as SearchCall);
    return streamed(request, onEvents, signal);
  };
  return controller;
}

/** The metadata.id of sandbox event `i`: 16 bytes, base64, as the service gives ids. */
export function sandboxEventId(i: number): string {
  return Buffer.from(i.toString(16).padStart(32, '0'), 'hex').toString('base64');
}
