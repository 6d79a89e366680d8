#!/usr/bin/env python3
"""make effect, the report: read the console log that run-effect.sh kept
(lines "@@EFFECT <scenario> <run> <role> <gpuload line>" from
tests/guest/effect.sh), take each scenario's median over its runs, and write

  <dir>/runs.csv      one row per run and scenario
  <dir>/table.md      the tables in Markdown
  <dir>/effect.png    the plot (gnuplot): fps ratio per scenario, the sweep's
                      p99 latency against its bound, the live run over time

then print the tables and, last, the line
  effect: alone=F contended=R gpunice10=R idle=R cpunice10=R live=R raised=R
          tabs=R p50_alone=Xms p50_lowered=Yms
(fps alone, the other scenarios' fps ratios to it, and the foreground's
median latency alone and next to a hog lowered with gpunice -n 10).

A run is void, and reported, unless it is what its scenario says
(valid()): every foreground job armed on the expected drm_sched run queue,
and every hog job (in live, every one from the first armed on LOW on),
counted per job from simgpu's account of the run queue the entity was
really on; the hog ran without error, kept the engine busy for at least
0.8 of the time the foreground left it, and was on the engine when most
of the foreground's jobs were submitted (with no hog, none was).

With --doc FILE, the text between "<!-- effect:begin -->" and
"<!-- effect:end -->" of FILE is replaced and the plot copied next to it as
effect.png, only if every run was valid and every target met.

usage: report.py <result dir> [--doc docs/EFFECT.md] [--allow-missed]
Exit status 1 if results are missing, a run is void or a target was
missed; with --allow-missed (make effect EFFECT_ALLOW_MISSED=1, for
exploration) a missed target is reported without failing, and the
document is still left alone.
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
                        replace_block)

LINE = re.compile(r'^@@EFFECT (\S+) (\S+) (\S+) ?(.*)$')
KV = re.compile(r'(\w+)=(\S+)')

FRAME_HZ = 60
# scenario, what it is, fg prio, hog prio, target on the ratio ('<=' or '>=')
SCENARIOS = [
    ('alone', 'no hog', None),
    ('contended', 'hog (4 ms jobs, depth 4) at default priorities',
     ('<=', 0.70)),
    ('gpunice10', 'hog started with gpunice -n 10', ('>=', 0.95)),
    ('idle', 'hog started with gpunice -c idle', ('>=', 0.95)),
    ('cpunice10', 'hog started with nice -n 10 (GPU priority unset)',
     ('>=', 0.95)),
    ('live', 'hog at defaults, then gpunice -p HOG -n 19 while it runs; '
     'fps after the change', ('>=', 0.95)),
    ('raised', 'foreground started with gpunice -n -5 (root), hog at '
     'defaults', ('>=', 0.95)),
    ('tabs', 'one process, two threads: background tab a hog at GPU nice '
     '10, foreground tab measured', ('>=', 0.95)),
    ('gpu-thread', 'the two tabs from one thread, a DRM file per tab, the '
     "thread's priority switched before each tab's submission",
     ('>=', 0.95)),
    # The two patterns the docs warn against: reported, not targeted.
    ('shared', 'the two tabs from one thread and one shared DRM file, '
     'switched before each submission (cannot work)', None),
    ('driver-thread', "hog submitted by a thread started before its "
     "process's main thread set GPU nice 10 on itself", None),
    ('driver-pidfd', 'as driver-thread, but GPU nice 10 set on the whole '
     'process with GPUPRIO_WHO_PIDFD', ('>=', 0.95)),
]
# What gpuload must have run (its mode=), so a run is of its scenario.
MODES = {'tabs': 'tabs', 'gpu-thread': 'gpu-thread', 'shared': 'shared'}
SWEEP = re.compile(r'^sweep-c(\d+)-j(\d+)$')
SLACK_MS = 2.0
# A hog that ran: busy for at least this fraction of the engine time the
# foreground left, and on the engine at the submission of at least this
# fraction of the foreground's jobs.
HOG_BUSY_MIN = 0.8
CONTENDED_MIN = 0.5
RQS = ('kernel', 'high', 'normal', 'low', 'none')


def kv(text):
    return dict(KV.findall(text))


def load(results):
    """{scenario: {run: record}}, guest info, errors."""
    runs, info, errors = {}, {}, []
    path = os.path.join(results, 'console.log')
    with open(path, errors='replace') as fp:
        for raw in fp:
            line = raw.replace('\r', '').rstrip('\n')
            if line.startswith('@@EFFECT info '):
                key, _, val = line[len('@@EFFECT info '):].partition(' ')
                info[key] = val
                continue
            if line.startswith('@@EFFECT error '):
                errors.append(line[len('@@EFFECT error '):])
                continue
            m = LINE.match(line)
            if not m or m.group(1) == 'progress':
                continue
            scen, run, role, rest = m.groups()
            rec = runs.setdefault(scen, {}).setdefault(run, {
                'fg': None, 'hog': None, 'seconds': [], 'marks': [],
                'changes': [], 'want': None, 'stderr': []})
            if role == 'want':
                rec['want'] = kv(rest)
            elif role == 'stderr':
                rec['stderr'].append(rest)
            elif rest.startswith('mode='):
                rec[role] = kv(rest)
            elif rest.startswith('t='):
                rec['seconds'].append(kv(rest))
            elif rest.startswith('change at_ns='):
                rec['change_ns'] = int(rest.split('=', 1)[1])
            elif rest.startswith('mark='):
                rec['marks'].append(kv(rest))
            elif ' rq=' in rest and 'at_ns=' in rest:
                rec['changes'].append(kv(rest))
            else:
                rec['stderr'].append(rest)
    return runs, info, errors


def host_info(results):
    host = {}
    path = os.path.join(results, 'host-info')
    if os.path.exists(path):
        with open(path) as fp:
            for line in fp:
                k, _, v = line.rstrip('\n').partition(' ')
                host[k] = v
    return host


def rq_counts(res, prefix=''):
    """{run queue: jobs armed on it} from a gpuload result line."""
    return {q: int(res.get('%srq_%s' % (prefix, q), 0)) for q in RQS}


def void_reasons(scen, rec):
    """Why a run does not show what its scenario says; [] if it does."""
    fg, want = rec['fg'], rec['want']
    if fg is None:
        return ['no result']
    if want is None:
        return ['no expectation']
    why = []
    mode = MODES.get(scen, 'frame')
    if fg.get('mode') != mode:
        why.append('fg ran mode=%s, want %s' % (fg.get('mode'), mode))
    # The foreground: every job on its run queue.
    fgq = rq_counts(fg)
    frames = int(fg.get('frames', 0))
    if not frames or fgq[want['fg']] != frames or sum(fgq.values()) != frames:
        why.append('fg jobs per run queue %s, want all %d on %s' % (
            fmt_rq(fgq), frames, want['fg']))
    contended = int(fg.get('contended', -1))
    if want['hog'] == '-':
        if contended != 0:
            why.append('fg alone, yet %d jobs submitted to a busy engine'
                       % contended)
        return why
    # The hog: the tabs' background tab reports on the foreground's line.
    tabs = 'bg_jobs' in fg
    hog = fg if tabs else rec['hog']
    prefix = 'bg_' if tabs else ''
    if hog is None:
        return why + ['no hog result']
    if not tabs and hog.get('error') != '0':
        why.append('hog error=%s' % hog.get('error'))
    driver = '1' if scen.startswith('driver-') else '0'
    pidfd = '1' if scen == 'driver-pidfd' else '0'
    if not tabs and (hog.get('driver_thread'), hog.get('pidfd')) != \
            (driver, pidfd):
        why.append('hog driver_thread=%s pidfd=%s, want %s %s' % (
            hog.get('driver_thread'), hog.get('pidfd'), driver, pidfd))
    hogq = rq_counts(hog, prefix)
    jobs = sum(hogq.values())
    if scen == 'live':
        # At defaults first, then, from the first job armed on LOW on,
        # every job on LOW: the run queues in the order they changed.
        seq = [c.get('rq') for c in rec['changes']]
        if seq != ['normal', want['hog']]:
            why.append('hog run queues in order %s, want normal then all '
                       'on %s' % ('-'.join(seq) or 'none', want['hog']))
    elif not jobs or hogq[want['hog']] != jobs:
        why.append('hog jobs per run queue %s, want all on %s' % (
            fmt_rq(hogq), want['hog']))
    busy = float(hog.get(prefix + 'busy', 0))
    left = 1 - float(fg.get('busy', 1))
    if busy < HOG_BUSY_MIN * left:
        why.append('hog busy %.3f, under %.1f of the %.3f the fg left' % (
            busy, HOG_BUSY_MIN, left))
    if contended < CONTENDED_MIN * frames:
        why.append('only %d of %d fg jobs submitted to a busy engine' % (
            contended, frames))
    return why


def fmt_rq(q):
    return ','.join('%s:%d' % (k, v) for k, v in q.items() if v) or 'none'


def valid(scen, rec):
    return not void_reasons(scen, rec)


def fps_of(scen, rec):
    if scen == 'live':
        return float(rec['fg'].get('after_fps', 'nan'))
    return float(rec['fg']['fps'])


def act_ms(rec):
    """From the start of gpunice to the hog's first job armed low."""
    mark = rec.get('change_ns')
    lows = [int(c['at_ns']) for c in rec['changes']
            if c.get('rq') == 'low']
    if mark is None or not lows:
        return None
    return (min(lows) - int(mark)) / 1e6


