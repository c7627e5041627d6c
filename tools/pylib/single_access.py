# SPDX-License-Identifier: GPL-2.0
"""The single-access check: each accessor, for each accepted type, compiles
to exactly one memory access of the object's width.

For each arch spec (x86_64, x86_64-clang, i386, arm64 by default) the module
of afp/codegen.py is built against the compile-fail build dir of that arch
(tinyconfig + configs/compile-fail.config: no KCSAN, KASAN or tracing, so
nothing but the access itself touches memory) and disassembled with the
arch's objdump. In each bench_afp_<type>_<accessor> function, every
instruction with an explicit memory operand that is not based on the stack
or frame pointer is an access to *p.

Guarantees: a function passes only if it has exactly one such instruction,
of the width of the object (1 byte for bool), and, on arm64, of the right
kind: LDAR/LDAPR for the acquire load, STLR for the release store, a plain
LDR/STR for the relaxed pair (x86 is TSO: acquire and release are plain
MOVs there). A function missing from the object fails. The table is in
$RESULTS/single-access.md; the totals in $RESULTS/single-access.counts.json.
Does not: check the twins (READ_ONCE() and friends); run anything; prove
atomicity on hardware that tears an aligned access (none the kernel
supports).
"""

import os
import re
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import List, Optional, Tuple

sys.path.insert(0, str(Path(__file__).resolve().parent))
from afp.env import ENV  # noqa: E402
from afp import arch as afp_arch, codegen, kbuild  # noqa: E402
from afp.results import markdown_table, tally_line, write_counts  # noqa: E402

HEADER = ('arch', 'type', 'accessor', 'verdict', 'the access')

X86_REGS = {
    1: 'al bl cl dl ah bh ch dh sil dil bpl spl r8b r9b r10b r11b r12b r13b r14b r15b',
    2: 'ax bx cx dx si di bp sp r8w r9w r10w r11w r12w r13w r14w r15w',
    4: 'eax ebx ecx edx esi edi ebp esp r8d r9d r10d r11d r12d r13d r14d r15d',
    8: 'rax rbx rcx rdx rsi rdi rbp rsp r8 r9 r10 r11 r12 r13 r14 r15',
}
X86_REG_WIDTH = {r: w for w, regs in X86_REGS.items() for r in regs.split()}
X86_SUFFIX = {'b': 1, 'w': 2, 'l': 4, 'q': 8}
X86_MEM_RE = re.compile(r'(?:^|,)\s*(?:%\w+:)?[-\w]*\((?P<base>%\w+)?[^)]*\)')
X86_STACK = {'%rsp', '%rbp', '%esp', '%ebp'}
X86_EXTEND_RE = re.compile(r'^mov(?:z|s)(?P<from>[bwl])[wlq]$')

ARM64_MEM_RE = re.compile(r'^(?P<op>ld|st)(?P<kind>r|ur|ar|apr|lr)(?P<signed>s?)(?P<size>[bhw]?)$')
ARM64_PAIR_RE = re.compile(r'^(ld|st)[a-z]*p$')


@dataclass
class Access:
    insn: str
    width: Optional[int]      # bytes; None when it cannot be told
    kind: str                 # plain, acquire, release, other


def x86_access(insn: str) -> Optional[Access]:
    """The memory access of one AT&T instruction, None if it has none or
    only a stack-based one."""
    mnemonic, _, operands = insn.partition(' ')
    m = X86_MEM_RE.search(operands)
    if not m or m.group('base') in X86_STACK or mnemonic.startswith(('lea', 'nop')):
        return None
    ext = X86_EXTEND_RE.match(mnemonic)
    if ext:
        return Access(insn, X86_SUFFIX[ext.group('from')], 'plain')
    regs = [r for r in re.findall(r'%(\w+)', re.sub(r'\([^)]*\)', '', operands))
            if r in X86_REG_WIDTH]
    if regs:
        return Access(insn, X86_REG_WIDTH[regs[0]], 'plain')
    width = X86_SUFFIX.get(mnemonic[-1]) if len(mnemonic) > 3 else None
    return Access(insn, width, 'plain')


