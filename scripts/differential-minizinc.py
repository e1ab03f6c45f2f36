#!/usr/bin/env python3
"""Differential check of alldiff against Gecode on random small MiniZinc models.

    scripts/differential-minizinc.py [--seconds S] [--models N] [--seed N]

Each model has 3 to 6 integer variables (and up to 3 Booleans), each with its own domain
in one window per model: near zero, on either side of a multiple of 64 (negative ones too),
a million or a billion away, or within a few values of Gecode's limit near the ends of
`i32`; spanning a few values, a word and a bit (60-70) or two words
(120-130); a domain is a run, a run with a hole or a few scattered values, so the models
cross the engine's word boundaries and use each of its domain shapes. Then 1 to 4
constraints drawn from 45 kinds: every native global of alldiff's MiniZinc library
(all-different at each strength: none, `::bounds`, `::domain`, `::value_propagation`;
circuit, subcircuit and inverse over views `x - k` that reach the window from 1) and
others MiniZinc decomposes, arithmetic (`div`, `mod`, `pow`, `min`, `max`, element),
reification, set membership, search annotations; a third of them optimise. Each is solved
for all solutions by alldiff (sometimes with `-f`, `-p 2` or `-r SEED`) and by Gecode 6.2
given MiniZinc's standard decompositions (Debian's Gecode library clashes with
`globals.mzn` in MiniZinc 2.6), and the sets of solutions (for optimisation, the best
objective) must be equal. A model that Gecode refuses or times out on alone (its limit
is +-2,147,483,646) is counted as skipped. A difference is written to
`differential-SEED-K.mzn` in the working folder and printed; the exit status is 1 if
there was one.

Two aliasings are left out on purpose, because Gecode 6.2 answers them wrongly:
`x mod x = x` (it accepts x = 2) and `b = (c xor b)` (it lets c be true).
"""
import argparse, os, random, re, shutil, signal, subprocess, sys, tempfile, time

ap = argparse.ArgumentParser()
ap.add_argument('--seconds', type=float, default=60)
ap.add_argument('--seed', type=int, default=1)
ap.add_argument('--models', type=int, default=0, help='stop after this many models (0: no limit)')
opts = ap.parse_args()
rng = random.Random(opts.seed)
root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

def sub(xs, k=None):
    k = k or rng.randint(2, len(xs))
    return rng.sample(xs, min(k, len(xs)))

def arr(names): return '[' + ','.join(names) + ']'

def window():
    """Where one model's values lie: its lowest value and how many values it spans.
    Near zero, on either side of a multiple of 64 (negative ones too), a million or
    a billion away, or as near the ends of `i32` as Gecode's limit (+-2,147,483,646)
    lets a window of 130 values come; a few values, a word and a bit (60-70) or two words (120-130)."""
    span = rng.choice([rng.randint(3, 6)] * 3 + [rng.randint(60, 70)] * 2 + [rng.randint(120, 130)])
    low = rng.choice([
        rng.choice([0, 1, 1, -2]),
        64 * rng.randint(-3, 3) + rng.randint(-3, 3),
        64 * rng.randint(-3, 3) + rng.randint(-3, 3),
        10**6 * rng.choice([-1, 1]) + 64 * rng.randint(-2, 2) + rng.randint(-3, 3),
        2**30 * rng.choice([-1, 1]) + rng.randint(-3, 3),
        (2**31 - 140) * rng.choice([-1, 1]) + rng.randint(-3, 3),
    ])
    return low, span


def near(low, span):
    """An offset into the window, drawn towards its ends and its word boundaries."""
    last = span - 1
    return min(last, max(0, rng.choice([
        rng.randint(0, last), rng.randint(0, 3), last - rng.randint(0, 3),
        62 + rng.randint(0, 4), 126 + rng.randint(0, 4)])))


