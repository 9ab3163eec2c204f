// The inspector page's script. It is sent as its own source text (`String(inspectorScript)`), so it must stay
// self-contained: no imports, nothing from module scope. It talks only to this server: the feed and the control API.

/** Runs in the browser: reads the token from the URL fragment, follows the feed, renders it, sends actions. */
export function inspectorScript(): void {
  // biome-ignore lint/suspicious/noExplicitAny: the feed's JSON, read field by field as the server wrote it
  type Json = Record<string, any>;
  const $ = (id: string) => document.getElementById(id)!;
  const esc = (v: unknown) => String(v ?? '').replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
  const state: Json = {};
  let offset = 0;

  // The token arrives in the fragment (never sent to the server, so never in a request log), then moves to
  // sessionStorage and out of the address bar, so a shared screen or screenshot does not show it.
  const fragment = new URLSearchParams(location.hash.slice(1));
  const given = fragment.get('token');
  if (given) {
    sessionStorage.setItem('linkgate-control-token', given);
    history.replaceState(null, '', location.pathname + location.search);
  }
  const token = given ?? sessionStorage.getItem('linkgate-control-token');
  const auth = { authorization: `Bearer ${token}` };

  function locked(why: string): void {
    $('app').hidden = true;
    $('locked').hidden = false;
    $('locked-why').textContent = why;
    sessionStorage.removeItem('linkgate-control-token');
  }
  if (!token) {
    locked('No control token was given.');
    return;
  }

  const now = () => (state.clock?.kind === 'manual' ? state.clock.now : Date.now() + offset);
  const time = (ms: number | null) => (ms == null ? '' : new Date(ms).toISOString().slice(11, 23));
  const until = (ms: number | null) =>
    ms == null ? '' : `<span class="countdown" data-until="${ms}">${countdown(ms)}</span>`;
  function countdown(ms: number): string {
    const left = ms - now();
    return left <= 0 ? 'due now' : `in ${(left / 1000).toFixed(left < 10_000 ? 1 : 0)} s`;
  }
  // A URL may wrap after a slash (not inside `//`), ?, & or =; never inside a host, a name or a secret.
  const url = (u: string) =>
    `<code class="url">${String(u)
      .split(/(?<=[?&=]|\/(?!\/))/)
      .map((part) => `<span>${esc(part)}</span>`)
      .join('<wbr>')}</code>`;
  // Long lists show 10 rows at a time, with their count and buttons to page through.
  const pages: Record<string, number> = {};
  function paged<T>(key: string, section: string, items: T[]): [T[], string] {
    const size = 10;
    const last = Math.max(0, Math.ceil(items.length / size) - 1);
    const at = Math.min(pages[key] ?? 0, last);
    const to = (label: string, page: number) =>
      `<button type="button" data-action="page" data-key="${esc(key)}" data-section="${section}" data-to="${page}"${page < 0 || page > last ? ' disabled' : ''}>${label}</button>`;
    return [
      items.slice(at * size, at * size + size),
      last === 0
        ? ''
        : `<p class="pager">${at * size + 1}–${Math.min(items.length, at * size + size)} of ${items.length} ${to('Previous', at - 1)}${to('Next', at + 1)}</p>`,
    ];
  }
  const table = (head: string[], all: string[][], empty: string, key: string, section: string) => {
    const [rows, pager] = paged(key, section, all);
    return rows.length === 0
      ? `<p class="empty">${esc(empty)}</p>`
      : `<table><thead><tr>${head.map((h) => `<th scope="col">${esc(h)}</th>`).join('')}</tr></thead><tbody>${rows
          .map((r) => `<tr>${r.map((c) => `<td>${c}</td>`).join('')}</tr>`)
          .join('')}</tbody></table>${pager}`;
  };
  const button = (label: string, action: string, data: Json = {}) =>
    `<button type="button" data-action="${esc(action)}" ${Object.entries(data)
      .map(([k, v]) => `data-${k}="${esc(v)}"`)
      .join(' ')}>${esc(label)}</button>`;

  const renderers: Record<string, () => void> = {
    clock() {
      const c = state.clock;
      offset = c.kind === 'real' ? c.now - Date.now() : 0;
      $('clock-kind').textContent = c.kind === 'manual' ? 'manual' : 'real';
      $('clock-buttons').hidden = c.kind !== 'manual';
      $('next-due').innerHTML = c.nextDueAt == null ? 'nothing due' : `next attempt ${until(c.nextDueAt)}`;
      tick();
    },
    data() {
      const d = state.data;
      $('users').innerHTML = table(
        ['User', 'Email', 'Role', 'Plan', 'Key'],
        d.users.map((u: Json) => [
          esc(u.username),
          esc(u.email),
          u.admin ? 'admin' : 'user',
          esc(u.status),
          `<code>${esc(u.key)}</code>`,
        ]),
        'No users.',
        'users',
        'data',
      );
      $('domains').innerHTML = table(
        ['Domain', 'Owner'],
        d.domains.map((x: Json) => [esc(x.domain), esc(x.owner)]),
        'No domains.',
        'domains',
        'data',
      );
      $('pixels').innerHTML = table(
        ['Pixel', 'Type', 'Owner'],
        d.pixels.map((x: Json) => [esc(x.name), esc(x.type), esc(x.owner)]),
        'No pixels.',
        'pixels',
        'data',
      );
      const [qrs, pager] = paged<Json>('qrs', 'data', d.qrs);
      $('qrs').innerHTML =
        qrs.length === 0
          ? '<p class="empty">No QR codes.</p>'
          : qrs
              .map(
                (q: Json) =>
                  `<figure><img src="${esc(q.image)}" width="96" height="96" alt="QR code ${esc(q.name)}"><figcaption>${esc(q.name)} (${esc(q.type)}, ${esc(q.owner)})</figcaption></figure>`,
              )
              .join('') + pager;
      $('plans').innerHTML = table(
        ['Plan', 'Prices'],
        d.plans.map((p: Json) => [
          esc(p.name),
          p.free ? 'free' : esc(p.prices ? `${p.prices.monthly}/month, ${p.prices.yearly}/year` : ''),
        ]),
        'No plans.',
        'plans',
        'data',
      );
    },
    rate() {
      const r = state.rate;
      $('rate').innerHTML =
        r.limit == null
          ? '<p class="empty">Rate limit off.</p>'
          : `<p>${r.limit} requests per ${r.windowMs / 1000} s per key.</p>` +
            table(
              ['User', 'Key', 'Used', 'Remaining', 'Resets'],
              r.keys.map((k: Json) => [
                esc(k.username),
                `<code>${esc(k.key)}</code>`,
                String(k.used),
                String(k.remaining),
                until(k.resetAt),
              ]),
              'No key has an open window.',
              'rate',
              'rate',
            );
    },
    webhooks() {
      const w = state.webhooks;
      // One endpoint a row: the URL gets the row's whole width, so it wraps only where a URL may.
      const endpoint = (scope: string, e: Json) => [
        `${esc(scope)}, ${esc(e.events?.join(', ') || 'all events')}, secret <code class="secret">${esc(e.secret)}</code><br>${url(e.url)}`,
      ];
      $('endpoints').innerHTML = table(
        ['Endpoint'],
        [
          ...w.tenants.map((e: Json) => endpoint(`tenant ${e.tenant}`, e)),
          ...w.devices.map((e: Json) => endpoint(`device ${e.device_id}`, e)),
        ],
        'No webhook endpoint yet: attach one below.',
        'endpoints',
        'webhooks',
      );
      $('circuits').innerHTML = table(
        ['Receiver', 'Circuit'],
        w.circuits.map((c: Json) => [
          url(c.url),
          `<span class="circuit" data-state="${esc(c.state)}">${esc(c.state === 'half-open' ? 'probing' : c.state)}</span>${c.state === 'open' ? ` closes to a probe ${until(c.openUntil)}` : ''}, ${c.consecutiveFailures} failed in a row`,
        ]),
        'No attempts yet.',
        'circuits',
        'webhooks',
      );
      const s = w.stats;
      $('stats').textContent =
        `published ${s.published}, delivered ${s.delivered}, dead-lettered ${s.deadLettered}, replayed ${s.replayed}, not routed ${s.dropped} (no endpoint, not selected, or a group chat)${w.faults ? `; a fault is armed for the next ${w.faults > 1 ? `${w.faults} attempts` : 'attempt'}` : ''}`;
    },
    deliveries() {
      const { items, maxAttempts } = state.deliveries;
      $('deliveries').innerHTML =
        items.length === 0
          ? '<p class="empty">No deliveries yet.</p>'
          : items
              .map((d: Json) => {
                const last = d.attempts[d.attempts.length - 1];
                // Drops by an open circuit send nothing and use up no attempt: one row per attempt they held.
                const rows: Json[] = [];
                for (const a of d.attempts) {
                  const held = rows[rows.length - 1];
                  if (a.outcome === 'circuit-open' && held?.outcome === 'circuit-open' && held.attempt === a.attempt)
                    held.times++;
                  else rows.push({ ...a, times: 1, from: a.startedAt });
                }
                const of = (n: number) => `attempt ${n} of ${maxAttempts}`;
                const attempts = rows
                  .map((a: Json) =>
                    a.outcome === 'circuit-open'
                      ? `<li class="attempt" data-outcome="circuit-open" data-attempt="${a.attempt}">${of(a.attempt)} held by the open circuit${a.times > 1 ? ` ${a.times} times` : ''} ${a.from < a.startedAt ? `from ${time(a.from)} to` : 'at'} ${time(a.startedAt)}: no request sent</li>`
                      : `<li class="attempt" data-outcome="${esc(a.outcome)}" data-attempt="${a.attempt}">${of(a.attempt)}${a.probe ? ' (probe)' : ''} at ${time(a.startedAt)}: <strong>${esc(a.status ?? a.error ?? 'no answer')}</strong> ${esc(a.outcome)} in ${a.durationMs} ms${a.faults?.length ? ` [fault: ${esc(a.faults.join(', '))}]` : ''}${a.answer ? ` <q>${esc(a.answer.slice(0, 80))}</q>` : ''}</li>`,
                  )
                  .join('');
                const n = d.next;
                const next = d.inFlight
                  ? `${of(d.inFlight.attempt)} waiting for the receiver, times out ${until(d.inFlight.deadline)}`
                  : n
                    ? `${of(n.attempt)} ${n.waitingFor === 'probe' ? "waits for the circuit's probe, at the latest" : 'due'} ${until(n.at)}`
                    : '';
                const dead = d.deadLetterAt
                  ? `; dead-lettered if ${n?.attempt === maxAttempts ? 'it fails' : `attempts up to ${maxAttempts} fail`}, not before ${time(d.deadLetterAt)} (${until(d.deadLetterAt)})`
                  : '';
                return `<article class="delivery" data-delivery-id="${esc(d.deliveryId)}" data-last="${esc(last?.outcome)}"><h3>${esc(d.event)} <code>${esc(d.deliveryId)}</code></h3><p>to ${url(d.url)} (tenant ${esc(d.tenant)})</p><ul>${attempts}</ul>${next ? `<p class="next">${next}${dead}</p>` : ''}</article>`;
              })
              .join('');
    },
    deadLetters() {
      $('dead-letters').innerHTML = state.deadLetters.tenants
        .map(
          (t: Json) =>
            `<h3>Tenant ${esc(t.tenant)}: ${t.items.length} item(s), ${t.evicted} evicted</h3>${button(`Replay all of ${t.tenant}`, 'replay-all', { tenant: t.tenant })} ${button(`Purge ${t.tenant}`, 'purge', { tenant: t.tenant })}` +
            table(
              ['', 'Event', 'Delivery', 'Why', 'Attempts', 'Last answer', 'At'],
              t.items.map((i: Json) => [
                button('Replay', 'replay', { id: i.deliveryId }),
                esc(i.event),
                `<code>${esc(i.deliveryId)}</code>`,
                esc(i.reason),
                String(i.attempts),
                esc(i.lastStatus ?? i.lastResponse),
                time(i.at),
              ]),
              'Empty.',
              `dead-${t.tenant}`,
              'deadLetters',
            ),
        )
        .join('');
    },
    devices() {
      const list = state.devices.devices;
      $('device-list').innerHTML =
        list.length === 0
          ? '<p class="empty">No devices: add one below.</p>'
          : list
              .map((d: Json) => {
                const p = d.pairing;
                const frame = p?.frame;
                const pairing = !p
                  ? ''
                  : `<div class="pairing" data-state="${esc(p.state)}"><p>pairing ${esc(p.state)}, frame ${p.attempt} of 5${p.state === 'waiting' && frame ? `, next frame or timeout ${until(frame.expiresAt)}` : ''}</p>${
                      p.state === 'waiting' && frame
                        ? `<img class="qr-frame" src="${esc(frame.image)}" data-attempt="${frame.attempt}" data-qr-code="${esc(frame.qrCode)}" alt="Pairing QR code, frame ${frame.attempt} of 5">`
                        : ''
                    }${p.state === 'waiting' ? `${button('Scan (pair now)', 'scan', { device: d.id })} ${button('Cancel pairing', 'cancel', { device: d.id })}` : ''}</div>`;
                return `<article class="device" data-device-id="${esc(d.id)}"><h3>${esc(d.name)} <code>${esc(d.id)}</code></h3><p>tenant ${esc(d.tenant)}, phone ${esc(d.phone)}, status <strong class="device-status">${esc(d.status)}</strong></p>${d.status !== 'ONLINE' && p?.state !== 'waiting' ? button('Start pairing', 'pair', { device: d.id }) : ''}${pairing}</article>`;
              })
              .join('');
      const options = list.map((d: Json) => `<option>${esc(d.id)}</option>`).join('');
      for (const select of document.querySelectorAll<HTMLSelectElement>('select.devices')) {
        const value = select.value;
        select.innerHTML = options;
        if (value) select.value = value;
      }
    },
    faults() {
      const f = state.faults;
      $('faults-armed').innerHTML = table(
        ['Fault', 'What', 'How', 'When'],
        f.armed.map((a: Json) => [
          `<code>${esc(a.id)}</code> ${esc(a.name ?? '')}`,
          esc(JSON.stringify(a.target)),
          `<strong>${esc(a.fault)}</strong> ${esc(JSON.stringify(a.details))}`,
          `fired ${a.fired} of ${a.times}, seen ${a.seen}${a.chance < 1 ? `, chance ${a.chance} seed ${a.seed}` : ''}`,
        ]),
        `No API fault armed; deliveries with faults: ${f.deliveries}.`,
        'faults-armed',
        'faults',
      );
      $('faults-fired').innerHTML = table(
        ['At', 'Call', 'Fault'],
        f.fired.map((c: Json) => [
          time(c.at),
          `${esc(c.method)} ${esc(c.path)} (${esc(c.operation)})`,
          `<code>${esc(c.rule)}</code> ${esc(c.name ?? '')} ${esc(c.fault)}`,
        ]),
        'None yet.',
        'faults-fired',
        'faults',
      );
    },
    messages() {
      $('messages').innerHTML = table(
        ['Message', 'Device', 'Direction', 'Peer', 'Text', 'Receipts'],
        state.messages.map((m: Json) => [
          `<code>${esc(m.messageId)}</code>`,
          esc(m.deviceId),
          m.direction === 'in' ? 'in' : 'out',
          esc(m.peer),
          esc(m.text),
          m.statuses.map((s: Json) => `${esc(s.status)} ${time(s.at)}`).join(' → '),
        ]),
        'No messages yet.',
        'messages',
        'messages',
      );
    },
  };

  function render(name: string): void {
    try {
      renderers[name]?.();
    } catch (error) {
      console.error(`inspector: could not render ${name}`, error);
    }
  }

  function tick(): void {
    if (!state.clock) return;
    $('clock-now').textContent = new Date(now()).toISOString().replace('T', ' ').slice(0, 23);
    for (const el of document.querySelectorAll<HTMLElement>('[data-until]'))
      el.textContent = countdown(Number(el.dataset.until));
  }
  setInterval(tick, 250);

  function event(name: string, data: string): void {
    if (name === 'snapshot') {
      Object.assign(state, JSON.parse(data));
      for (const key of Object.keys(renderers)) render(key);
      $('status').textContent = 'live';
      $('status').dataset.state = 'live';
      return;
    }
    if (name === 'data-changes') {
      // Only the rows that changed come: replace or append them by id, drop the removed ids.
      for (const [list, { set, removed }] of Object.entries<Json>(JSON.parse(data))) {
        const rows = new Map(state.data[list].map((r: Json) => [r.id, r]));
        for (const id of removed) rows.delete(id);
        for (const r of set) rows.set(r.id, r);
        state.data[list] = [...rows.values()];
      }
      render('data');
      return;
    }
    if (!(name in renderers)) return;
    state[name] = JSON.parse(data);
    render(name);
  }

  // EventSource cannot send the Authorization header; fetch can, and reads the same text/event-stream.
  async function follow(): Promise<void> {
    for (;;) {
      try {
        const res = await fetch('/__mock/events', { headers: auth, cache: 'no-store' });
        if (res.status === 401) return locked('The token was refused: it is not this server’s control token.');
        const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
        let buffer = '';
        for (;;) {
          const { value, done } = await reader.read();
          if (done) break;
          buffer += value;
          let end = buffer.indexOf('\n\n');
          while (end !== -1) {
            const block = buffer.slice(0, end);
            buffer = buffer.slice(end + 2);
            end = buffer.indexOf('\n\n');
            let name = 'message';
            let data = '';
            for (const line of block.split('\n')) {
              if (line.startsWith('event: ')) name = line.slice(7);
              else if (line.startsWith('data: ')) data += line.slice(6);
            }
            if (data) event(name, data);
          }
        }
      } catch {
        // The server went away; try again below.
      }
      $('status').textContent = 'reconnecting…';
      $('status').dataset.state = 'reconnecting';
      await new Promise((r) => setTimeout(r, 1000));
    }
  }

  async function control(method: string, path: string, body?: Json): Promise<void> {
    const out = $('action-result');
    out.textContent = `${method} ${path} …`;
    try {
      const res = await fetch(path, {
        method,
        headers: { ...auth, 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await res.text();
      out.textContent = `${method} ${path} → ${res.status} ${text.slice(0, 300)}`;
      out.dataset.ok = String(res.ok);
    } catch (error) {
      out.textContent = `${method} ${path} failed: ${error}`;
      out.dataset.ok = 'false';
    }
  }

  const advance = (ms: number) => control('POST', '/__mock/clock/advance', { ms: Math.max(0, Math.ceil(ms)) });
  const actions: Record<string, (el: HTMLElement) => void> = {
    advance: (el) => void advance(Number(el.dataset.ms)),
    page: (el) => {
      pages[el.dataset.key!] = Number(el.dataset.to);
      render(el.dataset.section!);
    },
    'advance-next': () => {
      const c = state.clock;
      if (c?.nextDueAt == null)
        $('action-result').textContent = 'Nothing is due: no delivery waits for a retry or a probe.';
      else void advance(c.nextDueAt - c.now);
    },
    replay: (el) => void control('POST', `/__mock/dead-letters/${encodeURIComponent(el.dataset.id!)}/replay`),
    'replay-all': (el) => void control('POST', '/__mock/dead-letters/replay', { tenant: el.dataset.tenant }),
    purge: (el) => void control('DELETE', `/__mock/dead-letters?tenant=${encodeURIComponent(el.dataset.tenant!)}`),
    pair: (el) => void control('POST', '/__mock/simulate/pairing', { device_id: el.dataset.device, action: 'start' }),
    scan: (el) => void control('POST', '/__mock/simulate/pairing', { device_id: el.dataset.device, action: 'scan' }),
    cancel: (el) =>
      void control('POST', '/__mock/simulate/pairing', { device_id: el.dataset.device, action: 'cancel' }),
  };
  document.addEventListener('click', (e) => {
    const el = (e.target as HTMLElement).closest<HTMLElement>('button[data-action]');
    if (el) actions[el.dataset.action!]?.(el);
  });

  // Each action form posts its fields (empty ones left out) to the control endpoint named on the form.
  document.addEventListener('submit', (e) => {
    const form = e.target as HTMLFormElement;
    e.preventDefault();
    const body: Json = {};
    for (const [key, value] of new FormData(form)) {
      if (value === '') continue;
      const input = form.elements.namedItem(key) as HTMLInputElement;
      body[key] = input.type === 'checkbox' ? true : input.type === 'number' ? Number(value) : value;
    }
    void control(form.dataset.method ?? 'POST', form.dataset.path!, {
      ...JSON.parse(form.dataset.extra ?? '{}'),
      ...body,
    });
  });

  // A secret ready to copy into the receiver: the list above shows secrets by prefix only, so a secret made by the
  // mock would be one the user never sees (issue 31).
  const secret = $('attach-secret') as HTMLInputElement;
  secret.value ||= `whsec_live_${[...crypto.getRandomValues(new Uint8Array(16))].map((b) => b.toString(16).padStart(2, '0')).join('')}`;
  $('app').hidden = false;
  void follow();
}
