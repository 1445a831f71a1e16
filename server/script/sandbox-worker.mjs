// One worker of the script pool: runs each script in a fresh QuickJS runtime and context, with memory, stack
// and time limits, and nothing of the host but the explicit `pi` functions. Plain JavaScript so the same file
// runs under vitest, tsx and the bundled server (see script-pool.ts).
import { readlinkSync } from 'node:fs';
import { setPriority } from 'node:os';
import { parentPort, receiveMessageOnPort, workerData } from 'node:worker_threads';
import variant from '@jitl/quickjs-wasmfile-release-sync';
import { newQuickJSWASMModuleFromVariant, shouldInterruptAfterDeadline } from 'quickjs-emscripten-core';
import { PRELUDE } from './sandbox-prelude.mjs';

/** @type {MessagePort} */
const callPort = workerData.callPort;
/** Word 0: 0 while a host call waits for its answer, 1 when the answer was posted. */
const callSignal = new Int32Array(workerData.callSignal);
/** Holds the id of a run whose caller gave up: QuickJS's interrupt handler stops that run at once. */
const cancelSignal = new Int32Array(workerData.cancelSignal);
const MAX_LOG_LINES = 1000;
const MAX_LOG_CHARS = 10_000;

/**
 * Scripts run at a lower CPU priority than the server's event loop (Linux: the niceness of this thread alone),
 * so a looping script takes what the CPU has to spare, not the time other users' requests need.
 * Best effort: where threads cannot be told apart (not Linux) or the call is refused, nothing changes.
 */
function lowerThreadPriority(niceness) {
  if (!niceness) return;
  try {
    const threadId = Number(readlinkSync('/proc/thread-self').split('/').pop());
    if (Number.isSafeInteger(threadId) && threadId > 0) setPriority(threadId, niceness);
  } catch {
    // not Linux, or not allowed: the worker runs at the server's priority
  }
}
let quickjs = await newQuickJSWASMModuleFromVariant(variant);
// Lowered once the sandbox is loaded: a replacement worker is ready as soon as it can be.
lowerThreadPriority(workerData.niceness ?? 0);

let lastCall = 0;

/** The answer to call `seq`, skipping late answers to calls of earlier runs that gave up waiting. */
function takeAnswer(seq) {
  for (let received = receiveMessageOnPort(callPort); received; received = receiveMessageOnPort(callPort)) {
    if (received.message.seq === seq) return received.message;
  }
  return undefined;
}

/** A synchronous call to the main thread (PEL utilities, properties): blocks this worker, never the server. */
function hostCall(kind, payloadText, deadline) {
  const seq = ++lastCall;
  Atomics.store(callSignal, 0, 0);
  callPort.postMessage({ seq, kind, payloadText });
  for (;;) {
    const wait = Atomics.wait(callSignal, 0, 0, Math.max(0, deadline - Date.now()));
    // Reset before looking, so an answer posted after the look still wakes the next wait.
    Atomics.store(callSignal, 0, 0);
    const answer = takeAnswer(seq);
    if (answer) {
      if (!answer.ok) throw new Error(answer.message);
      return answer.valueText;
    }
    if (wait === 'timed-out' || Date.now() >= deadline) {
      throw new Error('interrupted: the host call ran past the time limit');
    }
  }
}

/** Names a QuickJS error: a limit (time, memory, stack) or the script's own error. */
function classify(dumped) {
  const text =
    typeof dumped === 'object' && dumped !== null ? `${dumped.name}: ${dumped.message}` : String(dumped);
  if (/interrupted/i.test(text)) return { reason: 'timeout', message: 'The script ran past its time limit.' };
  if (/out of memory|string too long|invalid array length/i.test(text))
    return { reason: 'memory', message: 'The script ran past its memory limit.' };
  if (/stack overflow|call stack size/i.test(text)) {
    return { reason: 'stack', message: 'The script ran past its stack limit (recursion too deep).' };
  }
  const at = /script\.js:(\d+)(?::(\d+))?/.exec(String(dumped?.stack ?? ''));
  const where = at ? ` (line ${at[1]}${at[2] ? `, column ${at[2]}` : ''})` : '';
  return { reason: 'script', message: `${text}${where}` };
}

