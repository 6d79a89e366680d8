#!/usr/bin/env python3
"""make effect's judge of a run (tests/effect/report.py): a per-tab or
driver-thread run counts only if gpuload ran that pattern and its jobs went
through the run queues the pattern must give; the patterns the docs warn
against are reported, not targeted; every run names the drm_sched policy
it ran under; the share runs of busy clients (issue 26) count only with
every client's fdinfo busy time and over the whole window, and their
targets follow 6.12's strict priorities. The runs are made up here: what
is judged is the report, not the kernel. TAP on stdout.

usage: effect-report.py <repository>
"""
import os
import sys

sys.path.insert(0, os.path.join(sys.argv[1], 'tests', 'effect'))
import report  # noqa: E402

FRAMES = 300


def frame(mode, rq='normal', **extra):
    line = {'mode': mode, 'frames': str(FRAMES), 'fps': '60.00',
            'contended': str(FRAMES), 'busy': '0.120',
            'rq_' + rq: str(FRAMES), 'p50_us': '8000', 'p99_us': '12000'}
    line.update(extra)
    return line


def tabs_run(mode, bg_rq='low'):
    return {'fg': frame(mode, bg_jobs='900', bg_busy='0.85',
                        **{'bg_rq_' + bg_rq: '900'}),
            'hog': None, 'want': {'fg': 'normal', 'hog': 'low',
                                  'policy': '1'},
            'changes': [], 'stderr': []}


def hog_run(want_hog, driver, pidfd, hog_rq):
    return {'fg': frame('frame'),
            'hog': {'mode': 'hog', 'error': '0', 'busy': '0.85',
                    'driver_thread': driver, 'pidfd': pidfd, 'depth': '4',
                    'rq_' + hog_rq: '900'},
            'want': {'fg': 'normal', 'hog': want_hog, 'policy': '1'},
            'changes': [], 'stderr': []}


CASES = [
    # name, scenario, run, void expected
    ('gpu-thread: one thread, bg jobs on LOW, counts', 'gpu-thread',
     tabs_run('gpu-thread'), False),
    ('gpu-thread: bg jobs left on NORMAL (no switch) is void', 'gpu-thread',
     tabs_run('gpu-thread', 'normal'), True),
    ('gpu-thread: a run of the two-thread pattern is void', 'gpu-thread',
     tabs_run('tabs'), True),
    ('shared: a run of the one-file pattern counts', 'shared',
     tabs_run('shared'), False),
    ('shared: a run with a file per tab is void', 'shared',
     tabs_run('gpu-thread'), True),
    ('driver-thread: hog from the driver thread on NORMAL counts',
     'driver-thread', hog_run('normal', '1', '0', 'normal'), False),
    ('driver-thread: a hog without a driver thread is void',
     'driver-thread', hog_run('normal', '0', '0', 'normal'), True),
    ('driver-pidfd: hog lowered by pidfd on LOW counts', 'driver-pidfd',
     hog_run('low', '1', '1', 'low'), False),
    ('driver-pidfd: hog left on NORMAL is void', 'driver-pidfd',
     hog_run('low', '1', '1', 'normal'), True),
    ('driver-pidfd: lowered by the main thread only is void',
     'driver-pidfd', hog_run('low', '1', '0', 'low'), True),
    ('contended: a hog run as driver thread is void', 'contended',
     hog_run('normal', '1', '0', 'normal'), True),
]


def with_policy(run, policy):
    run = dict(run, want=dict(run['want'], policy=policy))
    return run


def with_depth(run, depth):
    return dict(run, hog=dict(run['hog'], depth=depth))


def no_policy(run):
    run = dict(run, want=dict(run['want']))
    del run['want']['policy']
    return run


CASES += [
    ('contended: a run that names no drm_sched policy is void',
     'contended', no_policy(hog_run('normal', '0', '0', 'normal')), True),
    ('rr-contended: a run under FIFO is void', 'rr-contended',
     hog_run('normal', '0', '0', 'normal'), True),
    ('rr-contended: a run under round robin counts', 'rr-contended',
     with_policy(hog_run('normal', '0', '0', 'normal'), '0'), False),
    ('gpunice10: a run under round robin is void', 'gpunice10',
     with_policy(hog_run('low', '0', '0', 'low'), '0'), True),
    ('depth2: a hog of depth 2 counts', 'depth2',
     with_depth(hog_run('normal', '0', '0', 'normal'), '2'), False),
    ('depth2: a hog of depth 4 is void', 'depth2',
     hog_run('normal', '0', '0', 'normal'), True),
    ('depth6-low: a lowered hog of depth 6 counts', 'depth6-low',
     with_depth(hog_run('low', '0', '0', 'low'), '6'), False),
]

