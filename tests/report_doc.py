"""What the reports of make bench and make effect share: tables as text and
Markdown, gnuplot's terminal, and replacing a generated block of a document
(the text between "<!-- TAG:begin -->" and "<!-- TAG:end -->"), and their
command line."""
import argparse
import shutil
import subprocess
import sys


def report_args(what):
    """The arguments both reports take: the results folder, --doc and
    --allow-missed; the caller may add its own before parse_args()."""
    ap = argparse.ArgumentParser(description='The report of %s.' % what)
    ap.add_argument('results', help='the folder the runs wrote')
    ap.add_argument('--doc', help='the document to rewrite if every run was '
                    'valid and every target met')
    ap.add_argument('--allow-missed', action='store_true',
                    help='report a missed target without failing')
    return ap


def print_table(head, table):
    widths = [max(len(str(c)) for c in col) for col in zip(head, *table)]
    line = '  '.join('%-*s' % (w, h) for w, h in zip(widths, head))
    print(line)
    print('-' * len(line))
    for cells in table:
        print('  '.join('%-*s' % (w, c) for w, c in zip(widths, cells)))


def markdown(head, table):
    out = ['| ' + ' | '.join(head) + ' |', '|' + '---|' * len(head)]
    for cells in table:
        out.append('| ' + ' | '.join(str(c) for c in cells) + ' |')
    return '\n'.join(out) + '\n'


def has_pngcairo():
    """gnuplot lists its terminals on stdout or stderr, by version."""
    if not shutil.which('gnuplot'):
        return False
    try:
        p = subprocess.run(['gnuplot', '-e', 'set terminal'],
                           capture_output=True, text=True)
        return 'pngcairo' in p.stdout + p.stderr
    except OSError:
        return False


def replace_block(doc, tag, body):
    """Replace the generated block TAG of DOC by BODY; False if DOC has no
    such block (it is then left as it was)."""
    with open(doc) as fp:
        text = fp.read()
    begin, end = '<!-- %s:begin -->' % tag, '<!-- %s:end -->' % tag
    if begin not in text or end not in text:
        print('report: no %s markers in %s' % (tag, doc), file=sys.stderr)
        return False
    head, rest = text.split(begin, 1)
    _, tail = rest.split(end, 1)
    with open(doc, 'w') as fp:
        fp.write(head + begin + body + end + tail)
    print('report: updated %s' % doc)
    return True