def med(v):
    return statistics.median(v) if v else None


def spread(v, fmt='%.1f'):
    if not v:
        return '-'
    return (fmt + '-' + fmt) % (min(v), max(v))


class Scenario:
    def __init__(self, name, what, target, recs):
        self.name, self.what, self.target = name, what, target
        self.recs = [r for r in recs if valid(name, r)]
        self.bad = [r for r in recs if not valid(name, r)]
        self.fps = [fps_of(name, r) for r in self.recs]
        # The live run's latencies mix both halves: not shown.
        lat = self.recs if name != 'live' else []
        self.p50 = [int(r['fg']['p50_us']) / 1000 for r in lat]
        self.p99 = [int(r['fg']['p99_us']) / 1000 for r in lat]
        self.missed = [int(r['fg'].get('after_missed' if name == 'live'
                                       else 'missed', 0))
                       for r in self.recs]
        self.acts = [a for a in (act_ms(r) for r in self.recs)
                     if a is not None] if name == 'live' else []
        self.ratio = None
        self.ratios = []

    def set_base(self, base):
        if base and self.fps:
            self.ratio = med(self.fps) / base
            self.ratios = [f / base for f in self.fps]

    def verdict(self):
        if self.ratio is None:
            return 'n/a (no valid run)'
        if not self.target:
            return 'reported' if self.name != 'alone' else ''
        op, val = self.target
        ok = self.ratio <= val if op == '<=' else self.ratio >= val
        return 'met' if ok else 'MISSED'

    def jobs_on(self):
        """Jobs per run queue over the valid runs, fg / hog."""
        if not self.recs:
            return '-'
        fg = {q: 0 for q in RQS}
        hog = {q: 0 for q in RQS}
        for r in self.recs:
            for q, n in rq_counts(r['fg']).items():
                fg[q] += n
            tabs = 'bg_jobs' in r['fg']
            h = r['fg'] if tabs else r['hog']
            if h:
                for q, n in rq_counts(h, 'bg_' if tabs else '').items():
                    hog[q] += n
        return '%s / %s' % (fmt_rq(fg), fmt_rq(hog) if any(hog.values())
                            else '-')


