// A fresh `linkgate mock` loaded with a recording through POST /__mock/fixture (the mock has no --fixture flag yet).
import { startCli } from '../../e2e/support/processes.js';

const TOKEN = 'ctl_drift_recording';

/** Starts an empty mock, loads the recording, and resolves with its URL and the loaded users' keys (by username). */
export async function mockWithRecording(recording: string): Promise<{ url: string; keys: Record<string, string> }> {
  const target = await startCli(['--seed', 'empty', '--quiet', '--control-token', TOKEN]);
  const loaded = await fetch(`${target.url}/__mock/fixture`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${TOKEN}`, 'Content-Type': 'application/json' },
    body: recording,
  });
  const result = (await loaded.json()) as { users?: { username: string; apikey: string }[] };
  if (loaded.status !== 201)
    throw new Error(`POST /__mock/fixture answered ${loaded.status}: ${JSON.stringify(result)}`);
  return { url: target.url, keys: Object.fromEntries((result.users ?? []).map((u) => [u.username, u.apikey])) };
}
