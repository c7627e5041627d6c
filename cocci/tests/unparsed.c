// SPDX-License-Identifier: GPL-2.0
/*
 * Code spatch cannot parse is dropped, stores and all: the store in
 * gauge_reset() is reported as unparsed-store, never silently lost.
 */
struct gauge {
	int level;
};

int gauge_read(struct gauge *g)
{
	return READ_ONCE(g->level);
}

void gauge_set(struct gauge *g, int v)
{
	g->level = v;
}

void gauge_reset(struct gauge *g)
{
	g->level = 0;
	GAUGE_MAGIC(g) {{ ]] ;
}
