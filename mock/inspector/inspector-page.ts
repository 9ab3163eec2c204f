// The inspector page: one HTML document with its style and script inline, so it works offline and from the
// sources (tsx) as from the built CLI without a build step of its own.
import { inspectorScript } from './page-script.js';

const STYLE = `
*{box-sizing:border-box}body{margin:0;font:14px/1.4 system-ui,sans-serif;color:#1b1f24;background:#f4f5f7}
header{position:sticky;top:0;z-index:1;display:flex;flex-wrap:wrap;gap:.5rem 1rem;align-items:center;padding:.5rem 1rem;background:#1b1f24;color:#fff}
header h1{font-size:1rem;margin:0}#status{padding:0 .4rem;border-radius:3px;background:#555}#status[data-state=live]{background:#1a7f37}
main{display:grid;grid-template-columns:repeat(auto-fit,minmax(min(100%,38rem),1fr));gap:1rem;padding:1rem}
section{background:#fff;border:1px solid #d0d7de;border-radius:6px;padding:.5rem 1rem;min-width:0;overflow-x:auto}
h2{font-size:1.05rem;margin:.4rem 0}h3{font-size:.95rem;margin:.6rem 0 .2rem}p{margin:.3rem 0}
table{border-collapse:collapse;width:100%;font-size:13px}th,td{text-align:left;padding:.2rem .4rem;border-bottom:1px solid #eaeef2;vertical-align:top}
code{font-size:12px;white-space:nowrap}.url{white-space:normal}.url span{white-space:nowrap}.empty{color:#57606a}button{font:inherit;padding:.2rem .6rem;margin:.1rem;cursor:pointer}
button:focus-visible,input:focus-visible,select:focus-visible{outline:3px solid #0969da;outline-offset:1px}
.circuit{font-weight:600;padding:0 .3rem;border-radius:3px}.circuit[data-state=closed]{background:#dafbe1}.circuit[data-state=open]{background:#ffebe9;color:#a40e26}.circuit[data-state=half-open]{background:#fff8c5}
.delivery{border-left:4px solid #8c959f;padding-left:.6rem;margin:.5rem 0}.delivery[data-last=delivered]{border-color:#1a7f37}.delivery[data-last=dead_lettered],.delivery[data-last=rejected]{border-color:#a40e26}
.attempt[data-outcome=circuit-open]{color:#57606a}.attempt[data-outcome=delivered] strong{color:#1a7f37}.attempt:not([data-outcome=delivered]) strong{color:#a40e26}
#deliveries{max-height:40rem;overflow-y:auto}figure{display:inline-block;margin:.3rem;text-align:center;font-size:12px}
.qr-frame{display:block;width:min(100%,16rem);image-rendering:pixelated;margin:.4rem 0}
form{display:flex;flex-wrap:wrap;gap:.3rem .6rem;align-items:end;margin:.4rem 0;padding:.4rem 0;border-bottom:1px solid #eaeef2}
label{display:flex;flex-direction:column;font-size:12px}input,select{font:inherit;padding:.15rem .3rem}
#action-result{font-family:monospace;font-size:12px;white-space:pre-wrap;word-break:break-all}#action-result[data-ok=false]{color:#a40e26}
@media (max-width:40rem){header{position:static}main{padding:.5rem;gap:.5rem}section{padding:.4rem .6rem}}
#locked{max-width:40rem;margin:3rem auto;background:#fff;padding:1rem 2rem;border:1px solid #d0d7de;border-radius:6px}
`;

const device = (name = 'device_id') =>
  `<label>Device<select class="devices" name="${name}" required aria-label="Device"></select></label>`;

