// SPDX-License-Identifier: GPL-2.0
/* Assignments inside conditions and for headers are never converted. */
struct it {
	int pos;
	struct it *next;
};

int it_pos(struct it *i)
{
	return READ_ONCE(i->pos);
}

void it_walk(struct it *i, struct it *n)
{
	if ((i->pos = 3))
		n = NULL;
	while ((i->pos = next_pos(i)) > 0)
		n = NULL;
	for (i->pos = 0; i->pos < 3; n = NULL)
		n = NULL;
	for (i->pos = 0; ; )
		break;
}
