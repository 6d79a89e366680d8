#!/usr/bin/env python3
"""make mutants: build a kernel with one hook of the series disabled at a
time, run the suites that should notice, and say whether they did.

usage: mutants.py check [--tap] [--line 7.3|6.12] <tree> [id ...]
       mutants.py run [--line 7.3|6.12] --tree <tree> --work <dir>
                      --bin <guest-bin> [id ...]

Each tests/mutants/<id>.mutant names a file, the suites that should notice,
an exact original snippet and its replacement (the hook reduced to stock
behaviour); see tests/mutants/README. A snippet must be found exactly once:
if not, the mutant is stale and the run stops before building anything.
--line 7.3 (the default): the 7.3 line's mutants, tests/mutants/7.3/<id>.mutant
and the 6.12 ones tests/mutants/7.3/shared names, on the 7.3 test tree;
--line 6.12: the 6.12 line's, tests/mutants/<id>.mutant.

check  applies every mutant to a copy of its file in memory and reverts it,
       without building: fast, part of make check's host suites (--tap).
run    copies the synced tree <tree> (out/linux) into <work>/linux once,
       boots it unmutated with each suite selection (baseline), then for
       each mutant: apply, incremental build, boot with only its suites,
       judge with tests/summarize.py, revert (checked by checksum).
"""
import argparse
import hashlib
import os
import re
import shutil
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
GUEST_SUITES = os.path.join(REPO, 'tests', 'guest', 'suites')
# A hardware-only mutant may name this: it is compiled, never run, there.
COMPILE_ONLY = {'check-amdgpu'}
# amdgpu's KUnit (tests/amdgpu-kunit.sh) on make check's amdgpu tree, which
# the mutant is applied to instead of the test kernel's: alone, as the only
# suite of its mutant.
AMDGPU_KUNIT = 'amdgpu-kunit'
HEADER = re.compile(r'^(file|suites|hardware-only|args):\s*(.*)$')


class Stale(Exception):
    pass


class Mutant:
    def __init__(self, ident, path):
        self.id = ident
        self.path = path
        self.file = None
        self.suites = []
        self.hardware_only = None
        self.args = ''
        self.original = ''
        self.replacement = ''
        self.parse()

    def parse(self):
        block = None
        with open(self.path) as fp:
            for line in fp:
                if line.rstrip('\n') == '@@ original':
                    block = 'original'
                elif line.rstrip('\n') == '@@ replacement':
                    block = 'replacement'
                elif block:
                    setattr(self, block, getattr(self, block) + line)
                elif line.startswith('#') or not line.strip():
                    continue
                else:
                    m = HEADER.match(line.rstrip('\n'))
                    if not m:
                        raise ValueError('%s: cannot read: %s' %
                                         (self.path, line.rstrip()))
                    key, value = m.groups()
                    if key == 'file':
                        self.file = value
                    elif key == 'suites':
                        self.suites = value.split()
                    elif key == 'args':
                        self.args = value
                    else:
                        self.hardware_only = value
        if not self.file or not self.suites or not self.original:
            raise ValueError('%s: needs file, suites and an original' %
                             self.path)
        if self.original == self.replacement:
            raise ValueError('%s: the replacement is the original' %
                             self.path)

    def problems(self):
        """What is wrong with the suites named, as messages."""
        known = set(os.listdir(GUEST_SUITES))
        out, kunit = [], [s for s in self.suites if s.startswith('kunit')]
        for s in self.suites:
            if s in COMPILE_ONLY:
                if not self.hardware_only:
                    out.append('%s only compiles: hardware-only mutants '
                               'alone may name it' % s)
            elif s == AMDGPU_KUNIT:
                if self.suites != [s]:
                    out.append('%s runs on a tree of its own: it must be '
                               'the only suite' % s)
            elif s not in known and s != 'kunit' and \
                    not s.startswith('kunit:'):
                out.append('no suite %s in tests/guest/suites' % s)
        if len(kunit) > 1:
            out.append('one kunit or kunit:<glob> at most '
                       '(kunit.filter_glob takes one glob)')
        return out

    def run_suites(self):
        return [s for s in self.suites if s not in COMPILE_ONLY]


