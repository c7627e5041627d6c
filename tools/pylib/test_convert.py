# SPDX-License-Identifier: GPL-2.0
"""Tests for convert.py's parsing and deciding (no spatch, no kernel tree)."""

import os
import shlex
import sys
import unittest
from pathlib import Path
from unittest import mock

import convert as cv
from afp import fields as fl
from afp import generated
from afp import member_kind as mk
from afp import message as msg
from afp import spatch as sp

DISCOVER = '''field\ttyped\tfoo\ta\tfs/x.c:18
field\tuntyped\t?\tzz\tfs/x.c:21
noise line
'''

DECLS = '''struct\tfoo\tinclude/foo.h:1
struct\tfoo\tinclude/foo.h:1
struct\tpk\tinclude/foo.h:10
member\tfoo\ta\tint\tplain\tinclude/foo.h:2
member\tfoo\tarr\tint [ 4 ]\tplain\tinclude/foo.h:5
member\tfoo\tbits\tint\tbitfield\tinclude/foo.h:4
member\tpk\tx\tint\tplain\tinclude/foo.h:11
packed\tpk\tinclude/foo.h:10
'''


class ParseTest(unittest.TestCase):
    def test_discover(self):
        a, z = cv.parse_discover(DISCOVER)
        self.assertEqual(a, cv.Read(True, 'foo', 'a', 'fs/x.c', 18))
        self.assertEqual((z.typed, z.struct, z.name), (False, '?', 'zz'))

    def test_decls_members_belong_to_nearest_definition(self):
        foo, pk = cv.parse_decls(DECLS)
        self.assertEqual(foo.members, {'a': ('int', False), 'arr': ('int [ 4 ]', False), 'bits': ('int', True)})
        self.assertFalse(foo.packed)
        self.assertTrue(pk.packed)

    def test_decls_anonymous_members(self):
        d, = cv.parse_decls('struct\tdio\tx.c:1\nmember\tdio\tsize\tint\tplain\tx.c:6\n'
                            'member\tdio\twaiter\tstruct task_struct *\tanon\tx.c:4\n')
        self.assertEqual(d.members, {'size': ('int', False), 'waiter': ('struct task_struct *', False)})
        self.assertEqual(d.anon, {'waiter': 4})

    def test_sites_and_dedupe(self):
        text = ('afp\tstore\tfoo\ta\tx.c:4\nafp\tuntyped-store\t?\ta\tx.c:4\n'
                'afp\tuntyped-store\t?\tb\tx.c:5\nafp\trmw\t?\tc\tx.c:6\nafp\trmw\t?\tc\tx.c:6\n')
        kinds = [s.kind for s in cv.dedupe_sites(cv.parse_sites(text))]
        self.assertEqual(kinds, ['store', 'untyped-store', 'rmw'])

    def test_dedupe_drops_untyped_store_claimed_by_rmw(self):
        text = 'afp\trmw\tnode\texpires\th.h:9\nafp\tuntyped-store\t?\texpires\th.h:9\n'
        self.assertEqual([s.kind for s in cv.dedupe_sites(cv.parse_sites(text))], ['rmw'])


class KindTest(unittest.TestCase):
    def test_member_kinds(self):
        for t, bit, want in [('int', False, 'ok'), ('unsigned long', False, 'ok'), ('void *', False, 'ok'),
                             ('const struct ops *', False, 'ok'), ('enum state', False, 'ok'),
                             ('bool', False, 'ok'), ('int', True, 'bitfield'), ('int [ 4 ]', False, 'array'),
                             ('struct bar', False, 'aggregate'), ('union u', False, 'aggregate'),
                             ('u64', False, 'wide'), ('unsigned long long', False, 'wide'),
                             ('ktime_t', False, 'wide'), ('seqcount_t', False, 'unknown-type'),
                             ('void (*)(int)', False, 'ok'),          # a function pointer is a pointer
                             ('int (*)[4]', False, 'array'), ('sector_t', False, 'wide'),
                             ('u_int32_t', False, 'ok'),
                             ('float', False, 'unknown-type')]:
            self.assertEqual(mk.member_kind(t, bit), want, t)

    def test_packed_in_text(self):
        self.assertTrue(cv.packed_in_text('x\nstruct __packed hdr {\n', 2))
        self.assertFalse(cv.packed_in_text('struct hdr {\n', 1))



