// The anon clients of bench/anon-flood.ts, in a worker thread of their own so that their
// requests never delay the lookups timed on the main thread. Plain JavaScript (like
// flood-clients.mjs) so the worker needs no loader. workerData: { url, method, body, anonKey,
// bearer (an access token; default the anon key), headers (more headers: a card token's
// x-namecard-token, sent with the anon key as its bearer, as supabase-js sends it), clients,
// seconds }; posts back { sent, byStatus, socketErrors } when the time is up.
// bench/member-flood.ts sends a signed-in account's calls with it too, and
// tests/security/visitor-load.test.ts any caller's.
import { request } from 'node:http';
import { parentPort, workerData } from 'node:worker_threads';

const { url, method, body, anonKey, bearer, headers = {}, clients, seconds } = workerData;
const payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body));

/** One request, as PostgREST's clients send it; resolves with the status or 'error'. */
function call() {
  return new Promise((resolve) => {
    const req = request(url, {
      method,
      headers: {
        apikey: anonKey,
        authorization: `Bearer ${bearer ?? anonKey}`,
        ...headers,
        ...(payload
          ? { 'content-type': 'application/json', 'content-length': payload.length }
          : {}),
      },
    });
    req.setTimeout(30_000, () => req.destroy(new Error('time-out')));
    req.on('response', (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
      res.on('error', () => resolve('error'));
    });
    req.on('error', () => resolve('error'));
    req.end(payload);
  });
}

const deadline = Date.now() + seconds * 1000;
const byStatus = {};
let sent = 0;
let socketErrors = 0;
async function client() {
  while (Date.now() < deadline) {
    sent++;
    const outcome = await call();
    if (outcome === 'error') socketErrors++;
    else byStatus[outcome] = (byStatus[outcome] ?? 0) + 1;
  }
}
await Promise.all(Array.from({ length: clients }, client));
parentPort.postMessage({ sent, byStatus, socketErrors });
