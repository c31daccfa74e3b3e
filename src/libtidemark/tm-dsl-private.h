/* SPDX-License-Identifier: GPL-3.0-or-later
 * Internals of TmDsl shared by the parser and the description set. */
#pragma once

#include "tm-dsl.h"

G_BEGIN_DECLS

/* Parses one file's text into TmDslDescription* (owned by the array; their
 * `file` field points to `name`, which the caller must keep alive).  Names
 * are fully qualified.  NULL with TM_ERROR_FORMAT on a syntax error. */
GPtrArray *tm_dsl_parse                (const char  *name,
                                        const char  *text,
                                        gsize        length,
                                        GError     **error);

void       tm_dsl_description_free     (TmDslDescription *description);

G_END_DECLS