T0, T1 = 10 * 10**9, 13 * 10**9
WINDOW = T1 - T0


def share_run(rqs, fracs, policy='1', **over):
    """A share run: client i on rqs[i], busy fracs[i] of the window."""
    rec = {'fg': None, 'hog': None, 'want': None, 'stderr': [],
           'changes': [],
           'window': {'t0_ns': str(T0), 't1_ns': str(T1),
                      'stop_ns': str(T1 + 10**6), 'clients': str(len(rqs)),
                      'policy': policy},
           'busy': {}, 'clients': {}}
    for i, (q, f) in enumerate(zip(rqs, fracs)):
        rec['busy'][str(i)] = {'client': str(i), 'rq': q,
                               'b0': str(10**9), 'b1': str(10**9 +
                                                           int(f * WINDOW))}
        res = {'mode': 'hog', 'error': '0', 'depth': '4', 'rq_' + q: '500',
               'start_ns': str(T0 - 10**9), 'stop_ns': str(T1 + 10**6),
               'max_gap_ms': '3400.00' if q == 'low' else '4.00',
               'max_wait_ms': '3300.00' if q == 'low' else '12.00'}
        rec['clients'][str(i)] = {'res': res, 'changes': []}
    for key, val in over.items():
        i, _, k = key.partition('_')
        if k in ('b0', 'b1'):
            rec['busy'][i][k] = val
        elif val is None:
            del rec['clients'][i]['res'][k]
        else:
            rec['clients'][i]['res'][k] = val
    return rec


N2, NL = ('normal', 'normal'), ('normal', 'low')
SHARE_CASES = [
    # name, scenario, run, void expected
    ('share-n10: both clients busy, the lower at 0, counts', 'share-n10',
     share_run(NL, (0.99, 0.0)), False),
    ('share-n10: a client whose fdinfo had no busy time is void',
     'share-n10', share_run(NL, (0.99, 0.0), **{'1_b1': '-'}), True),
    ('share-n10: a client with an error is void', 'share-n10',
     share_run(NL, (0.99, 0.0), **{'1_error': '1'}), True),
    ('share-n10: the lower client stopped inside the window is void',
     'share-n10', share_run(NL, (0.99, 0.0),
                            **{'1_stop_ns': str(T0 + 10**9)}), True),
    ('share-n10: the lower client on NORMAL is void', 'share-n10',
     share_run(('normal', 'normal'), (0.5, 0.49)), True),
    ('share-equal: an engine busy 0.6 of the window is void', 'share-equal',
     share_run(N2, (0.3, 0.3)), True),
    ('share-equal: an engine busy 0.85 of the window counts (a guest '
     'stall)', 'share-equal', share_run(N2, (0.43, 0.42)), False),
    ('share-equal: a run under round robin is void', 'share-equal',
     share_run(N2, (0.5, 0.49), policy='0'), True),
    ('rr-share-equal: a run under round robin counts', 'rr-share-equal',
     share_run(N2, (0.5, 0.49), policy='0'), False),
    ('share-equal3: two clients of three is void', 'share-equal3',
     share_run(N2, (0.5, 0.49)), True),
    ('share-close: a lowered client that did not close is void',
     'share-close', share_run(NL, (0.99, 0.0)), True),
    ('share-close: with close_ms, counts', 'share-close',
     share_run(NL, (0.99, 0.0), **{'1_close_ms': '1012.0',
                                   '1_mark_ns': str(T1)}), False),
]

# name, scenario, the clients' busy fractions, verdict expected
VERDICT_CASES = [
    ('share-equal 0.50/0.49 meets the equal split', 'share-equal',
     (0.50, 0.49), 'met'),
    ('share-equal 0.62/0.37 misses the equal split (15 %)', 'share-equal',
     (0.62, 0.37), 'MISSED'),
    ('share-equal3 1/3 each meets', 'share-equal3', (0.33, 0.33, 0.33),
     'met'),
    ('share-equal3 0.45/0.30/0.24 misses', 'share-equal3',
     (0.45, 0.30, 0.24), 'MISSED'),
    ('share-n10 lower at 0.00 meets', 'share-n10', (0.99, 0.0), 'met'),
    ('share-n10 lower at 0.05 misses (< 2 %)', 'share-n10', (0.94, 0.05),
     'MISSED'),
    ('share-raised default client at 0.03 misses', 'share-raised',
     (0.96, 0.03), 'MISSED'),
]


