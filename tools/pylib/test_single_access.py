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
                         (True, 'mov (%rdi),%al'))

    def test_two_accesses_fail(self):
        ok, why = sa.judge('x86', 'store_relaxed', 8,
                           ['mov %esi,(%rdi)', 'shr $0x20,%rsi', 'mov %esi,0x4(%rdi)', 'ret'])
        self.assertFalse(ok)
        self.assertIn('2 memory accesses', why)

    def test_wrong_width_fails(self):
        ok, why = sa.judge('x86', 'load_relaxed', 8, ['mov (%rdi),%eax', 'ret'])
        self.assertFalse(ok)
        self.assertIn('4 bytes, object is 8', why)

    def test_missing_function_fails(self):
        self.assertFalse(sa.judge('x86', 'load_relaxed', 4, None)[0])

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
        self.assertFalse(ok)
        self.assertIn('needs acquire', why)

    def test_release_passes(self):
        self.assertTrue(sa.judge('arm64', 'store_release', 8, ['stlr x1, [x0]', 'ret'])[0])


class Widths(unittest.TestCase):
    def test_word_types_follow_the_arch(self):
        self.assertEqual(sa.width_of('ptr', True), 8)
        self.assertEqual(sa.width_of('ulong', False), 4)
        self.assertEqual(sa.width_of('bool', False), 1)


if __name__ == '__main__':
    unittest.main()