HEAD = ['scenario', 'setup', 'runs', 'fps', 'fps min-max', 'ratio',
        'ratio min-max', 'p50 ms', 'p99 ms', 'missed/run',
        'jobs per drm_sched run queue fg / hog', 'target', 'verdict']


def scenario_rows(scens):
    rows = []
    for s in scens:
        what = s.what
        if s.acts:
            what += ' (acted after %.1f ms, %s)' % (
                med(s.acts), spread(s.acts) + ' ms')
        rows.append([
            s.name, what, '%d' % len(s.recs),
            '%.2f' % med(s.fps) if s.fps else '-', spread(s.fps),
            '%.3f' % s.ratio if s.ratio is not None else '-',
            spread(s.ratios, '%.3f') if s.name != 'alone' else '-',
            '%.2f' % med(s.p50) if s.p50 else '-',
            '%.2f' % med(s.p99) if s.p99 else '-',
            '%g' % med(s.missed) if s.missed else '-',
            s.jobs_on(),
            '%s %.2f' % s.target if s.target else '',
            s.verdict()])
    return rows


SWEEP_HEAD = ['hog job ms', 'credits', 'bound ms (credits x hog job + 2)',
              'runs', 'p99 ms', 'p99 min-max', 'p99 - bound', 'max ms',
              'p50 ms', 'fg queued p99', 'fg overrun p99', 'fps',
              'target p99 <=', 'verdict']