def arm64_access(insn: str) -> Optional[Access]:
    """The memory access of one arm64 instruction, None if it has none or
    only an SP-based one."""
    mnemonic, _, operands = insn.partition(' ')
    if '[' not in operands or re.search(r'\[sp\b', operands):
        return None
    if ARM64_PAIR_RE.match(mnemonic):
        return Access(insn, None, 'other')
    m = ARM64_MEM_RE.match(mnemonic)
    if not m:
        return Access(insn, None, 'other')
    size = m.group('size')
    if size in ('b', 'h'):
        width = 1 if size == 'b' else 2
    elif size == 'w':           # ldrsw
        width = 4
    else:
        reg = operands.split(',')[0].strip()
        width = 8 if reg.startswith('x') else 4 if reg.startswith('w') else None
    kind = {'ar': 'acquire', 'apr': 'acquire', 'lr': 'release'}.get(m.group('kind'), 'plain')
    return Access(insn, width, kind)


ALPHA_WIDTH = {'ldq': 8, 'stq': 8, 'ldl': 4, 'stl': 4, 'ldwu': 2, 'stw': 2,
               'ldbu': 1, 'stb': 1, 'ldq_u': 8, 'stq_u': 8}
ALPHA_MEM_RE = re.compile(r'\((?P<base>\w+)\)\s*$')


def alpha_access(insn: str) -> Optional[Access]:
    """The memory access of one alpha instruction, None if it has none or
    only an sp/fp-based one. lda/ldah compute addresses and access nothing.
    ldq_u/stq_u access the aligned quadword that holds the address: for a
    byte or halfword that is one 8-byte access (kind 'unaligned')."""
    mnemonic, _, operands = insn.partition(' ')
    m = ALPHA_MEM_RE.search(operands)
    if mnemonic in ('lda', 'ldah') or not m or m.group('base') in ('sp', 'fp'):
        return None
    if mnemonic not in ALPHA_WIDTH:
        return Access(insn, None, 'other')
    return Access(insn, ALPHA_WIDTH[mnemonic], 'unaligned' if mnemonic.endswith('_u') else 'plain')


FINDERS = {'x86': x86_access, 'arm64': arm64_access, 'alpha': alpha_access}


def accesses(arch_family: str, insns: List[str]) -> List[Access]:
    find = FINDERS[arch_family]
    return [a for a in (find(i) for i in insns if not i.startswith('reloc ')) if a]


def alpha_barriers(accessor: str, insns: List[str], a: Access) -> Optional[str]:
    """None if the accessor's barriers are where alpha SMP puts them: an mb
    after a load (READ_ONCE() itself has one on SMP), an mb before the
    release store; else why not."""
    i = insns.index(a.insn)
    if accessor.startswith('load') and 'mb' not in insns[i + 1:]:
        return f'{a.insn}: no mb after the load ({accessor} on SMP alpha needs one)'
    if accessor == 'store_release' and 'mb' not in insns[:i]:
        return f'{a.insn}: no mb before the store (store_release needs one)'
    return None


def judge(arch_family: str, accessor: str, width: int,
          insns: Optional[List[str]], lto: bool = False,
          twin: Optional[List[str]] = None) -> Tuple[str, str]:
    """(verdict, why) for one accessor function: PASS, FAIL or SKIPPED (an
    arch that has no single store of that width, where the accessor compiles
    exactly as its WRITE_ONCE()-family twin does)."""
    if insns is None:
        return 'FAIL', 'function missing from the object'
    alt: List[str] = []
    if arch_family == 'arm64' and 'ret' in insns:
        # arm64's ALTERNATIVE() assembles its replacement into a subsection
        # of the same section: after the function's ret, run only once
        # patched in at boot.
        end = insns.index('ret') + 1
        insns, alt = insns[:end], insns[end:]
    found = accesses(arch_family, insns)
    if (arch_family == 'alpha' and accessor.startswith('store') and width < 4
            and [a.insn.split()[0] for a in found] == ['ldq_u', 'stq_u']):
        # EV4/EV5 (ALPHA_GENERIC builds -mcpu=ev5) have no byte or halfword
        # store: the compiler writes the containing quadword back.
        if twin is not None and insns == twin:
            return 'SKIPPED', (f'no {width}-byte store before EV56: ldq_u/stq_u read-modify-write '
                               'of the quadword, the same code as its twin')
        return 'FAIL', 'ldq_u/stq_u read-modify-write, and not the same code as its twin'
    if len(found) != 1:
        shown = '; '.join(a.insn for a in found) or 'none'
        return 'FAIL', f'{len(found)} memory accesses: {shown}'
    a = found[0]
    if a.width != width and not (a.kind == 'unaligned' and width < 4 and accessor.startswith('load')):
        return 'FAIL', f'{a.insn}: {a.width} bytes, object is {width}'
    if arch_family == 'arm64':
        # Under LTO, arm64's READ_ONCE() is an RCpc acquire load.
        relaxed_load = 'acquire' if lto else 'plain'
        want = {'load_acquire': 'acquire', 'store_release': 'release',
                'load_relaxed': relaxed_load}.get(accessor, 'plain')
        if a.kind != want:
            return 'FAIL', f'{a.insn}: a {a.kind} access, {accessor} needs {want}'
        if alt:
            # Only the LTO READ_ONCE() has a replacement: LDAPR for LDAR.
            repl = accesses(arch_family, alt)
            if not (lto and accessor == 'load_relaxed' and len(repl) == 1
                    and repl[0].insn.startswith('ldapr') and repl[0].width == width):
                return 'FAIL', f'{a.insn}; unexpected replacement after ret: {"; ".join(alt)}'
            return 'PASS', f'{a.insn}; alternative: {repl[0].insn}'
    if arch_family == 'alpha':
        why = alpha_barriers(accessor, insns, a)
        if why:
            return 'FAIL', why
        return 'PASS', a.insn + ('; mb' if accessor.startswith('load') else '')
    return 'PASS', a.insn