def share_checks(n):
    rqs = report.SHARE_RQS
    for name, scen, run, void in SHARE_CASES:
        n += 1
        why = report.share_void_reasons(scen, run, rqs[scen])
        ok = bool(why) == void
        print('%s %d - %s' % ('ok' if ok else 'not ok', n, name))
        for w in why:
            print('# ' + w)
    for name, scen, fracs, want in VERDICT_CASES:
        n += 1
        run = share_run(rqs[scen], fracs)
        s = report.Share(scen, 'x', rqs[scen], [run])
        ok = s.verdict() == want and len(s.recs) == 1
        print('%s %d - %s: %s' % ('ok' if ok else 'not ok', n, name,
                                  s.verdict()))
    # The rule's prediction, and the starvation taken from the lower
    # client's own gap (not from the higher one's).
    n += 1
    got = report.predicted_shares(('high', 'normal', 'normal'))
    ok = got == [1.0, 0.0, 0.0]
    print('%s %d - strict rule: high beside two normal predicts %s' % (
        'ok' if ok else 'not ok', n, got))
    n += 1
    got = report.predicted_shares(('normal', 'normal', 'normal'))
    ok = all(abs(x - 1 / 3) < 1e-9 for x in got)
    print('%s %d - strict rule: three normal predict 1/3 each' % (
        'ok' if ok else 'not ok', n))
    n += 1
    s = report.Share('share-n10', 'x', NL, [share_run(NL, (0.99, 0.0))])
    ok = s.starve == [3400.0] and s.wait == [3300.0]
    print('%s %d - starvation and fence wait are the lower client\'s: %s %s'
          % ('ok' if ok else 'not ok', n, s.starve, s.wait))
    # The share: line and the gate: a share run missing fails make effect.
    n += 1
    runs = {'share-n10': {'1': share_run(NL, (0.99, 0.0))}}
    v = report.Verdict(runs)
    ok = any('share-idle' in p for p in v.problems)
    print('%s %d - a share scenario without a valid run fails the report'
          % ('ok' if ok else 'not ok', n))
    n += 1
    runs = {'share-equal': {'1': share_run(N2, (0.7, 0.29))}}
    v = report.Verdict(runs)
    ok = 'share-equal' in v.missed
    print('%s %d - a missed share target is a missed target of the run' % (
        'ok' if ok else 'not ok', n))
    n += 1
    line = report.share_line(report.share_list(
        {'share-n10': {'1': share_run(NL, (0.99, 0.0))},
         'share-equal': {'1': share_run(N2, (0.5, 0.49))}}))
    ok = line.startswith('share: fifo equal=0.49 ') and ' n10=0.00 ' in line \
        and 'starve_ms=3400' in line and ' rr ' in line
    print('%s %d - share line: %s' % ('ok' if ok else 'not ok', n, line))
    # Latency as a ratio to alone, on the effect: line.
    n += 1
    alone = report.Scenario('alone', 'x', None, [dict(
        tabs_run('tabs'), fg=frame('frame', p50_us='2000', p99_us='2500',
                                   contended='0'),
        want={'fg': 'normal', 'hog': '-', 'policy': '1'})])
    c = report.Scenario('contended', 'x', ('<=', 0.70),
                        [hog_run('normal', '0', '0', 'normal')])
    c.set_base(60.0, alone)
    ok = c.p50x is not None and abs(c.p50x - 4.0) < 1e-9 and \
        abs(c.p99x - 4.8) < 1e-9
    print('%s %d - latency ratio to alone: p50x%s p99x%s' % (
        'ok' if ok else 'not ok', n, c.p50x, c.p99x))
    return n


def main():
    n = 0
    for name, scen, run, void in CASES:
        n += 1
        why = report.void_reasons(scen, run)
        ok = bool(why) == void
        print('%s %d - %s' % ('ok' if ok else 'not ok', n, name))
        for w in why:
            print('# ' + w)
    # The patterns the docs warn against carry no target; the others do.
    targets = {name: t for name, _, t in report.SCENARIOS}
    for scen, want in (('tabs', ('>=', 0.95)), ('gpu-thread', ('>=', 0.95)),
                       ('driver-pidfd', ('>=', 0.95)), ('shared', None),
                       ('driver-thread', None)):
        n += 1
        ok = targets.get(scen, 'absent') == want
        print('%s %d - %s: target %s' % ('ok' if ok else 'not ok', n, scen,
                                         targets.get(scen, 'absent')))
    s = report.Scenario('shared', 'x', None, [tabs_run('shared')])
    s.set_base(60.0)
    n += 1
    ok = s.verdict() == 'reported'
    print('%s %d - an untargeted pattern is reported, verdict %r' % (
        'ok' if ok else 'not ok', n, s.verdict()))
    n = share_checks(n)
    print('1..%d' % n)


if __name__ == '__main__':
    main()
