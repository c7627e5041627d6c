// SPDX-License-Identifier: GPL-2.0
/* Read-modify-write of a field read locklessly: reported, never converted. */
struct stats {
	unsigned long hits;
	unsigned int mask;
};

unsigned long stats_hits(struct stats *s)
{
	return READ_ONCE(s->hits) + READ_ONCE(s->mask);
}

void stats_bump(struct stats *s, unsigned long n)
{
	s->hits++;
	++s->hits;
	s->hits--;
	s->hits += n;
	s->mask |= 4;
	s->mask = s->mask | 8;
	s->mask = 16 & s->mask;
	/* as fs/fcntl.c setfl() writes f_flags: the field deeper in the value */
	s->mask = (n & 3) | (s->mask & ~3);
}

/* The same field name in a struct nobody reads locklessly: not a finding. */
struct other {
	unsigned int mask;
};

void other_bump(struct other *o)
{
	o->mask |= 1;
}