class DecideTest(unittest.TestCase):
    def setUp(self):
        h = fl.StructDef('foo', 'include/foo.h', 1, {'a': ('int', False), 'w': ('u64', False)})
        local = fl.StructDef('foo', 'drivers/x.c', 3, {'a': ('int', False)})
        self.defs = cv.Defs([h, local, fl.StructDef('dup', 'a.h', 1), fl.StructDef('dup', 'b.h', 1)])
        self.h, self.local = h, local

    def test_resolve_prefers_own_definition_then_unique_header(self):
        self.assertIs(self.defs.resolve('foo', 'drivers/x.c')[0], self.local)
        self.assertIs(self.defs.resolve('foo', 'fs/y.c')[0], self.h)
        self.assertEqual(self.defs.resolve('dup', 'fs/y.c'), (None, 'struct-ambiguous'))
        self.assertEqual(self.defs.resolve('nope', 'fs/y.c'), (None, 'struct-definition-not-found'))

    def test_pairs_follow_the_definition_the_reader_saw(self):
        reads = [cv.Read(True, 'foo', 'a', 'fs/r.c', 1), cv.Read(True, 'foo', 'w', 'fs/r.c', 2),
                 cv.Read(True, 'dup', 'q', 'fs/r.c', 3), cv.Read(False, '?', 'z', 'fs/r.c', 4)]
        fields = cv.shared_fields(reads, self.defs)
        self.assertEqual(sorted(f.kind for f in fields.values()), ['ok', 'struct-ambiguous', 'wide'])
        self.assertEqual(fl.convertible_pairs('kernel/w.c', fields, self.defs), {'foo:a'})
        # drivers/x.c has its own struct foo, which nobody reads locklessly
        self.assertEqual(fl.convertible_pairs('drivers/x.c', fields, self.defs), set())

    def test_member_alias_through_a_define(self):
        decls = '\n'.join([
            'struct\tsock_common\tinclude/net/sock.h:163',
            'member\tsock_common\tskc_state\tvolatile unsigned char\tplain\tinclude/net/sock.h:185',
            'member\tsock_common\tskc_flags\tint\tbitfield\tinclude/net/sock.h:186',
            'struct\tsock\tinclude/net/sock.h:360',
            'member\tsock\t__sk_common\tstruct sock_common\tplain\tinclude/net/sock.h:365',
            'member\tsock\tsk_prot\tstruct proto *\tplain\tinclude/net/sock.h:370',
            'struct\tpk\tinclude/p.h:1', 'packed\tpk\tinclude/p.h:1',
            'member\tpk\tv\tint\tplain\tinclude/p.h:2',
            'struct\tholder\tinclude/p.h:9',
            'member\tholder\tin\tstruct pk\tplain\tinclude/p.h:10'])
        aliases = cv.parse_aliases('\n'.join([
            '#define sk_state\t\t__sk_common.skc_state',
            '#define sk_flags __sk_common.skc_flags',
            '#define sk_gone __sk_common.nothing',
            '#define via_ptr sk_prot.x',
            '#define h_v in.v',
            '#define twice a.b', '#define twice a.c',
            '#define NOT_A_MEMBER 1.5']))
        self.assertEqual(aliases['sk_state'], ['__sk_common', 'skc_state'])
        self.assertNotIn('twice', aliases)
        self.assertNotIn('NOT_A_MEMBER', aliases)
        defs = cv.Defs(cv.parse_decls(decls))
        self.assertEqual(cv.add_aliases(defs, aliases), 2)
        sock = defs.resolve('sock', 'net/x.c')[0]
        self.assertEqual(sock.members['sk_state'], ('volatile unsigned char', False))
        self.assertEqual(sock.members['sk_flags'], ('int', True))   # a bit-field stays one
        self.assertNotIn('sk_gone', sock.members)                  # no such member down the path
        self.assertNotIn('via_ptr', sock.members)                  # through a pointer: not a member
        self.assertNotIn('h_v', defs.resolve('holder', 'net/x.c')[0].members)   # through a packed struct
        fields = cv.shared_fields([cv.Read(True, 'sock', 'sk_state', 'net/r.c', 1)], defs)
        self.assertEqual([f.kind for f in fields.values()], ['ok'])

    def test_explain_skips(self):
        fields = cv.shared_fields([cv.Read(True, 'foo', 'w', 'fs/r.c', 2)], self.defs)
        sites = [cv.Site('skip-store', 'foo', 'w', 'x.c', 1), cv.Site('skip-store', 'bar', 'w', 'x.c', 2)]
        self.assertEqual([s.kind for s in cv.explain_skips(sites, fields)],
                         ['skip-store:wide', 'skip-store:unrelated'])


