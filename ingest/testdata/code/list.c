/*
 * Copyright 2031 Example. SPDX-License-Identifier: MIT-0
 */
#include <stdlib.h>

#define LIST_MAX 64

struct node {
	int value;
	struct node *next;
};

/* list_push adds v at the front. */
static struct node *
list_push(struct node *head, int v)
{
	struct node *n = malloc(sizeof *n);
	n->value = v;
	n->next = head;
	return n;
}