def line_mutants(line):
    """{id: path} of a kernel line's mutants: 6.12's in tests/mutants; the
    7.3 line's in tests/mutants/7.3 and those of 6.12 its file "shared"
    names (one id a line), whose snippets are the same on both lines."""
    if line == '6.12':
        return {f[:-len('.mutant')]: os.path.join(HERE, f)
                for f in os.listdir(HERE) if f.endswith('.mutant')}
    own = os.path.join(HERE, line)
    out = {f[:-len('.mutant')]: os.path.join(own, f)
           for f in os.listdir(own) if f.endswith('.mutant')}
    with open(os.path.join(own, 'shared')) as fp:
        for ln in fp:
            ident = ln.split('#')[0].strip()
            if ident:
                out[ident] = os.path.join(HERE, ident + '.mutant')
    return out


def load(ids=None, line='7.3'):
    paths = line_mutants(line)
    names = sorted(paths)
    if ids:
        unknown = [i for i in ids if i not in names]
        if unknown:
            raise SystemExit('mutants: no such mutant: %s (have: %s)' %
                             (' '.join(unknown), ' '.join(names)))
        names = [n for n in names if n in ids]
    return [Mutant(n, paths[n]) for n in names]


def sha(data):
    return hashlib.sha256(data.encode()).hexdigest()


def mutate(text, m):
    """@text with @m applied, and where; Stale unless the snippet is
    there exactly once."""
    n = text.count(m.original)
    if n != 1:
        raise Stale('snippet %s in %s, stale' %
                    ('not found' if n == 0 else 'found %d times' % n,
                     m.file))
    at = text.index(m.original)
    return text[:at] + m.replacement + text[at + len(m.original):], at


def revert(text, m, at):
    return text[:at] + m.original + text[at + len(m.replacement):]


def locate(m, tree, tests_root, amdgpu_tree=None):
    """Where the mutated file lives: kernel paths in the tree (the amdgpu
    tree's for amdgpu-kunit mutants when running), test equipment
    (tests/...) under @tests_root."""
    if amdgpu_tree and m.suites == [AMDGPU_KUNIT]:
        return os.path.join(amdgpu_tree, m.file)
    if m.file.startswith('tests/') or m.file.startswith('tools/'):
        return os.path.join(tests_root, m.file)
    return os.path.join(tree, m.file)


def check_one(m, tree, tests_root):
    """Apply and revert @m on a copy in memory; raise Stale on trouble."""
    for p in m.problems():
        raise Stale(p)
    path = locate(m, tree, tests_root)
    if not os.path.exists(path):
        raise Stale('no file %s' % path)
    with open(path) as fp:
        before = fp.read()
    mutated, at = mutate(before, m)
    if mutated == before:
        raise Stale('applying changed nothing')
    if sha(revert(mutated, m, at)) != sha(before):
        raise Stale('does not revert to the original')


def cmd_check(args):
    mutants = load(args.ids, args.line)
    n = failed = 0
    for m in mutants:
        n += 1
        try:
            check_one(m, args.tree, REPO)
        except Stale as e:
            failed += 1
            msg = 'mutant %s: %s' % (m.id, e)
            if args.tap:
                print('not ok %d %s' % (n, msg))
            else:
                print(msg, file=sys.stderr)
            continue
        if args.tap:
            print('ok %d mutant %s applies once to %s and reverts' %
                  (n, m.id, m.file))
    if args.tap:
        print('1..%d' % n)
    else:
        print('mutants-check: %d mutant(s), %d applied once and reverted, '
              '%d stale' % (n, n - failed, failed))
    return 1 if failed or not n else 0


# --- make mutants -----------------------------------------------------------

def log(msg):
    print('  %s' % msg, flush=True)


def copy_tree(src, dst):
    """A built kernel tree into dst: the first time with its mtimes (cp -a),
    so that nothing is rebuilt; afterwards by content (rsync gives what it
    copies a new mtime, so a file a killed run left mutated is rebuilt)."""
    if not os.path.isdir(dst):
        log('COPY    %s -> %s' % (src, dst))
        subprocess.check_call(['cp', '-a', src, dst])
        return
    log('RSYNC   %s -> %s' % (src, dst))
    subprocess.check_call(['rsync', '-rlD', '--checksum', '--delete',
                           src + '/', dst + '/'])


def sh(argv, logfile=None, env=None):
    with open(logfile or os.devnull, 'a') as out:
        return subprocess.call(argv, stdout=out, stderr=subprocess.STDOUT,
                               env=env)


