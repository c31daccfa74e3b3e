/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define TM_ERROR (tm_error_quark ())

typedef enum {
  TM_ERROR_FAILED,        /* generic */
  TM_ERROR_NOT_A_TRACE,   /* no known format recognised */
  TM_ERROR_FORMAT,        /* malformed content (offset in message) */
  TM_ERROR_TRUNCATED,     /* input ends early */
  TM_ERROR_UNSUPPORTED,   /* e.g. a newer format version */
  TM_ERROR_INVALID_ARGUMENT,
  TM_ERROR_NO_GRAPH,      /* analysis needs a reference graph at that GC */
  TM_ERROR_MEMORY_LIMIT,  /* the model would exceed the load's memory budget */
} TmErrorCode;

GQuark tm_error_quark (void);

G_END_DECLS
