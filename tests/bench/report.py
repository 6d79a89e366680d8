#!/usr/bin/env python3
"""make bench, the report: read the console logs that run-bench.sh kept,
compare every figure with its peer measured in the same run, and write

  <dir>/results.csv   every per-round median: group,op,tasks,kernel,boot,round,ns
  <dir>/summary.csv   the table below, one row per comparison
  <dir>/scale.dat     median ns per call against thread count (gnuplot input)
  <dir>/scale.png     the scale plot (gnuplot)
  <dir>/table.md      the table in Markdown, for docs/BENCHMARKS.md

and print the table. With --doc FILE, the figures between the markers
"<!-- bench:begin -->" and "<!-- bench:end -->" of FILE are replaced, and
the plot is copied next to it as bench-scale.png.

usage: report.py <result dir> [--doc docs/BENCHMARKS.md] [--allow-missed]
Exit status 1 if a boot's results are missing, or if a target was missed
(a row MISSED, or a row with a target that was not measured); then --doc
leaves the document alone. With --allow-missed (make bench
BENCH_ALLOW_MISSED=1, for exploration) a missed target is only reported,
and the document is still left alone.
"""
import csv
import os
import re
import shutil
import statistics
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), '..'))
from report_doc import (has_pngcairo, markdown, print_table,  # noqa: E402
                        replace_block, report_args)

BENCH = re.compile(r'^@@BENCH (\S+) (.*)$')


def load(results):
    """Per-round rows, i915 rounds, guest info and host info."""
    rows, i915, info = [], [], {}
    boots = sorted(d for d in os.listdir(results)
                   if re.match(r'^(on|off)-(\d+|full)$', d))
    for boot in boots:
        kernel = boot.split('-')[0]
        path = os.path.join(results, boot, 'console.log')
        with open(path, errors='replace') as fp:
            for line in fp:
                m = BENCH.match(line.replace('\r', '').rstrip('\n'))
                if not m:
                    continue
                group, rest = m.group(1), m.group(2).split()
                if group == 'info':
                    info.setdefault(rest[0], ' '.join(rest[1:]))
                elif group == 'missing':
                    info.setdefault('missing', set()).add(rest[0])
                elif group == 'i915':
                    kv = dict(f.split('=', 1) for f in rest)
                    i915.append({k: int(v) for k, v in kv.items()})
                else:
                    op, tasks, rnd, ns = rest
                    rows.append(dict(group=group, op=op, tasks=tasks,
                                     kernel=kernel, boot=boot,
                                     round=int(rnd), ns=float(ns)))
    host = {}
    hpath = os.path.join(results, 'host-info')
    if os.path.exists(hpath):
        with open(hpath) as fp:
            for line in fp:
                k, _, v = line.rstrip('\n').partition(' ')
                host[k] = v
    return rows, i915, info, host, boots


def series(rows, group, op, tasks='-', kernel='on'):
    """{(boot, round): ns}"""
    return {(r['boot'], r['round']): r['ns'] for r in rows
            if r['group'] == group and r['op'] == op and
            r['tasks'] == tasks and r['kernel'] == kernel}


def quartiles(v):
    if len(v) < 2:
        return v[0], v[0]
    q = statistics.quantiles(v, n=4, method='inclusive')
    return q[0], q[2]


class Row:
    """One comparison: a against its peer b, ratio per round."""

    def __init__(self, section, what, peer, a, b, target=None, unit='ns'):
        self.section, self.what, self.peer = section, what, peer
        self.target, self.unit = target, unit
        keys = sorted(set(a) & set(b))
        self.n = len(keys)
        self.a = statistics.median(a[k] for k in keys) if keys else None
        self.b = statistics.median(b[k] for k in keys) if keys else None
        ratios = [a[k] / b[k] for k in keys]
        if ratios:
            self.ratio = statistics.median(ratios)
            self.rmin, self.rmax = min(ratios), max(ratios)
            self.q1, self.q3 = quartiles(ratios)
        else:
            self.ratio = None
        self.note = ''

    def verdict(self):
        if self.ratio is None:
            return 'n/a'
        if self.target is None:
            return ''
        return 'met' if self.ratio <= self.target else 'MISSED'

    def cells(self):
        if self.ratio is None:
            return [self.section, self.what, self.peer, '-', '-', '-', '-',
                    self.target_text(), 'n/a (not measured)']
        return [self.section, self.what, self.peer, fmt_ns(self.a),
                fmt_ns(self.b), '%.3f' % self.ratio,
                '%.3f-%.3f' % (self.rmin, self.rmax), self.target_text(),
                (self.verdict() + ' ' + self.note).strip()]

    def target_text(self):
        return '<= %.2f' % self.target if self.target else ''


