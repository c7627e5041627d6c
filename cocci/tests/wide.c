// SPDX-License-Identifier: GPL-2.0
/* 64-bit members would tear on 32-bit architectures: never converted. */
struct stamp {
	u64 ns;
	long long big;
	unsigned long long ubig;
	s64 delta;
};

u64 stamp_read(struct stamp *s)
{
	return READ_ONCE(s->ns) + READ_ONCE(s->big) + READ_ONCE(s->ubig) + READ_ONCE(s->delta);
}

void stamp_write(struct stamp *s, u64 now)
{
	s->ns = now;
	s->big = 1;
	s->ubig = 2;
	s->delta = 3;
}
