"""A webhook receiver in Python, standard library only: checks the secret (constant time) and the timestamp, drops
repeated deliveries, and acknowledges with 200. Test it with one line, without the gateway:

    WEBHOOK_SECRET=whsec_live_<32 hex> PORT=8000 python3 examples/webhook-receiver-python.py
    npx linkgate trigger message.received --to http://127.0.0.1:8000/webhooks --secret "$WEBHOOK_SECRET"

It does not check each event's fields against the gateway's schema (the TypeScript receivers do, with linkgate/webhooks),
so `linkgate trigger ... --allow-invalid` reports it ACCEPTED an invalid payload: validate the body there if you need to.

Run by test/e2e/trigger-python-receiver.test.ts.
"""

import hmac
import json
import os
import sys
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

SECRET = os.environ.get("WEBHOOK_SECRET", "").encode()
if not SECRET:
    sys.exit("Set WEBHOOK_SECRET (whsec_live_ followed by 32 hex characters).")
TOLERANCE_SECONDS = 300
MAX_BODY_BYTES = 1_000_000
handled_ids = set()  # in memory: use your database in production


class Receiver(BaseHTTPRequestHandler):
    def do_POST(self):
        if self.path != "/webhooks":
            return self.answer(404, "not_found")
        # The secret first, in constant time, before reading any of the body.
        if not hmac.compare_digest(self.headers.get("X-Service-Secret", "").encode(), SECRET):
            return self.answer(401, "secret_mismatch")
        try:
            stamped = int(self.headers.get("X-Service-Timestamp", ""))
        except ValueError:
            return self.answer(400, "invalid_header")
        if abs(time.time() - stamped) > TOLERANCE_SECONDS:
            return self.answer(401, "stale_timestamp")  # a replay, or a clock that is wrong
        length = int(self.headers.get("Content-Length", "0"))
        if length > MAX_BODY_BYTES:
            return self.answer(413, "body_too_large")
        try:
            event = json.loads(self.rfile.read(length))
            name, device, data = event["event"], event["device_id"], event["data"]
            if not isinstance(data, dict):
                raise TypeError("data is not an object")
            if name == "message.ack" and data["status_code"] not in (1, 2, 3, 4):
                raise ValueError("status_code is not 1-4")
        except (ValueError, KeyError, TypeError):
            return self.answer(400, "invalid_payload")
        delivery_id = self.headers.get("X-Service-Delivery-ID", "")
        if delivery_id in handled_ids:
            return self.answer(200)  # a repeat: acknowledge, do not handle again
        handled_ids.add(delivery_id)
        print(f"handled {name} from {device}: {json.dumps(data)}", flush=True)
        self.answer(200)

    def answer(self, status, code=None):
        body = json.dumps({"status": "success"} if code is None else {"status": "error", "code": code}).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass  # one line per handled event is printed above


server = ThreadingHTTPServer(("127.0.0.1", int(os.environ.get("PORT", "8000"))), Receiver)
print(f"listening for webhooks on http://127.0.0.1:{server.server_address[1]}/webhooks", flush=True)
server.serve_forever()
