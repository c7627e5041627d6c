// SPDX-License-Identifier: GPL-2.0
/* Structs with trailing layout attributes (as struct inode has) are still seen. */
struct node {
	int refs;
	void *priv;
} __randomize_layout;

struct hot {
	long ticks;
} ____cacheline_aligned_in_smp;

/* As struct file ends; spatch 1.1.1 cannot parse this struct as written. */
struct fileish {
	unsigned int f_flags;
} __randomize_layout
  __attribute__((aligned(4)));

long node_read(struct node *n, struct hot *h, struct fileish *f)
{
	return READ_ONCE(n->refs) + (long)READ_ONCE(n->priv) + READ_ONCE(h->ticks) +
	       READ_ONCE(f->f_flags);
}

void node_write(struct node *n, struct hot *h, struct fileish *f)
{
	n->refs = 1;
	n->priv = NULL;
	h->ticks = 2;
	f->f_flags = 3;
}
