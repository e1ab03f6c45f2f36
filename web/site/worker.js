// alldiff Sudoku page: the Web Worker that runs the solver (WebAssembly), so that
// long work (a 16x16 generation) never freezes the page. Messages in:
// { id, op, args } with op one of the exports of web/src/lib.rs; out:
// { id, result, ms } where result is the export's text and ms the time the call
// took (performance.now), or { id, error } if the call threw (a panic).
import init, * as wasm from './alldiff_web.js';

const ready = init();

self.onmessage = async function (event) {
  const { id, op, args } = event.data;
  try {
    await ready;
    if (typeof wasm[op] !== 'function' || op === 'default') throw new Error('no operation ' + op);
    const started = performance.now();
    const result = wasm[op].apply(null, args || []);
    self.postMessage({ id, result, ms: performance.now() - started });
  } catch (e) {
    self.postMessage({ id, error: String(e && e.message ? e.message : e) });
  }
};