def fmt_ns(ns):
    if ns >= 1e6:
        return '%.2f ms' % (ns / 1e6)
    if ns >= 1e4:
        return '%.1f us' % (ns / 1e3)
    return '%.0f ns' % ns


HEAD = ['part', 'measured', 'peer', 'time', 'peer time', 'ratio',
        'ratio min-max', 'target', 'verdict']


def percall_rows(rows):
    def s(op):
        return series(rows, 'percall', op)
    out = []
    for what, peer, target in (
            ('gpuprio_get', 'getpriority', 1.10),
            ('gpuprio_get', 'ioprio_get', None),
            ('gpuprio_set_same', 'setpriority_same', 1.10),
            ('gpuprio_set_same', 'ioprio_set_same', None),
            ('gpuprio_set_alt', 'setpriority_alt', 1.10),
            ('gpuprio_set_alt', 'ioprio_set_alt', None),
            ('gpu_nice_pread', 'timerslack_pread', None),
            ('gpu_nice_open', 'timerslack_open', None)):
        out.append(Row('per call', what, peer, s(what), s(peer), target))
    return out


SCALE_SETS = ['gpuprio_set_user', 'setpriority_user', 'ioprio_set_user',
              'gpuprio_set_pgrp', 'setpriority_pgrp', 'ioprio_set_pgrp']
SCALE_GETS = ['gpuprio_get_user', 'getpriority_user', 'ioprio_get_user',
              'gpuprio_get_pgrp', 'getpriority_pgrp', 'ioprio_get_pgrp']


def scale_sizes(rows):
    return sorted({int(r['tasks']) for r in rows if r['group'] == 'scale'})


def scale_rows(rows):
    out = []
    sizes = scale_sizes(rows)
    for n in sizes:
        def s(op):
            return series(rows, 'scale', op, str(n))
        top = n == max(sizes)
        for what, peer, target in (
                ('gpuprio_set_user', 'setpriority_user', 1.10),
                ('gpuprio_set_user', 'ioprio_set_user', None),
                ('gpuprio_set_pgrp', 'setpriority_pgrp', 1.10),
                ('gpuprio_set_pgrp', 'ioprio_set_pgrp', None),
                ('gpuprio_get_user', 'getpriority_user', 1.10),
                ('gpuprio_get_user', 'setpriority_user', 1.10),
                ('gpuprio_get_pgrp', 'getpriority_pgrp', 1.10),
                ('gpuprio_get_pgrp', 'setpriority_pgrp', 1.10)):
            out.append(Row('scale %d' % n, what, peer, s(what), s(peer),
                           target if top else None))
    return out


def linearity_rows(rows):
    """Growth from the middle size to the largest, against the peer's."""
    sizes = scale_sizes(rows)
    if len(sizes) < 2:
        return []
    lo, hi = sizes[-2], sizes[-1]
    out = []
    for what, peer in (('gpuprio_set_user', 'setpriority_user'),
                       ('gpuprio_set_pgrp', 'setpriority_pgrp'),
                       ('gpuprio_get_user', 'getpriority_user'),
                       ('gpuprio_get_pgrp', 'getpriority_pgrp')):
        def growth(op):
            a = series(rows, 'scale', op, str(hi))
            b = series(rows, 'scale', op, str(lo))
            return {k: a[k] / b[k] for k in set(a) & set(b)}
        r = Row('growth %d->%d' % (lo, hi), what, peer, growth(what),
                growth(peer), 1.10, unit='x')
        out.append(r)
    return out


def fork_rows(rows):
    on = [r['ns'] for r in rows if r['group'] == 'fork' and
          r['kernel'] == 'on']
    off = [r['ns'] for r in rows if r['group'] == 'fork' and
           r['kernel'] == 'off']
    if not on or not off:
        return [], None
    mon, moff = statistics.median(on), statistics.median(off)
    # Noise: how far rounds of one kernel spread around their median
    noise = max((max(v) - min(v)) / 2 / statistics.median(v)
                for v in (on, off))
    iqr = max((quartiles(v)[1] - quartiles(v)[0]) / statistics.median(v)
              for v in (on, off))
    r = Row('fork', 'fork+exit+wait, GPUPRIO=y', 'GPUPRIO=n', {}, {})
    r.a, r.b, r.n = mon, moff, len(on)
    r.ratio = mon / moff
    r.rmin, r.rmax = min(on) / moff, max(on) / moff
    r.note = ''
    within = abs(r.ratio - 1) <= noise
    r.verdict = lambda: ('met' if within else 'MISSED') + \
        ' (noise +-%.1f%%, IQR %.1f%%)' % (noise * 100, iqr * 100)
    return [r], dict(on=on, off=off, noise=noise, iqr=iqr)