def sweep_cells(runs):
    cells = []
    for name, recs in runs.items():
        m = SWEEP.match(name)
        if not m:
            continue
        credits, job = int(m.group(1)), int(m.group(2))
        ok = [r for r in recs.values() if valid(name, r)]
        p99 = [int(r['fg']['p99_us']) / 1000 for r in ok]
        bound = credits * job + 2.0
        cells.append(dict(
            credits=credits, job=job, bound=bound, n=len(ok), p99=p99,
            p50=[int(r['fg']['p50_us']) / 1000 for r in ok],
            mx=[int(r['fg']['max_us']) / 1000 for r in ok],
            queued=[int(r['fg'].get('queued_p99_us', 0)) / 1000 for r in ok],
            overrun=[int(r['fg'].get('overrun_p99_us', 0)) / 1000
                     for r in ok],
            fps=[float(r['fg']['fps']) for r in ok],
            bad=len(recs) - len(ok)))
    cells.sort(key=lambda c: (c['job'], c['credits']))
    return cells


def sweep_verdict(c):
    if not c['p99']:
        return 'n/a (no valid run)'
    return 'met' if med(c['p99']) <= c['bound'] + SLACK_MS else 'MISSED'


def sweep_rows(cells):
    return [['%d' % c['job'], '%d' % c['credits'], '%.0f' % c['bound'],
             '%d' % c['n'],
             '%.2f' % med(c['p99']) if c['p99'] else '-',
             spread(c['p99'], '%.2f'),
             '%+.2f' % (med(c['p99']) - c['bound']) if c['p99'] else '-',
             '%.2f' % max(c['mx']) if c['mx'] else '-',
             '%.2f' % med(c['p50']) if c['p50'] else '-',
             '%.2f' % med(c['queued']) if c['queued'] else '-',
             '%.2f' % med(c['overrun']) if c['overrun'] else '-',
             '%.1f' % med(c['fps']) if c['fps'] else '-',
             '%.0f' % (c['bound'] + SLACK_MS), sweep_verdict(c)]
            for c in cells]


def effect_line(scens):
    by = {s.name: s for s in scens}
    parts = []
    for name, _, _ in SCENARIOS:
        s = by[name]
        if name == 'alone':
            parts.append('alone=%s' % ('%.1f' % med(s.fps) if s.fps
                                       else 'n/a'))
        else:
            parts.append('%s=%s' % (name, '%.2f' % s.ratio
                                    if s.ratio is not None else 'n/a'))
    # Latency next to the frame rate: a lowered hog keeps the fps, not
    # the foreground's latency alone.
    for key, name in (('p50_alone', 'alone'), ('p50_lowered', 'gpunice10')):
        p50 = by[name].p50
        parts.append('%s=%s' % (key, '%.2fms' % med(p50) if p50 else 'n/a'))
    return 'effect: ' + ' '.join(parts)


