// SPDX-License-Identifier: GPL-2.0
/* Arrays, structs and unions are not one machine word: never converted. */
struct inner {
	int x;
};

union u {
	int i;
	long l;
};

struct outer {
	int arr[4];
	struct inner in;
	union u un;
	char name[16];
};

int outer_read(struct outer *o, struct inner i, union u un)
{
	return READ_ONCE(o->arr)[0] + READ_ONCE(o->in).x + READ_ONCE(o->un).i;
}

void outer_write(struct outer *o, struct inner i, union u un)
{
	o->in = i;
	o->un = un;
}