def i915_rows(i915):
    if not i915:
        return []
    def ns(k):
        return {(0, i): r[k] / 1000 for i, r in enumerate(i915)}
    full = Row('i915', 'mock request + lookup', 'mock request',
               ns('rq_gpuprio_ps'), ns('rq_base_ps'))
    attr_e = Row('i915', 'execbuf attr (lookup+map)', 'ctx->sched copy',
                 ns('attr_execbuf_ps'), ns('attr_base_ps'))
    over = {(0, i): (r['attr_execbuf_ps'] - r['attr_base_ps']) /
            r['rq_base_ps'] for i, r in enumerate(i915)}
    zero = {k: 1.0 for k in over}
    o = Row('i915', 'lookup+map overhead / request', '1 mock request',
            {k: v for k, v in over.items()}, zero, 0.01, unit='%')
    o.a = statistics.median(
        (r['attr_execbuf_ps'] - r['attr_base_ps']) / 1000 for r in i915)
    o.b = statistics.median(r['rq_base_ps'] / 1000 for r in i915)
    return [full, attr_e, o]


def plot(results, rows):
    sizes = scale_sizes(rows)
    ops = SCALE_SETS + SCALE_GETS
    dat = os.path.join(results, 'scale.dat')
    with open(dat, 'w') as fp:
        fp.write('# threads ' + ' '.join(ops) + '  (median us per call)\n')
        for n in sizes:
            vals = []
            for op in ops:
                v = list(series(rows, 'scale', op, str(n)).values())
                vals.append('%.3f' % (statistics.median(v) / 1000)
                            if v else 'NaN')
            fp.write('%d %s\n' % (n, ' '.join(vals)))
    if not shutil.which('gnuplot') or not sizes:
        print('report: no gnuplot or no scale data, no plot', file=sys.stderr)
        return None
    png = os.path.join(results, 'scale.png')
    script = [
        'set terminal pngcairo size 1200,520 font ",10"' if
        has_pngcairo() else 'set terminal png size 1200,520',
        "set output '%s'" % png,
        'set termoption noenhanced',
        'set multiplot layout 1,2 title "gpunice make bench: one call over '
        'all threads of a user or process group (QEMU TCG, median of rounds)"',
        'set logscale xy', 'set grid',
        'set xlabel "threads"', 'set ylabel "microseconds per call"',
        'set key top left', 'set xtics (%s)' % ', '.join(
            '"%d" %d' % (n, n) for n in sizes),
        'set xrange [%g:%g]' % (sizes[0] / 1.5, sizes[-1] * 1.5),
    ]
    for title, group in (('set', SCALE_SETS), ('get', SCALE_GETS)):
        parts = []
        for op in group:
            col = ops.index(op) + 2
            parts.append("'%s' using 1:%d with linespoints lw 2 title '%s'"
                         % (dat, col, op))
        script.append('set title "%s"' % title)
        script.append('plot ' + ', '.join(parts))
    script.append('unset multiplot')
    subprocess.run(['gnuplot'], input='\n'.join(script) + '\n', text=True,
                   check=True)
    return png


def machine(info, host, rows):
    scale_boots = len({r['boot'] for r in rows if r['group'] == 'scale'})
    lines = [
        'host: %s CPU(s), %s' % (host.get('host_nproc', '?'),
                                 host.get('host_cpu', '?')),
        '%s, %s; guest %s' % (host.get('qemu', '?'), host.get('accel', '?'),
                              host.get('guest_smp', '?')),
        'guest kernel %s; clocksource %s; clock_getres(CLOCK_MONOTONIC) %s ns,'
        ' smallest clock_gettime step seen %s ns; batches of >= %s ms' % (
            info.get('kernel', '?'), info.get('clocksource', '?'),
            info.get('clock_getres_ns', '?'), info.get('clock_step_ns', '?'),
            info.get('batch_ms', '?')),
        'batches of >= %s clock steps and >= 50 calls, started on a clock '
        'edge; i915 selftest clock (local_clock) step %s ns' % (
            info.get('min_steps', '?'), info.get('i915_step_ns', '?')),
        'rounds per boot %s, batches per round %s; boots per kernel %s; '
        'scale rounds pooled from %d boot%s; %s' % (
            info.get('rounds', '?'), info.get('batches', '?'),
            host.get('boots', '?'), scale_boots,
            '' if scale_boots == 1 else 's', host.get('date', '')),
    ]
    if info.get('missing'):
        lines.append('not measured (missing in the kernel): ' +
                     ', '.join(sorted(info['missing'])))
    return lines


