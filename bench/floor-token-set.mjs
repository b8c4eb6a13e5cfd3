// The FLOOR of `NAMECARD_TOKEN=… namecard set` (bench/cli.ts): a bare Node script that sends the
// write a card token's `set` sends, one POST of /rest/v1/rpc/namecard_set with the token in the
// header x-namecard-token and the anon key as `apikey` (no session), knowing the card already
// (the API's base URL in argv[2], the entry's type and end, epoch ms, in argv[3] and argv[4], the
// card's slug in argv[5]; the anon key and the token from SUPABASE_ANON_KEY and NAMECARD_TOKEN,
// as the CLI reads them, so the secret is in no process list), reads the answer and prints it.
// Nothing else loads.
import { request } from 'node:http';

const [, , base = '', type = 'photo', end = '0', card = 'main'] = process.argv;
const key = process.env.SUPABASE_ANON_KEY ?? '';
const body = JSON.stringify({ type, stamp_start: null, stamp_end: Number(end), card });
const post = request(
  `${base.replace(/\/+$/, '')}/rest/v1/rpc/namecard_set`,
  {
    method: 'POST',
    headers: {
      apikey: key,
      'x-namecard-token': process.env.NAMECARD_TOKEN ?? '',
      'Content-Type': 'application/json',
      'Content-Profile': 'public',
    },
  },
  (response) => {
    let answer = '';
    response.setEncoding('utf8');
    response.on('data', (chunk) => (answer += chunk));
    response.on('end', () => {
      process.stdout.write(`${answer}\n`);
      if (response.statusCode !== 200) process.exitCode = 1;
    });
  },
);
post.end(body);
