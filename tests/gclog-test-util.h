/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The real GC logs of tests/data/gc-logs (see its README) for the tests.
 */
#pragma once

#include <glib.h>
#include "tm-gclog.h"

static inline char *
gclog_test_path (const char *name)
{
  return g_test_build_filename (G_TEST_DIST, "data", "gc-logs", name, NULL);
}

/* tests/data/gc-logs/NAME imported; the test fails if it cannot be. */
static inline TmTrace *
gclog_test_load (const char *name)
{
  g_autofree char *path = gclog_test_path (name);
  g_autoptr(GError) error = NULL;
  TmTrace *t = tm_gclog_import (path, NULL, NULL, NULL, &error);

  g_assert_no_error (error);
  g_assert_nonnull (t);
  return t;
}
