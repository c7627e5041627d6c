// SPDX-License-Identifier: GPL-2.0
/* A member whose typedef the tools cannot size is not converted; ktime_t is
 * known to be 64 bits (wide). */
struct clock {
	ktime_t when;
	phys_addr_t where;
	mystery_t what;
	int ok;
};

int clock_read(struct clock *c)
{
	return READ_ONCE(c->when) + READ_ONCE(c->where) + READ_ONCE(c->what) + READ_ONCE(c->ok);
}

void clock_write(struct clock *c)
{
	c->when = 1;
	c->where = 2;
	c->what = 3;
	c->ok = 4;
}