const BODY = `
<div id="locked" hidden>
<h1>linkgate mock inspector</h1>
<p id="locked-why"></p>
<p>This page shows the mock's data only to someone who holds its <strong>control token</strong>. Open the link that
<code>linkgate mock</code> prints when it starts (<code>Inspector: http://127.0.0.1:PORT/#token=…</code>), or add
<code>#token=&lt;token&gt;</code> to this address. The token is the one printed as "Control API: … token ctl_…", or
the one you passed with <code>--control-token</code>. It stays in the address fragment, which browsers never send to
the server.</p>
</div>
<div id="app" hidden>
<header><h1>linkgate mock inspector</h1><span id="status" data-state="connecting" role="status">connecting…</span>
<span>clock <strong id="clock-kind"></strong>: <time id="clock-now"></time></span><span id="next-due"></span>
<span id="clock-buttons" hidden>Advance:
<button type="button" data-action="advance" data-ms="1000">Advance 1 s</button>
<button type="button" data-action="advance" data-ms="3000">Advance 3 s</button>
<button type="button" data-action="advance" data-ms="30000">Advance 30 s</button>
<button type="button" data-action="advance" data-ms="60000">Advance 1 min</button>
<button type="button" data-action="advance-next">Advance to the next due attempt</button></span>
</header>
<main>
<section aria-labelledby="h-webhooks"><h2 id="h-webhooks">Webhooks</h2><div id="endpoints"></div><h3>Circuits</h3><div id="circuits"></div><p id="stats"></p></section>
<section aria-labelledby="h-deliveries"><h2 id="h-deliveries">Deliveries (newest first)</h2><div id="deliveries"></div></section>
<section aria-labelledby="h-faults"><h2 id="h-faults">Faults</h2><div id="faults-armed"></div><h3>Calls a fault changed (newest first)</h3><div id="faults-fired"></div></section>
<section aria-labelledby="h-dead"><h2 id="h-dead">Dead letters</h2><div id="dead-letters"></div></section>
<section aria-labelledby="h-devices"><h2 id="h-devices">Devices and pairing</h2><div id="device-list"></div></section>
<section aria-labelledby="h-messages"><h2 id="h-messages">Messages and receipts</h2><div id="messages"></div></section>
<section aria-labelledby="h-actions"><h2 id="h-actions">Actions</h2>
<p id="action-result" role="status" aria-live="polite"></p>
<form data-path="/__mock/webhooks" data-extra='{"events":["message.received","message.ack","device.status"]}' aria-label="Attach a webhook receiver"><label>Receiver URL<input name="url" type="url" required placeholder="http://127.0.0.1:3000/webhooks"></label><label>Tenant<input name="tenant" placeholder="default"></label><label>Secret (start your receiver with it as WEBHOOK_SECRET)<input name="secret" id="attach-secret" required placeholder="whsec_live_ + 32 hex" pattern="whsec_live_[0-9a-f]{32}" autocomplete="off"></label><button>Attach receiver</button></form>
<form data-path="/__mock/devices" aria-label="Add a device"><label>Status<select name="status"><option>OFFLINE</option><option>ONLINE</option></select></label><button>Add device</button></form>
<form data-path="/__mock/simulate/message" aria-label="Simulate an inbound message">${device()}<label>Sender<input name="sender" required value="15551234567" inputmode="numeric"></label><label>Text<input name="text" value="hello"></label><button>Simulate inbound message</button></form>
<form data-path="/__mock/simulate/ack" aria-label="Simulate a receipt">${device()}<label>Message id<input name="message_id" required></label><label>Recipient<input name="recipient" required value="15551234567"></label><label>Status<select name="status"><option>sent</option><option>delivered</option><option>read</option><option>played</option></select></label><button>Simulate receipt</button></form>
<form data-path="/__mock/simulate/status" aria-label="Simulate a device status">${device()}<label>Status<select name="status"><option>ONLINE</option><option>OFFLINE</option><option>LOGGED_OUT</option><option>BANNED</option></select></label><label>Reason<input name="reason"></label><button>Change device status</button></form>
<form data-path="/__mock/simulate/pairing" data-extra='{"action":"start"}' aria-label="Start pairing">${device()}<button>Start pairing</button></form>
<form data-path="/__mock/faults" aria-label="Inject a fault into the next attempt"><label>Wrong secret<input type="checkbox" name="wrongSecret"></label><label>Stale timestamp<input type="checkbox" name="staleTimestamp"></label><label>Duplicate<input type="checkbox" name="duplicate"></label><button>Inject fault for the next attempt</button></form>
</section>
<section aria-labelledby="h-rate"><h2 id="h-rate">Rate windows</h2><div id="rate"></div></section>
<section aria-labelledby="h-data"><h2 id="h-data">Data</h2><h3>Users</h3><div id="users"></div><h3>Domains</h3><div id="domains"></div><h3>Pixels</h3><div id="pixels"></div><h3>QR codes</h3><div id="qrs"></div><h3>Plans</h3><div id="plans"></div></section>
</main>
</div>`;

let page: string | undefined;

/** The page's HTML (built once). It holds no data: everything comes from the token-protected feed. */
export function inspectorPage(): string {
  // `__name` is defined in case the transpiler that loaded this module (tsx, esbuild with keepNames) wraps functions.
  page ??= `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>linkgate mock inspector</title><link rel="icon" href="data:,"><style>${STYLE}</style></head><body>${BODY}<script>var __name=function(f){return f};(${String(inspectorScript)})();</script></body></html>`;
  return page;
}
