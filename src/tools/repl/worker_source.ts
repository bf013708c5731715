/**
 * The REPL worker's code, kept as text so it runs the same from the sources, the compiled files
 * and the bundle (as the timed regex worker is).
 *
 * The model's code runs in a `node:vm` context whose global object has a null prototype, so
 * nothing of this realm is reachable from it (`this.constructor.constructor` is the context's
 * own Function). This realm's functions (the bridge to lathe's tools, the printer, timers) are
 * handed once to a setup function compiled inside the context and kept in its closure: the
 * code sees only the context's own wrappers, and only strings and numbers cross back in. A
 * value the code returns is shown with `inspect` with custom inspectors, getters and proxy
 * traps all off, so none of the code's functions is ever called with an object of this realm.
 */
export const REPL_WORKER_SOURCE = String.raw`
'use strict';
const { parentPort } = require('node:worker_threads');
const vm = require('node:vm');
const { inspect } = require('node:util');

const SHOW = { customInspect: false, showProxy: true, getters: false, depth: 4, maxArrayLength: 100, maxStringLength: 20000, breakLength: 100 };
const show = (value) => (typeof value === 'string' ? value : inspect(value, SHOW));

const context = vm.createContext(Object.create(null), { name: 'lathe repl', codeGeneration: { strings: true, wasm: false } });

let output = [];
let active = null;
const pending = new Map();
let nextCall = 0;
const timers = new Map();
let nextTimer = 0;

function callBridge(name, input, done) {
  if (typeof name !== 'string' || typeof input !== 'string' || typeof done !== 'function') return;
  const callId = ++nextCall;
  pending.set(callId, done);
  parentPort.postMessage({ type: 'tool', callId, name, input });
}
function printBridge(stream, args) {
  const parts = [];
  for (let i = 0; i < args.length; i++) parts.push(show(args[i]));
  output.push((stream === 'error' ? '[error] ' : '') + parts.join(' '));
}
function timerBridge(ms, fire) {
  const id = ++nextTimer;
  const delay = typeof ms === 'number' && ms > 0 ? Math.min(ms, 2147483647) : 0;
  timers.set(id, setTimeout(() => {
    timers.delete(id);
    try { fire(); } catch (error) { output.push('[timer] ' + describeError(error)); }
  }, delay));
  return id;
}
function clearBridge(id) {
  const timer = timers.get(id);
  if (timer !== undefined) { clearTimeout(timer); timers.delete(id); }
}
function finishBridge(ok, value) {
  const run = active;
  if (!run) return;
  active = null;
  const reply = { type: 'done', id: run.id, output: output.join('\n') };
  output = [];
  if (ok) { if (value !== undefined) reply.value = show(value); }
  else reply.error = describeError(value);
  parentPort.postMessage(reply);
}

function describeError(error) {
  let text;
  try {
    text = error !== null && typeof error === 'object' && typeof error.stack === 'string' ? error.stack : 'Uncaught ' + show(error);
  } catch {
    text = 'Uncaught exception';
  }
  // The frames of this worker and of node say nothing about the code.
  return text.split('\n').filter((line) => !/^\s+at .*(node:|evalmachine|\[worker eval\])/.test(line)).join('\n');
}

const SETUP = '(' + function (callBridge, printBridge, timerBridge, clearBridge, finishBridge) {
  'use strict';
  const P = Promise;
  const resolveWith = P.resolve;
  const then = P.prototype.then;
  const apply = Reflect.apply;
  const stringify = JSON.stringify;
  const Err = Error;
  const slice = Array.prototype.slice;
  const callTool = (name, input) =>
    new P((resolve, reject) => {
      callBridge(name, stringify(input), (error, text) => (error === null ? resolve(text) : reject(new Err(error))));
    });
  const options = (value) => (value !== null && typeof value === 'object' ? value : {});
  const globals = {
    read: (path, opts) => callTool('read_file', { ...options(opts), path }),
    write: (path, content) => callTool('write_to_file', { path, content }),
    edit: (path, oldString, newString, opts) =>
      callTool('edit_file', { path, old_string: oldString, new_string: newString, replace_all: options(opts).replaceAll === true }),
    sh: (command, opts) => callTool('execute_command', { ...options(opts), command }),
    console: {
      log: function () { printBridge('log', apply(slice, arguments, [])); },
      info: function () { printBridge('log', apply(slice, arguments, [])); },
      warn: function () { printBridge('error', apply(slice, arguments, [])); },
      error: function () { printBridge('error', apply(slice, arguments, [])); },
    },
    setTimeout: (fn, ms) => timerBridge(ms, () => { if (typeof fn === 'function') fn(); }),
    clearTimeout: (id) => clearBridge(id),
  };
  for (const name of Object.keys(globals))
    Object.defineProperty(globalThis, name, { value: globals[name], writable: true, configurable: true, enumerable: false });
  // Settles what the code gave back: a promise is awaited in the context, by the context's own then.
  return (value) => {
    apply(then, apply(resolveWith, P, [value]), [(result) => finishBridge(true, result), (error) => finishBridge(false, error)]);
  };
} + ')';
const settle = vm.runInContext(SETUP, context)(callBridge, printBridge, timerBridge, clearBridge, finishBridge);

/**
 * The code as a script (its last expression is its value), else, when it awaits, as the body of
 * an async function: the host's rewrite of it (awaitBody) when there is one, else as written.
 */
function compile(code, body) {
  try {
    return new vm.Script(code, { filename: 'repl' });
  } catch (error) {
    if (!(error && error.name === 'SyntaxError' && /\bawait\b/.test(code))) throw error;
    const wrapped = typeof body === 'string'
      ? ['(async () => {' + body + '\n})()']
      : ['(async () => (\n' + code + '\n))()', '(async () => {\n' + code + '\n})()'];
    for (const source of wrapped) {
      try {
        return new vm.Script(source, { filename: 'repl', lineOffset: -1 });
      } catch {}
    }
    throw error;
  }
}

parentPort.on('message', (message) => {
  if (message.type === 'toolResult') {
    const done = pending.get(message.callId);
    pending.delete(message.callId);
    if (done) done(message.isError ? String(message.text) : null, message.isError ? null : String(message.text));
    return;
  }
  if (message.type !== 'run') return;
  active = { id: message.id };
  parentPort.postMessage({ type: 'started', id: message.id });
  let value;
  try {
    const script = compile(message.code, message.body);
    value = script.runInContext(context, { timeout: message.timeoutMs, displayErrors: false });
  } catch (error) {
    if (error && error.code === 'ERR_SCRIPT_EXECUTION_TIMEOUT') {
      active = null;
      parentPort.postMessage({ type: 'done', id: message.id, output: output.join('\n'), timedOut: true });
      output = [];
    } else finishBridge(false, error);
    return;
  }
  settle(value);
});

// A promise the code let fail, unawaited, is reported rather than ending the REPL.
process.on('unhandledRejection', (reason) => {
  output.push('[unhandled rejection] ' + describeError(reason));
});
`;
