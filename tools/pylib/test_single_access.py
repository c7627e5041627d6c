# SPDX-License-Identifier: GPL-2.0
"""Tests for single_access.py: which instructions count as an access to *p,
their width and kind, and the verdict on one function (objdump lines as
afp/codegen.functions() leaves them)."""

import unittest

import single_access as sa


class X86(unittest.TestCase):
    def test_loads_and_stores(self):
        for insn, width in (('mov (%rdi),%al', 1), ('movzbl (%rdi),%eax', 1),
                            ('movswl (%rdi),%eax', 2), ('movslq (%rdi),%rax', 4),
                            ('mov (%rdi),%rax', 8), ('mov %si,(%rdi)', 2),
                            ('mov %esi,(%rdi)', 4), ('cmpb $0x0,(%rdi)', 1),
                            ('mov 0x8(%eax),%edx', 4), ('mov %dl,(%eax)', 1)):
            with self.subTest(insn=insn):
                self.assertEqual(sa.x86_access(insn).width, width)

    def test_not_an_access_to_p(self):
        for insn in ('ret', 'test %al,%al', 'push %rbp', 'mov %rsp,%rbp',
                     'mov 0x8(%rsp),%rax', 'lea 0x8(%rdi),%rax', 'setne %al'):
            with self.subTest(insn=insn):
                self.assertIsNone(sa.x86_access(insn))

    def test_one_access_passes(self):
        self.assertEqual(sa.judge('x86', 'load_relaxed', 1,
                                  ['mov (%rdi),%al', 'test %al,%al', 'setne %al', 'ret']),
                         ('PASS', 'mov (%rdi),%al'))

    def test_two_accesses_fail(self):
        ok, why = sa.judge('x86', 'store_relaxed', 8,
                           ['mov %esi,(%rdi)', 'shr $0x20,%rsi', 'mov %esi,0x4(%rdi)', 'ret'])
        self.assertEqual(ok, 'FAIL')
        self.assertIn('2 memory accesses', why)

    def test_wrong_width_fails(self):
        ok, why = sa.judge('x86', 'load_relaxed', 8, ['mov (%rdi),%eax', 'ret'])
        self.assertEqual(ok, 'FAIL')
        self.assertIn('4 bytes, object is 8', why)

    def test_missing_function_fails(self):
        self.assertEqual(sa.judge('x86', 'load_relaxed', 4, None)[0], 'FAIL')

    def test_relocations_are_not_instructions(self):
        self.assertEqual(len(sa.accesses('x86', ['reloc R_X86_64_PLT32 __fentry__-0x4',
                                                 'mov (%rdi),%eax'])), 1)


class Arm64(unittest.TestCase):
    def test_widths_and_kinds(self):
        for insn, width, kind in (('ldrb w0, [x0]', 1, 'plain'), ('ldrsh w0, [x0]', 2, 'plain'),
                                  ('ldrsw x0, [x0]', 4, 'plain'), ('ldr x0, [x0]', 8, 'plain'),
                                  ('ldarb w0, [x0]', 1, 'acquire'), ('ldar w0, [x0]', 4, 'acquire'),
                                  ('ldapr x0, [x0]', 8, 'acquire'), ('stlrh w1, [x0]', 2, 'release'),
                                  ('stlr x1, [x0]', 8, 'release'), ('str w1, [x0]', 4, 'plain')):
            with self.subTest(insn=insn):
                a = sa.arm64_access(insn)
                self.assertEqual((a.width, a.kind), (width, kind))

    def test_stack_is_not_p(self):
        self.assertIsNone(sa.arm64_access('stp x29, x30, [sp, #-16]!'))
        self.assertIsNone(sa.arm64_access('add x0, x0, #0x8'))

    def test_plain_load_for_acquire_fails(self):
        ok, why = sa.judge('arm64', 'load_acquire', 4, ['ldr w0, [x0]', 'dmb ishld', 'ret'])
        self.assertEqual(ok, 'FAIL')
        self.assertIn('needs acquire', why)

    def test_release_passes(self):
        self.assertEqual(sa.judge('arm64', 'store_release', 8, ['stlr x1, [x0]', 'ret'])[0], 'PASS')

    def test_lto_relaxed_load_must_be_acquire(self):
        # arm64 LTO READ_ONCE(): LDAR (LDAPR patched in by an alternative).
        self.assertEqual(sa.judge('arm64', 'load_relaxed', 4, ['ldar w0, [x0]', 'ret'], lto=True)[0],
                         'PASS')
        ok, why = sa.judge('arm64', 'load_relaxed', 4, ['ldr w0, [x0]', 'ret'], lto=True)
        self.assertEqual(ok, 'FAIL')
        self.assertIn('needs acquire', why)
        # The LDAPR alternative follows the ret, in the same section.
        self.assertEqual(sa.judge('arm64', 'load_relaxed', 4,
                                  ['ldar w0, [x0]', 'ret', 'ldapr w0, [x0]'], lto=True),
                         ('PASS', 'ldar w0, [x0]; alternative: ldapr w0, [x0]'))
        self.assertEqual(sa.judge('arm64', 'load_relaxed', 4,
                                  ['ldar w0, [x0]', 'ret', 'ldaprb w0, [x0]'], lto=True)[0], 'FAIL')
        self.assertEqual(sa.judge('arm64', 'store_relaxed', 4,
                                  ['str w1, [x0]', 'ret', 'ldapr w0, [x0]'], lto=True)[0], 'FAIL')
        # Without LTO the relaxed load is a plain LDR, and LDAR is wrong.
        self.assertEqual(sa.judge('arm64', 'load_relaxed', 4, ['ldar w0, [x0]', 'ret'])[0], 'FAIL')


