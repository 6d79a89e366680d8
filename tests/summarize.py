#!/usr/bin/env python3
"""Judge a make check run: read every TAP/KTAP result and the guest console,
print one line per suite, the failures, and the final count line.

usage: summarize.py [--host-only] <result dir> [SUB...] [NAME=DIR...]
       summarize.py --kernel-trouble <console log>


<result dir>/host-*.tap     TAP from the host suites (tests/run-host.sh)
<result dir>/console.log    the guest console: suites framed by @@ markers
<result dir>/SUB/...        the same for each SUB named: another boot
                            (make check: rr, fair, the 7.3 kernel under
                            other drm_sched policies), its suites named
                            SUB/suite
NAME=DIR                    host suites alone, from DIR, named NAME/suite
                            (make check: the other line's series checks)
Exit status 0 only if nothing failed and every guest reported (--host-only:
the result directory itself has no guest, as for make check-extra; a SUB
always has one). --kernel-trouble prints the
lines of a console log that mean the kernel misbehaved, the one definition
every suite that reads a console uses, and exits 1 if there is any.
"""
import os
import re
import sys

RESULT = re.compile(r'^(\s*)(not ok|ok)\s+\d+\s*-?\s*([^#]*?)\s*(#\s*(.*))?$')
# Lines in the kernel log that mean the kernel itself misbehaved.
KERNEL_TROUBLE = re.compile(
    r'Kernel panic|BUG:|WARNING:|Oops|general protection|'
    r'UBSAN:|KASAN:|possible circular locking|'
    # Any lockdep line but the debug kernel's boot banner "RCU lockdep
    # checking is enabled" (lockdep's reports also start with WARNING:).
    r'lockdep(?! checking is enabled)|'
    r'hung_task|soft lockup|RCU stall|Call Trace:')
# Warnings that upstream tests raise on purpose, each excused up to the end
# of its report: xe's own KUnit case xe_rtp "match-or-xfail" checks that a
# rule matching no register warns (xe_rtp.c, drm_WARN_ON(!rcount)), and on
# 7.3 xe_rtp_rules_tests' malformed rules ("or-yes", "no-or-or-yes", ...)
# warn too. 6.12 prints "WARNING: CPU: 0 PID: 1 at <file>:<line> ...", 7.3
# "WARNING: <file>:<line> at <address>, CPU#0: ...".
#
# Upstream's drm_sched scheduler suites (drm_sched_scheduler_*, in
# drivers/gpu/drm/scheduler/tests/tests_scheduler.c, every case
# KUNIT_SPEED_SLOW) time their mock jobs by the wall clock. Under QEMU's
# TCG the clock and the mock's hrtimers drift apart, and a client sometimes
# sees a job end sooner than its duration: the suite warns
# (WARN_ON_ONCE(client->params.sync), "GPU job took less than expected") or
# a case fails, run to run. They judge upstream's mock under emulation, not
# this project's code (whose drm_sched cases are in their own suites), so
# their results are reported apart, out of the totals, and that file's
# warning is set aside. The one place this is decided.
EXPECTED_WARNING = re.compile(
    r'WARNING: (?:.* at )?drivers/gpu/drm/(?:xe/xe_rtp|'
    r'scheduler/tests/tests_scheduler)\.c:\d')
UPSTREAM_TIMING_SUITE = re.compile(r'drm_sched_scheduler_\w+$')
KUNIT_SUBTEST = re.compile(r'^    # Subtest: (\S+)')
KUNIT_SUITE_END = re.compile(r'^(?:not ok|ok) \d+ (\S+)')
END_OF_REPORT = re.compile(r'---\[ end trace')


def kernel_trouble(console):
    """Lines of the kernel log that mean trouble, and how many expected
    warnings were set aside."""
    trouble, excused, inside = [], 0, False
    for line in console:
        if inside:
            inside = not END_OF_REPORT.search(line)
        elif EXPECTED_WARNING.search(line):
            excused += 1
            inside = True
        elif KERNEL_TROUBLE.search(line):
            trouble.append(line.rstrip())
    return trouble, excused


class Suite:
    def __init__(self, name):
        self.name = name
        self.passed = self.failed = self.skipped = 0
        self.failures = []

    def add(self, verdict, test, directive):
        if directive and directive.upper().startswith('SKIP'):
            self.skipped += 1
        elif verdict == 'ok':
            self.passed += 1
        else:
            self.failed += 1
            self.failures.append(test)

    def fail(self, why):
        self.failed += 1
        self.failures.append(why)


def parse_tap(suite, lines):
    """Count leaf results only: a result that closes a list of subtests
    (KTAP nesting, by indentation) is not a test of its own."""
    had_children = {}
    for line in lines:
        m = RESULT.match(line.rstrip('\n'))
        if not m:
            continue
        depth = len(m.group(1).expandtabs(8)) // 4
        if had_children.pop(depth + 1, False):
            if m.group(2) == 'not ok' and not suite.failed:
                suite.fail(m.group(3) + ' (parent)')
        else:
            suite.add(m.group(2), m.group(3), m.group(5))
        had_children[depth] = True