class TemplateTest(unittest.TestCase):
    def test_fill_has_literal_names_and_no_placeholder(self):
        out = cv.fill_template(cv.STORE_TEMPLATE.read_text(), ['b', 'a', 'a'])
        self.assertIn('identifier f = {a, b};', out)
        self.assertNotIn('@FIELDS@', out)
        self.assertNotIn('@KEYWORDS@', out)
        with self.assertRaises(ValueError):
            cv.fill_template('x', [])

    def test_subsystem(self):
        self.assertEqual(cv.subsystem('fs/ext4/inode.c'), 'fs/ext4')
        self.assertEqual(cv.subsystem('kernel/time/timer.c'), 'kernel/time')
        self.assertEqual(cv.subsystem('mm/slub.c'), 'mm')
        self.assertEqual(cv.subsystem('drivers/net/phy/phy.c'), 'drivers/net/phy')
        self.assertEqual(msg.subject_prefix('kernel/time'), 'time')
        self.assertEqual(msg.subject_prefix('net/core'), 'net')
        self.assertEqual(msg.subject_prefix('net/sched'), 'net/sched')

    def test_message_of_a_commit_with_lockless_reads_only(self):
        cand = {'struct': 'sock', 'field': 'f', 'lock': 'lock_sock(struct sock)',
                'writers': [('net/core/sock.c:10', 'w', 'set')], 'readers': [('net/sched/q.c:5', 0, 'q')]}
        sites = [cv.Site('store', 'sock', 'f', 'net/core/sock.c', 10),
                 cv.Site('plain-read', 'sock', 'f', 'net/sched/q.c', 5, 'without lock_sock(struct sock)')]
        text = msg.commit_message('net/sched', ['net/sched/q.c'], sites, {}, 'tools/convert x', '', [cand])
        self.assertTrue(text.startswith('net/sched: mark the lockless reads of fields written under a lock\n'))
        self.assertIn('written under lock_sock(struct sock) (net/core/sock.c:10), read without it at 1 site; here:',
                      ' '.join(text.split()))
        self.assertNotIn('Mark the stores', text)
        both = msg.commit_message('net/core', ['net/core/sock.c', 'net/sched/q.c'], sites, {}, 'tools/convert x', '',
                                  [cand])
        self.assertTrue(both.startswith('net: mark the lockless accesses to fields written under a lock\n'))
        self.assertIn('(1 writer), read without it at 1 site:', ' '.join(both.split()))

    def test_spec_for(self):
        self.assertEqual(cv.spec_for(['fs/', 'mm/slub.c'])[:3], ['fs/*.c', 'fs/*.h', 'mm/slub.c'])
        self.assertEqual(cv.spec_for([])[:2], ['*.c', '*.h'])


class NamedFieldTest(unittest.TestCase):
    def setUp(self):
        self.defs = cv.Defs(cv.parse_decls(DECLS))

    def test_spec(self):
        self.assertEqual(cv.parse_field_spec('file.f_flags'), ('file', 'f_flags', ''))
        self.assertEqual(cv.parse_field_spec('struct file.f_flags'), ('file', 'f_flags', ''))
        self.assertEqual(cv.parse_field_spec('file.f_flags@fs/read_write.c:42'),
                         ('file', 'f_flags', 'fs/read_write.c:42'))
        with self.assertRaises(SystemExit):
            cv.parse_field_spec('f_flags')

    def test_named_field_keeps_only_named_and_adds_unread_ones(self):
        reads = [cv.Read(True, 'foo', 'a', 'fs/x.c', 18), cv.Read(True, 'foo', 'bits', 'fs/x.c', 19)]
        fields = cv.shared_fields(reads, self.defs)
        got = cv.named_fields([('foo', 'a', ''), ('foo', 'arr', ''), ('pk', 'x', 'pk.c:3'), ('nosuch', 'y', '')],
                             fields, self.defs)
        by = {(f.struct, f.name): f for f in got.values()}
        self.assertEqual(set(by), {('foo', 'a'), ('foo', 'arr'), ('pk', 'x'), ('nosuch', 'y')})
        self.assertEqual(by[('foo', 'a')].readers, ['fs/x.c:18'])    # discovered: its reader
        self.assertEqual(by[('foo', 'arr')].readers, ['named'])
        self.assertEqual(by[('foo', 'arr')].kind, 'array')            # classified like any other
        self.assertEqual(by[('pk', 'x')].kind, 'packed')
        self.assertEqual(by[('pk', 'x')].readers, ['pk.c:3'])        # the reader the option named
        self.assertEqual(by[('nosuch', 'y')].kind, 'struct-definition-not-found')