class Alpha(unittest.TestCase):
    def test_widths(self):
        for insn, width, kind in (('ldq v0,0(a0)', 8, 'plain'), ('ldl v0,0(a0)', 4, 'plain'),
                                  ('stw a1,0(a0)', 2, 'plain'), ('ldbu v0,0(a0)', 1, 'plain'),
                                  ('ldq_u t0,0(a0)', 8, 'unaligned')):
            with self.subTest(insn=insn):
                a = sa.alpha_access(insn)
                self.assertEqual((a.width, a.kind), (width, kind))

    def test_not_an_access_to_p(self):
        for insn in ('lda sp,-16(sp)', 'ldah gp,0(t12)', 'stq ra,0(sp)', 'mb', 'ret',
                     'extbl v0,a0,v0'):
            with self.subTest(insn=insn):
                self.assertIsNone(sa.alpha_access(insn))

    def test_relaxed_load_needs_mb_after(self):
        self.assertEqual(sa.judge('alpha', 'load_relaxed', 8, ['ldq v0,0(a0)', 'mb', 'ret'])[0], 'PASS')
        ok, why = sa.judge('alpha', 'load_relaxed', 8, ['ldq v0,0(a0)', 'ret'])
        self.assertEqual(ok, 'FAIL')
        self.assertIn('no mb after', why)

    def test_byte_load_is_one_quadword_load(self):
        self.assertEqual(sa.judge('alpha', 'load_relaxed', 1,
                                  ['ldq_u v0,0(a0)', 'extbl v0,a0,v0', 'mb', 'ret'])[0], 'PASS')

    def test_release_needs_mb_before(self):
        self.assertEqual(sa.judge('alpha', 'store_release', 4, ['mb', 'stl a1,0(a0)', 'ret'])[0], 'PASS')
        self.assertEqual(sa.judge('alpha', 'store_release', 4, ['stl a1,0(a0)', 'mb', 'ret'])[0], 'FAIL')

    def test_byte_store_rmw_is_skipped_only_when_the_twin_is_the_same(self):
        rmw = ['ldq_u t0,0(a0)', 'insbl a1,a0,a1', 'mskbl t0,a0,t0', 'bis a1,t0,a1',
               'stq_u a1,0(a0)', 'ret']
        self.assertEqual(sa.judge('alpha', 'store_relaxed', 1, rmw, twin=list(rmw))[0], 'SKIPPED')
        self.assertEqual(sa.judge('alpha', 'store_relaxed', 1, rmw, twin=rmw[:-2] + ['ret'])[0],
                         'FAIL')
        self.assertEqual(sa.judge('alpha', 'store_relaxed', 4, ['ldq_u t0,0(a0)', 'stq_u a1,0(a0)',
                                                                'ret'], twin=None)[0], 'FAIL')


class Widths(unittest.TestCase):
    def test_word_types_follow_the_arch(self):
        self.assertEqual(sa.width_of('ptr', True), 8)
        self.assertEqual(sa.width_of('ulong', False), 4)
        self.assertEqual(sa.width_of('bool', False), 1)


if __name__ == '__main__':
    unittest.main()