def split_upstream_timing(lines):
    """The KTAP lines of the upstream timing suites, apart from the rest."""
    judged, apart, inside = [], [], None
    for line in lines:
        text = line.rstrip('\n')
        m = KUNIT_SUBTEST.match(text)
        if inside is None and m and UPSTREAM_TIMING_SUITE.match(m.group(1)):
            inside = m.group(1)
        if inside is None:
            judged.append(line)
            continue
        apart.append(line)
        m = KUNIT_SUITE_END.match(text)
        if m and m.group(1) == inside:
            inside = None
    return judged, apart


def guest_blocks(console):
    """Yield (name, lines, rc) for each @@SUITE block of the console log."""
    name, lines = None, []
    for line in console:
        if line.startswith('@@SUITE-BEGIN '):
            name, lines = line.split()[1], []
        elif line.startswith('@@SUITE-END ') and name:
            m = re.search(r'rc=(\d+)', line)
            yield name, lines, int(m.group(1)) if m else -1
            name = None
        elif name:
            lines.append(line)


def print_kernel_trouble(path):
    with open(path, errors='replace') as fp:
        trouble, excused = kernel_trouble(fp)
    for line in trouble:
        print(line)
    if excused:
        print(f'({excused} expected warning(s) set aside)')
    return 1 if trouble else 0


def host_suites(results, prefix):
    """The host suites' TAP in results (none in a folder never made: its
    guest then fails, guest_suites())."""
    suites = []
    if not os.path.isdir(results):
        return suites
    for f in sorted(os.listdir(results)):
        if f.startswith('host-') and f.endswith('.tap'):
            s = Suite(prefix + f[:-4])
            with open(os.path.join(results, f), errors='replace') as fp:
                parse_tap(s, fp)
            if not (s.passed or s.failed or s.skipped):
                s.fail('reported no result')
            suites.append(s)
    return suites


def guest_suites(results, prefix, apart):
    """The suites of the guest console in results, then the guest itself;
    and the console, for the failure report. Suites reported apart (out of
    the totals) go to apart."""
    suites, console = [], []
    guest = Suite(prefix + 'guest')
    path = os.path.join(results, 'console.log')
    if os.path.exists(path):
        with open(path, errors='replace') as fp:
            console = [l.replace('\r', '') for l in fp]
    if any(l.startswith('@@GUEST-DONE') for l in console):
        guest.add('ok', 'the guest reported', None)
    else:
        guest.fail('the guest did not report (hung, panicked or not run)')
    for name, lines, rc in guest_blocks(console):
        s = Suite(prefix + name)
        with open(os.path.join(results, name + '.tap'), 'w') as out:
            out.writelines(lines)
        if name == 'kunit':
            lines, timing = split_upstream_timing(lines)
            if timing:
                t = Suite(prefix + 'kunit-upstream-timing')
                parse_tap(t, timing)
                apart.append(t)
        parse_tap(s, lines)
        if rc != 0 and not s.failed:
            s.fail('exited with status %d' % rc)
        if not (s.passed or s.failed or s.skipped):
            s.fail('reported no result')
        suites.append(s)
    trouble, excused = kernel_trouble(console)
    if trouble:
        guest.fail('kernel log: ' + trouble[0])
    elif console:
        guest.add('ok', 'no panic, BUG or WARNING in the kernel log'
                  ' (%d expected warning(s) of upstream tests set aside)'
                  % excused, None)
    suites.append(guest)
    return suites, guest, (path, console)


def main():
    if sys.argv[1] == '--kernel-trouble':
        sys.exit(print_kernel_trouble(sys.argv[2]))
    # --host-only: no guest in the result directory itself
    host_only = sys.argv[1] == '--host-only'
    args = sys.argv[2:] if host_only else sys.argv[1:]
    results = args[0]
    suites, troubled, apart = [], [], []

    # The result directory, then each subdirectory named: each with its
    # guest, which must have reported. NAME=DIR names a folder elsewhere
    # with host suites only (the other kernel line's series checks).
    dirs, host_dirs = [(results, '')], set()
    for sub in args[1:]:
        name, eq, path = sub.partition('=')
        if eq:
            dirs.append((path, name + '/'))
            host_dirs.add(name + '/')
        else:
            dirs.append((os.path.join(results, sub), sub + '/'))
    for path, prefix in dirs:
        suites += host_suites(path, prefix)
        if prefix in host_dirs:
            if not os.path.isdir(path):
                s = Suite(prefix + 'host')
                s.fail('no results in %s' % path)
                suites.append(s)
            continue
        if host_only and not prefix:
            continue
        got, guest, console = guest_suites(path, prefix, apart)
        suites += got
        if guest.failed and console[1]:
            troubled.append(console)

    for s in suites:
        print('%-28s %3d passed, %d failed, %d skipped' %
              (s.name, s.passed, s.failed, s.skipped))
        for f in s.failures:
            print('    FAILED: %s' % f)
    for s in apart:
        print('%-28s %3d passed, %d failed, %d skipped (upstream timing,'
              ' not judged: tests/summarize.py)' %
              (s.name, s.passed, s.failed, s.skipped))
    for path, console in troubled:
        print('--- last 60 lines of %s ---' % path)
        sys.stdout.writelines(console[-60:])
        print('---')
    passed = sum(s.passed for s in suites)
    failed = sum(s.failed for s in suites)
    skipped = sum(s.skipped for s in suites)
    line = '%d passed, %d failed' % (passed, failed)
    if skipped:
        line += ', %d skipped' % skipped
    print(line)
    return 1 if failed or not suites else 0


if __name__ == '__main__':
    sys.exit(main())
