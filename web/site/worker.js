// alldiff Sudoku page: the Web Worker that runs the solver (WebAssembly), so that
// long work (a 16x16 generation) never freezes the page. Messages in:
// { id, op, args } with op one of the exports of web/src/lib.rs; out:
// { id, result, ms } where result is the export's text and ms the time the call
// took (performance.now), or { id, error } if the call threw (a panic).
import init, * as wasm from './alldiff_web.js';

// Right after loading, the worker solves one hard puzzle 24 times (one solve per
// task, so that a request that comes meanwhile waits for one solve at most): the
// browser first runs WebAssembly through its baseline compiler and optimises a
// function only once it has run a while, so without this the first hard puzzles a
// visitor solves cost several times what the next ones do (docs/web.md, "Targets,
// measured").
const WARM_UP = '..2...7...1.....6.5......18....37.......49.....41.23....3.2.9...8.....5.6.......2';
let warmUps = 24;
function warmUp() {
  if (warmUps-- <= 0) return;
  wasm.solve(WARM_UP);
  setTimeout(warmUp, 0);
}
const ready = init().then(function () {
  setTimeout(warmUp, 0);
});

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
