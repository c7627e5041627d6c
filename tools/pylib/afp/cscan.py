# SPDX-License-Identifier: GPL-2.0
"""A C text scanner for what spatch could not parse or does not see.

Where spatch drops code it cannot parse, these find the marked loads and
the stores to given field names in the lines it names (locate()), so they
are reported rather than lost; and they blank __attribute__((...)) so the
definitions pass sees structs spatch 1.1.1 would drop; may_be_typed()
says whether spatch could type the base of any store to given fields in a
file, so the store pass can leave out files that could only give untyped
reports.
Guarantees: line and column positions are kept by every rewrite.
Does not: parse C; a line is judged on its own text (macro bodies, comment
lines and designated initializers are left out by their look).
"""

import re
from collections import defaultdict
from typing import Dict, List, Optional, Sequence, Set, Tuple


def packed_in_text(text: str, line: int) -> bool:
    """'struct __packed S {' style, which the SmPL attribute rules miss."""
    lines = text.splitlines()
    head = lines[line - 1] if 0 < line <= len(lines) else ''
    return bool(re.search(r'\bstruct\s+(__packed|__attribute__\s*\(\(\s*packed)', head))


def anon_packed(text: str, line: int) -> bool:
    """Whether the anonymous struct or union holding the member on line is
    packed: the first '}' that closes a brace opened before that line is
    followed, before its ';', by 'packed'. An unclosed one counts as packed."""
    lines = text.splitlines(keepends=True)
    rest = ''.join(lines[line - 1:]) if 0 < line <= len(lines) else ''
    depth = 0
    for i, c in enumerate(rest):
        if c == '{':
            depth += 1
        elif c == '}':
            depth -= 1
            if depth < 0:
                tail = rest[i + 1:rest.find(';', i)]
                return 'packed' in tail
    return True


def locate(text: str, bad: Sequence[str]) -> List[int]:
    """Line numbers of bad (texts of lines, in file order) in text: each is
    looked for from the previous one on, then from the top (spatch repeats
    a line when it retries); blank and unfound lines are left out."""
    where: Dict[str, List[int]] = defaultdict(list)
    for i, line in enumerate(text.splitlines(), 1):
        where[line].append(i)
    found: Set[int] = set()
    cursor = 1
    for b in bad:
        if not b.strip() or b not in where:
            continue
        free = [n for n in where[b] if n not in found]
        at = next((n for n in free if n >= cursor), free[0] if free else None)
        if at is not None:
            found.add(at)
            cursor = at + 1
    return sorted(found)


def hidden_stores(text: str, unparsed: Sequence[int], names: Set[str]) -> List[Tuple[str, int]]:
    """(field, line) for each store to one of names on an unparsed line.
    Not stores: designated initializers ('{ .f = v', '.a.f = v,'), macro
    definitions (spatch matches no macro body in parsed code either),
    comment lines, and TP_fast_assign()'s __entry->f = v (the trace
    ring-buffer record, which trace headers spatch cannot parse fill)."""
    lines = text.splitlines()
    out = []
    for n in unparsed:
        line = code_of(lines[n - 1])
        if not code_line(lines, n):
            continue
        for m in HIDDEN_STORE_RE.finditer(line):
            name = m.group(1) or m.group(2)
            chain = re.search(r'[\w.]*$', line[:m.start()]).group(0)
            if chain.startswith('.') or chain == '__entry':
                continue  # '.a.b = v,' initializer; a tracepoint's ring-buffer entry
            if name in names:
                out.append((name, n))
    return out


STRING_RE = re.compile(r'"(?:[^"\\\n]|\\.)*"|\'(?:[^\'\\\n]|\\.)*\'')


def code_of(line: str) -> str:
    """line with its string and character literals emptied ('"cq.id=%u"'
    holds no store)."""
    return STRING_RE.sub('""', line)


def code_line(lines: Sequence[str], n: int) -> bool:
    """Line n (1-based) is C code: not a comment line, not part of a macro
    definition (spatch matches no macro body in parsed code either)."""
    return not (lines[n - 1].lstrip().startswith(('#', '*', '/*', '//'))
                or (n > 1 and lines[n - 2].rstrip().endswith('\\')))


def hidden_reads(text: str, unparsed: Sequence[int]) -> List[Tuple[str, int]]:
    """(field, line) for each marked load of e->f / e.f on an unparsed line
    outside macro definitions and comments (as hidden_stores)."""
    lines = text.splitlines()
    out = []
    for n in unparsed:
        line = lines[n - 1]
        if not code_line(lines, n):
            continue
        out += [(m.group(1), n) for m in HIDDEN_READ_RE.finditer(code_of(line))]
    return out


HIDDEN_READ_RE = re.compile(r'\b(?:READ_ONCE|smp_load_acquire|atomic_load_(?:relaxed|acquire)_from_ptr)'
                            r'\s*\(\s*&?[\w\s>().\[\]-]*?(?:->|\.)\s*([A-Za-z_]\w*)\s*\)')


