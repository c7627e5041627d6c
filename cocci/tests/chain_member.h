/* SPDX-License-Identifier: GPL-2.0 */
/* The structs of chain_member.c, in a header: spatch (--no-includes) does
 * not see them for the .c, tools/convert's definitions pass does. */
struct run_state {
	int mp_state;
	int halted;
};

struct link_parms {
	int link;
	unsigned long long wide;
};

struct vcpu {
	struct run_state arch;
	struct link_parms *parms;
	int id;
};

struct packed_outer {
	char tag;
	struct run_state inner;
} __packed;

static inline struct run_state *vcpu_state(struct vcpu *v)
{
	return &v->arch;
}