class AttributeTest(unittest.TestCase):
    def test_blanking_keeps_positions_and_packing(self):
        text = 'struct f {\n\tint a;\n} __randomize_layout\n  __attribute__((aligned(4)));\n'
        out = cv.blank_attributes(text)
        self.assertEqual(len(out), len(text))
        self.assertEqual(out.count('\n'), text.count('\n'))
        self.assertNotIn('__attribute__', out)
        packed = 'struct p { int a; } __attribute__((packed, aligned(2)));'
        out = cv.blank_attributes(packed)
        self.assertEqual(len(out), len(packed))
        self.assertIn('} __packed ', out)

    def test_anonymous_aggregate_packed(self):
        text = ('struct s {\n\tunion {\n\t\tint a;\n\t\tstruct { int x; } in;\n\t\tint b;\n\t};\n'
                '\tstruct {\n\t\tint c;\n\t} __packed;\n\tunion {\n\t\tint d;\n\t} __attribute__((packed));\n};\n')
        self.assertEqual([cv.anon_packed(text, n) for n in (3, 5, 8, 11)], [False, False, True, True])
        self.assertTrue(cv.anon_packed('struct s {\n\tunion {\n\t\tint a;\n', 3))   # never closed

    def test_trailing_attribute_macros_are_blanked(self):
        text = 'struct lock_class {\n\tint key;\n} __no_randomize_layout;\nstruct s { int a; } __no_randomize_layout_x;\n'
        out = cv.blank_attributes(text)
        self.assertEqual(len(out), len(text))
        self.assertIn('\n}                      ;\n', out)
        self.assertIn('__no_randomize_layout_x;', out)   # a name, not the macro


ERR = """init_defs_builtins: /usr/lib/coccinelle/standard.h
HANDLING: fs/x.c
parse error 
 = error in fs/x.c; set verbose_parsing for more info
badcount: 3
bad: void f(struct foo *p)
bad: {
bad: \tp->a = 1;
BAD:!!!!! \tMAGIC(p) {{ ]] ;
HANDLING: fs/y.c
Fatal error: something else
"""

SRC = """struct foo { int a; };
void f(struct foo *p)
{
\tp->a = 1;
\tMAGIC(p) {{ ]] ;
}
void g(struct foo *p)
{
\tp->a = 2;
}
"""


class ParseErrorTest(unittest.TestCase):
    def test_split(self):
        bad, rest = sp.parse_errors(ERR)
        self.assertEqual(bad, {'fs/x.c': ['void f(struct foo *p)', '{', '\tp->a = 1;', '\tMAGIC(p) {{ ]] ;']})
        self.assertEqual(rest, 'Fatal error: something else')

    def test_semantic_error_names_its_file(self):
        # A semantic error prints ' =error in' (no space): the lines after it
        # belong to that file, not to a HANDLING line naming several.
        err = ('HANDLING: fs/a.c fs/b.c\nsemantic error function with no return type must have types in '
               'param list\n =error in fs/b.c; set verbose_parsing for more info\nbadcount: 1\nbad: x\n')
        self.assertEqual(sp.parse_errors(err), ({'fs/b.c': ['x']}, ''))

    def test_locate_in_order_and_repeated(self):
        self.assertEqual(cv.locate(SRC, ['void f(struct foo *p)', '{', '\tp->a = 1;', '\tMAGIC(p) {{ ]] ;',
                                         '\tMAGIC(p) {{ ]] ;', 'not in the file']), [2, 3, 4, 5])

    def test_hidden_stores(self):
        self.assertEqual(cv.hidden_stores(SRC, [2, 3, 4, 5], {'a'}), [('a', 4)])
        self.assertEqual(cv.hidden_stores(SRC, [4], {'b'}), [])
        self.assertEqual(cv.hidden_stores('x->n++;\n++y.n;\nif (p->n == 1)\n', [1, 2, 3], {'n'}),
                         [('n', 1), ('n', 2)])

    def test_not_stores(self):
        text = ('static struct s v[] = {\n\t{ .n = 1 },\n\t.n = 2,\n};\n'
                '#define INIT(p) (p)->n = 0; \\\n\t(p)->n = 1\n/* p->n = 3 */\n'
                '\t.u.n = 4,\n\t__entry->n = 5;\n\tTP_printk("cq.n=%u", x);\n\tc = \'.\'; s = "p->n = 1";\n')
        self.assertEqual(cv.hidden_stores(text, list(range(1, 12)), {'n'}), [])

    def test_hidden_reads(self):
        text = 'x = READ_ONCE(p->a);\ny = smp_load_acquire(&q->r.s) + READ_ONCE(t.u);\n#define R(p) READ_ONCE(p->z)\n'
        self.assertEqual(cv.hidden_reads(text, [1, 2, 3]), [('a', 1), ('s', 2), ('u', 2)])

    def test_unparsed_of(self):
        self.assertEqual(cv.unparsed_of('unparsed\t3\tfs/x.c:0\nfield\tunparsed\t?\ta\tfs/x.c:4\n'
                                        'unparsed\t0\tfs/y.c:0\n'), (1, 3))
        read = cv.parse_discover('field\tunparsed\t?\ta\tfs/x.c:4\n')
        self.assertEqual(read, [cv.Read(False, '?', 'a', 'fs/x.c', 4)])

    def test_dedupe_keeps_unparsed_only_where_nothing_matched(self):
        sites = [cv.Site('store', 'foo', 'a', 'x.c', 4), cv.Site('unparsed-store', '?', 'a', 'x.c', 4),
                 cv.Site('unparsed-store', '?', 'a', 'x.c', 9)]
        self.assertEqual(cv.dedupe_sites(sites), [sites[0], sites[2]])


