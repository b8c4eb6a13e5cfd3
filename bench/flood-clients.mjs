// The flooding clients of bench/flood.ts, in a worker thread of their own so that writing
// their bodies never delays the lookups being timed on the main thread. Plain JavaScript
// (like floor.mjs) so the worker needs no loader. workerData: { url, anonKey, clients,
// bodyBytes, seconds }; posts back { sent, byStatus, socketErrors } when the time is up.
import { request } from 'node:http';
import { parentPort, workerData } from 'node:worker_threads';

const { url, anonKey, clients, bodyBytes, seconds } = workerData;

// One entry object whose `pad` is a deep nesting of arrays, the costliest shape to parse
// per byte, as a hostile client would send; exactly `bodyBytes` long.
const head = '{"type":"photo","stamp_end":1,"pad":';
const depth = Math.floor((bodyBytes - head.length - 1) / 2);
const body = Buffer.from(`${head}${'['.repeat(depth)}${']'.repeat(depth)}}`.padEnd(bodyBytes, ' '));

/** One anonymous POST; resolves with the status, or 'error' on a socket error. */
function post() {
  return new Promise((resolve) => {
    const req = request(url, {
      method: 'POST',
      agent: false,
      headers: {
        apikey: anonKey,
        authorization: `Bearer ${anonKey}`,
        'content-type': 'application/json',
        'content-length': body.length,
      },
    });
    req.setTimeout(15_000, () => req.destroy(new Error('time-out')));
    req.on('response', (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
      res.on('error', () => resolve('error'));
    });
    // A server that answers before reading the body closes the connection: the rest of the
    // write then fails after the answer, which is expected, not a lost answer.
    req.on('error', () => resolve('error'));
    req.end(body);
  });
}

const deadline = Date.now() + seconds * 1000;
const byStatus = {};
let sent = 0;
let socketErrors = 0;
async function client() {
  while (Date.now() < deadline) {
    sent++;
    const outcome = await post();
    if (outcome === 'error') socketErrors++;
    else byStatus[outcome] = (byStatus[outcome] ?? 0) + 1;
  }
}
await Promise.all(Array.from({ length: clients }, client));
parentPort.postMessage({ sent, byStatus, socketErrors });
