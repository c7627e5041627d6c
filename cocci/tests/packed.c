// SPDX-License-Identifier: GPL-2.0
/* Members of packed structs may be under-aligned: never converted. */
struct hdr1 {
	u8 type;
	u32 len;
} __packed;

struct hdr2 {
	u8 type;
	u32 len;
} __attribute__((packed));

u32 hdr_len(struct hdr1 *a, struct hdr2 *b)
{
	return READ_ONCE(a->len) + READ_ONCE(b->len);
}

void hdr_set(struct hdr1 *a, struct hdr2 *b, u32 n)
{
	a->len = n;
	b->len = n;
}
