/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Where Tidemark finds its installed files (data structure descriptions,
 * the sample trace, the recording agent, translations, the settings
 * schema).  In order: an environment variable naming the file itself
 * (for running from the build tree: `meson devenv` and the tests set
 * them), the same place relative to the running program (a relocated or
 * DESTDIR install), the configured prefix.  Never the build tree: an
 * installed Tidemark works with its build directory gone.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef enum {
  TM_INSTALL_DATADIR,     /* $prefix/share */
  TM_INSTALL_LIBDIR,      /* $prefix/lib (or lib64, lib/<triplet>) */
  TM_INSTALL_LOCALEDIR,   /* $prefix/share/locale */
} TmInstallDir;

/* The first existing of: $env_var (if env_var is set and non-empty, it is
 * used as is, existing or not), <program>/../<dir>/name, <prefix dir>/name.
 * NULL if neither exists. */
char *tm_install_find (const char   *env_var,
                       TmInstallDir  dir,
                       const char   *name);

/* <prefix dir>/name, the place named in messages when nothing is found. */
char *tm_install_path (TmInstallDir  dir,
                       const char   *name);

/* Binds Tidemark's message catalogue to $TIDEMARK_LOCALEDIR (the build
 * tree's translations, set by `meson devenv`), else the installed ones,
 * in UTF-8: for the programs (the app, the CLI's report) that speak the
 * user's language. */
void  tm_install_bind_textdomain (void);

G_END_DECLS