class Runner:
    def __init__(self, args):
        self.tree = os.path.abspath(args.tree)
        self.work = os.path.abspath(args.work)
        self.bin = os.path.abspath(args.bin)
        self.jobs = str(args.jobs)
        self.timeout = str(args.timeout)
        self.linux = os.path.join(self.work, 'linux')
        self.tests = os.path.join(self.work, 'src')
        self.buildlog = os.path.join(self.work, 'build.log')
        self.amdgpu_tree = os.path.abspath(args.amdgpu) if args.amdgpu \
            else None
        self.amdgpu = os.path.join(self.work, 'amdgpu')
        self.initrd = os.path.abspath(args.initrd) if args.initrd else None

    def sync_amdgpu(self):
        """make check's amdgpu tree (configured and built by check-amdgpu)
        into <work>/amdgpu, as sync() does the test tree."""
        if not self.amdgpu_tree or not os.path.isdir(self.amdgpu_tree):
            raise SystemExit('mutants: no amdgpu tree (make check-amdgpu '
                             'makes it): %s' % self.amdgpu_tree)
        copy_tree(self.amdgpu_tree, self.amdgpu)

    def amdgpu_kunit(self, name, extra=''):
        """Build and boot the amdgpu tree, with kernel arguments @extra;
        (failure or None, seconds)."""
        results = os.path.join(self.work, 'results', name)
        if os.path.isdir(results):
            shutil.rmtree(results)
        os.makedirs(results)
        start = time.time()
        # The script empties its result directory first: the TAP it
        # prints goes next to that directory, not into it.
        tap = os.path.join(results, 'amdgpu-kunit.tap')
        with open(tap, 'w') as fp:
            rc = subprocess.call([os.path.join(REPO, 'tests',
                                               'amdgpu-kunit.sh'),
                                  self.amdgpu, self.initrd,
                                  os.path.join(results, 'amdgpu-kunit')],
                                 stdout=fp, stderr=subprocess.STDOUT,
                                 env=dict(os.environ, JOBS=self.jobs,
                                          AMDGPU_KUNIT_ARGS=extra))
        secs = time.time() - start
        if rc == 0:
            return None, secs
        with open(tap) as fp:
            bad = [re.sub(r'^not ok \d+ (- )?', '', ln.strip())
                   for ln in fp if ln.lstrip().startswith('not ok')]
        return 'amdgpu-kunit: ' + (', '.join(bad[:3]) or 'rc %d' % rc), secs

    def sync(self):
        """The synced test tree, once per run, into <work>/linux."""
        os.makedirs(self.work, exist_ok=True)
        copy_tree(self.tree, self.linux)
        # Test equipment the mutants may change, e.g. tests/simgpu.
        src = os.path.join(self.tests, 'tests')
        if os.path.isdir(src):
            shutil.rmtree(src)
        shutil.copytree(os.path.join(REPO, 'tests', 'simgpu'),
                        os.path.join(src, 'simgpu'))
        # User space the mutants may change (gpuprio-broker), with what
        # its build reads outside tools/gpunice.
        src = self.tests
        for d in ('tools', 'include'):
            if os.path.isdir(os.path.join(src, d)):
                shutil.rmtree(os.path.join(src, d))
        shutil.copytree(os.path.join(REPO, 'tools', 'gpunice'),
                        os.path.join(src, 'tools', 'gpunice'))
        os.makedirs(os.path.join(src, 'include', 'uapi', 'linux'))
        shutil.copy(os.path.join(REPO, 'include', 'uapi', 'linux',
                                 'gpuprio.h'),
                    os.path.join(src, 'include', 'uapi', 'linux'))

    def build(self, logfile):
        """Incremental: bzImage, Module.symvers for simgpu.ko."""
        return sh(['make', '-s', '-C', self.linux, '-j' + self.jobs,
                   'bzImage', 'modules'], logfile) == 0

    def broker_root(self, logfile):
        """The broker's guest tree (tests/broker-root.sh) from the copy of
        tools/gpunice in <work>/src, mutated or not: None on failure."""
        tools = os.path.join(self.tests, 'tools', 'gpunice')
        out = os.path.join(self.work, 'broker-out')
        root = os.path.join(self.work, 'broker-root')
        client = os.path.join(out, 'broker_client')
        os.makedirs(out, exist_ok=True)
        flags = subprocess.check_output(
            ['pkg-config', '--cflags', '--libs', 'libsystemd'],
            text=True).split()
        if sh(['make', '-s', '-C', tools, 'BROKER=1', 'O=' + out,
               'CFLAGS=-O2 -Werror', os.path.join(out, 'gpunice'),
               os.path.join(out, 'gpuprio-broker')], logfile) != 0 or \
           sh(['cc', '-O2', '-Wall', '-Wextra', '-Werror',
               '-I' + os.path.join(tools, 'include'),
               '-I' + os.path.join(self.tests, 'include', 'uapi'),
               '-o', client,
               os.path.join(REPO, 'tests', 'guest', 'broker_client.c'),
               '-pthread'] + flags, logfile) != 0 or \
           sh([os.path.join(REPO, 'tests', 'broker-root.sh'), root, out,
               client], logfile) != 0:
            return None
        return root

    def initramfs(self, name, with_simgpu, logfile, with_broker=False):
        """The guest's initramfs: make check's programs, with simgpu.ko
        rebuilt from <work>/src against the mutated tree when needed, and
        the broker's tree built from <work>/src when its suite runs."""
        out = os.path.join(self.work, 'initramfs-%s.cpio.gz' % name)
        bindir = os.path.join(self.work, 'guest-bin')
        if os.path.isdir(bindir):
            shutil.rmtree(bindir)
        shutil.copytree(self.bin, bindir)
        if with_simgpu:
            mod = os.path.join(self.tests, 'tests', 'simgpu')
            if sh(['make', '-s', '-C', self.linux, 'M=' + mod, 'modules'],
                  logfile) != 0:
                return None
            shutil.copy(os.path.join(mod, 'simgpu.ko'),
                        os.path.join(bindir, 'simgpu.ko'))
        overlay = []
        if with_broker:
            root = self.broker_root(logfile)
            if not root:
                return None
            overlay = [root]
        if sh([os.path.join(REPO, 'scripts', 'mkinitramfs.sh'), out, bindir,
               os.path.join(REPO, 'tests', 'guest'), self.linux] + overlay,
              logfile) != 0:
            return None
        return out

    def append(self, suites, extra=''):
        """Kernel command line selecting @suites (see tests/guest/init), and
        a mutant's own arguments (@extra: its drm_sched policy)."""
        names = []
        kunit = None
        for s in suites:
            if s == 'kunit' or s.startswith('kunit:'):
                names.append('kunit')
                kunit = s[len('kunit:'):] if ':' in s else '*'
            else:
                names.append(s)
        # A mutant that oopses must end the boot, not leave the guest, or
        # KUnit waiting on the dead case, until the timeout.
        words = ['gpunice.suites=' + ','.join(names), 'oops=panic']
        if extra:
            words.append(extra)
        words.append('kunit.filter_glob=' + kunit if kunit
                     else 'kunit.enable=0')
        if '50-i915-mock' in names:
            # Ours only: upstream's requests selftests time waits, which
            # fails now and then on a busy host and would kill falsely.
            env = dict(os.environ,
                       I915_MOCK_SELFTESTS='sanitycheck gpuprio gpuprio_guc '
                                           'gpuprio_context')
            words.append(subprocess.check_output(
                [os.path.join(REPO, 'tests', 'i915-mock-params.sh'),
                 self.linux], text=True, env=env).strip())
        return ' '.join(words)

    def boot(self, name, suites, initrd, extra=''):
        """Boot with @suites and @extra arguments; returns (verdict line or
        None, seconds)."""
        results = os.path.join(self.work, 'results', name)
        if os.path.isdir(results):
            shutil.rmtree(results)
        os.makedirs(results)
        env = dict(os.environ, GUEST_APPEND=self.append(suites, extra),
                   GUEST_TIMEOUT=self.timeout)
        start = time.time()
        sh([os.path.join(REPO, 'tests', 'run-guest.sh'),
            os.path.join(self.linux, 'arch', 'x86', 'boot', 'bzImage'),
            initrd, results], os.path.join(results, 'run.log'), env)
        proc = subprocess.run([os.path.join(REPO, 'tests', 'summarize.py'),
                               results], capture_output=True, text=True)
        with open(os.path.join(results, 'summary.txt'), 'w') as fp:
            fp.write(proc.stdout)
        secs = time.time() - start
        if proc.returncode == 0:
            return None, secs
        return failures(proc.stdout, results, suites), secs