class MayBeTypedTest(unittest.TestCase):
    """The store pass's last filter: a store whose base spatch could type
    keeps the file; each rule next to a store that must not keep it."""
    W, S = {'f_flags'}, {'f_flags': {'file'}}

    def typed(self, text):
        return cv.may_be_typed(text, self.W, self.S)

    def test_declared_base(self):
        self.assertTrue(self.typed('static int f(struct inode *i, struct file *filp)\n{\n\tfilp->f_flags = 0;\n}\n'))
        self.assertTrue(self.typed('struct file a, *b;\nvoid g(void) { b->f_flags |= 1; }\n'))
        self.assertFalse(self.typed('static int f(struct inode *filp)\n{\n\tfilp->f_flags = 0;\n}\n'))
        self.assertFalse(self.typed('void f(struct file *filp) { p->f_flags = 0; }\n'))

    def test_cast_call_element_and_typedef(self):
        self.assertTrue(self.typed('\tfile_of(p)->f_flags = 0;\n'))
        self.assertTrue(self.typed('\tfiles[i].f_flags++;\n'))
        self.assertTrue(self.typed('typedef struct file file_t;\nvoid f(file_t *p) { p->f_flags = 0; }\n'))

    def test_other_fields_and_reads(self):
        self.assertFalse(self.typed('void f(struct file *p) { p->f_mode = 0; }\n'))
        self.assertFalse(self.typed('void f(struct file *p) { if (p->f_flags == 0) g(p->f_flags); }\n'))

    def test_chain_member_base(self):
        text = 'void f(struct vcpu *v) { v->arch.f_flags = 0; }\n'
        self.assertFalse(self.typed(text))
        self.assertTrue(cv.may_be_typed(text, self.W, self.S, {'f_flags': {'arch'}}))
        self.assertFalse(cv.may_be_typed(text, self.W, self.S, {'f_flags': {'other'}}))


CHAIN_DECLS = '''struct\tvcpu\tinclude/kvm.h:1
member\tvcpu\tarch\tstruct run_state\tplain\tinclude/kvm.h:2
member\tvcpu\tparms\tconst struct link_parms *\tplain\tinclude/kvm.h:3
member\tvcpu\tbits\tstruct run_state\tbitfield\tinclude/kvm.h:4
member\tvcpu\tid\tint\tplain\tinclude/kvm.h:5
struct\tpk\tinclude/kvm.h:8
member\tpk\tinner\tstruct run_state\tplain\tinclude/kvm.h:9
member\tpk\tout\tstruct run_state *\tplain\tinclude/kvm.h:10
packed\tpk\tinclude/kvm.h:8
struct\trun_state\tinclude/kvm.h:12
member\trun_state\tmp_state\tint\tplain\tinclude/kvm.h:13
'''