def plot(results, scens, cells, runs):
    if not shutil.which('gnuplot'):
        print('report: no gnuplot, no plot', file=sys.stderr)
        return None
    bars = os.path.join(results, 'ratios.dat')
    with open(bars, 'w') as fp:
        fp.write('# i scenario ratio min max\n')
        for i, s in enumerate(x for x in scens if x.name != 'alone'):
            if s.ratio is None:
                continue
            fp.write('%d %s %.4f %.4f %.4f\n' % (
                i, s.name, s.ratio, min(s.ratios), max(s.ratios)))
    sweep = os.path.join(results, 'sweep.dat')
    with open(sweep, 'w') as fp:
        fp.write('# credits job bound p99 min max\n')
        for c in cells:
            if c['p99']:
                fp.write('%d %d %.1f %.3f %.3f %.3f\n' % (
                    c['credits'], c['job'], c['bound'], med(c['p99']),
                    min(c['p99']), max(c['p99'])))
    live = os.path.join(results, 'live.dat')
    mark = None
    with open(live, 'w') as fp:
        fp.write('# t fps (live scenario, first valid run)\n')
        recs = [r for _, r in sorted(runs.get('live', {}).items())
                if valid('live', r)]
        if recs:
            for sec in recs[0]['seconds']:
                fp.write('%s %s\n' % (sec['t'], sec['fps']))
            if recs[0]['marks']:
                mark = float(recs[0]['marks'][-1]['t'])
    png = os.path.join(results, 'effect.png')
    term = ('set terminal pngcairo size 1500,480 font ",10"'
            if has_pngcairo() else 'set terminal png size 1500,480')
    script = [
        term, "set output '%s'" % png, 'set termoption noenhanced',
        'set multiplot layout 1,3 title "gpunice make effect: foreground at '
        '60 Hz with 2 ms jobs on simgpu (drm_sched), QEMU TCG; medians, bars '
        'min-max"',
        'set grid ytics',
        'set title "fps relative to the foreground alone"',
        'set yrange [0:1.1]', 'set ylabel "ratio"',
        'set style fill solid 0.6', 'set boxwidth 0.6',
        'set xtics rotate by -30',
        'set arrow 1 from graph 0, first 0.95 to graph 1, first 0.95 '
        'nohead dt 2 lc rgb "dark-green"',
        'set arrow 2 from graph 0, first 0.70 to graph 1, first 0.70 '
        'nohead dt 2 lc rgb "red"',
        "plot '%s' using 1:3:xtic(2) with boxes notitle, "
        "'' using 1:3:4:5 with yerrorbars lc rgb 'black' pt 0 notitle"
        % bars,
        'unset arrow 1', 'unset arrow 2', 'set xtics norotate',
        'set title "sweep: p99 latency, hog lowered, against the bound"',
        'set xlabel "bound = credits x hog job + own job (ms)"',
        'set ylabel "foreground p99 (ms)"', 'set autoscale y',
        'set yrange [0:*]', 'set xrange [0:*]', 'set key top left',
        "plot x with lines dt 2 lc rgb 'gray' title 'bound', "
        "x + %g with lines dt 3 lc rgb 'red' title 'bound + 2 ms', "
        "'%s' using ($1==1?$3:1/0):4:5:6 with yerrorbars pt 7 "
        "title 'credits 1', "
        "'%s' using ($1==2?$3:1/0):4:5:6 with yerrorbars pt 5 "
        "title 'credits 2'" % (SLACK_MS, sweep, sweep),
        'set title "live: gpunice -p HOG -n 19 while the hog runs"',
        'set xlabel "seconds"', 'set ylabel "foreground fps"',
        'set yrange [0:70]', 'set autoscale x', 'unset key',
    ]
    if mark is not None:
        script.append('set arrow 3 from first %g, graph 0 to first %g, '
                      'graph 1 nohead lc rgb "red"' % (mark, mark))
        script.append('set label 3 "gpunice -n 19" at first %g, graph 0.1 '
                      'offset 0.5,0' % mark)
    if recs and recs[0]['seconds']:
        script.append("plot '%s' using 1:2 with linespoints pt 7 lw 2"
                      % live)
    else:
        # No valid live run (it is reported): an empty panel that says so.
        script += ['set xrange [0:1]', 'set label 4 "no valid live run" '
                   'at graph 0.3, graph 0.5', 'plot NaN notitle']
    script.append('unset multiplot')
    if not any(s.ratio is not None for s in scens[1:]) and not cells:
        print('report: nothing measured, no plot', file=sys.stderr)
        return None
    p = subprocess.run(['gnuplot'], input='\n'.join(script) + '\n',
                       text=True)
    return png if p.returncode == 0 else None