def failures(summary, results, wanted):
    """'<suite>: <test>' of the first failure of each suite summarize.py
    printed, a KUnit case named with its parent (parameters); the suites
    in @wanted first, then the kernel log's verdict (guest), then others
    (a guest whose kernel broke runs them all: no /proc/cmdline)."""
    out, suite, seen = [], None, set()
    for line in summary.splitlines():
        m = re.match(r'^(\S+)\s+\d+ passed, \d+ failed', line)
        if m:
            suite = m.group(1)
        elif line.startswith('    FAILED: ') and suite not in seen:
            seen.add(suite)
            test = line[len('    FAILED: '):].strip()
            if suite == 'kunit':
                test = kunit_parent(results, test)
            if len(test) > 110:
                test = test[:107] + '...'
            out.append((suite, '%s: %s' % (suite, test)))
    order = [w.split(':')[0] for w in wanted] + ['guest']
    out.sort(key=lambda f: order.index(f[0]) if f[0] in order
             else len(order))
    out = [text for _, text in out]
    died = died_in_kunit(results)
    if died:
        out.insert(0, died)
    if len(out) > 3:
        out[3:] = ['%d more suite(s)' % (len(out) - 3)]
    return '; '.join(out) or 'no result'


def died_in_kunit(results):
    """A guest that died in a KUnit case never printed the case's result:
    name the case whose expectation failed before the kernel broke."""
    try:
        with open(os.path.join(results, 'console.log'),
                  errors='replace') as fp:
            console = fp.read()
    except OSError:
        return None
    if '@@GUEST-DONE' in console:
        return None
    m = re.search(r'# (\w+): (EXPECTATION|ASSERTION) FAILED', console)
    return m and 'kunit: %s (%s failed, then the guest died)' % (
        m.group(1), m.group(2).lower())


