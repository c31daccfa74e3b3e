/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * TmDsl: a set of data structure descriptions, read from `.ds` files in the
 * language of shared/ds-dsl.md (after Weninger et al., ICPE 2019).
 *
 * Names are stored fully qualified: the namespace is applied while parsing.
 * A file is loaded whole or not at all: a syntax error rejects that file
 * (with "FILE:LINE:COLUMN: what was expected") and leaves the set as it
 * was, so the other files still load.  A later description of the same type
 * replaces the earlier one and records a warning naming both places.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct {
  char     *pattern;    /* fully qualified; may contain '*' */
  gboolean  leaf;       /* written in parentheses: the descent stops there */
  gboolean  wildcard;   /* pattern contains '*' */
  guint     line;
  guint     column;
} TmDslPointee;

typedef struct {
  char         *type;        /* fully qualified Java binary name, arrays "T[]" */
  gboolean      is_head;     /* written with DS */
  TmDslPointee *pointees;
  guint         n_pointees;
  const char   *file;        /* owned by the TmDsl */
  guint         line;
  guint         column;
} TmDslDescription;

typedef struct _TmDsl TmDsl;

TmDsl                  *tm_dsl_new             (void);
void                    tm_dsl_free            (TmDsl *dsl);

/* Parses `text` (named `name` in messages) and adds its descriptions.
 * TM_ERROR_FORMAT "name:line:column: reason" on a syntax error, in which
 * case nothing of this text is added. */
gboolean                tm_dsl_add_string      (TmDsl       *dsl,
                                                const char  *name,
                                                const char  *text,
                                                gssize       length,
                                                GError     **error);
gboolean                tm_dsl_add_file        (TmDsl       *dsl,
                                                const char  *path,
                                                GError     **error);
/* Adds each of `files` (NULL-terminated, may be NULL); one that cannot be
 * read or parsed is left out and becomes a warning (the app's policy for
 * the user's preference; the CLI fails on an unreadable file instead). */
void                    tm_dsl_add_files       (TmDsl              *dsl,
                                                const char * const *files);
/* Adds every "*.ds" file of `dir` in name order.  A file that fails is
 * reported as a warning and skipped.  Returns the number of files added. */
guint                   tm_dsl_add_directory   (TmDsl       *dsl,
                                                const char  *dir,
                                                GError     **error);

/* The shipped descriptions: $TM_DSL_LIBRARY if set (running from the
 * build tree), else the installed dsl-library/ (tm-install.h). */
char                   *tm_dsl_library_dir     (void);
/* A set with the shipped library loaded (errors of single files become
 * warnings; fails only when the library directory cannot be read). */
TmDsl                  *tm_dsl_new_default     (GError     **error);

guint                   tm_dsl_n_descriptions  (const TmDsl *dsl);
/* In the order of first definition (a replacement keeps the slot). */
const TmDslDescription *tm_dsl_get             (const TmDsl *dsl,
                                                guint        i);
const TmDslDescription *tm_dsl_lookup          (const TmDsl *dsl,
                                                const char  *type);
/* Warnings so far (replacements, skipped files), NULL-terminated. */
const char * const     *tm_dsl_warnings        (const TmDsl *dsl);

/* TRUE if `name` matches `pattern`, where '*' matches any run of characters. */
gboolean                tm_dsl_pattern_match   (const char  *pattern,
                                                const char  *name);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TmDsl, tm_dsl_free)

G_END_DECLS