class ChainTest(unittest.TestCase):
    """e->a.f / e->a->f typed one member further, through T's definition."""
    defs = fl.Defs(fl.parse_decls(CHAIN_DECLS))

    def test_discover_chain_line(self):
        r, = cv.parse_discover('field\tchain\tvcpu.arch\tmp_state\tx.c:7\n')
        self.assertEqual(r, cv.Read(False, '?', 'mp_state', 'x.c', 7, 'vcpu.arch'))

    def test_discover_member_line_gives_a_typed_read_its_member(self):
        text = ('field\ttyped\tavg\tload\tx.c:7\n'
                'field\ttyped\tavg\tload\tx.c:7\n'
                'field\tmember\tcfs_rq.avg\tload\tx.c:7\n'
                'field\ttyped\tavg\tutil\tx.c:8\n')
        self.assertEqual(cv.parse_discover(text),
                         [cv.Read(True, 'avg', 'load', 'x.c', 7, 'cfs_rq.avg'),
                          cv.Read(True, 'avg', 'load', 'x.c', 7),     # a second read there: a bare pointer
                          cv.Read(True, 'avg', 'util', 'x.c', 8)])

    def test_read_only_via(self):
        reads = [cv.Read(True, 'avg', 'load', 'x.c', 7, 'cfs_rq.avg'),
                 cv.Read(True, 'avg', 'load', 'y.c', 3, 'rq.avg_rt'),
                 cv.Read(True, 'avg', 'util', 'x.c', 8, 'cfs_rq.avg'),
                 cv.Read(True, 'avg', 'util', 'x.c', 9)]
        defs = fl.Defs(fl.parse_decls('struct\tavg\tx.h:1\nmember\tavg\tload\tint\tplain\tx.h:2\n'
                                      'member\tavg\tutil\tint\tplain\tx.h:3\n'))
        fields = fl.shared_fields(reads, defs)
        # util is also read through a bare struct avg *: no restriction.
        self.assertEqual(fl.read_only_via(fields), {'avg:load': ['cfs_rq.avg', 'rq.avg_rt']})
        named = fl.named_fields([('avg', 'load', '')], fields, defs)
        self.assertEqual(fl.read_only_via(named), {})   # --field: its stores are judged wherever they are

    def test_member_struct(self):
        ms = fl.member_struct
        self.assertEqual(ms(self.defs, 'vcpu', 'arch'), 'run_state')
        self.assertEqual(ms(self.defs, 'vcpu', 'parms'), 'link_parms')
        self.assertIsNone(ms(self.defs, 'vcpu', 'id'))       # not a struct
        self.assertIsNone(ms(self.defs, 'vcpu', 'bits'))     # a bit-field
        self.assertIsNone(ms(self.defs, 'vcpu', 'nope'))     # no such member
        self.assertIsNone(ms(self.defs, 'absent', 'arch'))   # no definition
        self.assertIsNone(ms(self.defs, 'pk', 'inner'))      # inside a packed struct
        self.assertEqual(ms(self.defs, 'pk', 'out'), 'run_state')  # a pointer in it: not packed itself

    def test_type_chains(self):
        reads = [cv.Read(False, '?', 'mp_state', 'x.c', 7, 'vcpu.arch'),
                 cv.Read(False, '?', 'mp_state', 'x.c', 8, 'vcpu.id'),
                 cv.Read(True, 'vcpu', 'id', 'x.c', 9)]
        self.assertEqual(fl.type_chains(reads, self.defs),
                         [cv.Read(True, 'run_state', 'mp_state', 'x.c', 7, 'vcpu.arch'),
                          cv.Read(False, '?', 'mp_state', 'x.c', 8), reads[2]])

    def test_call_map(self):
        out = ('static inline struct run_state *vcpu_state(struct vcpu *v)\n'
               'struct link_parms *get_parms(int id);\n'
               'static __always_inline const struct run_state *twice(void)\n'
               'struct vcpu *twice(void);\n')
        self.assertEqual(fl.call_map(out, {'run_state', 'vcpu'}), {'vcpu_state()': 'run_state'})
        self.assertEqual(fl.call_map(out, {'link_parms'}), {'get_parms()': 'link_parms'})

    def test_chain_map_only_to_the_given_structs(self):
        self.assertEqual(fl.chain_map(self.defs, {'run_state'}), {'vcpu.arch': 'run_state', 'pk.out': 'run_state'})
        self.assertEqual(fl.chain_map(self.defs, {'link_parms'}), {'vcpu.parms': 'link_parms'})
        self.assertEqual(fl.chain_map(self.defs, set()), {})


