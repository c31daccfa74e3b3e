/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * TmRootPathPanel: why a group is alive, shown in full: one row per hop
 * from the GC root to the group's largest object (type, object, the field
 * or array element holding it, the root's kind and, for a static field,
 * the class that owns it, where it was allocated), and a Copy button
 * that puts the same as text on the clipboard.  Hidden until a path is
 * asked for; the heap and compare views put it under their tables.
 */
#pragma once

#include <gtk/gtk.h>

#include "tidemark.h"

G_BEGIN_DECLS

#define TM_TYPE_ROOT_PATH_PANEL (tm_root_path_panel_get_type ())
G_DECLARE_FINAL_TYPE (TmRootPathPanel, tm_root_path_panel, TM, ROOT_PATH_PANEL, GtkWidget)

GtkWidget   *tm_root_path_panel_new        (void);
/* Shows the panel with a message (searching, an error) and no rows. */
void         tm_root_path_panel_set_message (TmRootPathPanel  *self,
                                             const char       *message);
/* Shows `path` of the group `group` (its label) in `trace`. */
void         tm_root_path_panel_set_path    (TmRootPathPanel  *self,
                                             TmTrace          *trace,
                                             const char       *group,
                                             const TmRootPath *path);
/* What Copy copies: the header and a line per hop, tab-separated. */
const char  *tm_root_path_panel_get_text    (TmRootPathPanel  *self);
guint        tm_root_path_panel_get_n_hops  (TmRootPathPanel  *self);

G_END_DECLS
