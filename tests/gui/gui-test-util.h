/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Fixture code shared by the GUI tests: the environment and display check,
 * the synthetic leak trace in a scratch folder, the application, running
 * the main loop until something is done, finding widgets, PNG checks.
 */
#pragma once

#include <gtk/gtk.h>

#include "tm-application.h"
#include "tm-app-window.h"

G_BEGIN_DECLS

/* What every GUI test starts from. */
typedef struct {
  char          *tmpdir;     /* scratch folder (also XDG_DATA_HOME) */
  char          *leak_path;  /* the synthetic leak scenario in it */
  TmApplication *app;        /* registered, non-unique */
} TmGuiTestFixture;

/* Quiet environment, g_test_init, the scratch folder, the display, the
 * leak trace (scale <= 0: the default size) and the application.  FALSE:
 * no display; the caller exits 77 (skip), nothing is left behind. */
gboolean       tm_gui_test_setup         (int               *argc,
                                          char            ***argv,
                                          const char        *tmp_template,
                                          double             scale,
                                          TmGuiTestFixture  *fixture);

/* g_test_run (), then releases the application and removes the folder. */
int            tm_gui_test_run           (TmGuiTestFixture  *fixture);

/* Iterates the main loop for ms milliseconds without blocking. */
void           tm_gui_test_spin          (guint ms);

/* Iterates until done (data) or max_ms passed, then lets idles run. */
void           tm_gui_test_spin_until    (gboolean  (*done) (gpointer),
                                          gpointer    data,
                                          guint       max_ms);

/* Presents win, opens path and waits (up to 60 s) until the trace shows. */
void           tm_gui_test_open_and_wait (TmAppWindow *win,
                                          const char  *path);

/* The first widget of type below root (root included), or NULL. */
GtkWidget     *tm_gui_test_find_widget   (GtkWidget *root,
                                          GType      type);

/* The position of `title` among the strings of a dropdown's
 * GtkStringList, or -1. */
int            tm_gui_test_dropdown_index (GtkDropDown *dropdown,
                                           const char  *title);

/* Renders the widget as it shows now into a PNG file. */
gboolean       tm_gui_test_save_png      (GtkWidget  *widget,
                                          const char *path,
                                          GError    **error);

/* Asserts that path is a PNG image of width x height. */
void           tm_gui_test_assert_png    (const char *path,
                                          int         width,
                                          int         height);

G_END_DECLS