def kunit_parent(results, leaf):
    """@leaf as '<case>/<leaf>': in KTAP a case's result follows those of
    its parameters, one level of indentation up."""
    try:
        with open(os.path.join(results, 'kunit.tap'), errors='replace') as fp:
            lines = fp.read().splitlines()
    except OSError:
        return leaf
    result = re.compile(r'^(\s*)(not ok|ok)\s+\d+\s*-?\s*([^#]*?)\s*(#.*)?$')
    for i, line in enumerate(lines):
        m = result.match(line)
        if not m or m.group(2) != 'not ok' or m.group(3) != leaf:
            continue
        depth = len(m.group(1).expandtabs(8))
        for later in lines[i + 1:]:
            p = result.match(later)
            if p and len(p.group(1).expandtabs(8)) < depth:
                return '%s/%s' % (p.group(3), leaf)
        break
    return leaf


def selection(m):
    """What a mutant's boot runs: its suites and its kernel arguments."""
    return ' '.join(m.run_suites() + ([m.args] if m.args else []))


def cmd_run(args):
    mutants = load(args.ids, args.line)
    r = Runner(args)
    started = time.time()
    r.sync()

    stale = []
    for m in mutants:
        try:
            check_one(m, r.linux, r.tests)
        except Stale as e:
            stale.append('mutant %s: %s' % (m.id, e))
    if stale:
        for s in stale:
            print(s)
        print('mutants: %d stale mutant(s): refresh their snippets in '
              'tests/mutants/ (make mutants-check), nothing was built' %
              len(stale))
        return 1

    reachable = [m for m in mutants if not m.hardware_only]
    amdgpu = [m for m in reachable if m.suites == [AMDGPU_KUNIT]]
    reachable = [m for m in reachable if m not in amdgpu]
    if amdgpu:
        r.sync_amdgpu()
    # One baseline per drm_sched policy (args) the amdgpu mutants name.
    for n, extra in enumerate(sorted(set(m.args for m in amdgpu))):
        failure, secs = r.amdgpu_kunit('baseline-amdgpu' +
                                       ('-%d' % n if n else ''), extra)
        key = ' '.join([AMDGPU_KUNIT] + ([extra] if extra else []))
        log('BASELINE %s: %s (%.0f s)' % (key, failure or 'passed', secs))
        if failure:
            print('mutants: the unmutated amdgpu tree fails with %s (%s)' %
                  (key, failure))
            return 1
    log('BUILD   %s (unmutated, log %s)' % (r.linux, r.buildlog))
    open(r.buildlog, 'w').close()
    if not r.build(r.buildlog):
        print('mutants: the unmutated tree does not build, see %s' %
              r.buildlog)
        return 1

    # Each suite selection must pass unmutated, or a kill means nothing.
    baselines = {}
    for m in reachable:
        key = selection(m)
        if key in baselines:
            continue
        name = 'baseline-%d' % len(baselines)
        initrd = r.initramfs(name, '70-simgpu' in m.run_suites(),
                             r.buildlog, '75-broker' in m.run_suites())
        failure, secs = r.boot(name, m.run_suites(), initrd, m.args) \
            if initrd else ('initramfs failed', 0)
        log('BASELINE %s: %s (%.0f s)' % (key, failure or 'passed', secs))
        if failure:
            print('mutants: the unmutated kernel fails with suites %s '
                  '(%s), see %s' % (key, failure,
                                    os.path.join(r.work, 'results', name)))
            return 1
        baselines[key] = name

    killed = survived = hardware = errors = 0
    lines = []
    for m in mutants:
        if m.hardware_only:
            hardware += 1
            line = 'mutant %s: survived (hardware only: %s)' % (
                m.id, m.hardware_only)
            print(line, flush=True)
            lines.append(line)
            continue
        line, times = run_one(r, m)
        if ': killed' in line:
            killed += 1
        elif line.endswith(': survived'):
            survived += 1
        else:
            errors += 1
        print(line, flush=True)
        log('TIME    %s: %s' % (m.id, times))
        lines.append(line)

    total = time.time() - started
    summary = 'mutants: %d killed, %d survived, %d hardware-only' % (
        killed, survived, hardware)
    if errors:
        summary += ', %d error(s)' % errors
    print(summary)
    log('TOTAL   %d min %d s' % (total // 60, total % 60))
    with open(os.path.join(r.work, 'mutants.txt'), 'w') as fp:
        fp.write('\n'.join(lines + [summary]) + '\n')
    return 1 if survived or errors else 0


def run_one(r, m):
    """Apply, build, boot, revert one mutant: (result line, times)."""
    amdgpu = m.suites == [AMDGPU_KUNIT]
    path = locate(m, r.linux, r.tests, r.amdgpu)
    with open(path) as fp:
        original = fp.read()
    digest = sha(original)
    logfile = os.path.join(r.work, 'build-%s.log' % m.id)
    open(logfile, 'w').close()
    t0 = time.time()
    try:
        with open(path, 'w') as fp:
            fp.write(mutate(original, m)[0])
        log('MUTANT  %s: %s' % (m.id, m.file))
        if amdgpu:
            failure, secs = r.amdgpu_kunit(m.id, m.args)
            times = 'build and guest %.0f s' % secs
            if failure:
                return 'mutant %s: killed (%s)' % (m.id, failure), times
            return 'mutant %s: survived' % m.id, times
        if not r.build(logfile):
            return ('mutant %s: error (build failed, see %s)' %
                    (m.id, logfile)), 'build %.0f s' % (time.time() - t0)
        t1 = time.time()
        initrd = r.initramfs(m.id, '70-simgpu' in m.run_suites(), logfile,
                             '75-broker' in m.run_suites())
        if not initrd:
            return ('mutant %s: error (initramfs failed, see %s)' %
                    (m.id, logfile)), 'build %.0f s' % (t1 - t0)
        failure, secs = r.boot(m.id, m.run_suites(), initrd, m.args)
        times = 'build %.0f s, guest %.0f s' % (t1 - t0, secs)
        if failure:
            return 'mutant %s: killed (%s)' % (m.id, failure), times
        return 'mutant %s: survived' % m.id, times
    finally:
        # Exactly the original back, with a new mtime: the next build
        # recompiles it along with the next mutant.
        with open(path, 'w') as fp:
            fp.write(original)
        with open(path) as fp:
            if sha(fp.read()) != digest:
                raise SystemExit('mutant %s: %s not restored: re-run to '
                                 'copy the tree again' % (m.id, path))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    sub = ap.add_subparsers(dest='cmd', required=True)
    c = sub.add_parser('check')
    c.add_argument('--tap', action='store_true')
    c.add_argument('--line', default='7.3', choices=('7.3', '6.12'))
    c.add_argument('tree')
    c.add_argument('ids', nargs='*')
    r = sub.add_parser('run')
    r.add_argument('--line', default='7.3', choices=('7.3', '6.12'))
    r.add_argument('--tree', required=True)
    r.add_argument('--work', required=True)
    r.add_argument('--bin', required=True)
    r.add_argument('--jobs', default=os.cpu_count())
    r.add_argument('--timeout', default=300)
    r.add_argument('--amdgpu', help="make check-amdgpu's tree")
    r.add_argument('--initrd', help='the test initramfs (amdgpu-kunit)')
    r.add_argument('ids', nargs='*')
    args = ap.parse_args()
    try:
        return cmd_check(args) if args.cmd == 'check' else cmd_run(args)
    except ValueError as e:
        print('mutants: %s' % e, file=sys.stderr)
        return 1


if __name__ == '__main__':
    sys.exit(main())