def alone_overhead(scens):
    """What the emulated machine adds to a 2 ms job with the engine idle."""
    alone = scens[0]
    if not alone.recs:
        return None
    def m(key):
        return med([int(r['fg'].get(key, 0)) / 1000 for r in alone.recs])
    job = int(alone.recs[0]['fg'].get('job_us', 0)) / 1000
    return ('the foreground alone (engine otherwise idle): latency p50 %.2f '
            'ms, p99 %.2f ms for its %.0f ms job, so %.2f ms over it at p99 '
            '(waiting to start p99 %.2f ms, ending late p99 %.2f ms): the '
            'cost of the emulated machine, not of any other job' % (
                m('p50_us'), m('p99_us'), job, m('p99_us') - job,
                m('queued_p99_us'), m('overrun_p99_us')))


POLICIES = {'0': 'round robin (sched_policy=0)',
            '1': 'FIFO (sched_policy=1, the default)'}


def machine(info, host, scens):
    n = max((len(s.recs) + len(s.bad) for s in scens), default=0)
    over = alone_overhead(scens)
    return ([over] if over else []) + [
        'host: %s CPU(s), %s, load %s; %s, %s' % (
            host.get('host_nproc', '?'), host.get('host_cpu', '?'),
            host.get('host_load', '?'), host.get('qemu', '?'),
            host.get('accel', '?')),
        'guest kernel %s; clocksource %s; hrtimer resolution %s ns; '
        'drm_sched policy %s' % (
            info.get('kernel', '?'), info.get('clocksource', '?'),
            info.get('hrtimer_resolution_ns', '?'),
            POLICIES.get(info.get('sched_policy'),
                         info.get('sched_policy', '?'))),
        'foreground: %s; hog: %s; simgpu credit limit %s unless swept' % (
            info.get('frame', '?'), info.get('hog', '?'),
            info.get('credits_default', '?')),
        '%s rounds of %s s per run (live: 1.5 times, changed after a third);'
        ' each figure is the median over the rounds, min-max their spread;'
        ' %d runs per scenario; %s' % (
            info.get('runs', '?'), info.get('seconds', '?'), n,
            host.get('date', '')),
    ]


