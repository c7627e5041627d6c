// SPDX-License-Identifier: GPL-2.0
/* Chained assignments are left alone and reported. */
struct pair {
	int a;
	int b;
};

int pair_read(struct pair *p)
{
	return READ_ONCE(p->a) + READ_ONCE(p->b);
}

void pair_reset(struct pair *p, struct pair *q)
{
	p->a = q->b = 0;
	p->b = p->a = 1;
}