# e->f op, x.f op (the '.' after an expression, not after '{' or ','), ++e->f
HIDDEN_STORE_RE = re.compile(r'(?:->|(?<=[\w)\]])\s*\.|(?<=[\w)\]])\.)\s*([A-Za-z_]\w*)\s*'
                             r'(?:=(?!=)|[-+*/%&|^]=|<<=|>>=|\+\+|--)'
                             r'|(?:\+\+|--)\s*[A-Za-z_][\w\[\]>.-]*(?:->|\.)([A-Za-z_]\w*)')


# spatch 1.1.1 drops a struct whose closing brace is followed by
# __attribute__((...)) (struct file: '} __randomize_layout
# __attribute__((aligned(4)));'), so the definitions pass reads copies with
# every __attribute__((...)) blanked out, line and column positions kept;
# one that says 'packed' becomes __packed, which the packed rule matches.
ATTRIBUTE_RE = re.compile(r'__attribute__\s*\(\((?:[^()]|\((?:[^()]|\([^()]*\))*\))*\)\)')


# Attribute macros after a struct's closing brace that spatch 1.1.1 takes
# for a variable's name, so the struct is no definition to the rules
# (struct lock_class: '} __no_randomize_layout;'). __randomize_layout and
# ____cacheline_aligned_in_smp have rules of their own in
# cocci/lockless_fields.cocci; standard.h defines ____cacheline_aligned away.
TRAILING_ATTRIBUTE_RE = re.compile(r'(?<=\})\s*(?:__no_randomize_layout|____cacheline_internodealigned_in_smp)'
                                   r'(?=\s*;)')


def blank_attributes(text: str) -> str:
    def blank(m: 're.Match[str]') -> str:
        spaces = re.sub(r'[^\n]', ' ', m.group(0))
        return '__packed' + spaces[8:] if 'packed' in m.group(0) else spaces
    return TRAILING_ATTRIBUTE_RE.sub(blank, ATTRIBUTE_RE.sub(blank, text))


STORE_OP_RE = re.compile(r'(?:->|\.)\s*(\w+)\s*(?:[-+*/%&|^]?=(?!=)|<<=|>>=|\+\+|--)')
PRE_STORE_RE = re.compile(r'(?:\+\+|--)\s*(\w+)\s*(?:->|\.)\s*(\w+)')
BASE_END_RE = re.compile(r'(\w+|[)\]])\s*$')


def store_bases(text: str, wanted: Set[str]):
    """(base, field) of each store to a wanted field: the word, ')' or ']'
    just before '->field' or '.field'."""
    for m in STORE_OP_RE.finditer(text):
        if m.group(1) in wanted:
            b = BASE_END_RE.search(text, max(0, m.start() - 80), m.start())
            yield (b.group(1) if b else ''), m.group(1)
    for m in PRE_STORE_RE.finditer(text):
        if m.group(2) in wanted:
            yield m.group(1), m.group(2)


STRUCT_SPLIT_RE = re.compile(r'\bstruct\s+')
DECL_END_RE = re.compile(r'[;{}]')
WORD_RE = re.compile(r'\w+')


def struct_declared(text: str) -> Dict[str, Set[str]]:
    """struct name -> the words after 'struct NAME' up to the next ';', '{',
    '}' or 'struct': the names it declares, and some more; a typedef of
    the struct is noted as the name '(typedef)'."""
    declared: Dict[str, Set[str]] = defaultdict(set)
    parts = STRUCT_SPLIT_RE.split(text)
    for before, part in zip(parts, parts[1:]):
        m = WORD_RE.match(part)
        if not m:
            continue
        end = DECL_END_RE.search(part)
        declared[m.group()].update(WORD_RE.findall(part[m.end():end.start() if end else len(part)]))
        if before.rstrip().endswith('typedef'):
            declared[m.group()].add('(typedef)')
    return declared


def may_be_typed(text: str, wanted: Set[str], structs: Dict[str, Set[str]],
                 members: Optional[Dict[str, Set[str]]] = None) -> bool:
    """Whether spatch (--no-includes) could type the base of one of TEXT's
    stores to a wanted field: the base is a cast, call or element
    ('...)->f', '...]->f'), or a name the file declares with one of the
    field's structs ('struct S *name', 'struct S a, name'), or the file
    typedefs one of them (the typedef's name may declare the base), or it
    is a member name that members gives for the field (e->a.f, typed
    through the definition of e's struct)."""
    declared: Optional[Dict[str, Set[str]]] = None
    for base, field in store_bases(text, wanted):
        if base in (')', ']') or (members and base in members.get(field, ())):
            return True
        if declared is None:
            declared = struct_declared(text)
        if any(base in declared.get(st, ()) or '(typedef)' in declared.get(st, ()) for st in structs[field]):
            return True
    return False
