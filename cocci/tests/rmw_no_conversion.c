// SPDX-License-Identifier: GPL-2.0
/*
 * Read-modify-write is still reported in a file where every plain store is
 * left alone (here: a 64-bit field), as on a rerun over a converted tree.
 */
struct meter {
	u64 total;
	unsigned long events;
};

unsigned long meter_read(struct meter *m)
{
	return READ_ONCE(m->total) + READ_ONCE(m->events);
}

void meter_add(struct meter *m, u64 n)
{
	m->total = n;
	m->events++;
	m->events += 2;
}