function errorOf(vm, handle) {
  try {
    return classify(vm.dump(handle));
  } catch {
    return { reason: 'memory', message: 'The script ran past its memory limit.' };
  } finally {
    handle.dispose();
  }
}

/** The value of a call, or of the promise it returned (`async function command`), once its jobs ran. */
function settle(runtime, vm, called) {
  if (called.error) return called;
  const first = vm.getPromiseState(called.value);
  if (first.type === 'fulfilled' && first.notAPromise) return called;
  const executed = runtime.executePendingJobs();
  if (executed.error) {
    called.value.dispose();
    return { error: executed.error };
  }
  const state = vm.getPromiseState(called.value);
  called.value.dispose();
  if (state.type === 'fulfilled') return { value: state.value };
  if (state.type === 'rejected') return { error: state.error };
  return {
    error: vm.newError('The promise command() returned never settled (scripts have no timers or I/O).'),
  };
}

function run(job) {
  const { limits } = job;
  const deadline = Date.now() + limits.timeoutMillis;
  const runtime = quickjs.newRuntime();
  runtime.setMemoryLimit(limits.memoryBytes);
  runtime.setMaxStackSize(limits.stackBytes);
  const pastDeadline = shouldInterruptAfterDeadline(deadline);
  runtime.setInterruptHandler((rt) => Atomics.load(cancelSignal, 0) === job.id || pastDeadline(rt));
  const vm = runtime.newContext();
  let logLines = 0;
  try {
    const call = vm.newFunction('hostCall', (kind, payload) => {
      try {
        return vm.newString(hostCall(vm.getString(kind), vm.getString(payload), deadline));
      } catch (error) {
        return { error: vm.newError(error instanceof Error ? error.message : String(error)) };
      }
    });
    const log = vm.newFunction('hostLog', (level, message) => {
      if (++logLines > MAX_LOG_LINES) return;
      parentPort.postMessage({
        type: 'log',
        id: job.id,
        level: vm.getString(level),
        message: vm.getString(message).slice(0, MAX_LOG_CHARS),
      });
    });
    const input = vm.newString(job.inputText);
    const catalog = vm.newString(job.catalogText);
    const prelude = vm.evalCode(PRELUDE, 'prelude.js');
    if (prelude.error) return errorOf(vm, prelude.error);
    const made = vm.callFunction(prelude.value, vm.undefined, call, log, input, catalog);
    for (const handle of [prelude.value, call, log, input, catalog]) handle.dispose();
    if (made.error) return errorOf(vm, made.error);
    const runCommand = vm.getProp(made.value, 0);
    const toJson = vm.getProp(made.value, 1);
    made.value.dispose();
    try {
      const loaded = vm.evalCode(job.code, 'script.js');
      if (loaded.error) return errorOf(vm, loaded.error);
      loaded.value.dispose();
      const result = settle(runtime, vm, vm.callFunction(runCommand, vm.undefined));
      if (result.error) return errorOf(vm, result.error);
      const json = vm.callFunction(toJson, vm.undefined, result.value);
      result.value.dispose();
      if (json.error) return errorOf(vm, json.error);
      const outputText = vm.typeof(json.value) === 'string' ? vm.getString(json.value) : undefined;
      json.value.dispose();
      return { ok: true, outputText };
    } finally {
      runCommand.dispose();
      toJson.dispose();
    }
  } finally {
    vm.dispose();
    runtime.dispose();
  }
}

parentPort.on('message', async (job) => {
  let outcome;
  try {
    outcome = run(job);
  } catch (error) {
    // A host-level failure may leave the WASM module broken: start again with a new one.
    outcome = { reason: 'internal', message: error instanceof Error ? error.message : String(error) };
    quickjs = await newQuickJSWASMModuleFromVariant(variant);
  }
  parentPort.postMessage({ type: 'done', id: job.id, ok: outcome.ok === true, ...outcome });
});

parentPort.postMessage({ type: 'ready' });
