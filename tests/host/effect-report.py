#!/usr/bin/env python3
"""make effect's judge of a run (tests/effect/report.py): a per-tab or
driver-thread run counts only if gpuload ran that pattern and its jobs went
through the run queues the pattern must give; the patterns the docs warn
against are reported, not targeted. The runs are made up here: what is
judged is the report, not the kernel. TAP on stdout.

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
            'hog': None, 'want': {'fg': 'normal', 'hog': 'low'},
            'changes': [], 'stderr': []}


def hog_run(want_hog, driver, pidfd, hog_rq):
    return {'fg': frame('frame'),
            'hog': {'mode': 'hog', 'error': '0', 'busy': '0.85',
                    'driver_thread': driver, 'pidfd': pidfd,
                    'rq_' + hog_rq: '900'},
            'want': {'fg': 'normal', 'hog': want_hog},
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
    print('1..%d' % n)


if __name__ == '__main__':
    main()
