/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * TmSection: the base of the analysis views (as Sysprof's SysprofSection).
 * A view is constructed with the window's session, which holds the
 * document of the opened file and the time ranges; it asks the document
 * for what it shows (no analysis code or caches of its own) and names
 * itself through :title, which its page's tab shows.
 */
#pragma once

#include <gtk/gtk.h>

#include "tm-session.h"

G_BEGIN_DECLS

#define TM_TYPE_SECTION (tm_section_get_type ())
G_DECLARE_DERIVABLE_TYPE (TmSection, tm_section, TM, SECTION, GtkWidget)

struct _TmSectionClass
{
  GtkWidgetClass parent_class;
};

/* The session given at construction (":session", construct-only). */
TmSession   *tm_section_get_session  (TmSection  *self);
/* Its document, NULL while nothing is open. */
TmDocument  *tm_section_get_document (TmSection  *self);
const char  *tm_section_get_title    (TmSection  *self);
void         tm_section_set_title    (TmSection  *self,
                                      const char *title);

G_END_DECLS