class ReaderLinesTest(unittest.TestCase):
    def test_pass1_prefilter(self):
        import subprocess
        import tempfile
        files = {'plain.c': 'x = READ_ONCE(*p) + READ_ONCE(v);\n',
                 'member.c': 'x = READ_ONCE(p->a);\n',
                 'addr.c': 'x = smp_load_acquire(&s.a);\n',
                 'split.c': 'x = READ_ONCE(\n\tp->a);\n',
                 'none.c': 'x = p->a;\n'}
        with tempfile.TemporaryDirectory() as d:
            for name, text in files.items():
                Path(d, name).write_text(text)
            subprocess.run(['git', 'init', '-q', d], check=True)
            subprocess.run(['git', '-C', d, 'add', '-A'], check=True)
            self.assertEqual(cv.grep_files(d, cv.READER_LINES_RE, cv.spec_for([])),
                             ['addr.c', 'member.c', 'split.c'])


class BlobTextTest(unittest.TestCase):
    def test_two_blobs_one_cat_file(self):
        import subprocess
        import tempfile
        with tempfile.TemporaryDirectory() as d:
            subprocess.run(['git', 'init', '-q', d], check=True)
            ids = []
            for text in ('a\nb\n', 'x\u00e9\n'):
                ids.append(subprocess.run(['git', '-C', d, 'hash-object', '-w', '--stdin'], input=text.encode(),
                                          capture_output=True, check=True).stdout.decode().strip())
            self.assertEqual(cv.blob_texts(d, ids), {ids[0]: 'a\nb\n', ids[1]: 'x\u00e9\n'})
            self.assertEqual(cv.blob_texts(d, []), {})


class CachedPassTest(unittest.TestCase):
    """A group of files that fails is rerun one file per process: only the
    file that fails alone is marked failed, the others keep their output."""

    def test_failed_group_is_rerun_file_by_file(self):
        calls = []

        def fake(argv, cwd, timeout, env=None, bad=None):
            names = argv[-1:] if '--file-groups' not in argv else \
                [n for n in Path(argv[-1]).read_text().split('\n') if n]
            calls.append(names)
            if len(names) > 1 or names == ['b.c']:
                return '', 'timeout'
            return f'field\ttyped\tS\tf\t{names[0]}:1\n', ''

        with mock.patch.object(sp, 'run_spatch', fake):
            outs = sp.cached_pass('.', ['a.c', 'b.c', 'c.c'], {}, sp.Cache(None, ''), 1, 'test',
                                  ['spatch'], 10, 3, False)
        self.assertEqual(calls, [['a.c', 'b.c', 'c.c'], ['a.c'], ['b.c'], ['c.c']])
        self.assertEqual([(o.path, o.failed, o.out) for o in outs],
                         [('a.c', '', 'field\ttyped\tS\tf\ta.c:1'), ('b.c', 'timeout', ''),
                          ('c.c', '', 'field\ttyped\tS\tf\tc.c:1')])


class PythonFlagTest(unittest.TestCase):
    def flag(self, value):
        with mock.patch.dict(os.environ, {'SPATCH_PYTHON': value}):
            return sp.python_flag()

    def test_named_interpreter(self):
        self.assertEqual(self.flag(sys.executable), ['--python', sys.executable])

    def test_empty_passes_nothing(self):
        self.assertEqual(self.flag(''), [])

    def test_missing_interpreter_passes_nothing(self):
        self.assertEqual(self.flag('/nonexistent/python3'), [])