def domain(low, span):
    """A variable's domain in the window as MiniZinc text and its values: a run
    (1-4 values), a run with a hole, or a few values scattered over the window."""
    kind = rng.choice(['run', 'run', 'holed', 'scattered', 'scattered'])
    start = low + near(low, span)
    if kind == 'run':
        end = min(low + span - 1, start + rng.randint(1, 3))
        return f'{start}..{end}', list(range(start, end + 1))
    if kind == 'holed':
        values = [v for v in range(start, start + 4) if v != start + rng.randint(1, 2)]
    else:
        values = [low + near(low, span) for _ in range(rng.randint(2, 5))]
    values = sorted(set(values))
    return '{' + ','.join(map(str, values)) + '}', values


def model():
    n = rng.randint(3, 6)
    low, span = window()
    doms = [domain(low, span) for _ in range(n)]
    values = sorted({v for _, vs in doms for v in vs})
    lo, hi = values[0], values[-1]
    m = rng.randint(0, 3)
    X = [f'x[{i}]' for i in range(1, n + 1)]
    B = [f'b[{i}]' for i in range(1, m + 1)]
    lines = ['include "globals.mzn";']
    lines += [f'var {text}: x{i};' for i, (text, _) in enumerate(doms, 1)]
    lines.append(f'array[1..{n}] of var int: x = [{",".join(f"x{i}" for i in range(1, n + 1))}];')
    if m: lines.append(f'array[1..{m}] of var bool: b;')
    # A constant: a value some domain has, or one beside it.
    c = lambda: rng.choice(values) + rng.choice([0, 0, 0, -1, 1])
    # Whether the values are small enough for products and powers to stay in 32 bits.
    small = max(abs(lo), abs(hi)) <= 200
    # MiniZinc's arg_max scales each value by the array's length: past 2^31 / 8 the
    # FlatZinc leaves 32 bits, which both solvers are limited to (alldiff refuses it;
    # Gecode's answer there is luck).
    scalable = max(abs(lo), abs(hi)) < 2**28
    def ann():
        return rng.choice(['', '', ' :: domain', ' :: bounds', ' :: value_propagation'])
    # An offset that takes some variable's values down to 1, 0 or 2.
    offset = lambda: rng.choice(values) - rng.choice([1, 1, 0, 2])
    idx = lambda xs, k: '[' + ','.join(f'{x} - {k}' for x in xs) + ']'
    templates = [
        lambda: f'alldifferent({arr(sub(X))}){ann()}',
        lambda: f'alldifferent_except_0({arr(sub(X))})',
        lambda: f'all_equal({arr(sub(X, 2))})',
        lambda: f'{rng.randint(-3,3)}*{rng.choice(X)} + {rng.randint(-3,3)}*{rng.choice(X)} + {rng.choice(X)} {rng.choice(["<=","=","!=",">="])} {rng.randint(-5,12)}',
        lambda: f'{rng.choice(X)} * {rng.choice(X)} = {rng.choice(X)}' if small else 'true',
        lambda: f'{rng.choice(X)} div {rng.choice(X)} = {rng.choice(X)}',
        lambda: (lambda a, b, c: f'{a} mod {b} = {c}' if len({a, b, c}) == 3 else 'true')(*rng.sample(X, 3)),
        lambda: f'abs({rng.choice(X)} - {rng.choice(X)}) = {rng.choice(X)}',
        lambda: f'{rng.choice(X)} = {rng.choice(["max","min"])}({rng.choice(X)}, {rng.choice(X)})',
        lambda: f'{rng.choice(X)} = {rng.choice(["max","min"])}({arr(sub(X))})',
        lambda: f'{rng.choice(X)} = {arr([str(c()) for _ in range(rng.randint(2,5))])}[{rng.choice(X)}]',
        lambda: f'{rng.choice(X)} = {arr(sub(X))}[{rng.choice(X)}]',
        lambda: f'count({arr(sub(X))}, {c()}) {rng.choice(["=","<=",">="])} {rng.choice(X)}',
        lambda: f'among({rng.choice(X)}, {arr(sub(X))}, {{{c()},{c()}}})',
        lambda: (lambda v: f'global_cardinality({arr(sub(X))}, [{v[0]},{v[1]}], [{rng.randint(0,2)},{rng.randint(0,2)}])')(sorted(rng.sample(values + [lo - 1, hi + 1], 2))),
        lambda: f'global_cardinality_closed({arr(sub(X))}, [{",".join(map(str, values))}], {arr([rng.choice(X) for _ in values])})',
        lambda: (lambda v: f'global_cardinality_low_up{rng.choice(["", "_closed"])}({arr(sub(X))}, [{v[0]},{v[1]}], [{rng.randint(0,1)},{rng.randint(0,1)}], [{rng.randint(1,3)},{rng.randint(1,3)}])')(sorted(rng.sample(values + [lo - 1, hi + 1], 2))),
        # Successors and inverses as views x - k: the offset k is the window's, so the
        # views' values reach 1..n wherever the window lies.
        lambda: (lambda k, o: f'inverse({idx(X[:k], o)}, {idx(X[k:2*k], o)})')(max(1, n // 2), offset()),
        lambda: f'{rng.choice(["circuit", "subcircuit"])}({idx(X, offset())})',
        lambda: (lambda k: f'{rng.choice(["lex_less","lex_lesseq"])}({arr(X[:k])}, {arr(X[k:2*k])})')(rng.randint(1, n//2)),
        lambda: f'{rng.choice(["increasing","decreasing"])}({arr(sub(X))})',
        lambda: f'nvalue({rng.choice(X)}, {arr(sub(X))})',
        lambda: f'table({arr(sub(X, 2)[:2])}, [| ' + ' | '.join(f'{c()},{c()}' for _ in range(rng.randint(1,6))) + ' |])',
        lambda: (lambda s: f'cumulative({arr(s)}, {arr([str(rng.randint(1,3)) for _ in s])}, {arr([str(rng.randint(1,2)) for _ in s])}, {rng.randint(1,3)})')(sub(X)),
        lambda: (lambda s: f'{rng.choice(["disjunctive", "disjunctive_strict"])}({arr(s)}, {arr([str(rng.randint(0,2)) for _ in s])})')(sub(X)),
        lambda: f'{rng.choice(X)} in {{{c()},{c()},{c()}}}',
        lambda: f'not ({rng.choice(X)} in {lo}..{lo+1})',
        lambda: f'({rng.choice(X)} = {c()}) \\/ ({rng.choice(X)} = {c()})',
        lambda: f'({rng.choice(X)} < {rng.choice(X)}) -> ({rng.choice(X)} != {c()})',
        lambda: f'value_precede({lo}, {lo+1}, {arr(sub(X))})',
        lambda: f'member({arr(sub(X))}, {rng.choice(X)})',
        lambda: f'{rng.choice(X)} - {offset()} = arg_max({arr(sub(X))})' if scalable else 'true',
        lambda: f'lex2([|{",".join(X[:2])}|{",".join(X[2:4])}|])' if n >= 4 else 'true',
        lambda: f'{rng.choice(X)} = sum(i in 1..{n})(bool2int(x[i] = {c()}))',
        lambda: f'{rng.choice(X)} != {rng.choice(X)} + {rng.randint(-2,2)}',
        lambda: f'{rng.choice(X)} = pow({rng.choice(X)}, {rng.randint(0,2)})' if small else 'true',
        # Reifications under bool2int, negation and implication (MiniZinc 2.6 turns
        # them into wrong half-reifications when a library declares `_imp`).
        lambda: f'not (sum(i in 1..{n})(bool2int(x[i] {rng.choice(["=","<",">"])} {c()})) >= {rng.randint(1,3)})',
        lambda: f'(sum(i in 1..{n})(bool2int(x[i] < {c()})) >= {rng.randint(1,3)}) -> ({rng.choice(X)} + {rng.choice(X)} - {rng.choice(X)} >= {c()})',
        lambda: f'{rng.randint(1,3)} * bool2int({rng.choice(X)} > {c()}) - bool2int({rng.choice(X)} = {c()}) >= 1 -> {rng.choice(X)} = {rng.choice(X)}',
        lambda: f'{c()} <= [{c()}, {c()}][bool2int({rng.choice(X)} > {c()}) + 1]',
        lambda: f'(bool2int({rng.choice(X)} in {{{c()},{c()}}}) >= 1) -> {rng.choice(X)} > {c()}',
    ]
    btemplates = [
        lambda: f'{rng.choice(B)} <-> ({rng.choice(X)} <= {rng.choice(X)})',
        lambda: f'{rng.choice(B)} <-> ({rng.choice(X)} in {{{c()},{c()}}})',
        lambda: f'{rng.choice(B)} -> ({rng.choice(X)} + {rng.choice(X)} - {rng.choice(X)} = {c()})',
        lambda: f'{rng.choice(B)} \\/ not {rng.choice(B)} \\/ ({rng.choice(X)} = {c()})',
        lambda: f'sum({arr(B)}) = {rng.choice(X)}',
        # (Not `b = (c xor b)`: Gecode 6.2 gets that aliasing wrong.)
        lambda: f'{B[0]} = ({rng.choice(X)} != {rng.choice(X)} xor {B[-1]})' if len(B) > 1 else 'true',
        lambda: f'{rng.choice(B)} <-> alldifferent({arr(sub(X, 2))})',
        lambda: f'{rng.choice(B)} <-> ({rng.choice(X)} = {rng.choice(X)} * {rng.choice(X)})' if small else 'true',
    ]
    for _ in range(rng.randint(1, 4)):
        t = rng.choice(btemplates) if (B and rng.random() < 0.35) else rng.choice(templates)
        lines.append(f'constraint {t()};')
    search = rng.choice(['', '', f':: int_search(x, {rng.choice(["input_order","first_fail","anti_first_fail","smallest","largest","occurrence","most_constrained","max_regret","dom_w_deg"])}, {rng.choice(["indomain_min","indomain_max","indomain_median","indomain_middle","indomain_split","indomain_reverse_split","indomain_random"])}, complete)',
                         ':: seq_search([int_search(x, first_fail, indomain_min, complete)' + (', bool_search(b, input_order, indomain_max, complete)' if m else '') + '])'])
    if rng.random() < 0.35:
        # Relative to the window, and over a far window with coefficients that add up
        # to 0, so that the objective and the constant MiniZinc folds out of it stay
        # within 32 bits (alldiff reads FlatZinc constants as 32-bit values).
        weights = [rng.randint(-3, 4) for _ in range(n)]
        if not small:
            weights[-1] -= sum(weights)
        coeffs = ' + '.join(f'{w}*(x[{i}] - {lo})' for i, w in enumerate(weights, 1))
        lines.append(f'var int: obj = {coeffs};')
        lines.append(f'solve {search} {rng.choice(["minimize","maximize"])} obj;')
        lines.append('output ["obj=", show(obj)];')
    else:
        lines.append(f'solve {search} satisfy;')
        out = 'output [show(x)' + (', " ", show(b)' if m else '') + '];'
        lines.append(out)
    return '\n'.join(lines) + '\n'


def setup(folder):
    """alldiff installed as a MiniZinc solver, and Gecode without its own globals."""
    subprocess.run(['cargo', 'build', '--release', '--locked', '--quiet'], cwd=root, check=True)
    target = os.environ.get('CARGO_TARGET_DIR', os.path.join(root, 'target'))
    alldiff = os.path.join(target, 'release', 'alldiff')
    subprocess.run([alldiff, 'minizinc', 'install', '--dir', folder], check=True,
                   stdout=subprocess.DEVNULL)
    lib = os.path.join(folder, 'gecode-std')
    os.makedirs(lib)
    for name in ('redefinitions.mzn', 'redefinitions-2.0.mzn'):
        shutil.copy(os.path.join('/usr/share/minizinc/gecode', name), lib)
    with open('/usr/share/minizinc/solvers/gecode.msc') as f:
        msc = f.read()  # not strict JSON: edited as text, as gecode.sh does
    msc = re.sub(r'"mznlib".*', f'"mznlib": "{lib}",', msc)
    msc = re.sub(r'"id": *"[^"]*"', '"id": "org.gecode.std"', msc)
    with open(os.path.join(folder, 'gecode-std.msc'), 'w') as f:
        f.write(msc)
    return dict(os.environ, MZN_SOLVER_PATH=folder)


def kill_session(sid):
    """Kills every process of session `sid`: MiniZinc puts the solver it starts in a
    process group of its own, which a kill of MiniZinc's group leaves running."""
    for name in os.listdir('/proc'):
        if name.isdigit():
            try:
                if os.getsid(int(name)) == sid:
                    os.kill(int(name), signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass


def run(env, solver_args, path):
    """The status and the set of solutions printed, or ('error', message)."""
    # In a session of its own, so that a timeout ends the solver MiniZinc started too.
    p = subprocess.Popen(['minizinc', *solver_args, '-a', path], stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True, env=env, start_new_session=True)
    try:
        out, err = p.communicate(timeout=20)
    except subprocess.TimeoutExpired:
        kill_session(p.pid)
        p.communicate()
        return ('timeout', None)
    r = subprocess.CompletedProcess(p.args, p.returncode, out, err)
    if r.returncode != 0:
        return ('error', r.stderr.strip()[-300:])
    sols, cur = set(), []
    for line in r.stdout.splitlines():
        if line == '----------':
            sols.add('\n'.join(cur))
            cur = []
        elif line.startswith('====='):
            return (line, frozenset(sols))
        else:
            cur.append(line)
    return ('incomplete', frozenset(sols))


def best(result, minimise):
    """An optimisation's status and best `obj=` line."""
    status, sols = result
    if not sols or isinstance(sols, str):
        return result
    key = lambda t: int(t[4:])
    return (status, min(sols, key=key) if minimise else max(sols, key=key))


def main():
    if shutil.which('minizinc') is None:
        sys.exit('differential-minizinc: minizinc is not installed')
    folder = tempfile.mkdtemp(prefix='alldiff-differential-')
    env = setup(folder)
    path = os.path.join(folder, 'model.mzn')
    end = time.time() + opts.seconds
    models = differences = skipped = refused = 0
    while time.time() < end and (opts.models == 0 or models < opts.models):
        src = model()
        models += 1
        with open(path, 'w') as f:
            f.write(src)
        flags = rng.choice([[], [], ['-f'], ['-p', '2'], ['-r', str(rng.randint(1, 99))]])
        a = run(env, ['--solver', 'alldiff', *flags], path)
        # Gecode's library declares half reifications, which MiniZinc 2.6 writes
        # wrongly under bool2int and negation: full reifications only for it.
        g = run(env, ['--solver', 'org.gecode.std', '--no-half-reifications'], path)
        if 'obj=' in src:
            a, g = best(a, 'minimize' in src), best(g, 'minimize' in src)
        if a == g:
            continue
        if g[0] in ('error', 'timeout') and a[0] != 'error':
            skipped += 1
            continue
        if g[0] == 'error' and a[0] == 'error':
            refused += 1
            continue
        differences += 1
        out = f'differential-{opts.seed}-{differences}.mzn'
        with open(out, 'w') as f:
            f.write(src)
        show = lambda r: f'{r[0]} {len(r[1]) if isinstance(r[1], frozenset) else r[1]}'
        print(f'DIFFERENT {out} ({" ".join(flags) or "no flags"}): alldiff {show(a)} | gecode {show(g)}',
              flush=True)
    shutil.rmtree(folder)
    print(f'{models} models, {differences} different, {skipped} where Gecode failed alone, '
          f'{refused} both refused')
    sys.exit(1 if differences else 0)


main()
