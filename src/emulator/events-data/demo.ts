// Deterministic demo telemetry for a small company: ~50,000 UDM events over the 7 days before the
// reset time, with hosts whose DHCP addresses change daily, users who own them, a few compromised
// machines that reach IoC domains, and raw logs derived from the events.
import { createRng } from '../random';
import type { DirectoryUser, IocEntry, ReferenceList } from './directory';
import { demoIocs, demoLists } from './demo-catalog';
import { demoEvent } from './demo-events';
import { demoWorld, type Udm } from './demo-world';

export type { Udm } from './demo-world';

export interface DemoData {
  events: Array<{ udm: Udm; t: number; name: string }>;
  users: DirectoryUser[];
  iocs: IocEntry[];
  lists: ReferenceList[];
}

const DAY = 86_400_000;

export function generateDemo(anchor: number, count = 50_000): DemoData {
  const rng = createRng(0x5ec0_0ded);
  const start = anchor - 7 * DAY;
  const world = demoWorld(rng, anchor);
  const { clients, serverHosts } = world;
  const events: DemoData['events'] = [];
  for (let n = 0; n < count; n++) {
    let t = start + Math.floor(rng.next() * 7 * DAY);
    // Fewer events at night (UTC 00-06), as in a real office.
    if (new Date(t).getUTCHours() < 6 && rng.chance(0.6)) t = start + Math.floor(rng.next() * 7 * DAY);
    const roll = rng.next();
    const host = rng.chance(0.8) ? rng.pick(clients) : rng.pick(serverHosts);
    const bad = host.compromised && rng.chance(0.06);
    const udm = demoEvent(world, roll, host, t, bad);
    events.push({ udm, t, name: world.lastName() });
  }
  return { events, users: world.users, iocs: demoIocs(start, anchor), lists: demoLists(start) };
}
