// SPDX-License-Identifier: GPL-2.0
/* A plain store through a pointer to a field read with READ_ONCE(): converted. */
struct counter {
	int state;
	unsigned long seq;
};

int counter_peek(struct counter *c)
{
	return READ_ONCE(c->state) + READ_ONCE(c->seq);
}

void counter_set(struct counter *c, int v)
{
	c->state = v;
	c->seq = 0;
}
