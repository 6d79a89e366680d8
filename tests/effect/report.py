#!/usr/bin/env python3
"""make effect, the report: read the console log that run-effect.sh kept
(lines "@@EFFECT <scenario> <run> <role> <gpuload line>" from
tests/guest/effect.sh), take each scenario's median over its runs, and write

  <dir>/runs.csv      one row per run and scenario
  <dir>/table.md      the tables in Markdown
  <dir>/effect.png    the plot (gnuplot): fps ratio per scenario, the sweep's
                      p99 latency against its bound, the live run over time

then print the tables and, last, the lines
  effect: alone=F p50_alone=Xms p99_alone=Xms contended=R,p50xL,p99xL ...
          p50_lowered=Yms
(fps alone and the foreground's latency alone; per scenario its fps ratio
to alone and its p50 and p99 latency as a multiple of alone's; the
foreground's median latency next to a hog lowered with gpunice -n 10) and
  share: fifo equal=S equal3=S n10=S idle=S raised=S starve_ms=M
         close_ms=C rr equal=S ...
(the GPU time share of the second client of each share scenario, from
the drm-engine-* busy time of its DRM file; the longest time the lowered
client was ready with no job run; how long close() of its file blocked).

The inversion rows (inversion-ref, inversion, inversion-noboost) and the
deadline row run on every boot (rr-* on the round-robin one;
dep_void_reasons(), Inversion, Deadline): the effect: line ends with
  inversion=R inversion_noboost=R deadline_ms=X deadline_max_ms=Y
(the fps of frames that depend on a producer lowered to GPU nice 10 by
in-fence, then waiting for it on the CPU, over the fps with the producer
at defaults; the slowest end of a lowered job after a deadline was set on
its fence, median over the runs, and the slowest of all), then the same
with rr-. inversion must be at least INVERSION_MIN and deadline_ms at most
the non-preemptive bound (credits x hog job + own job) + SLACK_MS; both
gate on every boot, FAIR's too.

The round-robin rows (rr-*) come from a second boot with
gpu_sched.sched_policy=0, whose console log is <dir>/rr/console.log; every
run names the policy it ran under and is void under another one.

A share run (two or three busy clients, share_void_reasons()) is void
unless every client ran without error with all its jobs on its run queue,
its fdinfo busy time was read at both ends of the window, it was
submitting over the whole window, and the engine was busy for at least
0.8 of it. Its target follows 6.12's strict priorities: clients of the
highest run queue present split the time equally (each within 15 % of
1/k), any lower one gets under 2 %.

A run is void, and reported, unless it is what its scenario says
(valid()): every foreground job armed on the expected drm_sched run queue,
and every hog job (in live, every one from the first armed on LOW on),
counted per job from simgpu's account of the run queue the entity was
really on; the hog ran without error, kept the engine busy for at least
0.8 of the time the foreground left it, and was on the engine when most
of the foreground's jobs were submitted (with no hog, none was).

With --rows WORDS (make effect's EFFECT_ROWS, EFFECT_LINES, EFFECT_BOOTS:
a quick run), only the rows whose name, without rr-, starts with one of
the words are judged and shown, the boots that did not run are skipped,
and --doc is left alone.

With --doc FILE, the text between "<!-- effect:begin -->" and
"<!-- effect:end -->" of FILE is replaced and the plot copied next to it as
effect.png, only if every run was valid and every target met.

With --line LABEL=DIR (make effect's 7.3 line, LABEL 7.3), the rows of
another kernel line join every table, under the first column "line": its
default boot (DIR/console.log, FIFO) and its FAIR boot
(DIR/fair/console.log, gpu_sched.sched_policy=2, every scenario again).
Under FAIR there is one run queue (simgpu's index 0): a run is valid if
every job was on it and armed at the priority its scenario says (the
priority is the entity's weight there, vruntime_shift[] of sched_rq.c),
and a share's prediction is those weights (2^-shift, normalised). The
targets are 6.12 FIFO's: on another line they are only reported, and its
void runs are reported without failing; the document is updated only if
every line's runs were valid.

usage: report.py <result dir> [--line LABEL=DIR] [--doc docs/EFFECT.md]
                 [--allow-missed]
Exit status 1 if results are missing, a run is void or a target was
missed (of <result dir>); with --allow-missed (make effect
EFFECT_ALLOW_MISSED=1, for exploration) a missed target is reported
without failing, and the document is still left alone.
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
    # The round-robin boot (gpu_sched.sched_policy=0).
    ('rr-alone', 'no hog; round robin', None),
    ('rr-contended', 'hog (4 ms jobs, depth 4) at default priorities; '
     'round robin', None),
    ('rr-gpunice10', 'hog started with gpunice -n 10; round robin',
     ('>=', 0.95)),
]
# The hog's queue depth swept (shorter runs), at defaults and lowered with
# gpunice -n 10; depth 4 is contended and gpunice10. Reported, no target.
DEPTHS = (2, 3, 4, 6)
DEPTH = re.compile(r'^depth(\d+)(-low)?$')
# drm_sched's sched_policy each scenario must have run under.
POLICY_NAMES = {'0': 'rr', '1': 'fifo', '2': 'fair'}
POLICY_FAIR = '2'
# The policy of the boot whose runs are being judged (not the rr-* rows):
# FIFO, or FAIR while another line's FAIR boot is (judged()).
POLICY = '1'


# The rows the others' ratios divide by, per policy.
BASES = ('alone', 'rr-alone')


def want_policy(scen):
    return '0' if scen.startswith('rr-') else POLICY


class judged:
    """with judged(policy): the runs judged are of that policy's boot."""

    def __init__(self, policy):
        self.policy = policy

    def __enter__(self):
        global POLICY
        self.saved, POLICY = POLICY, self.policy

    def __exit__(self, *exc):
        global POLICY
        POLICY = self.saved


# Share scenarios: name, setup, the run queue of each client in order (the
# first the highest). Their run-queue words and gpunice prefixes are in
# tests/guest/effect.sh's share_scenario().
# Each client 'BAND/NICE' (client_band(), client_nice()).
SHARES = [
    ('share-equal', 'two busy clients at default priorities',
     ('normal', 'normal')),
    ('share-equal3', 'three busy clients at default priorities',
     ('normal', 'normal', 'normal')),
    ('share-n10', 'a client at defaults and one started with gpunice -n 10',
     ('normal', 'low/10')),
    ('share-idle', 'a client at defaults and one started with gpunice -c '
     'idle', ('normal', 'low/idle')),
    ('share-raised', 'a client started by root with gpunice -n -5 and one '
     'at defaults', ('high/-5', 'normal')),
    ('share-close', 'as share-n10; after the window the lowered client '
     'closes its DRM file, the other stops 3 s later', ('normal', 'low/10')),
    ('share-n1', 'a client at defaults and one started with gpunice -n 1',
     ('normal', 'low/1')),
    ('share-n19', 'a client at defaults and one started with gpunice -n 19',
     ('normal', 'low/19')),
    ('share-cpunice10', 'a client at defaults and one at CPU nice 10, its '
     'GPU priority unset (it follows)', ('normal', 'low/10')),
    # Submit/wait: the lowered client waits for each job before the next.
    ('share-n10-sync', 'a client at defaults and one started with gpunice '
     '-n 10 that waits for each job before the next', ('normal', 'low/10')),
    ('share-idle-sync', 'a client at defaults and one started with gpunice '
     '-c idle that waits for each job before the next',
     ('normal', 'low/idle')),
]
# A graded step run under FAIR only (tests/guest/effect.sh): under strict
# priorities every positive nice is LOW, as share-n1, n10 and n19 show.
FAIR_SHARES = [
    ('share-n5', 'a client at defaults and one started with gpunice -n 5',
     ('normal', 'low/5'))]
SHARE_SETS = (('fifo', ''), ('rr', 'rr-'))
# The engine must be this busy over a share window (as a hog must be next
# to the foreground: the guest stalls now and then on a loaded host); an
# equal share within this of 1/k. Under FIFO and round robin a lower run
# queue gets a job at least every DRM_SCHED_STARVE_MS (200 ms): its share
# at least SHARE_LOW_MIN and under SHARE_LOW_MAX (the order still holds),
# its longest wait for a job and for a fence under STARVE_MS (IDLE_STARVE_MS
# for the idle class), and close() of its file with jobs queued within
# STARVE_MS per job queued. Under FAIR the idle class's share is above 0
# and under SHARE_IDLE_MAX.
SHARE_BUSY_MIN = 0.8
SHARE_EQUAL_TOL = 0.15
SHARE_LOW_MIN = 0.01
SHARE_LOW_MAX = 0.05
SHARE_IDLE_MAX = 0.02
STARVE_MS = 250
IDLE_STARVE_MS = 1000
# The lowered client's queue: jobs pending when it closes its file.
SHARE_DEPTH = 4
# The share clients' jobs and simgpu's credit limit (tests/guest/effect.sh).
SHARE_JOB_MS = 4
SHARE_CREDITS = 2
# Under FAIR no ready client waits longer than this for a job, unless its
# weight ratio times its job says it must (fair_gap_ms()): then within
# that bound and this much room for the host.
FAIR_STARVE_MS = 100
FAIR_GAP_ROOM = 1.25
RQ_RANK = {'kernel': 0, 'high': 1, 'normal': 2, 'low': 3}
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
# A quick run's rows (--rows, make effect EFFECT_ROWS): the words a row's
# name, without rr-, starts with; None for every row.
ROWS = None


