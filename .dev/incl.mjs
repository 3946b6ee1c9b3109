// inclusive & self time per function (by name+url:line) within the profile
import { readFileSync } from 'node:fs';
const p = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const filter = process.argv[3] ? new RegExp(process.argv[3]) : null;
const byId = new Map(p.nodes.map(n => [n.id, n]));
const parent = new Map();
for (const n of p.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
const self = new Map(); let total = 0;
const dts = p.timeDeltas; 
const startup = new Set(); // nodes under main() or the module loader: start-up, not requests
for (const n of p.nodes) { let cur = n.id; while (cur !== undefined) { const f = byId.get(cur).callFrame; if (/src\/main\.js|esm\/loader|cjs\/loader/.test(f.url)) { startup.add(n.id); break; } cur = parent.get(cur); } }
for (let i = 0; i < p.samples.length; i++) { const id = p.samples[i]; const n = byId.get(id); if (n.callFrame.functionName === '(idle)' || startup.has(id)) continue; const dt = dts[i+1] ?? 0; total += dt; self.set(id, (self.get(id) ?? 0) + dt); }
const key = n => `${n.callFrame.functionName || '(anon)'} ${n.callFrame.url.replace(/.*node_modules\//,'').replace(/.*\/dist\//,'')}:${n.callFrame.lineNumber+1}`;
const incl = new Map(), selfK = new Map();
for (const [id, t] of self) {
  const seen = new Set(); let cur = id;
  selfK.set(key(byId.get(id)), (selfK.get(key(byId.get(id))) ?? 0) + t);
  while (cur !== undefined) { const k = key(byId.get(cur)); if (!seen.has(k)) { seen.add(k); incl.set(k, (incl.get(k) ?? 0) + t); } cur = parent.get(cur); }
}
const rows = [...incl].filter(([k]) => !filter || filter.test(k)).sort((a, b) => b[1] - a[1]).slice(0, +process.argv[4] || 60);
for (const [k, t] of rows) console.log((100*t/total).toFixed(1).padStart(5), (100*(selfK.get(k)??0)/total).toFixed(1).padStart(5), k);
if (process.env.SELF) { console.log('--- self'); for (const [k,t] of [...selfK].sort((a,b)=>b[1]-a[1]).slice(0,+process.env.SELF)) console.log((100*t/total).toFixed(1).padStart(5), k); }
