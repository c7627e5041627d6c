# SPDX-License-Identifier: GPL-2.0
"""cocci/marked_store.cocci carries afp/member_kind.py's rule as generated
text: regenerate and compare (scripts/atomic's way), and check that a hand
edit of the copy is caught.
Does not: run spatch (the cocci fixtures do)."""

import unittest
from pathlib import Path

from afp import member_kind as mk

COCCI = Path(__file__).resolve().parents[2] / 'cocci' / 'marked_store.cocci'


class MemberKindCopy(unittest.TestCase):
    def test_cocci_copy_is_the_generated_block(self):
        self.assertEqual(mk.embedded(COCCI.read_text()), mk.smpl_block().rstrip('\n'),
                         'cocci/marked_store.cocci was edited by hand or is stale; run '
                         'python3 tools/pylib/afp/member_kind.py --write cocci/marked_store.cocci')

    def test_a_hand_edit_is_caught(self):
        edited = mk.smpl_block().replace("return 'wide'", "return 'ok'")
        self.assertNotEqual(mk.embedded(edited), mk.smpl_block().rstrip('\n'))

    def test_the_copy_behaves_as_the_source(self):
        scope: dict = {}
        exec(mk.smpl_block(), scope)  # noqa: S102 - our own generated code
        for t, bit in [('int', False), ('ktime_t', False), ('u64', False), ('long long', False),
                       ('struct x', False), ('int [ 4 ]', False), ('unsigned int', True),
                       ('void *', False), ('mystery_t', False), ('enum e', False)]:
            with self.subTest(t=t):
                self.assertEqual(scope['afp_kind'](t, bit), mk.member_kind(t, bit))


if __name__ == '__main__':
    unittest.main()
