/* SPDX-License-Identifier: GPL-2.0 */
/* The structs of other_member.c, in a header spatch (--no-includes) does
 * not see for the .c: a load average kept both in a queue and in each
 * entity, as struct cfs_rq and struct sched_entity keep struct sched_avg. */
struct avg {
	int load;
	int util;
	int runnable;
};

struct queue {
	struct avg avg;
	int nr;
};

struct entity {
	struct avg avg;
	int weight;
};
