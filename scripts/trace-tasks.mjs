// `node scripts/trace-tasks.mjs <trace.json>`: where a Chromium trace's main-thread time goes (the list bench
// writes one with PIPEWORK_LIST_TRACE). Prints the page's busy time, its time in rendering steps and script,
// and the longest tasks with what they spent it on, to find what makes a task long. (The task that starts the
// trace, an EvaluateScript of about 200 ms held by the profiler starting, is the tracing's own.)
import { readFileSync } from 'node:fs';

const STEPS = [
  'FunctionCall',
  'UpdateLayoutTree',
  'Layout',
  'PrePaint',
  'Paint',
  'Layerize',
  'Commit',
  'HitTest',
];
const ms = (us) => (us / 1000).toFixed(1);

const events = JSON.parse(readFileSync(process.argv[2], 'utf8')).traceEvents;
const threadName = new Map();
for (const e of events) if (e.name === 'thread_name') threadName.set(`${e.pid}:${e.tid}`, e.args.name);
const thread = (e) => `${e.pid}:${e.tid}`;
// The page's main thread: the renderer main thread with the most events (others are idle frames).
const counts = new Map();
for (const e of events)
  if (threadName.get(thread(e)) === 'CrRendererMain') counts.set(thread(e), (counts.get(thread(e)) ?? 0) + 1);
const main = [...counts].sort((a, b) => b[1] - a[1])[0][0];
const onMain = events
  .filter((e) => thread(e) === main && e.ph === 'X' && e.dur !== undefined)
  .sort((a, b) => a.ts - b.ts);
// Top-level tasks only: a task nested in another is part of it.
const tasks = [];
let end = -1;
for (const e of onMain)
  if (e.name === 'ThreadControllerImpl::RunTask' && e.ts >= end) {
    tasks.push(e);
    end = e.ts + e.dur;
  }
const start = tasks[0].ts;
const busy = tasks.reduce((sum, t) => sum + t.dur, 0);
const over = (limit) => tasks.filter((t) => t.dur > limit * 1000).length;
console.log(
  `${tasks.length} tasks, busy ${ms(busy)} ms in ${ms((end - start) / 1000)} s; over 50 ms: ${over(50)}, over 30 ms: ${over(30)}`,
);
const bySteps = new Map();
for (const e of onMain) if (STEPS.includes(e.name)) bySteps.set(e.name, (bySteps.get(e.name) ?? 0) + e.dur);
console.log('time in:', [...bySteps].map(([name, dur]) => `${name} ${ms(dur)}`).join(', '));
for (const task of [...tasks].sort((a, b) => b.dur - a.dur).slice(0, Number(process.argv[3] ?? 12))) {
  const inside = new Map();
  for (const e of onMain)
    if (e !== task && e.ts >= task.ts && e.ts + e.dur <= task.ts + task.dur && e.name !== task.name)
      inside.set(e.name, (inside.get(e.name) ?? 0) + e.dur);
  const top = [...inside].sort((a, b) => b[1] - a[1]).slice(0, 6);
  console.log(
    `at ${ms((task.ts - start) / 1000)} s, ${ms(task.dur)} ms: ${top.map(([name, dur]) => `${name} ${ms(dur)}`).join(', ')}`,
  );
}