def write_csv(results, runs):
    with open(os.path.join(results, 'runs.csv'), 'w', newline='') as fp:
        w = csv.writer(fp)
        w.writerow(['scenario', 'run', 'valid', 'fps', 'after_fps',
                    'missed', 'frames', 'p50_us', 'p99_us', 'max_us',
                    'fg_rq', 'fg_contended', 'fg_busy', 'hog_rq',
                    'hog_jobs', 'hog_busy', 'act_ms', 'void'])
        for scen in sorted(runs):
            for run, r in sorted(runs[scen].items()):
                fg, hog = r['fg'] or {}, r['hog'] or {}
                tabs = 'bg_jobs' in fg
                if tabs:
                    hog = {k[3:]: v for k, v in fg.items()
                           if k.startswith('bg_')}
                a = act_ms(r) if scen == 'live' and r['fg'] else None
                why = void_reasons(scen, r)
                w.writerow([scen, run, int(not why), fg.get('fps'),
                            fg.get('after_fps'), fg.get('missed'),
                            fg.get('frames'), fg.get('p50_us'),
                            fg.get('p99_us'), fg.get('max_us'),
                            fmt_rq(rq_counts(fg)), fg.get('contended'),
                            fg.get('busy'),
                            fmt_rq(rq_counts(hog)) if hog else '',
                            hog.get('jobs'), hog.get('busy'),
                            '%.2f' % a if a is not None else '',
                            '; '.join(why)])


def main():
    args = sys.argv[1:]
    doc = None
    allow_missed = '--allow-missed' in args
    if allow_missed:
        args.remove('--allow-missed')
    if '--doc' in args:
        i = args.index('--doc')
        doc = args[i + 1]
        del args[i:i + 2]
    results = args[0]
    runs, info, errors = load(results)
    host = host_info(results)
    scens = [Scenario(name, what, target, runs.get(name, {}).values())
             for name, what, target in SCENARIOS]
    base = med(scens[0].fps)
    for s in scens:
        s.set_base(base)
    cells = sweep_cells(runs)
    write_csv(results, runs)

    table = scenario_rows(scens)
    stable = sweep_rows(cells)
    mach = machine(info, host, scens)
    md = markdown(HEAD, table) + '\n' + markdown(SWEEP_HEAD, stable)
    line = effect_line(scens)
    with open(os.path.join(results, 'table.md'), 'w') as fp:
        fp.write(md)
    png = plot(results, scens, cells, runs)

    print()
    for m in mach:
        print('  ' + m)
    print()
    print_table(HEAD, table)
    print()
    print_table(SWEEP_HEAD, stable)
    print()
    problems = list(errors)
    for name in sorted(runs):
        for run, r in sorted(runs[name].items()):
            why = void_reasons(name, r)
            if why:
                problems.append('%s run %s is void: %s%s' % (
                    name, run, '; '.join(why),
                    (' (' + ' '.join(r['stderr'])[:200] + ')')
                    if r['stderr'] else ''))
    missing = base is None or any(s.ratio is None for s in scens[1:]) or \
        not cells or any(not c['p99'] for c in cells)
    if missing:
        problems.append('a scenario or sweep cell has no valid run')
    missed = [s.name for s in scens if s.verdict() == 'MISSED'] + \
        ['sweep credits %d job %d ms' % (c['credits'], c['job'])
         for c in cells if sweep_verdict(c) == 'MISSED']
    for p in problems:
        print('report: ' + p)
    for m in missed:
        print('report: target MISSED: %s%s' % (
            m, ' (allowed: EFFECT_ALLOW_MISSED)' if allow_missed else ''))
    print('results: %s/{runs.csv,table.md%s}' % (
        results, ',effect.png' if png else ''))
    if doc:
        if problems or missed:
            print('report: %s left as it was: %s' % (
                doc, 'void or missing runs' if problems
                else 'a target was missed'))
        else:
            update_doc(doc, md, mach, line, png)
    print(line)
    if problems:
        print('effect: FAILED, %d void or missing run(s)' % len(problems))
        return 1
    if missed and not allow_missed:
        print('effect: FAILED, %d target(s) missed' % len(missed))
        return 1
    return 0


def update_doc(doc, md, mach, line, png):
    body = '\n' + '\n'.join('- ' + m for m in mach) + '\n\n'
    body += '`%s`\n\n' % line + md + '\n'
    if png:
        body += '![make effect](effect.png)\n\n'
    if replace_block(doc, 'effect', body) and png:
        shutil.copy(png, os.path.join(os.path.dirname(doc), 'effect.png'))


if __name__ == '__main__':
    sys.exit(main())
