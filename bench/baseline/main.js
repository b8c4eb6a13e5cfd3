// The BASELINE Redirecting.. page: what the specified original did, rebuilt for the
// benchmark only. It loads the full supabase-js client, reads EVERY row of the table
// (all the columns a visitor may read, `order('id', { ascending: false })`), and picks the
// active entry in the browser. It marks the moment it decided exactly as site/go does, so both pages are
// timed the same way. Built by bench/builds.ts with Vite; `__BASELINE__` is defined there.
/* global document, window, __BASELINE__ */
import { createClient } from '@supabase/supabase-js';

const { supabaseUrl, anonKey, mainUrl, photoUrl } = __BASELINE__;
const supabase = createClient(supabaseUrl, anonKey);

async function chooseTarget() {
  const now = Date.now();
  const { data, error } = await supabase
    .from('namecard')
    .select('id,type,stamp_start,stamp_end')
    .order('id', { ascending: false });
  if (error || !data) {
    console.error(error);
    return { target: mainUrl, rows: 0 };
  }
  const active = data.find((row) => row.stamp_end > now);
  return { target: active?.type === 'photo' ? photoUrl : mainUrl, rows: data.length };
}

void chooseTarget().then(({ target, rows }) => {
  const root = document.documentElement;
  root.dataset.target = target;
  root.dataset.rowsRead = String(rows);
  root.dataset.lookupDoneAt = String(performance.timeOrigin + performance.now());
  setTimeout(() => window.location.replace(target), 1500);
});
