// SPDX-License-Identifier: GPL-2.0
/* Stores to fields nobody reads locklessly are left alone. */
struct quiet {
	int a;
	int b;
};

int quiet_read(struct quiet *q)
{
	return READ_ONCE(q->a);
}

void quiet_write(struct quiet *q, struct other *o)
{
	q->b = 1;
	o->a = 2;
}
