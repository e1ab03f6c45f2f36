// alldiff search-tree viewer. The data (see src/trace/view/mod.rs, `ViewData`) is
// the JSON in #trace-data. Everything runs from this file: no network, no library.
// The page reports how loading went in the body's data-status attribute: "ready",
// or "error" with the messages in #errors (the browser test reads both).
(function () {
  'use strict';

  const body = document.body;
  const errorsBox = document.getElementById('errors');

  function reportError(message) {
    errorsBox.hidden = false;
    const line = document.createElement('div');
    line.textContent = message;
    errorsBox.appendChild(line);
    body.dataset.status = 'error';
  }
  window.addEventListener('error', function (event) {
    reportError('script error: ' + event.message + ' (line ' + event.lineno + ')');
  });
  window.addEventListener('unhandledrejection', function (event) {
    reportError('script error: ' + event.reason);
  });

  const $ = function (id) { return document.getElementById(id); };
  const el = function (tag, className, text) {
    const e = document.createElement(tag);
    if (className) e.className = className;
    if (text !== undefined) e.textContent = text;
    return e;
  };
  const fmt = function (n) { return Number(n).toLocaleString('en-US'); };
  const OPS = { '=': '=', '!': '!=', '<': '<=', '>': '>' };
  const STATUS_NAME = { b: 'branch', f: 'failed', s: 'solution' };

  // ---- the tree, from the data ------------------------------------------------

  function buildTree(data) {
    const n = data.parent.length;
    const parent = Int32Array.from(data.parent);
    const depth = new Int32Array(n);
    const childCount = new Int32Array(n + 1);
    for (let i = 1; i < n; i++) {
      depth[i] = depth[parent[i]] + 1;
      childCount[parent[i]]++;
    }
    // Children in creation order, as ranges of one array.
    const childStart = new Int32Array(n + 1);
    for (let i = 0; i < n; i++) childStart[i + 1] = childStart[i] + childCount[i];
    const fill = childStart.slice(0, n);
    const children = new Int32Array(Math.max(n - 1, 0));
    for (let i = 1; i < n; i++) children[fill[parent[i]]++] = i;
    const pruneStart = new Int32Array(n + 1);
    for (let i = 0; i < n; i++) pruneStart[i + 1] = pruneStart[i] + data.prune_len[i];
    // Subtree counts, bottom-up: a child's id is always larger than its parent's.
    const size = new Int32Array(n).fill(1);
    const fails = new Int32Array(n);
    const sols = new Int32Array(n);
    const dead = new Uint8Array(n); // no solution, every leaf failed
    for (let i = n - 1; i >= 0; i--) {
      const s = data.status[i];
      if (s === 'f') fails[i]++;
      if (s === 's') sols[i]++;
      if (childStart[i + 1] === childStart[i]) {
        dead[i] = s === 'f' ? 1 : 0;
      } else {
        let all = 1;
        for (let k = childStart[i]; k < childStart[i + 1]; k++) all &= dead[children[k]];
        dead[i] = all;
      }
      if (i > 0) {
        const p = parent[i];
        size[p] += size[i];
        fails[p] += fails[i];
        sols[p] += sols[i];
      }
    }
    const solutions = [];
    for (let i = 0; i < n; i++) if (data.status[i] === 's') solutions.push(i);
    return { n, parent, depth, childStart, children, pruneStart, size, fails, sols, dead, solutions };
  }

  // ---- domains at a node: the trace's replay ------------------------------------

  // The header's domains, then for each node from the root down: its decision,
  // then the values its propagation removed. Same rule as `Trace::replay`.
  function replay(data, tree, node) {
    const path = pathTo(tree, node);
    const domains = data.domains.map(function (d) { return d.slice(); });
    const changed = new Set();
    for (const step of path) {
      if (step > 0) {
        const v = data.var[step];
        const value = data.value[step];
        const op = data.op[step];
        const keep = op === '=' ? function (x) { return x === value; }
          : op === '!' ? function (x) { return x !== value; }
            : op === '<' ? function (x) { return x <= value; }
              : function (x) { return x > value; };
        if (domains[v]) domains[v] = domains[v].filter(keep);
        if (step === node) changed.add(v);
      }
      let k = tree.pruneStart[step];
      const end = tree.pruneStart[step + 1];
      while (k < end) {
        const v = data.prunes[k];
        const count = data.prunes[k + 1];
        const removed = new Set(data.prunes.slice(k + 2, k + 2 + count));
        if (domains[v]) domains[v] = domains[v].filter(function (x) { return !removed.has(x); });
        if (step === node) changed.add(v);
        k += 2 + count;
      }
    }
    return { domains, changed };
  }

  function pathTo(tree, node) {
    const path = [];
    for (let i = node; i >= 0; i = tree.parent[i]) path.push(i);
    return path.reverse();
  }

  function valuesRemovedAt(data, tree, node) {
    let removed = 0;
    let k = tree.pruneStart[node];
    while (k < tree.pruneStart[node + 1]) {
      removed += data.prunes[k + 1];
      k += 2 + data.prunes[k + 1];
    }
    return removed;
  }

  function decisionText(data, node) {
    return data.variables[data.var[node]] + ' ' + OPS[data.op[node]] + ' ' + data.value[node];
  }

  // The symbol of a Sudoku digit: 1-9, then A for 10 up to P for 25.
  function symbol(value) {
    return value >= 1 && value <= 9 ? String(value) : value >= 10 && value <= 35
      ? value.toString(36).toUpperCase() : '?';
  }

  // ---- layout: leaves side by side in search order, parents over their children --

  function Layout(tree, folded) {
    const n = tree.n;
    const x = new Float64Array(n);
    const minX = new Float64Array(n);
    const maxX = new Float64Array(n);
    const maxDepth = new Int32Array(n);
    const shown = new Uint8Array(n);
    const order = []; // shown nodes, depth-first
    let slots = 0;
    let deepest = 0;
    const stack = [0];
    while (stack.length) {
      const i = stack.pop();
      shown[i] = 1;
      order.push(i);
      if (tree.depth[i] > deepest) deepest = tree.depth[i];
      const leaf = folded[i] || tree.childStart[i + 1] === tree.childStart[i];
      if (leaf) {
        x[i] = slots;
        slots += folded[i] ? 1.5 : 1;
      } else {
        for (let k = tree.childStart[i + 1] - 1; k >= tree.childStart[i]; k--) stack.push(tree.children[k]);
      }
    }
    // Parents over the middle of their children, bottom-up (reverse depth-first).
    for (let o = order.length - 1; o >= 0; o--) {
      const i = order[o];
      const a = tree.childStart[i];
      const b = tree.childStart[i + 1];
      if (folded[i] || a === b) {
        minX[i] = x[i];
        maxX[i] = x[i];
        maxDepth[i] = tree.depth[i] + (folded[i] ? 1 : 0);
      } else {
        const first = tree.children[a];
        const last = tree.children[b - 1];
        x[i] = (x[first] + x[last]) / 2;
        minX[i] = minX[first];
        maxX[i] = maxX[last];
        let d = 0;
        for (let k = a; k < b; k++) d = Math.max(d, maxDepth[tree.children[k]]);
        maxDepth[i] = d;
      }
    }
    // Shown nodes of each depth, left to right (depth-first order is left to
    // right within a depth): for hit tests.
    const byDepth = [];
    for (let d = 0; d <= deepest; d++) byDepth.push([]);
    for (const i of order) byDepth[tree.depth[i]].push(i);
    this.x = x;
    this.minX = minX;
    this.maxX = maxX;
    this.maxDepth = maxDepth;
    this.shown = shown;
    this.count = order.length;
    this.slots = Math.max(slots, 1);
    this.deepest = deepest;
    this.byDepth = byDepth;
  }

  // ---- the page -----------------------------------------------------------------

  function main() {
    const data = JSON.parse($('trace-data').textContent);
    const tree = buildTree(data);
    const summary = data.summary;
    const folded = new Uint8Array(tree.n);
    const foldFailed = function () {
      for (let i = 0; i < tree.n; i++) folded[i] = tree.dead[i] && tree.size[i] > 1 ? 1 : 0;
    };
    foldFailed();
    let layout = new Layout(tree, folded);
    let selected = -1;
    const canvas = $('tree');
    const ctx = canvas.getContext('2d');
    const view = { sx: 1, sy: 50, tx: 0, ty: 30, width: 0, height: 0 };
    const SLOT = 26; // world units per leaf slot at zoom 1

    document.title = data.problem + ' - alldiff search tree';
    $('problem').textContent = data.problem;
    if (data.incomplete) {
      const box = $('incomplete');
      box.hidden = false;
      box.textContent = 'Incomplete trace: ' + data.incomplete +
        '. The tree and counts cover only the part written.';
    }

    // -- statistics panel --
    const stats = $('stats');
    const fact = function (label, value, id) {
      const row = el('tr');
      row.appendChild(el('th', '', label));
      const cell = el('td', '', value);
      if (id) cell.id = id;
      row.appendChild(cell);
      stats.appendChild(row);
      return cell;
    };
    const nodesCell = fact('nodes (below the root)', fmt(summary.nodes), 'stat-nodes');
    nodesCell.dataset.value = summary.nodes;
    fact('nodes in the tree (root included)', fmt(summary.nodes + 1), 'stat-tree-nodes').dataset.value = summary.nodes + 1;
    fact('failures', fmt(summary.failures), 'stat-failures').dataset.value = summary.failures;
    fact('solutions', fmt(summary.solutions), 'stat-solutions').dataset.value = summary.solutions;
    fact('tree depth (deepest node)', summary.tree_depth, 'stat-tree-depth').dataset.value = summary.tree_depth;
    fact('decision depth (most choices open, peakDepth)', summary.decision_depth, 'stat-decision-depth').dataset.value = summary.decision_depth;
    if (data.statistics) {
      const s = data.statistics;
      fact('propagations', fmt(s.propagations));
      fact('solve time', (s.solveTime * 1000).toFixed(3) + ' ms');
      if (s.restarts) fact('restarts', fmt(s.restarts));
      if (s.objective !== undefined && s.objective !== null) fact('objective', s.objective);
    }
    if (tree.n < data.trace_nodes) {
      fact('left out of this page', fmt(data.trace_nodes - tree.n) + ' nodes (after the first ' + fmt(tree.n) + ')', 'stat-left-out');
    }
    depthChart($('depth-chart'), summary.depth_profile);
    countTable($('by-prunings'), summary.by_prunings.map(function (c) { return ['#' + c[0] + ' ' + c[1], c[2]]; }));
    const failRows = summary.by_failures.map(function (c) { return ['#' + c[0] + ' ' + c[1], c[2]]; });
    if (summary.decision_failures > 0) failRows.push(['(a decision alone)', summary.decision_failures]);
    countTable($('by-failures'), failRows);
    countTable($('by-rule'), summary.by_rule);

    // -- drawing --
    function resize() {
      const ratio = window.devicePixelRatio || 1;
      const rect = canvas.getBoundingClientRect();
      view.width = Math.max(rect.width, 50);
      view.height = Math.max(rect.height, 50);
      canvas.width = Math.round(view.width * ratio);
      canvas.height = Math.round(view.height * ratio);
      ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
    }
    const X = function (wx) { return wx * SLOT * view.sx + view.tx; };
    const Y = function (d) { return d * view.sy + view.ty; };

    function fit() {
      view.sx = Math.max((view.width - 40) / (layout.slots * SLOT), 1e-6);
      view.sy = Math.min(60, Math.max(4, (view.height - 70) / Math.max(layout.deepest + 1, 1)));
      view.tx = 20 + (view.width - 40 - layout.slots * SLOT * view.sx) / 2 + SLOT * view.sx / 2;
      view.ty = 40;
      draw();
    }

    function colour(i) {
      const s = data.status[i];
      return s === 's' ? '#2a9d4b' : s === 'f' ? '#d64545' : '#3d5a80';
    }

    let drawn = 0;
    let summarised = 0;
    function draw() {
      ctx.clearRect(0, 0, view.width, view.height);
      drawn = 0;
      summarised = 0;
      const onPath = new Uint8Array(tree.n);
      if (selected >= 0) for (let i = selected; i >= 0; i = tree.parent[i]) onPath[i] = 1;
      const slotPx = SLOT * view.sx;
      const labels = slotPx > 70 && view.sy > 30;
      const radius = Math.max(1.5, Math.min(7, slotPx / 3, view.sy / 4));
      const edges = new Path2D();
      const pathEdges = new Path2D();
      const marks = [];
      const blobs = [];
      const stack = [0];
      while (stack.length) {
        const i = stack.pop();
        const y = Y(tree.depth[i]);
        if (y > view.height + 20) continue;
        const x0 = X(layout.minX[i]);
        const x1 = X(layout.maxX[i]);
        if (x1 < -40 || x0 > view.width + 40) continue;
        const x = X(layout.x[i]);
        const a = tree.childStart[i];
        const b = tree.childStart[i + 1];
        if (!folded[i] && a < b && x1 - x0 < 3 && !onPath[i] && layout.maxDepth[i] > tree.depth[i] + 1) {
          // Too narrow to tell apart: one shape for the whole subtree.
          blobs.push(i);
          summarised += tree.size[i] - 1;
          marks.push(i);
          continue;
        }
        marks.push(i);
        if (folded[i] || a === b) continue;
        for (let k = a; k < b; k++) {
          const c = tree.children[k];
          const target = onPath[c] ? pathEdges : edges;
          target.moveTo(x, y);
          target.lineTo(X(layout.x[c]), Y(tree.depth[c]));
          stack.push(c);
        }
      }
      ctx.lineWidth = 1;
      ctx.strokeStyle = '#9aa4b2';
      ctx.stroke(edges);
      ctx.lineWidth = 3;
      ctx.strokeStyle = '#f08c00';
      ctx.stroke(pathEdges);
      for (const i of blobs) {
        const x = X(layout.x[i]);
        const y = Y(tree.depth[i]);
        const yEnd = Y(layout.maxDepth[i]);
        ctx.fillStyle = tree.sols[i] > 0 ? 'rgba(42,157,75,0.55)' : 'rgba(120,128,140,0.45)';
        ctx.fillRect(Math.min(X(layout.minX[i]), x - 0.5), y, Math.max(X(layout.maxX[i]) - X(layout.minX[i]), 1), yEnd - y);
      }
      ctx.font = '11px system-ui, sans-serif';
      ctx.textAlign = 'center';
      for (const i of marks) {
        const x = X(layout.x[i]);
        const y = Y(tree.depth[i]);
        drawn++;
        if (folded[i]) {
          const w = Math.max(6, Math.min(SLOT * 1.3 * view.sx, 60));
          const h = Math.max(6, Math.min(view.sy * 0.9, 40));
          ctx.beginPath();
          ctx.moveTo(x, y);
          ctx.lineTo(x + w / 2, y + h);
          ctx.lineTo(x - w / 2, y + h);
          ctx.closePath();
          ctx.fillStyle = '#b7bcc6';
          ctx.fill();
          if (w > 24) {
            ctx.fillStyle = '#1d2430';
            ctx.fillText(fmt(tree.size[i]), x, y + h + 11);
          }
        } else if (radius >= 1.5) {
          ctx.beginPath();
          if (data.status[i] === 'f') {
            ctx.rect(x - radius, y - radius, radius * 2, radius * 2);
          } else {
            ctx.arc(x, y, radius, 0, Math.PI * 2);
          }
          ctx.fillStyle = data.status[i] === 'b' ? '#ffffff' : colour(i);
          ctx.fill();
          ctx.lineWidth = 1.5;
          ctx.strokeStyle = colour(i);
          ctx.stroke();
        }
        if (i === selected) {
          ctx.beginPath();
          ctx.arc(x, y, radius + 5, 0, Math.PI * 2);
          ctx.lineWidth = 2.5;
          ctx.strokeStyle = '#f08c00';
          ctx.stroke();
        }
        if (labels && i > 0) {
          const px = X(layout.x[tree.parent[i]]);
          const py = Y(tree.depth[i] - 1);
          ctx.fillStyle = '#3f4957';
          ctx.fillText(decisionText(data, i), (x + px) / 2 + (x < px ? -14 : 14), (y + py) / 2 + 4);
        }
      }
      let hidden = 0;
      for (let i = 0; i < tree.n; i++) if (folded[i] && layout.shown[i]) hidden += tree.size[i] - 1;
      const parts = [fmt(layout.count) + ' of ' + fmt(tree.n) + ' nodes laid out'];
      if (hidden) parts.push(fmt(hidden) + ' inside folded failed subtrees');
      if (summarised) parts.push(fmt(summarised) + ' drawn as shaded blocks (zoom in to see them)');
      if (tree.n < data.trace_nodes) parts.push(fmt(data.trace_nodes - tree.n) + ' not in this page (it holds the first ' + fmt(tree.n) + ' of the trace)');
      $('drawn').textContent = parts.join('; ');
    }

    let pending = false;
    function redraw() {
      if (pending) return;
      pending = true;
      requestAnimationFrame(function () { pending = false; draw(); });
    }

    function relayout() {
      layout = new Layout(tree, folded);
    }

    // The shown node nearest to a point of the canvas, or -1.
    function hit(px, py) {
      const d = Math.round((py - view.ty) / view.sy);
      if (d < 0 || d > layout.deepest) return -1;
      const row = layout.byDepth[d];
      if (!row.length) return -1;
      const wx = (px - view.tx) / (SLOT * view.sx);
      let lo = 0;
      let hi = row.length - 1;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (layout.x[row[mid]] < wx) lo = mid + 1; else hi = mid;
      }
      let best = -1;
      let bestDist = 14;
      for (const k of [lo - 1, lo]) {
        if (k < 0 || k >= row.length) continue;
        const i = row[k];
        const dist = Math.hypot(X(layout.x[i]) - px, (Y(d) - py) * 0.5);
        if (dist < bestDist) { best = i; bestDist = dist; }
      }
      return best;
    }

    // -- node panel --
    function select(node, centre) {
      if (!(node >= 0 && node < tree.n)) {
        $('node-hint').textContent = 'There is no node ' + node + ' in this page (nodes 0 to ' + (tree.n - 1) + ').';
        $('node-hint').hidden = false;
        $('node-body').hidden = true;
        return;
      }
      selected = node;
      // Unfold whatever hides it.
      let unfolded = false;
      for (let i = tree.parent[node]; i >= 0; i = tree.parent[i]) {
        if (folded[i]) { folded[i] = 0; unfolded = true; }
      }
      if (unfolded) relayout();
      if (centre) {
        const x = X(layout.x[node]);
        const y = Y(tree.depth[node]);
        if (x < 30 || x > view.width - 30) view.tx += view.width / 2 - x;
        if (y < 30 || y > view.height - 30) view.ty += view.height / 2 - y;
      }
      showNode(node);
      if (location.hash !== '#node=' + node) history.replaceState(null, '', '#node=' + node);
      redraw();
    }

    function showNode(node) {
      $('node-hint').hidden = true;
      $('node-body').hidden = false;
      $('node-id').textContent = node;
      const status = data.status[node];
      const badge = el('span', 'badge ' + STATUS_NAME[status], STATUS_NAME[status]);
      const statusLine = $('node-status');
      statusLine.textContent = '';
      statusLine.appendChild(badge);
      if (status === 'b' && folded[node]) statusLine.appendChild(document.createTextNode(' (subtree folded)'));
      const replayed = replay(data, tree, node);
      const failure = $('node-failure');
      failure.textContent = '';
      if (status === 'f') {
        const c = data.failed_by[node];
        const empty = [];
        replayed.domains.forEach(function (d, v) { if (!d.length) empty.push(data.variables[v]); });
        failure.textContent = (c >= 0
          ? 'Failed: constraint #' + c + ' ' + data.constraints[c] + ' found no solution here'
          : node > 0 ? 'Failed: the decision ' + decisionText(data, node) + ' emptied a domain by itself'
            : 'Failed: an assumption emptied a domain') +
          (empty.length ? ' (no value left for ' + empty.join(', ') + ').' : '.');
        failure.dataset.constraint = c;
      }
      $('node-depth').textContent = tree.depth[node] + ' (decisions from the root)';
      $('node-subtree').textContent = fmt(tree.size[node]) + ' nodes, ' + fmt(tree.fails[node]) +
        ' failures, ' + fmt(tree.sols[node]) + ' solutions';
      $('node-removed').textContent = fmt(valuesRemovedAt(data, tree, node));
      const path = $('node-path');
      path.textContent = '';
      for (const step of pathTo(tree, node)) {
        if (step === 0) continue;
        const item = el('li');
        const link = el('a', '', decisionText(data, step));
        link.title = 'node ' + step;
        link.addEventListener('click', function () { select(step, true); });
        item.appendChild(link);
        path.appendChild(item);
      }
      if (!path.children.length) path.appendChild(el('li', '', '(the root: no decision)'));
      showDomains(replayed);
      highlightSearch();
    }

    function showDomains(replayed) {
      const box = $('domains');
      box.textContent = '';
      const side = data.grid;
      if (side) {
        const boxSide = Math.round(Math.sqrt(side));
        const table = el('table', 'grid');
        const cellPx = Math.max(22, Math.min(40, Math.floor(400 / side)));
        for (let r = 0; r < side; r++) {
          const row = el('tr');
          for (let c = 0; c < side; c++) {
            const v = r * side + c;
            const d = replayed.domains[v];
            const cell = el('td', 'dom', d.length ? d.map(symbol).join('') : '!');
            cell.dataset.var = data.variables[v];
            cell.dataset.values = d.join(' ');
            cell.title = data.variables[v];
            cell.style.width = cellPx + 'px';
            cell.style.height = cellPx + 'px';
            if (d.length === 1) cell.classList.add('fixed');
            if (!d.length) cell.classList.add('empty');
            if (replayed.changed.has(v)) cell.classList.add('changed');
            if (c % boxSide === 0) cell.classList.add('box-left');
            if (r % boxSide === 0) cell.classList.add('box-top');
            row.appendChild(cell);
          }
          table.appendChild(row);
        }
        box.appendChild(table);
        return;
      }
      const table = el('table', 'vars');
      replayed.domains.forEach(function (d, v) {
        const row = el('tr');
        row.appendChild(el('td', 'name', data.variables[v]));
        const shown = d.length > 200 ? d.slice(0, 200).join(' ') + ' ... (' + d.length + ' values)' : d.join(' ');
        const cell = el('td', 'dom', d.length ? shown : '(empty)');
        cell.dataset.var = data.variables[v];
        cell.dataset.values = d.join(' ');
        if (!d.length) cell.classList.add('empty');
        if (replayed.changed.has(v)) cell.classList.add('changed');
        row.appendChild(cell);
        table.appendChild(row);
      });
      box.appendChild(table);
    }

    // -- variable search: highlight it, step through the nodes deciding on it --
    function searchedVars() {
      const query = $('search').value.trim().toLowerCase();
      if (!query) return [];
      const exact = data.variables.findIndex(function (name) { return name.toLowerCase() === query; });
      if (exact >= 0) return [exact];
      const found = [];
      data.variables.forEach(function (name, v) { if (name.toLowerCase().includes(query)) found.push(v); });
      return found;
    }
    function highlightSearch() {
      const vars = new Set(searchedVars().map(function (v) { return data.variables[v]; }));
      for (const cell of document.querySelectorAll('#domains .dom')) {
        const match = vars.has(cell.dataset.var);
        cell.classList.toggle('hit', match);
        if (match && cell.tagName === 'TD' && !data.grid) cell.parentElement.scrollIntoView({ block: 'nearest' });
      }
    }
    function findNext() {
      const vars = new Set(searchedVars());
      const result = $('search-result');
      if (!vars.size) { result.textContent = 'no such variable'; return; }
      const nodes = [];
      for (let i = 1; i < tree.n; i++) if (vars.has(data.var[i])) nodes.push(i);
      if (!nodes.length) {
        result.textContent = 'never decided on';
        highlightSearch();
        return;
      }
      const next = nodes.find(function (i) { return i > selected; });
      const target = next === undefined ? nodes[0] : next;
      result.textContent = 'decided at ' + fmt(nodes.length) + ' nodes (' + (nodes.indexOf(target) + 1) + ' shown)';
      select(target, true);
    }

    // -- events --
    let drag = null;
    canvas.addEventListener('mousedown', function (e) {
      drag = { x: e.clientX, y: e.clientY, tx: view.tx, ty: view.ty, moved: false };
      canvas.classList.add('dragging');
    });
    window.addEventListener('mousemove', function (e) {
      if (!drag) return;
      const dx = e.clientX - drag.x;
      const dy = e.clientY - drag.y;
      if (Math.abs(dx) + Math.abs(dy) > 3) drag.moved = true;
      view.tx = drag.tx + dx;
      view.ty = drag.ty + dy;
      redraw();
    });
    window.addEventListener('mouseup', function (e) {
      if (!drag) return;
      const moved = drag.moved;
      drag = null;
      canvas.classList.remove('dragging');
      if (moved) return;
      const rect = canvas.getBoundingClientRect();
      const i = hit(e.clientX - rect.left, e.clientY - rect.top);
      if (i < 0) return;
      if (folded[i]) {
        folded[i] = 0;
        relayout();
      }
      select(i, false);
    });
    canvas.addEventListener('dblclick', function (e) {
      const rect = canvas.getBoundingClientRect();
      const i = hit(e.clientX - rect.left, e.clientY - rect.top);
      if (i < 0 || tree.childStart[i + 1] === tree.childStart[i]) return;
      folded[i] = folded[i] ? 0 : 1;
      relayout();
      showNode(i);
      redraw();
    });
    function zoom(factor, px, py) {
      const wx = (px - view.tx) / view.sx;
      view.sx = Math.min(Math.max(view.sx * factor, 1e-7), 20);
      view.tx = px - wx * view.sx;
      const wy = (py - view.ty) / view.sy;
      view.sy = Math.min(Math.max(view.sy * Math.sqrt(factor), 3), 120);
      view.ty = py - wy * view.sy;
      redraw();
    }
    canvas.addEventListener('wheel', function (e) {
      e.preventDefault();
      const rect = canvas.getBoundingClientRect();
      zoom(Math.exp(-e.deltaY * 0.0015), e.clientX - rect.left, e.clientY - rect.top);
    }, { passive: false });
    $('fit').addEventListener('click', fit);
    $('zoom-in').addEventListener('click', function () { zoom(1.5, view.width / 2, view.height / 2); });
    $('zoom-out').addEventListener('click', function () { zoom(1 / 1.5, view.width / 2, view.height / 2); });
    function nextSolution(forward) {
      const list = tree.solutions;
      if (!list.length) return;
      let target;
      if (forward) {
        target = list.find(function (i) { return i > selected; });
        if (target === undefined) target = list[0];
      } else {
        for (const i of list) if (i < selected) target = i;
        if (target === undefined) target = list[list.length - 1];
      }
      select(target, true);
    }
    $('next-solution').addEventListener('click', function () { nextSolution(true); });
    $('prev-solution').addEventListener('click', function () { nextSolution(false); });
    $('goto-form').addEventListener('submit', function (e) {
      e.preventDefault();
      select(parseInt($('goto').value, 10), true);
    });
    $('search-form').addEventListener('submit', function (e) {
      e.preventDefault();
      findNext();
    });
    $('search').addEventListener('input', function () {
      $('search-result').textContent = '';
      highlightSearch();
    });
    $('expand-all').addEventListener('click', function () {
      folded.fill(0);
      relayout();
      redraw();
    });
    $('collapse-all').addEventListener('click', function () {
      foldFailed();
      if (selected >= 0) for (let i = tree.parent[selected]; i >= 0; i = tree.parent[i]) folded[i] = 0;
      relayout();
      redraw();
    });
    canvas.addEventListener('keydown', function (e) {
      if (e.key === 'f' || e.key === 'F') fit();
      else if (e.key === '+' || e.key === '=') zoom(1.5, view.width / 2, view.height / 2);
      else if (e.key === '-') zoom(1 / 1.5, view.width / 2, view.height / 2);
      else if (e.key === 'n' || e.key === 'N') nextSolution(true);
      else if (e.key === 'p' || e.key === 'P') nextSolution(false);
    });
    window.addEventListener('resize', function () { resize(); redraw(); });
    function fromHash() {
      const match = /^#node=(\d+)$/.exec(location.hash);
      if (match) select(parseInt(match[1], 10), true);
    }
    window.addEventListener('hashchange', fromHash);

    resize();
    fit();
    fromHash();
    draw();

    // For scripts and tests: select a node, and where a node is drawn (client
    // coordinates; null while it is hidden in a folded subtree).
    window.alldiffView = {
      select: function (node) { select(node, true); },
      clientPosition: function (node) {
        if (!(node >= 0 && node < tree.n) || !layout.shown[node]) return null;
        const rect = canvas.getBoundingClientRect();
        return { x: rect.left + X(layout.x[node]), y: rect.top + Y(tree.depth[node]) };
      },
    };
  }

  function depthChart(box, profile) {
    const ns = 'http://www.w3.org/2000/svg';
    const width = 400;
    const height = 110;
    const svg = document.createElementNS(ns, 'svg');
    svg.setAttribute('viewBox', '0 0 ' + width + ' ' + (height + 16));
    const max = Math.max.apply(null, profile.concat([1]));
    const bar = (width - 30) / Math.max(profile.length, 1);
    profile.forEach(function (count, d) {
      const h = count / max * height;
      const rect = document.createElementNS(ns, 'rect');
      rect.setAttribute('x', 30 + d * bar);
      rect.setAttribute('y', height - h);
      rect.setAttribute('width', Math.max(bar - 1, 0.5));
      rect.setAttribute('height', Math.max(h, 0.5));
      const title = document.createElementNS(ns, 'title');
      title.textContent = 'depth ' + d + ': ' + fmt(count) + ' nodes';
      rect.appendChild(title);
      svg.appendChild(rect);
    });
    const label = function (text, x, y, anchor) {
      const t = document.createElementNS(ns, 'text');
      t.setAttribute('x', x);
      t.setAttribute('y', y);
      t.setAttribute('text-anchor', anchor);
      t.textContent = text;
      svg.appendChild(t);
    };
    label(fmt(max), 27, 10, 'end');
    label('0', 27, height, 'end');
    label('depth 0', 30, height + 13, 'start');
    label(String(profile.length - 1), width, height + 13, 'end');
    box.appendChild(svg);
  }

  function countTable(table, rows) {
    if (!rows.length) {
      table.appendChild(el('tr')).appendChild(el('td', '', 'none'));
      return;
    }
    for (const [name, count] of rows.slice(0, 12)) {
      const row = el('tr');
      row.appendChild(el('td', '', name));
      row.appendChild(el('td', 'n', fmt(count)));
      table.appendChild(row);
    }
    if (rows.length > 12) table.appendChild(el('tr')).appendChild(el('td', '', '... and ' + (rows.length - 12) + ' more'));
  }

  try {
    const started = performance.now();
    main();
    if (body.dataset.status !== 'error') {
      body.dataset.status = 'ready';
      body.dataset.loadMs = Math.round(performance.now() - started);
    }
  } catch (e) {
    reportError('script error: ' + (e && e.stack ? e.stack : e));
  }
}());
