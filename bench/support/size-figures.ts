// One budget's figures, measured as `npm run size` and the bundle-size bench print them: what the app adds to its host
// app (the host bundled alone and with the app, in the same run; the host is printed beside it) and the app standalone
// beside its floor.
import { gzipped, withHost } from './app-bundle.js';
import { judgeSize, type SizeBudget } from './size-budgets.js';

/** Floors are bundled once per run, whichever budget asks first. */
const floors = new Map<string, number>();

async function floorKb(source: string): Promise<number> {
  let kb = floors.get(source);
  if (kb === undefined) {
    kb = (await gzipped(source, `floor-${floors.size}`)).gz / 1024;
    floors.set(source, kb);
  }
  return kb;
}

/** The app's two judged figures, added to its host first, then standalone. */
export async function measureBudget(budget: SizeBudget, shipped?: string): Promise<{ ok: boolean; line: string }[]> {
  const built = budget.shipped ? shipped : undefined;
  const slug = budget.name.replace(/\W+/g, '-');
  const { host } = budget.added;
  const hostKb = await floorKb(host.source);
  const withApp = (await gzipped(withHost(host.source, budget.source, slug), `${slug}-hosted`, {}, built)).gz / 1024;
  const added = judgeSize({
    what: `${budget.name}, added to a host app`,
    kb: withApp - hostKb,
    ...(budget.added.budgetKb !== undefined && { limit: { ...budget.added, budgetKb: budget.added.budgetKb } }),
    note: `host (${host.name}) ${hostKb.toFixed(1)} KB alone, ${withApp.toFixed(1)} KB with linkgate`,
  });
  const standalone = judgeSize({
    what: `${budget.name}, standalone`,
    kb: (await gzipped(budget.source, slug, {}, built)).gz / 1024,
    limit: budget.standalone,
    floor: { name: budget.floor.name, kb: await floorKb(budget.floor.source) },
  });
  return [added, standalone];
}