def width_of(tslug: str, is_64bit: bool) -> int:
    word = 8 if is_64bit else 4
    return {'u8': 1, 's8': 1, 'bool': 1, 'u16': 2, 's16': 2, 'u32': 4, 's32': 4,
            'enum': 4, 'u64': 8, 's64': 8}.get(tslug, word)


def run_arch(spec: str, env) -> Tuple[int, int, List[str]]:
    a = afp_arch.parse(spec)
    arch, is_64bit = a.name, a.is_64bit
    out = kbuild.prepare_build(a, env['SRC'], env['BUILD'],
                               os.path.join(env['ROOT'], 'configs', 'compile-fail.config'),
                               env['TIP'], env['ROOT'])
    funcs = codegen.build_and_disassemble(arch, out, a.make_argv(out), a.tool('objdump'), is_64bit,
                                          name='single_access', lto_ld=a.lto_ld)
    rows, n = [], {'PASS': 0, 'FAIL': 0, 'SKIPPED': 0}
    for tslug, _, only64, _ in codegen.TYPES:
        if only64 and not is_64bit:
            continue
        for aslug, _, _, _ in codegen.ACCESSORS:
            verdict, why = judge(a.family, aslug, width_of(tslug, is_64bit),
                                 funcs.get(f'bench_afp_{tslug}_{aslug}'), lto=bool(a.lto_ld),
                                 twin=funcs.get(f'bench_ref_{tslug}_{aslug}'))
            n[verdict] += 1
            shown = '**FAIL**' if verdict == 'FAIL' else verdict
            rows.append((arch, tslug, aslug, shown, f'`{why}`'))
    return n['PASS'], n['FAIL'], n['SKIPPED'], rows


def main(argv: List[str]) -> int:
    env = ENV
    specs = argv[1:]
    results = Path(env['RESULTS'])
    results.mkdir(parents=True, exist_ok=True)
    table: List[tuple] = []
    total_p = total_f = total_s = 0
    for i, spec in enumerate(specs, 1):
        t0 = time.monotonic()
        arch = afp_arch.parse(spec).name
        print(f'==> single access [{i}/{len(specs)}] {arch}', flush=True)
        p, f, sk, rows = run_arch(spec, env)
        total_p, total_f, total_s = total_p + p, total_f + f, total_s + sk
        table += rows
        print(f'  {tally_line(p, f, sk, arch, always_skipped=True)} ({time.monotonic() - t0:.0f}s)', flush=True)
        for line in markdown_table(HEADER, rows)[2:]:
            if 'FAIL' in line or 'SKIPPED' in line:
                print('  ' + line)
    (results / 'single-access.md').write_text('\n'.join(markdown_table(HEADER, table)) + '\n')
    print(f'{tally_line(total_p, total_f, total_s, "single-access", always_skipped=True)}; '
          f'table in {results}/single-access.md')
    write_counts(results / 'single-access.counts.json', total_p, total_f, total_s)
    return 0 if total_f == 0 and total_p > 0 else 1


if __name__ == '__main__':
    sys.exit(main(sys.argv))