def selected(name):
    """Is a row judged and shown: every one, or in a quick run those of
    --rows."""
    if ROWS is None:
        return True
    base = name[3:] if name.startswith('rr-') else name
    return any(base.startswith(w) for w in ROWS)


def kv(text):
    return dict(KV.findall(text))


def load(results):
    """{scenario: {run: record}}, guest info, errors: of the default boot's
    console log and, if there, the round-robin boot's (info keys of the
    latter prefixed rr_)."""
    runs, info, errors = {}, {}, []
    load_log(os.path.join(results, 'console.log'), runs, info, errors, '')
    rr = os.path.join(results, 'rr', 'console.log')
    if os.path.exists(rr):
        load_log(rr, runs, info, errors, 'rr_')
    return runs, info, errors


CLIENT = re.compile(r'^c(\d+)$')


def load_log(path, runs, info, errors, prefix):
    with open(path, errors='replace') as fp:
        for raw in fp:
            line = raw.replace('\r', '').rstrip('\n')
            if line.startswith('@@EFFECT info '):
                key, _, val = line[len('@@EFFECT info '):].partition(' ')
                info[prefix + key] = val
                continue
            if line.startswith('@@EFFECT error '):
                errors.append(prefix + line[len('@@EFFECT error '):])
                continue
            m = LINE.match(line)
            if not m or m.group(1) == 'progress':
                continue
            scen, run, role, rest = m.groups()
            rec = runs.setdefault(scen, {}).setdefault(run, {
                'fg': None, 'hog': None, 'seconds': [], 'marks': [],
                'changes': [], 'want': None, 'stderr': [],
                'window': None, 'busy': {}, 'clients': {}})
            c = CLIENT.match(role)
            if role == 'want':
                rec['want'] = kv(rest)
            elif role == 'window':
                rec['window'] = kv(rest)
            elif role == 'busy':
                b = kv(rest)
                rec['busy'][b.get('client')] = b
            elif role == 'depth':
                rec['depth'] = rest
            elif c:
                cl = rec['clients'].setdefault(c.group(1), {
                    'res': None, 'changes': []})
                if rest.startswith('mode='):
                    cl['res'] = kv(rest)
                elif ' rq=' in rest:
                    cl['changes'].append(kv(rest))
                else:
                    rec['stderr'].append(rest)
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


def host_info(results):
    host = {}
    path = os.path.join(results, 'host-info')
    if os.path.exists(path):
        with open(path) as fp:
            for line in fp:
                k, _, v = line.rstrip('\n').partition(' ')
                host[k] = v
    return host


def nice_counts(res, prefix=''):
    """{GPU nice: jobs armed at it} from gpuload's nice_jobs=NICE:N,...
    (simgpu's drm_simgpu_submit.nice, 'idle' for the idle class)."""
    out = {}
    for part in res.get(prefix + 'nice_jobs', '-').split(','):
        nice, _, n = part.rpartition(':')
        if nice:
            out[nice] = int(n)
    return out


def nice_lowers(nice):
    """A nice that weighs an entity below nice 0 under FAIR."""
    return nice == 'idle' or (nice.isdigit() and int(nice) > 0)


def rq_counts(res, prefix='', bands=True):
    """{run queue: jobs armed on it} from a gpuload result line. Under
    FAIR every entity is on the one run queue (index 0, named kernel) and
    its priority and GPU nice are its weight: {priority armed: jobs}, the
    jobs that were on another run queue under "not-rq0", which no want
    matches. With bands, the jobs armed at a positive nice or idle count
    as low: the series gives a lowered task NORMAL and its nice under FAIR
    (drm_sched_entity_refresh_gpuprio()), where FIFO gives LOW."""
    rq = {q: int(res.get('%srq_%s' % (prefix, q), 0)) for q in RQS}
    if POLICY != POLICY_FAIR:
        return rq
    pr = {q: int(res.get('%spr_%s' % (prefix, q), 0)) for q in RQS}
    off = sum(rq.values()) - rq['kernel']
    if off:
        pr['not-rq0'] = off
    if bands:
        # Only NORMAL's jobs can be the lowered ones (the series never
        # gives another priority a positive nice).
        lowered = min(pr['normal'], sum(
            n for nice, n in nice_counts(res, prefix).items()
            if nice_lowers(nice)))
        pr['normal'] -= lowered
        pr['low'] += lowered
    return pr


def change_q(change):
    """The run queue a hog's change line names; under FAIR its priority,
    low for a positive nice or idle (as rq_counts())."""
    if POLICY != POLICY_FAIR:
        return change.get('rq')
    if change.get('prio') == 'normal' and nice_lowers(change.get('nice',
                                                                 '0')):
        return 'low'
    return change.get('prio')


def void_reasons(scen, rec):
    """Why a run does not show what its scenario says; [] if it does."""
    fg, want = rec['fg'], rec['want']
    if fg is None:
        return ['no result']
    if want is None:
        return ['no expectation']
    why = []
    pol = want.get('policy')
    if pol != want_policy(scen):
        why.append('ran under sched_policy=%s, want %s' % (
            pol, want_policy(scen)))
    mode = MODES.get(scen, 'frame')
    if fg.get('mode') != mode:
        why.append('fg ran mode=%s, want %s' % (fg.get('mode'), mode))
    # The foreground: every job on its run queue.
    fgq = rq_counts(fg)
    frames = int(fg.get('frames', 0))
    if not frames or fgq.get(want['fg']) != frames or \
            sum(fgq.values()) != frames:
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
    d = DEPTH.match(scen)
    depth = d.group(1) if d else '4'
    if not tabs and hog.get('depth') != depth:
        why.append('hog depth=%s, want %s' % (hog.get('depth'), depth))
    hogq = rq_counts(hog, prefix)
    jobs = sum(hogq.values())
    if scen == 'live':
        # At defaults first, then, from the first job armed on LOW on,
        # every job on LOW: the run queues in the order they changed.
        seq = [change_q(c) for c in rec['changes']]
        if seq != ['normal', want['hog']]:
            why.append('hog run queues in order %s, want normal then all '
                       'on %s' % ('-'.join(seq) or 'none', want['hog']))
    elif not jobs or hogq.get(want['hog']) != jobs:
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
            if change_q(c) == 'low']
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
        self.p50x = self.p99x = None
        self.policies = sorted({POLICY_NAMES.get(r['want'].get('policy'),
                                                 '?') for r in self.recs})

    def set_base(self, base, alone=None):
        """base: the fps alone; alone: the Scenario alone, whose median
        latencies the latency ratios divide by."""
        if base and self.fps:
            self.ratio = med(self.fps) / base
            self.ratios = [f / base for f in self.fps]
        if alone is not None and alone.p50 and self.p50:
            self.p50x = med(self.p50) / med(alone.p50)
            self.p99x = med(self.p99) / med(alone.p99)

    def verdict(self):
        if self.ratio is None:
            return 'n/a (no valid run)'
        if not self.target:
            return 'reported' if self.name not in BASES else ''
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
                fg[q] = fg.get(q, 0) + n
            tabs = 'bg_jobs' in r['fg']
            h = r['fg'] if tabs else r['hog']
            if h:
                for q, n in rq_counts(h, 'bg_' if tabs else '').items():
                    hog[q] = hog.get(q, 0) + n
        return '%s / %s' % (fmt_rq(fg), fmt_rq(hog) if any(hog.values())
                            else '-')


HEAD = ['scenario', 'policy', 'setup', 'runs', 'fps', 'fps min-max',
        'ratio', 'ratio min-max', 'p50 ms', 'p99 ms', 'p50 x alone',
        'p99 x alone', 'missed/run', 'jobs per drm_sched run queue fg / hog',
        'target', 'verdict']


def xfmt(v):
    return '%.2f' % v if v is not None else '-'


def scenario_rows(scens):
    rows = []
    for s in scens:
        what = s.what
        if s.acts:
            what += ' (acted after %.1f ms, %s)' % (
                med(s.acts), spread(s.acts) + ' ms')
        rows.append([
            s.name, ','.join(s.policies) or '-', what, '%d' % len(s.recs),
            '%.2f' % med(s.fps) if s.fps else '-', spread(s.fps),
            '%.3f' % s.ratio if s.ratio is not None else '-',
            spread(s.ratios, '%.3f') if s.name not in BASES else '-',
            '%.2f' % med(s.p50) if s.p50 else '-',
            '%.2f' % med(s.p99) if s.p99 else '-',
            xfmt(s.p50x), xfmt(s.p99x),
            '%g' % med(s.missed) if s.missed else '-',
            s.jobs_on(),
            '%s %.2f' % s.target if s.target else '',
            s.verdict()])
    return rows