class CommitMessageTest(unittest.TestCase):
    def test_message_lists_fields_rmw_and_command(self):
        defs = cv.Defs(cv.parse_decls(DECLS))
        fields = cv.named_fields([('foo', 'a', '')], {}, defs)
        sites = [cv.Site('store', 'foo', 'a', 'fs/x.c', 3), cv.Site('store', 'foo', 'a', 'fs/x.c', 9),
                 cv.Site('rmw', '?', 'a', 'fs/y.c', 5), cv.Site('rmw', '?', 'a', 'mm/z.c', 5)]
        msg = cv.commit_message('fs', ['fs/x.c'], sites, fields, 'tools/convert --field foo.a fs', 'Why.')
        self.assertTrue(msg.startswith('fs: use atomic_store_relaxed_from_ptr()'))
        self.assertIn('\nWhy.\n', msg)
        self.assertIn('  struct foo::a, named on the command line:\n    fs/x.c:3, store\n    fs/x.c:9, store\n', msg)
        self.assertIn('  fs/y.c:5 (a)', msg)
        self.assertNotIn('lock held keeps its plain', msg)
        self.assertNotIn('mm/z.c', msg)
        self.assertIn('  tools/convert --field foo.a fs\n', msg)
        self.assertEqual(generated.command_from_message(msg), ['tools/convert', '--field', 'foo.a', 'fs'])
        self.assertNotIn('could not parse', msg)

    def test_message_justifies_each_site_and_lists_those_left(self):
        defs = cv.Defs(cv.parse_decls(DECLS))
        fields = cv.named_fields([('foo', 'a', 'fs/r.c:12')], {}, defs)
        sites = [cv.Site('rmw-store', 'foo', 'a', 'fs/x.c', 3, 'f->lock (spin_lock())'),
                 cv.Site('store', 'foo', 'a', 'fs/x.c', 7, 'f->lock (spin_lock())'),
                 cv.Site('left:fresh', 'foo', 'a', 'fs/x.c', 9, 'f = kzalloc() in new()'),
                 cv.Site('left:init', 'foo', 'a', 'mm/z.c', 5, '__init z()')]
        msg = cv.commit_message('fs', ['fs/x.c'], sites, fields, 'tools/convert fs', '')
        self.assertIn('  struct foo::a, read locklessly at fs/r.c:12:\n'
                      '    fs/x.c:3, read-modify-write under f->lock (spin_lock())\n'
                      '    fs/x.c:7, store, under f->lock (spin_lock())\n', msg)
        self.assertIn('lock held keeps its plain', msg)
        self.assertIn('  fs/x.c:9 (a: fresh, f = kzalloc() in new())\n', msg)
        self.assertNotIn('mm/z.c', msg)

    def test_message_lists_unparsed_stores_of_its_subsystem(self):
        defs = cv.Defs(cv.parse_decls(DECLS))
        fields = cv.named_fields([('foo', 'a', '')], {}, defs)
        sites = [cv.Site('store', 'foo', 'a', 'fs/x.c', 3), cv.Site('unparsed-store', '?', 'a', 'fs/x.c', 40),
                 cv.Site('unparsed-store', '?', 'a', 'mm/z.c', 7)]
        msg = cv.commit_message('fs', ['fs/x.c'], sites, fields, 'tools/convert fs', '')
        self.assertIn('could not parse', msg)
        self.assertIn('  fs/x.c:40 (a)\n', msg)
        self.assertNotIn('mm/z.c', msg)

    def test_long_command_wraps_under_75_and_reads_back(self):
        argv = ['tools/convert', '--field', 'file.f_flags', '--commit', '--reason-file',
                'cocci/reasons/file-f_flags.txt', 'fs', 'kernel/sched/a b.c', '--jobs', '2']
        lines = generated.wrap_command(' '.join(shlex.quote(a) for a in argv))
        self.assertGreater(len(lines), 1)
        self.assertTrue(all(len(line) < 75 for line in lines), lines)
        msg = 'x\n\nfilled and run by\n' + '\n'.join(lines) + '\n(discovery: ...)\n'
        self.assertEqual(generated.command_from_message(msg), argv)


class RefuseTreeTest(unittest.TestCase):
    def test_a_tree_without_patch_1_is_refused_unless_dry_run(self):
        import subprocess
        import tempfile
        with tempfile.TemporaryDirectory() as d:
            Path(d, 'a.c').write_text('int x;\n')
            subprocess.run(['git', 'init', '-q', d], check=True)
            subprocess.run(['git', '-C', d, 'add', '-A'], check=True)
            subprocess.run(['git', '-C', d, '-c', 'user.name=t', '-c', 'user.email=t@invalid', 'commit', '-qm', 't'],
                           check=True)
            with mock.patch.object(cv, 'spatch_version', side_effect=AssertionError('ran past the check')):
                with self.assertRaises(SystemExit) as e:
                    cv.main(['--ksrc', d, '--no-cache'])
                self.assertIn('Apply patch 1', str(e.exception))
                with self.assertRaises(AssertionError):
                    cv.main(['--ksrc', d, '--no-cache', '--dry-run'])


if __name__ == '__main__':
    unittest.main()
