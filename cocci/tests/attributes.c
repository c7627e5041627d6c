// SPDX-License-Identifier: GPL-2.0
/* Structs with trailing layout attributes (as struct inode has) are still seen. */
struct node {
	int refs;
	void *priv;
} __randomize_layout;

struct hot {
	long ticks;
} ____cacheline_aligned_in_smp;

long node_read(struct node *n, struct hot *h)
{
	return READ_ONCE(n->refs) + (long)READ_ONCE(n->priv) + READ_ONCE(h->ticks);
}

void node_write(struct node *n, struct hot *h)
{
	n->refs = 1;
	n->priv = NULL;
	h->ticks = 2;
}