SWEEP_HEAD = ['hog job ms', 'credits',
              'bound ms ((credits + 1) x hog job + 2)',
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
        # The lowered hog's in-flight jobs, and the one job the
        # starvation bound lets through ahead of a queued foreground job
        # every DRM_SCHED_STARVE_MS (FIFO, round robin).
        bound = (credits + 1) * job + 2.0
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


def effect_line(scens, deps=()):
    """fps alone and its latency, then per scenario the fps ratio and the
    latency as a multiple of alone's (p50, p99): a lowered hog keeps the
    fps, not the foreground's latency alone; then the inversion and
    deadline rows' figures (dep_keys())."""
    by = {s.name: s for s in scens}
    alone = by['alone']
    parts = ['alone=%s' % ('%.1f' % med(alone.fps) if alone.fps else 'n/a')]
    for key, v in (('p50_alone', alone.p50), ('p99_alone', alone.p99)):
        parts.append('%s=%s' % (key, '%.2fms' % med(v) if v else 'n/a'))
    for name, _, _ in SCENARIOS:
        s = by.get(name)
        if s is None or name in ('alone', 'rr-alone'):
            continue
        part = '%s=%s' % (name, '%.2f' % s.ratio if s.ratio is not None
                          else 'n/a')
        if s.p50x is not None:
            part += ',p50x%.1f,p99x%.1f' % (s.p50x, s.p99x)
        parts.append(part)
    p50 = by['gpunice10'].p50
    parts.append('p50_lowered=%s' % ('%.2fms' % med(p50) if p50 else 'n/a'))
    parts += dep_keys(deps)
    return 'effect: ' + ' '.join(parts)


# --- the hog-depth sweep ---------------------------------------------------

DEPTH_HEAD = ['hog depth', 'runs default / lowered', 'default: fps ratio',
              'p50 x alone', 'p99 x alone', 'lowered (gpunice -n 10): '
              'fps ratio', 'p50 x alone', 'p99 x alone']


def depth_scens(runs, base, alone, by):
    """{(depth, lowered): Scenario}; depth 4 is contended and gpunice10."""
    out = {}
    for d in DEPTHS:
        for low in (False, True):
            if d == 4:
                out[(d, low)] = by['gpunice10' if low else 'contended']
                continue
            name = 'depth%d%s' % (d, '-low' if low else '')
            sc = Scenario(name, '', None, runs.get(name, {}).values())
            sc.set_base(base, alone)
            out[(d, low)] = sc
    return out


def depth_rows(ds):
    rows = []
    for d in DEPTHS:
        a, b = ds[(d, False)], ds[(d, True)]
        rows.append(['%d' % d, '%d / %d' % (len(a.recs), len(b.recs))] + [
            '%.3f' % x.ratio if x.ratio is not None else '-' for x in (a,)] +
            [xfmt(a.p50x), xfmt(a.p99x)] +
            ['%.3f' % b.ratio if b.ratio is not None else '-',
             xfmt(b.p50x), xfmt(b.p99x)])
    return rows


# --- shares between busy clients -------------------------------------------

# sched_rq.c's vruntime_shift[] on the 7.3 line: under FAIR an entity's
# virtual runtime grows by its GPU time shifted left by its priority's,
# then times 1.25^nice (the series' graded weights, patch 0003): the idle
# class as nice 26, a negative nice only above NORMAL.
FAIR_SHIFT = {'kernel': 1, 'high': 2, 'normal': 4, 'low': 7}
FAIR_NICE_STEP = 1.25
FAIR_NICE_IDLE = 26
# The lowest nice that still raises a HIGH entity (DRM_SCHED_NICE_HIGH_MIN
# of sched_rq.c): no nice lifts it to KERNEL's weight.
FAIR_NICE_HIGH_MIN = -3


def client_band(c):
    """A share client is 'BAND' or 'BAND/NICE': its band (the run queue
    under FIFO and round robin) and the GPU nice it sets (default 0)."""
    return c.partition('/')[0]


def client_nice(c):
    return c.partition('/')[2] or '0'


def fair_prio(c):
    """The drm_sched priority a client's entity gets under FAIR: HIGH for
    the high band, NORMAL for any other (its nice weighs it)."""
    return 'high' if client_band(c) in ('kernel', 'high') else 'normal'


def fair_weight(c):
    prio, nice = fair_prio(c), client_nice(c)
    n = FAIR_NICE_IDLE if nice == 'idle' else int(nice)
    if n < 0 and prio == 'normal':
        n = 0
    n = max(n, FAIR_NICE_HIGH_MIN)
    return 2.0 ** -FAIR_SHIFT[prio] * FAIR_NICE_STEP ** -n


def predicted_shares(clients):
    """6.12's strict priorities: the clients of the highest run queue
    present split the engine equally, any other gets nothing while they
    stay ready (FIFO and round robin only order one run queue). Under FAIR
    (7.3): shares in the ratio of the weights, vruntime being kept
    level."""
    if POLICY == POLICY_FAIR:
        w = [fair_weight(c) for c in clients]
        return [x / sum(w) for x in w]
    rank = [RQ_RANK[client_band(c)] for c in clients]
    k = rank.count(min(rank))
    return [1.0 / k if r == min(rank) else 0.0 for r in rank]


def fair_gap_ms(clients, i, job_ms, credits):
    """Under FAIR, how long client i, always ready, can wait for a job.
    The run queue charges an entity's GPU time when it next pops a job of
    it, from the time of the jobs that ended by then: so the entity can get
    up to credits jobs to the engine before the first is charged, and then
    waits while the others run the weighted time of all of them (their
    weights over its, times its jobs), behind up to credits jobs already
    handed to the engine."""
    w = [fair_weight(c) for c in clients]
    return credits * job_ms * ((sum(w) - w[i]) / w[i] + 1)


def num(v):
    try:
        return int(v)
    except (TypeError, ValueError):
        return None


def share_void_reasons(scen, rec, rqs):
    """Why a share run does not show what it says; [] if it does: every
    job of a client on its run queue (under FAIR: at its priority) and at
    its GPU nice (0 under FIFO and round robin, which never set one)."""
    why = []
    win = rec.get('window')
    if not win:
        return ['no window']
    if win.get('policy') != want_policy(scen):
        why.append('ran under sched_policy=%s, want %s' % (
            win.get('policy'), want_policy(scen)))
    t0, t1 = num(win.get('t0_ns')), num(win.get('t1_ns'))
    if t0 is None or t1 is None or t1 <= t0:
        return why + ['no window times']
    if win.get('clients') != str(len(rqs)) or \
            len(rec['clients']) != len(rqs):
        why.append('%s clients, want %d' % (len(rec['clients']), len(rqs)))
    total = 0
    for i, q in enumerate(rqs):
        cl = rec['clients'].get(str(i))
        res = cl and cl['res']
        if not res:
            why.append('client %d: no result' % i)
            continue
        if res.get('mode') != 'hog' or res.get('error') != '0':
            why.append('client %d: mode=%s error=%s' % (
                i, res.get('mode'), res.get('error')))
        if res.get('job_ms') != str(SHARE_JOB_MS):
            why.append('client %d: job_ms=%s, want %d' % (
                i, res.get('job_ms'), SHARE_JOB_MS))
        cq = rq_counts(res, bands=False)
        jobs = sum(cq.values())
        wq = fair_prio(q) if POLICY == POLICY_FAIR else client_band(q)
        if not jobs or cq.get(wq) != jobs:
            why.append('client %d: jobs per run queue %s, want all on %s'
                       % (i, fmt_rq(cq), wq))
        nc = nice_counts(res)
        wn = client_nice(q) if POLICY == POLICY_FAIR else '0'
        if nc.get(wn) != jobs:
            why.append('client %d: jobs per GPU nice %s, want all %d at %s'
                       % (i, fmt_rq(nc), jobs, wn))
        start, stop = num(res.get('start_ns')), num(res.get('stop_ns'))
        if start is None or stop is None or start > t0 or stop < t1:
            why.append('client %d: submitting from %s to %s ns, not over '
                       'the window %d-%d' % (i, start, stop, t0, t1))
        b = rec['busy'].get(str(i), {})
        b0, b1 = num(b.get('b0')), num(b.get('b1'))
        if b0 is None or b1 is None or b1 < b0:
            why.append('client %d: no drm-engine busy time in its fdinfo '
                       '(b0=%s b1=%s)' % (i, b.get('b0'), b.get('b1')))
        else:
            total += b1 - b0
    busy = total / (t1 - t0)
    if busy < SHARE_BUSY_MIN:
        why.append('engine busy %.3f of the window, under %.1f' % (
            busy, SHARE_BUSY_MIN))
    if scen.endswith('share-close'):
        res = (rec['clients'].get('1') or {}).get('res') or {}
        if 'close_ms' not in res:
            why.append('the lowered client did not close its file')
    return why


def run_shares(rec, n):
    """Each client's share of the busy time the window's clients had."""
    d = []
    for i in range(n):
        b = rec['busy'][str(i)]
        d.append(int(b['b1']) - int(b['b0']))
    total = sum(d)
    return [x / total for x in d]


class Share:
    def __init__(self, name, what, rqs, recs):
        self.name, self.what, self.rqs = name, what, rqs
        recs = list(recs)
        self.recs = [r for r in recs if not share_void_reasons(name, r, rqs)]
        self.bad = len(recs) - len(self.recs)
        self.predicted = predicted_shares(rqs)
        self.shares = [run_shares(r, len(rqs)) for r in self.recs]
        self.policies = sorted({POLICY_NAMES.get(r['window'].get('policy'),
                                                 '?') for r in self.recs})
        top = [i for i, p in enumerate(self.predicted) if p > 0]
        low = [i for i, p in enumerate(self.predicted) if not p]
        self.gap_bound = None
        if POLICY == POLICY_FAIR:
            # Every client has a share: the lowest one waits longest.
            lo = min(self.predicted)
            top = [self.predicted.index(max(self.predicted))]
            low = [self.predicted.index(lo)]
            self.gap_bound = max(
                fair_gap_ms(rqs, i, SHARE_JOB_MS, SHARE_CREDITS)
                for i in range(len(rqs)))
        # The starved client (the first lower one): its longest gap and
        # the time the higher one (client 0) was submitting.
        self.starve, self.high_ms, self.wait, self.close = [], [], [], []
        self.close_after = []
        for r in self.recs:
            if not low:
                break
            res = r['clients'][str(low[0])]['res']
            # A client that closed its file at the mark never waited for
            # its starved jobs: its longest gap is not known.
            if POLICY == POLICY_FAIR:
                # Under FAIR no client is starved by rule: the longest
                # gap of any of them.
                self.starve.append(max(
                    float(c['res'].get('max_gap_ms', 'nan'))
                    for c in r['clients'].values()
                    if 'close_ms' not in c['res']))
            elif 'close_ms' not in res:
                self.starve.append(float(res.get('max_gap_ms', 'nan')))
            self.wait.append(float(res.get('max_wait_ms', 'nan')))
            hi = r['clients'][str(top[0])]['res']
            self.high_ms.append((int(hi['stop_ns']) - int(hi['start_ns']))
                                / 1e6)
            if 'close_ms' in res:
                self.close.append(float(res['close_ms']))
                # close() returned this long after the other client was
                # told to stop
                self.close_after.append(
                    (int(res['mark_ns']) + float(res['close_ms']) * 1e6 -
                     int(r['window']['stop_ns'])) / 1e6)

    def med_shares(self):
        if not self.shares:
            return None
        return [med([s[i] for s in self.shares])
                for i in range(len(self.rqs))]

    def idle(self):
        return any(client_nice(c) == 'idle' for c in self.rqs)

    def ratio(self):
        """Under FAIR, two clients: their measured share ratio over the
        ratio of their weights."""
        m = self.med_shares()
        if not m or len(m) != 2 or not m[1]:
            return None
        p = self.predicted
        return (m[0] / m[1]) / (p[0] / p[1])

    def starve_limit(self):
        """Under FAIR: FAIR_STARVE_MS, or where the weights themselves make
        a client wait longer (gap_bound), that bound with room for the
        host."""
        if self.gap_bound <= FAIR_STARVE_MS:
            return FAIR_STARVE_MS
        return self.gap_bound * FAIR_GAP_ROOM

    def fair_verdict(self, m):
        if self.starve and med(self.starve) > self.starve_limit():
            return 'MISSED'
        if self.idle():
            return 'met' if 0 < m[-1] < SHARE_IDLE_MAX else 'MISSED'
        if len(m) == 2:
            r = self.ratio()
            ok = r is not None and abs(r - 1) <= SHARE_EQUAL_TOL
            return 'met' if ok else 'MISSED'
        for got, want in zip(m, self.predicted):
            if abs(got / want - 1) > SHARE_EQUAL_TOL:
                return 'MISSED'
        return 'met'

    def wait_limit(self):
        """Under FIFO and round robin: how long the lower client may wait
        for a job, and for one of its fences."""
        return IDLE_STARVE_MS if self.idle() else STARVE_MS

    def verdict(self):
        m = self.med_shares()
        if m is None:
            return 'n/a (no valid run)'
        if POLICY == POLICY_FAIR:
            return self.fair_verdict(m)
        for got, want in zip(m, self.predicted):
            if want and abs(got / want - 1) > SHARE_EQUAL_TOL:
                return 'MISSED'
            if not want and not SHARE_LOW_MIN <= got < SHARE_LOW_MAX:
                return 'MISSED'
        lim = self.wait_limit()
        if self.starve and med(self.starve) > lim:
            return 'MISSED'
        if self.wait and med(self.wait) > lim:
            return 'MISSED'
        if self.close and med(self.close) > SHARE_DEPTH * lim:
            return 'MISSED'
        return 'met'

    def target(self):
        parts = []
        if POLICY == POLICY_FAIR:
            tol = round(SHARE_EQUAL_TOL * 100)
            if self.idle():
                parts.append('idle share above 0 and under %g %%' % (
                    SHARE_IDLE_MAX * 100))
            elif len(self.rqs) == 2:
                parts.append('share ratio within %d %% of the weight '
                             'ratio' % tol)
            else:
                parts.append('each share within %d %% of its weight' % tol)
            lim = self.starve_limit()
            parts.append('longest gap <= %.0f ms%s' % (
                lim, '' if lim == FAIR_STARVE_MS else
                ' (%.0f ms by the weights, +%d %%; %d ms cannot hold)' % (
                    self.gap_bound, round((FAIR_GAP_ROOM - 1) * 100),
                    FAIR_STARVE_MS)))
            return ', '.join(parts)
        if sum(1 for p in self.predicted if p) > 1:
            parts.append('equal within %d %%' % round(SHARE_EQUAL_TOL * 100))
        if any(not p for p in self.predicted):
            lim = self.wait_limit()
            parts.append('lower %g to %g %%, its longest gap and fence '
                         'wait <= %d ms' % (SHARE_LOW_MIN * 100,
                                            SHARE_LOW_MAX * 100, lim))
            if self.close:
                parts.append('close() <= %d ms' % (SHARE_DEPTH * lim))
        return ', '.join(parts)


SHARE_HEAD = ['scenario', 'policy', 'setup (clients in order, run queue)',
              'runs', 'GPU time share per client', 'min-max',
              'predicted (strict priority; FAIR: weights)',
              'starved ms (longest gap of the lower client)',
              'higher client busy ms',
              'fence wait max ms', 'close() ms (after the higher stopped)',
              'target', 'verdict']


def share_list(runs, rr=True):
    out = []
    for pol, prefix in SHARE_SETS:
        if pol == 'rr' and not rr:
            continue
        graded = FAIR_SHARES if POLICY == POLICY_FAIR and not prefix else []
        for name, what, rqs in SHARES + graded:
            if pol == 'rr' and name == 'share-close':
                continue
            name = prefix + name
            out.append(Share(name, what, rqs, runs.get(name, {}).values()))
    return out


def share_rows(shares):
    rows = []
    for s in shares:
        m = s.med_shares()
        rng = ' / '.join(spread([x[i] for x in s.shares], '%.3f')
                         for i in range(len(s.rqs))) if s.shares else '-'
        rows.append([
            s.name, ','.join(s.policies) or '-',
            '%s (%s)' % (s.what, ', '.join(s.rqs)), '%d' % len(s.recs),
            ' / '.join('%.3f' % x for x in m) if m else '-', rng,
            ' / '.join('%.3f' % x for x in s.predicted),
            '%.0f' % med(s.starve) if s.starve else '-',
            '%.0f' % med(s.high_ms) if s.high_ms else '-',
            '%.0f' % med(s.wait) if s.wait else '-',
            '%.0f (%+.0f)' % (med(s.close), med(s.close_after))
            if s.close else '-',
            s.target(), s.verdict()])
    return rows


# The figure of each share scenario on the share: line: its second client.
SHARE_KEYS = (('equal', 'share-equal'), ('equal3', 'share-equal3'),
              ('n1', 'share-n1'), ('n10', 'share-n10'),
              ('n19', 'share-n19'), ('cpunice10', 'share-cpunice10'),
              ('idle', 'share-idle'), ('n10sync', 'share-n10-sync'),
              ('idlesync', 'share-idle-sync'), ('raised', 'share-raised'))


# FAIR's figures on the share: line: each graded row's measured ratio over
# the weight ratio; for idle its share over its weight's.
FAIR_KEYS = (('n1', 'share-n1'), ('n5', 'share-n5'), ('n10', 'share-n10'),
             ('n19', 'share-n19'), ('cpunice10', 'share-cpunice10'),
             ('idle', 'share-idle'), ('n10sync', 'share-n10-sync'),
             ('idlesync', 'share-idle-sync'), ('raised', 'share-raised'))


def fair_share_line(by):
    parts = ['fair']
    for key, name in FAIR_KEYS:
        s = by.get(name)
        m = s.med_shares() if s else None
        if not m:
            parts.append('%s=n/a' % key)
        elif s.idle():
            parts.append('%s=%.2f' % (key, m[-1] / s.predicted[-1]))
        else:
            parts.append('%s=%.2f' % (key, s.ratio()))
    # The longest wait where the weights allow FAIR_STARVE_MS, then the
    # rows whose weights make it longer.
    gaps = [med(s.starve) for s in by.values()
            if s.starve and s.starve_limit() == FAIR_STARVE_MS]
    parts.append('starve_ms=%s' % ('%.0f' % max(gaps) if gaps else 'n/a'))
    for key, name in (('n19', 'share-n19'), ('idle', 'share-idle')):
        s = by.get(name)
        parts.append('%s_gap_ms=%s' % (key, '%.0f' % med(s.starve)
                                       if s and s.starve else 'n/a'))
    return 'share: ' + ' '.join(parts)


def share_line(shares):
    by = {s.name: s for s in shares}
    if POLICY == POLICY_FAIR:
        return fair_share_line(by)
    parts = []
    for pol, prefix in SHARE_SETS:
        if prefix + 'share-equal' not in by:
            continue
        # The default boot's set is named by its policy (fifo, or fair).
        parts.append(pol if prefix else POLICY_NAMES[POLICY])
        for key, name in SHARE_KEYS:
            s = by.get(prefix + name)
            m = s.med_shares() if s else None
            parts.append('%s=%s' % (key, '%.2f' % m[-1] if m else 'n/a'))
        # The longest wait of a lowered client for a job, and for one of
        # its fences, over the rows of a positive nice, then the idle
        # class's.
        for key, idle in (('starve_ms', False), ('idle_starve_ms', True)):
            rows = [s for n, s in by.items()
                    if n.startswith(prefix + 'share-') and s.idle() == idle
                    and any(not p for p in s.predicted)
                    and 'raised' not in n]
            gaps = [med(s.starve) for s in rows if s.starve]
            waits = [med(s.wait) for s in rows if s.wait]
            parts.append('%s=%s' % (key, '%.0f' % max(gaps) if gaps
                                    else 'n/a'))
            parts.append('%s=%s' % (key.replace('starve', 'wait'),
                                    '%.0f' % max(waits) if waits
                                    else 'n/a'))
        if not prefix:
            cl = by.get('share-close')
            parts.append('close_ms=%s' % ('%.0f' % med(cl.close)
                                          if cl and cl.close else 'n/a'))
    return 'share: ' + ' '.join(parts)


# --- priority inversion and fence deadlines (issue 40) ---------------------

# The rows of tests/guest/effect.sh, on every boot (rr-* on the round-robin
# one). inversion-ref: the foreground's frames each depend on a producer's
# small job, producer at defaults; inversion: the producer lowered (GPU nice
# 10), the frame's job taking its out-fence as in-fence, a dependency
# drm_sched knows of; inversion-noboost: the producer lowered, the
# foreground waiting for its fence on the CPU before it submits, so that no
# boost along a dependency can apply. The hog at defaults beside them.
INVERSION = ('inversion-ref', 'inversion', 'inversion-noboost')
# What each row's gpuload must have run, --dep.
INVERSION_DEP = {'inversion-ref': 'fence', 'inversion': 'fence',
                 'inversion-noboost': 'cpu'}
# The lowered producer with the in-fence keeps this much of the reference's
# fps (the fps alone being a frame's met share of 60).
INVERSION_MIN = 0.95
# deadline: a lowered client's job (GPU nice 10) while the hog keeps the
# engine busy; 20 ms after its submission (every hog job queued before it
# has been handed to the engine by then) a waiter at defaults sets a
# deadline on its out-fence. The bound: once the deadline is set, the
# engine holds at most "credits" jobs already handed to it, hog jobs of
# SHARE_JOB_MS, which nothing preempts; if the deadline makes the job the
# next one the scheduler takes, it starts when they end and ends its own
# duration later: credits x hog job + own job (2 x 4 + 2 = 10 ms), plus
# SLACK_MS for the host's timers, as the sweep. Each run repeats it about
# every 250 ms; its figure is its slowest sample (from just before the
# deadline was set to the job's end on the engine), the row's the median
# of the runs' figures, with the slowest of all beside it.
DEADLINE = 'deadline'
DEADLINE_MIN_SAMPLES = 5
# The deadline must have had something to do: the job not yet started
# when it was set, in at least this fraction of the samples, under FIFO
# and round robin (strict run queues, where a lowered job waits up to
# DRM_SCHED_STARVE_MS). Under FAIR a lowered client's lone job is taken as
# soon as a credit frees (measured: never still waiting 20 ms after its
# submission), so the deadline has nothing to do there and the row only
# shows that it is met all the same; its held count is reported.
DEADLINE_HELD_MIN = 0.5
HOG_JOB_MS = SHARE_JOB_MS
HOG_DEPTH = '4'


def dep_base(scen):
    return scen[3:] if scen.startswith('rr-') else scen


def is_dep(scen):
    return dep_base(scen) in INVERSION + (DEADLINE,)


def hog_void_reasons(rec, want, used):
    """The hog beside a dependency row: ran without error at depth 4, every
    job on its run queue, busy for HOG_BUSY_MIN of what the measured
    clients left (used: their busy fraction)."""
    hog = rec['hog']
    if hog is None:
        return ['no hog result']
    why = []
    if hog.get('error') != '0':
        why.append('hog error=%s' % hog.get('error'))
    if hog.get('depth') != HOG_DEPTH or hog.get('driver_thread') != '0':
        why.append('hog depth=%s driver_thread=%s, want %s 0' % (
            hog.get('depth'), hog.get('driver_thread'), HOG_DEPTH))
    hogq = rq_counts(hog)
    jobs = sum(hogq.values())
    if not jobs or hogq.get(want['hog']) != jobs:
        why.append('hog jobs per run queue %s, want all on %s' % (
            fmt_rq(hogq), want['hog']))
    busy = float(hog.get('busy', 0))
    left = 1 - used
    if busy < HOG_BUSY_MIN * left:
        why.append('hog busy %.3f, under %.1f of the %.3f the others left'
                   % (busy, HOG_BUSY_MIN, left))
    return why


def dep_void_reasons(scen, rec):
    """Why an inversion or deadline run does not show what it says; [] if
    it does: the lowered client's jobs were armed on the low run queue
    (under FAIR: at its positive nice) before anything could raise them,
    the hog was busy beside them and the engine had jobs when they were
    submitted, and the dependency or the deadline really applied."""
    fg, want = rec['fg'], rec['want']
    if fg is None:
        return ['no result']
    if want is None:
        return ['no expectation']
    why = []
    if want.get('policy') != want_policy(scen):
        why.append('ran under sched_policy=%s, want %s' % (
            want.get('policy'), want_policy(scen)))
    base = dep_base(scen)
    mode = 'deadline' if base == DEADLINE else 'inversion'
    if fg.get('mode') != mode:
        return why + ['ran mode=%s, want %s' % (fg.get('mode'), mode)]
    if base == DEADLINE:
        n = int(fg.get('samples', 0))
        if n < DEADLINE_MIN_SAMPLES:
            why.append('%d samples, want at least %d' % (
                n, DEADLINE_MIN_SAMPLES))
        if fg.get('set_errors') != '0':
            why.append('SYNC_IOC_SET_DEADLINE failed %s times' %
                       fg.get('set_errors'))
        q = rq_counts(fg)
        if not n or q.get(want['prod']) != n or sum(q.values()) != n:
            why.append('the lowered client\'s jobs per run queue %s, want '
                       'all %d on %s' % (fmt_rq(q), n, want['prod']))
        if int(fg.get('contended', -1)) < CONTENDED_MIN * n:
            why.append('only %s of %d jobs submitted to a busy engine' % (
                fg.get('contended'), n))
        if want_policy(scen) != POLICY_FAIR and \
                int(fg.get('held', -1)) < DEADLINE_HELD_MIN * n:
            why.append('only %s of %d jobs still waiting when the '
                       'deadline was set' % (fg.get('held'), n))
        return why + hog_void_reasons(rec, want, float(fg.get('busy', 1)))
    if fg.get('dep') != INVERSION_DEP[base]:
        why.append('dep=%s, want %s' % (fg.get('dep'), INVERSION_DEP[base]))
    frames = int(fg.get('frames', 0))
    fgq = rq_counts(fg)
    if not frames or fgq.get(want['fg']) != frames or \
            sum(fgq.values()) != frames:
        why.append('fg jobs per run queue %s, want all %d on %s' % (
            fmt_rq(fgq), frames, want['fg']))
    pq = rq_counts(fg, 'prod_')
    if int(fg.get('prod_jobs', -1)) != frames or \
            pq.get(want['prod']) != frames or sum(pq.values()) != frames:
        why.append('producer jobs per run queue %s, want all %d on %s' % (
            fmt_rq(pq), frames, want['prod']))
    if int(fg.get('dep_ok', -1)) != frames:
        why.append('only %s of %d frames came after the producer\'s job'
                   % (fg.get('dep_ok'), frames))
    if int(fg.get('prod_contended', -1)) < CONTENDED_MIN * frames:
        why.append('only %s of %d producer jobs submitted to a busy engine'
                   % (fg.get('prod_contended'), frames))
    used = float(fg.get('busy', 1)) + float(fg.get('prod_busy', 0))
    return why + hog_void_reasons(rec, want, used)


class Inversion:
    """The three inversion rows of one boot's policy (prefix '' or 'rr-'):
    the fps ratios of the lowered producer, with the in-fence and without
    a dependency, to the reference."""

    def __init__(self, prefix, runs):
        self.prefix = prefix
        self.name = prefix + 'inversion'
        self.recs, self.fps, self.prod = {}, {}, {}
        self.bad = 0
        for row in INVERSION:
            recs = list(runs.get(prefix + row, {}).values())
            ok = [r for r in recs if not dep_void_reasons(prefix + row, r)]
            self.bad += len(recs) - len(ok)
            self.recs[row] = ok
            self.fps[row] = [float(r['fg']['fps']) for r in ok]
            self.prod[row] = [(int(r['fg']['prod_p50_us']) / 1000,
                               int(r['fg']['prod_p99_us']) / 1000)
                              for r in ok]
        self.policies = sorted({POLICY_NAMES.get(r['want'].get('policy'),
                                                 '?')
                                for rs in self.recs.values() for r in rs})
        ref = med(self.fps['inversion-ref'])
        self.ratio = self.noboost = None
        self.ratios = []
        if ref and self.fps['inversion']:
            self.ratio = med(self.fps['inversion']) / ref
            self.ratios = [f / ref for f in self.fps['inversion']]
        if ref and self.fps['inversion-noboost']:
            self.noboost = med(self.fps['inversion-noboost']) / ref

    def missing(self):
        return [self.prefix + r for r in INVERSION if not self.recs[r]]

    def verdict(self):
        if self.ratio is None or self.noboost is None:
            return 'n/a (no valid run)'
        return 'met' if self.ratio >= INVERSION_MIN else 'MISSED'

    def keys(self):
        return ['%s=%s' % (self.prefix + k, '%.2f' % v if v is not None
                           else 'n/a')
                for k, v in (('inversion', self.ratio),
                             ('inversion_noboost', self.noboost))]


class Deadline:
    """The deadline row of one boot's policy."""

    def __init__(self, prefix, runs):
        self.prefix = prefix
        self.name = prefix + DEADLINE
        recs = list(runs.get(self.name, {}).values())
        self.recs = [r for r in recs if not dep_void_reasons(self.name, r)]
        self.bad = len(recs) - len(self.recs)
        self.policies = sorted({POLICY_NAMES.get(r['want'].get('policy'),
                                                 '?') for r in self.recs})
        fg = [r['fg'] for r in self.recs]
        self.maxes = [int(f['lat_max_us']) / 1000 for f in fg]
        self.p50 = [int(f['lat_p50_us']) / 1000 for f in fg]
        self.samples = sum(int(f['samples']) for f in fg)
        self.held = sum(int(f['held']) for f in fg)
        job = [int(f['job_us']) / 1000 for f in fg]
        self.bound = SHARE_CREDITS * HOG_JOB_MS + (max(job) if job else 2)
        self.figure = med(self.maxes)
        self.max = max(self.maxes) if self.maxes else None

    def verdict(self):
        if self.figure is None:
            return 'n/a (no valid run)'
        return 'met' if self.figure <= self.bound + SLACK_MS else 'MISSED'

    def keys(self):
        return ['%s=%s' % (self.prefix + k, '%.1f' % v if v is not None
                           else 'n/a')
                for k, v in (('deadline_ms', self.figure),
                             ('deadline_max_ms', self.max))]


def dep_list(runs, rr=True):
    """The inversion and deadline rows of the boots judged: this one's, and
    the round-robin one's with rr."""
    out = []
    for prefix in ('', 'rr-') if rr else ('',):
        out += [Inversion(prefix, runs), Deadline(prefix, runs)]
    return out


INV_HEAD = ['row', 'policy', 'runs ref / in-fence / CPU wait',
            'fps ref (producer at defaults)', 'fps lowered, in-fence',
            'fps lowered, CPU wait', 'inversion = in-fence / ref',
            'min-max', 'inversion_noboost = CPU wait / ref',
            'producer latency p50 / p99 ms: ref; in-fence; CPU wait',
            'target', 'verdict']
DL_HEAD = ['row', 'policy', 'runs', 'samples (still waiting at the '
           'deadline)', 'p50 ms', 'deadline_ms (slowest per run, median)',
           'deadline_max_ms (slowest of all)', 'bound ms (credits x hog '
           'job + own job)', 'target <=', 'verdict']


def inversion_rows(deps):
    rows = []
    for d in deps:
        if not isinstance(d, Inversion):
            continue
        fps = ['%.2f' % med(d.fps[r]) if d.fps[r] else '-'
               for r in INVERSION]
        lat = '; '.join('%.1f / %.1f' % (med([x[0] for x in d.prod[r]]),
                                         med([x[1] for x in d.prod[r]]))
                        if d.prod[r] else '-' for r in INVERSION)
        rows.append([
            d.name, ','.join(d.policies) or '-',
            ' / '.join('%d' % len(d.recs[r]) for r in INVERSION)] + fps + [
            '%.3f' % d.ratio if d.ratio is not None else '-',
            spread(d.ratios, '%.3f'),
            '%.3f' % d.noboost if d.noboost is not None else '-', lat,
            'inversion >= %.2f' % INVERSION_MIN, d.verdict()])
    return rows


def deadline_rows(deps):
    rows = []
    for d in deps:
        if not isinstance(d, Deadline):
            continue
        rows.append([
            d.name, ','.join(d.policies) or '-', '%d' % len(d.recs),
            '%d (%d)' % (d.samples, d.held),
            '%.2f' % med(d.p50) if d.p50 else '-',
            '%.2f' % d.figure if d.figure is not None else '-',
            '%.2f' % d.max if d.max is not None else '-',
            '%.0f' % d.bound, '%.0f' % (d.bound + SLACK_MS), d.verdict()])
    return rows


def dep_keys(deps):
    return [k for d in deps for k in d.keys()]


def write_dep_csv(results, runs):
    with open(os.path.join(results, 'deps.csv'), 'w', newline='') as fp:
        w = csv.writer(fp)
        w.writerow(['scenario', 'run', 'valid', 'policy', 'fps', 'missed',
                    'frames', 'dep', 'dep_ok', 'prod_p50_us', 'prod_p99_us',
                    'samples', 'held', 'lat_p50_us', 'lat_max_us', 'fg_rq',
                    'prod_rq', 'hog_busy', 'void'])
        for scen in sorted(runs):
            if not is_dep(scen):
                continue
            for run, r in sorted(runs[scen].items()):
                fg, hog = r['fg'] or {}, r['hog'] or {}
                why = dep_void_reasons(scen, r)
                w.writerow([
                    scen, run, int(not why), (r['want'] or {}).get('policy'),
                    fg.get('fps'), fg.get('missed'), fg.get('frames'),
                    fg.get('dep'), fg.get('dep_ok'), fg.get('prod_p50_us'),
                    fg.get('prod_p99_us'), fg.get('samples'), fg.get('held'),
                    fg.get('lat_p50_us'), fg.get('lat_max_us'),
                    fmt_rq(rq_counts(fg)) if fg else '',
                    fmt_rq(rq_counts(fg, 'prod_')) if fg else '',
                    hog.get('busy'), '; '.join(why)])


# kernel/sched/core.c's sched_prio_to_weight[] for CPU nice 0 to 19: CFS's
# curve, beside the GPU nice weights of the plot's FAIR panel.
CFS_WEIGHT = (1024, 820, 655, 526, 423, 335, 272, 215, 172, 137, 110, 87, 70,
              56, 45, 36, 29, 23, 18, 15)
GRADED = re.compile(r'^share-n(\d+)$')


def fair_points(shares):
    """(nice, median, min, max) of the measured share ratio, nice 0 over
    nice n, of the graded rows of a FAIR boot's shares."""
    out = []
    for s in shares:
        m = GRADED.match(s.name)
        ratios = [x[0] / x[1] for x in s.shares if x[1]]
        if m and ratios:
            out.append((int(m.group(1)), med(ratios), min(ratios),
                        max(ratios)))
    return sorted(out)


def fair_panel(results, points):
    """The plot's last panel: the share ratios FAIR gave busy clients at
    GPU nice 0 and n, against the weights and CFS's."""
    data = os.path.join(results, 'fair-shares.dat')
    with open(data, 'w') as fp:
        fp.write('# nice measured min max cfs\n')
        for n, m, lo, hi in points:
            fp.write('%d %.4f %.4f %.4f %.4f\n' % (
                n, m, lo, hi, CFS_WEIGHT[0] / CFS_WEIGHT[n]))
    cfs = os.path.join(results, 'cfs.dat')
    with open(cfs, 'w') as fp:
        for n, w in enumerate(CFS_WEIGHT):
            fp.write('%d %.4f\n' % (n, CFS_WEIGHT[0] / w))
    script = [
        'set title "FAIR (7.3 line): GPU time of nice 0 over nice n, two '
        'busy clients"', 'set xlabel "GPU nice n"',
        'set ylabel "share ratio (log)"', 'set logscale y',
        'set xrange [0:20]', 'set yrange [0.8:150]', 'set key top left',
        'unset arrow 3', 'unset label 3', 'unset label 4']
    if points:
        script.append(
            "plot %g**x with lines lw 2 title '%g^n (the series)', "
            "'%s' using 1:2 with points pt 4 ps 1.2 lc rgb 'dark-gray' "
            "title 'CFS weights (CPU nice)', '%s' using 1:2:3:4 with "
            "yerrorbars pt 7 "
            "ps 1.5 lc rgb 'red' title 'measured (simgpu)'" % (
                FAIR_NICE_STEP, FAIR_NICE_STEP, cfs, data))
    else:
        script += ['set label 5 "no FAIR run" at graph 0.3, graph 0.5',
                   'plot NaN notitle']
    script.append('unset logscale y')
    return script


def plot(results, scens, cells, runs, fair=None):
    """The figure: fps ratios, the sweep, the live run, and with fair (a
    FAIR boot's share ratios, fair_points()) the graded shares."""
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
    panels = 3 if fair is None else 4
    size = '%d,480' % (500 * panels)
    term = ('set terminal pngcairo size %s font ",10"' % size
            if has_pngcairo() else 'set terminal png size %s' % size)
    script = [
        term, "set output '%s'" % png, 'set termoption noenhanced',
        'set multiplot layout 1,%d title "gpunice make effect: foreground at '
        '60 Hz with 2 ms jobs on simgpu (drm_sched), QEMU TCG; medians, bars '
        'min-max"' % panels,
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
        'set xlabel "bound = (credits + 1) x hog job + own job (ms)"',
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
    if fair is not None:
        script += fair_panel(results, fair)
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
    pol = POLICIES.get(info.get('sched_policy'),
                       info.get('sched_policy', '?'))
    rr = POLICIES.get(info.get('rr_sched_policy'),
                      info.get('rr_sched_policy', 'not booted'))
    over = alone_overhead(scens)
    return ([over] if over else []) + [
        'host: %s CPU(s), %s, load %s; %s, %s' % (
            host.get('host_nproc', '?'), host.get('host_cpu', '?'),
            host.get('host_load', '?'), host.get('qemu', '?'),
            host.get('accel', '?')),
        'guest kernel %s; clocksource %s; hrtimer resolution %s ns; '
        'drm_sched policy read in the guest: %s; rr-* rows from a second '
        'boot with gpu_sched.sched_policy=0, read back: %s' % (
            info.get('kernel', '?'), info.get('clocksource', '?'),
            info.get('hrtimer_resolution_ns', '?'), pol, rr),
        'foreground: %s; hog: %s; simgpu credit limit %s unless swept' % (
            info.get('frame', '?'), info.get('hog', '?'),
            info.get('credits_default', '?')),
        '%s rounds of %s s per run (live: 1.5 times, changed after a third);'
        ' each figure is the median over the rounds, min-max their spread;'
        ' %d runs per scenario; %s' % (
            info.get('runs', '?'), info.get('seconds', '?'), n,
            host.get('date', '')),
        'depth sweep: %s s per run; shares: %s, the window in which '
        'every client stays busy; GPU time from each client\'s fdinfo '
        'drm-engine-sim0' % (info.get('depth_seconds', '?'),
                             info.get('share', '?')),
    ]


SHARE_RQS = {prefix + name: rqs for _, prefix in SHARE_SETS
             for name, _, rqs in SHARES}
SHARE_RQS.update((name, rqs) for name, _, rqs in FAIR_SHARES)


def is_share(scen):
    return scen in SHARE_RQS


def write_share_csv(results, runs):
    with open(os.path.join(results, 'shares.csv'), 'w', newline='') as fp:
        w = csv.writer(fp)
        w.writerow(['scenario', 'run', 'valid', 'policy', 'client', 'rq',
                    'busy_ns', 'share', 'max_gap_ms', 'max_wait_ms',
                    'close_ms', 'void'])
        for scen in sorted(runs):
            if not is_share(scen):
                continue
            rqs = SHARE_RQS[scen]
            for run, r in sorted(runs[scen].items()):
                why = share_void_reasons(scen, r, rqs)
                sh = run_shares(r, len(rqs)) if not why else None
                for i, q in enumerate(rqs):
                    res = (r['clients'].get(str(i)) or {}).get('res') or {}
                    b = r['busy'].get(str(i), {})
                    w.writerow([
                        scen, run, int(not why),
                        (r['window'] or {}).get('policy'), i, q,
                        (num(b.get('b1')) or 0) - (num(b.get('b0')) or 0),
                        '%.4f' % sh[i] if sh else '', res.get('max_gap_ms'),
                        res.get('max_wait_ms'), res.get('close_ms'),
                        '; '.join(why)])


def write_csv(results, runs):
    with open(os.path.join(results, 'runs.csv'), 'w', newline='') as fp:
        w = csv.writer(fp)
        w.writerow(['scenario', 'run', 'valid', 'fps', 'after_fps',
                    'missed', 'frames', 'p50_us', 'p99_us', 'max_us',
                    'fg_rq', 'fg_contended', 'fg_busy', 'hog_rq',
                    'hog_jobs', 'hog_busy', 'act_ms', 'void'])
        for scen in sorted(runs):
            if is_share(scen) or is_dep(scen):
                continue
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


class Verdict:
    """Everything judged from the runs: the light-foreground scenarios
    (with the round-robin and depth rows), the sweep cells, the shares,
    the void or missing runs (problems) and the missed targets."""

    def __init__(self, runs, errors=(), rr=True):
        """rr: with the rr-* rows (6.12's second boot; another line's
        is FAIR's, judged on its own)."""
        self.scens = [Scenario(name, what, target,
                               runs.get(name, {}).values())
                      for name, what, target in SCENARIOS
                      if rr or not name.startswith('rr-')]
        by = {s.name: s for s in self.scens}
        self.base = med(by['alone'].fps)
        rr_base = med(by['rr-alone'].fps) if rr else None
        for s in self.scens:
            is_rr = s.name.startswith('rr-')
            s.set_base(rr_base if is_rr else self.base,
                       by['rr-alone' if is_rr else 'alone'])
        self.depths = depth_scens(runs, self.base, by['alone'], by)
        self.cells = sweep_cells(runs)
        self.shares = share_list(runs, rr)
        self.deps = dep_list(runs, rr)
        problems = list(errors)
        # The share and dependency runs' own, for a line whose shares and
        # dependency rows alone are gated (FAIR).
        self.share_problems, self.dep_problems = [], []
        for name in sorted(runs):
            if not selected(name):
                continue
            for run, r in sorted(runs[name].items()):
                if is_share(name):
                    why = share_void_reasons(name, r, SHARE_RQS[name])
                elif is_dep(name):
                    why = dep_void_reasons(name, r)
                else:
                    why = void_reasons(name, r)
                if why:
                    problems.append('%s run %s is void: %s%s' % (
                        name, run, '; '.join(why),
                        (' (' + ' '.join(r['stderr'])[:200] + ')')
                        if r['stderr'] else ''))
                    if is_share(name):
                        self.share_problems.append(problems[-1])
                    if is_dep(name):
                        self.dep_problems.append(problems[-1])
        self.share_problems += ['no valid run of: %s' % s.name
                                for s in self.shares
                                if not s.recs and selected(s.name)]
        dep_missing = [n for d in self.deps
                       for n in (d.missing() if isinstance(d, Inversion)
                                 else [d.name] if not d.recs else [])
                       if selected(n)]
        self.dep_problems += ['no valid run of: %s' % n for n in dep_missing]
        missing = [s.name for s in self.scens if s.ratio is None] + \
            ['depth%d%s' % (d, '-low' if low else '')
             for (d, low), s in sorted(self.depths.items())
             if s.ratio is None] + \
            [s.name for s in self.shares if not s.recs] + dep_missing
        missing = [n for n in missing if selected(n)]
        if any(selected('sweep-c%d-j%d' % (c, j)) for c in (1, 2)
               for j in (1, 4, 16)) and \
                (not self.cells or any(not c['p99'] for c in self.cells)):
            missing.append('a sweep cell')
        if missing:
            problems.append('no valid run of: %s' % ', '.join(missing))
        self.problems = problems
        self.dep_missed = [d.name for d in self.deps
                           if d.verdict() == 'MISSED' and selected(d.name)]
        self.missed = [s.name for s in self.scens
                       if s.verdict() == 'MISSED' and selected(s.name)] + \
            ['sweep credits %d job %d ms' % (c['credits'], c['job'])
             for c in self.cells if sweep_verdict(c) == 'MISSED' and
             selected('sweep-c%d-j%d' % (c['credits'], c['job']))] + \
            [s.name for s in self.shares
             if s.verdict() == 'MISSED' and selected(s.name)] + \
            self.dep_missed

    def tables(self):
        """The rows of each table, in a quick run only the selected."""
        def sel(rows):
            return [r for r in rows if selected(r[0])]
        depth = [r for r in depth_rows(self.depths)
                 if selected('depth' + r[0])]
        sweep = [r for r in sweep_rows(self.cells)
                 if selected('sweep-c%s-j%s' % (r[1], r[0]))]
        return (sel(scenario_rows(self.scens)), depth, sweep,
                sel(share_rows(self.shares)),
                sel(inversion_rows(self.deps)),
                sel(deadline_rows(self.deps)))


class Line:
    """Another kernel line's boots (--line LABEL=DIR): its default one
    (FIFO) with its round-robin one (DIR/rr, the rr-* rows) when there is
    one, and its FAIR one, each judged on its own, their rows labelled
    "LABEL fifo" and "LABEL fair". The FIFO and round-robin verdicts gate
    the run as this line's own do; under FAIR the shares gate (the graded
    GPU nice of issue 26) and the light-foreground rows are reported, a
    lowered hog getting its weight's share there."""

    def __init__(self, spec):
        self.label, _, self.dir = spec.partition('=')
        self.sets = []
        self.skipped = []
        for sub, pol in (('', '1'), ('fair', POLICY_FAIR)):
            name = '%s %s' % (self.label, POLICY_NAMES[pol])
            path = os.path.join(self.dir, sub, 'console.log')
            rr = os.path.join(self.dir, 'rr', 'console.log')
            has_rr = pol != POLICY_FAIR and os.path.exists(rr)
            runs, info, errors = {}, {}, []
            if os.path.exists(path):
                load_log(path, runs, info, errors, '')
            elif ROWS is not None:
                # A quick run that did not boot it.
                self.skipped.append(name)
                continue
            else:
                errors.append('no %s' % path)
            if has_rr:
                load_log(rr, runs, info, errors, 'rr_')
            fair = pol == POLICY_FAIR
            with judged(pol):
                v = Verdict(runs, errors, rr=has_rr)
                self.sets.append(dict(
                    name=name, info=info, problems=v.problems,
                    missed=v.missed, gate='shares' if fair else 'all',
                    fair=fair, shares=v.shares,
                    gated_problems=(errors + v.share_problems +
                                    v.dep_problems) if fair
                    else v.problems,
                    gated_missed=[s.name for s in v.shares
                                  if s.verdict() == 'MISSED' and
                                  selected(s.name)] + v.dep_missed if fair
                    else v.missed,
                    tables=v.tables(),
                    lines=(share_line(v.shares),
                           effect_line(v.scens, v.deps))))

    def machine(self):
        return ['%s: guest kernel %s; clocksource %s; hrtimer resolution '
                '%s ns; drm_sched policy read in the guest: %s; shares: %s; '
                '%s' % (
                    s['name'], s['info'].get('kernel', '?'),
                    s['info'].get('clocksource', '?'),
                    s['info'].get('hrtimer_resolution_ns', '?'),
                    s['info'].get('sched_policy', 'not booted'),
                    s['info'].get('share', '?'),
                    'the share targets are FAIR\'s and gate the run, the '
                    'light-foreground ones are reported'
                    if s['fair'] else 'every target gates the run')
                for s in self.sets]


def labelled(label, rows, gated=True):
    """Rows with the line first; a target missed where it is not gated is
    reported as such."""
    out = []
    for r in rows:
        r = [label] + r
        if not gated and r[-1] == 'MISSED':
            r[-1] = 'missed (reported)'
        out.append(r)
    return out


# The tables, in order (Verdict.tables()); under FAIR the shares and the
# dependency rows gate (Line).
HEADS = [HEAD, DEPTH_HEAD, SWEEP_HEAD, SHARE_HEAD, INV_HEAD, DL_HEAD]
FAIR_GATED = (3, 4, 5)


def main():
    global ROWS
    ap = report_args('make effect')
    ap.add_argument('--line', action='append', default=[],
                    metavar='NAME=FOLDER',
                    help="another kernel line's runs, reported beside")
    ap.add_argument('--rows', metavar='WORDS',
                    help='a quick run (make effect EFFECT_ROWS): judge and '
                    'show only the rows whose name, without rr-, starts '
                    'with one of these words (comma or space separated; '
                    '"all" for every row), skip the boots that did not '
                    'run, and leave the document alone')
    args = ap.parse_args()
    doc, allow_missed, results = args.doc, args.allow_missed, args.results
    partial = args.rows is not None
    if partial:
        words = args.rows.replace(',', ' ').split()
        ROWS = [''] if not words or 'all' in words else words
    lines = [Line(spec) for spec in args.line]
    if partial and not os.path.exists(os.path.join(results,
                                                   'console.log')):
        # A quick run without this line: the other lines' rows only.
        runs, info, errors = {}, {}, []
        skipped = [results]
    else:
        runs, info, errors = load(results)
        skipped = []
    skipped += [n for ln in lines for n in ln.skipped]
    host = host_info(results)
    v = Verdict(runs, errors)
    if partial and not runs:
        # Not booted: none of its rows is judged.
        v.problems, v.missed = [], []
    scens, cells = v.scens, v.cells
    if not skipped or runs:
        write_csv(results, runs)
        write_share_csv(results, runs)
        write_dep_csv(results, runs)

    # This line's rows, then the other lines' (the column "line").
    label = info.get('kernel', '?').split('-')[0].rsplit('.', 1)[0] \
        if lines else None
    tables = list(v.tables()) if runs or not partial else \
        [[] for _ in HEADS]
    heads = list(HEADS)
    if lines:
        heads = [['line'] + h for h in heads]
        tables = [labelled(label, t) for t in tables]
        for ln in lines:
            for st in ln.sets:
                for i, t in enumerate(st['tables']):
                    tables[i] += labelled(st['name'], t,
                                          gated=st['gate'] == 'all' or
                                          i in FAIR_GATED)
    mach = machine(info, host, scens) if runs or not partial else []
    for ln in lines:
        mach += ln.machine()
    md = '\n'.join(markdown(h, t) for h, t in zip(heads, tables))
    line = effect_line(scens, v.deps)
    sline = share_line(v.shares)
    other = ['[%s] %s' % (st['name'], x) for ln in lines for st in ln.sets
             for x in st['lines']]
    other_problems = ['%s: %s' % (st['name'], p) for ln in lines
                      for st in ln.sets for p in st['problems']
                      if p not in st['gated_problems']]
    with open(os.path.join(results, 'table.md'), 'w') as fp:
        fp.write(md)
    fair = [fair_points(st['shares']) for ln in lines for st in ln.sets
            if st['fair']]
    png = None if partial else plot(
        results, [s for s in scens if not s.name.startswith('rr-')], cells,
        runs, fair[0] if fair else None)

    print()
    for m in mach:
        print('  ' + m)
    for t_head, t in zip(heads, tables):
        if partial and not t:
            continue
        print()
        print_table(t_head, t)
    print()
    problems = v.problems + ['%s: %s' % (st['name'], p) for ln in lines
                             for st in ln.sets
                             for p in st['gated_problems']]
    missed = v.missed + ['%s %s' % (st['name'], m) for ln in lines
                         for st in ln.sets for m in st['gated_missed']]
    for p in problems:
        print('report: ' + p)
    for p in other_problems:
        print('report: %s (reported)' % p)
    for m in missed:
        print('report: target MISSED: %s%s' % (
            m, ' (allowed: EFFECT_ALLOW_MISSED)' if allow_missed else ''))
    if runs or not partial:
        print('results: %s/{runs.csv,shares.csv,deps.csv,table.md%s}' % (
            results, ',effect.png' if png else ''))
    if skipped:
        print('report: not booted in this quick run: %s' % ', '.join(
            skipped))
    if doc:
        if partial:
            print('report: %s left as it was: a quick run (--rows %s)' % (
                doc, args.rows or 'all'))
        elif problems or missed or other_problems:
            print('report: %s left as it was: %s' % (
                doc, 'void or missing runs' if problems or other_problems
                else 'a target was missed'))
        else:
            update_doc(doc, md, mach, '`\n\n`'.join(
                other + [sline, line]), png)
    for x in other:
        print(x)
    if runs or not partial:
        print(sline)
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