def main():
    args = report_args('make bench').parse_args()
    doc, allow_missed, results = args.doc, args.allow_missed, args.results
    rows, i915, info, host, boots = load(results)
    if i915:
        info['i915_step_ns'] = str(i915[0].get('step_ns', '?'))
    if not rows:
        print('report: no results in %s' % results, file=sys.stderr)
        return 1

    with open(os.path.join(results, 'results.csv'), 'w', newline='') as fp:
        w = csv.writer(fp)
        w.writerow(['group', 'op', 'tasks', 'kernel', 'boot', 'round', 'ns'])
        for r in rows:
            w.writerow([r['group'], r['op'], r['tasks'], r['kernel'],
                        r['boot'], r['round'], '%.1f' % r['ns']])
        for i, r in enumerate(i915):
            for k in ('rq_base_ps', 'rq_gpuprio_ps', 'attr_base_ps',
                      'attr_execbuf_ps'):
                w.writerow(['i915', k[:-3], '-', 'on', 'on-full', i,
                            '%.3f' % (r[k] / 1000)])

    frows, fork = fork_rows(rows)
    comparisons = (percall_rows(rows) + scale_rows(rows) +
                   linearity_rows(rows) + frows + i915_rows(i915))
    table = []
    for r in comparisons:
        cells = r.cells()
        if r.unit == '%' and r.ratio is not None:
            # the overhead row: a share of a request, not a ratio
            cells[3] = '%.1f ns' % r.a
            cells[4] = '%.0f ns' % r.b
            cells[5] = '%.2f%%' % (r.ratio * 100)
            cells[6] = '%.2f-%.2f%%' % (r.rmin * 100, r.rmax * 100)
            cells[7] = '< 1%'
        elif r.unit == 'x' and r.ratio is not None:
            cells[3] = '%.2fx' % r.a
            cells[4] = '%.2fx' % r.b
        table.append(cells)

    with open(os.path.join(results, 'summary.csv'), 'w', newline='') as fp:
        w = csv.writer(fp)
        w.writerow(HEAD)
        w.writerows(table)
    png = plot(results, rows)
    mach = machine(info, host, rows)
    md = markdown(HEAD, table)
    with open(os.path.join(results, 'table.md'), 'w') as fp:
        fp.write(md)

    print()
    print('make bench: ratios against peers measured in the same run; '
          '"ratio" is the median of per-round ratios, "min-max" their range')
    for line in mach:
        print('  ' + line)
    print()
    print_table(HEAD, table)
    print()
    print('results: %s/{results,summary}.csv, table.md%s' %
          (results, ', scale.png' if png else ''))

    missed = missed_targets(comparisons)
    if missed:
        print()
        for r in missed:
            print('bench: target missed: %s against %s: %s' % (
                r.what, r.peer, r.verdict()))
        print('bench: FAILED, %d target(s) missed%s%s' % (
            len(missed), ' (allowed: BENCH_ALLOW_MISSED)' if allow_missed
            else '', '; %s not updated' % doc if doc else ''))
        return 0 if allow_missed else 1
    if doc:
        update_doc(doc, md, mach, png)
    return 0


def missed_targets(comparisons):
    """Rows whose target was missed or, having one, not measured at all."""
    out = []
    for r in comparisons:
        v = r.verdict()
        if v.startswith('MISSED') or (r.target is not None and v == 'n/a'):
            out.append(r)
    return out


def update_doc(doc, md, mach, png):
    body = '\n' + '\n'.join('- ' + l for l in mach) + '\n\n' + md + '\n'
    if png:
        body += '![scale test](bench-scale.png)\n\n'
    if replace_block(doc, 'bench', body) and png:
        shutil.copy(png, os.path.join(os.path.dirname(doc),
                                      'bench-scale.png'))


if __name__ == '__main__':
    sys.exit(main())
