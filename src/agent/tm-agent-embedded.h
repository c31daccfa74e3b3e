/* SPDX-License-Identifier: GPL-3.0-or-later
 * Class files embedded at build time (tm-embed-classes.py). */
#pragma once

typedef struct {
  const char          *name;   /* binary name, e.g. "Outer$Inner"; NULL ends a table */
  const unsigned char *data;
  unsigned int         len;
} TmAgentEmbeddedClass;

/* TidemarkOps first, then the transformer's classes; empty when the build
 * JDK has no internal ASM. */
extern const TmAgentEmbeddedClass tm_agent_container_classes[];
