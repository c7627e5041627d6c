# SPDX-License-Identifier: GPL-2.0
"""Tests of afp/codegen's disassembly comparison (make bench's table 1) on fixture objdump text."""

import unittest

from afp import codegen as b

DIS = '''
bench.o:     file format elf64-x86-64


Disassembly of section .text:

0000000000000000 <bench_afp_u8_load_relaxed>:
   0:	movzbl (%rdi),%eax
   3:	ret
   4:	nopl   0x0(%rax)

0000000000000008 <bench_ref_u8_load_relaxed>:
   8:	movzbl (%rdi),%eax
   b:	ret

0000000000000010 <bench_afp_bool_load_relaxed>:
  10:	mov    (%rdi),%al
  12:	test   %al,%al
  14:	setne  %al
  17:	ret

0000000000000018 <bench_ref_bool_load_relaxed>:
  18:	mov    (%rdi),%al
  1a:	ret

0000000000000020 <bench_afp_u8_store_relaxed>:
  20:	call   25 <bench_afp_u8_store_relaxed+0x5>
			21: R_X86_64_PLT32	__fentry__-0x4
  25:	mov    %sil,(%rdi)
  28:	ret

0000000000000030 <bench_ref_u8_store_relaxed>:
  30:	call   35 <bench_ref_u8_store_relaxed+0x5>
			31: R_X86_64_PLT32	__sanitizer_cov-0x4
  35:	mov    %sil,(%rdi)
  38:	ret
'''


class Compare(unittest.TestCase):
    def setUp(self):
        self.rows = {(r.type, r.accessor): r
                     for r in b.compare(b.functions(DIS), 'x86_64', True)}

    def test_padding_and_addresses_are_ignored(self):
        self.assertEqual(self.rows[('u8', 'load_relaxed')].verdict, 'identical')
        self.assertEqual(self.rows[('u8', 'load_relaxed')].n_afp, 2)

    def test_different_instructions_differ(self):
        r = self.rows[('bool', 'load_relaxed')]
        self.assertEqual((r.verdict, r.n_afp, r.n_ref), ('differs', 4, 2))

    def test_relocations_are_compared(self):
        self.assertEqual(self.rows[('u8', 'store_relaxed')].verdict, 'differs')

    def test_absent_function_is_missing_not_identical(self):
        self.assertEqual(self.rows[('u16', 'load_relaxed')].verdict, 'missing')

    def test_64bit_types_only_on_64bit(self):
        rows = b.compare({}, 'i386', False)
        self.assertNotIn('u64', {r.type for r in rows})
        self.assertIn('u64', {r.type for r in b.compare({}, 'x86_64', True)})

    def test_source_declares_every_function_once(self):
        src = b.source(True)
        self.assertEqual(src.count('\nnoinline '), 2 * len(b.TYPES) * len(b.ACCESSORS))


if __name__ == '__main__':
    unittest.main()
