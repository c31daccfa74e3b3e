/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * One sentence naming the container a leak window is most likely about,
 * for the window's explanation (tm-containers.h).
 */
#include "tm-config.h"
#include "tm-containers.h"
#include "tm-format-util.h"

#include <glib/gi18n-lib.h>

/* "High" leak confidence; the container must also be relevant
 * (tm_container_relevant): LC favours staleness when MC is small, so a
 * stale map of a few KiB (the JDK has some) can top the ranking without
 * explaining any growth. */
#define HEADLINE_MIN_LC     0.5

const TmContainer *
tm_container_report_headline_container (const TmTrace *trace, const TmContainerReport *r)
{
  const TmContainer *c;

  g_return_val_if_fail (trace != NULL && r != NULL, NULL);
  /* the relevant containers come first, sorted by LC */
  if (r->containers->len == 0)
    return NULL;
  c = g_ptr_array_index (r->containers, 0);
  return c->relevant && c->lc >= HEADLINE_MIN_LC ? c : NULL;
}

static char *
site_text (const TmTrace *trace, guint32 site)
{
  return site == TM_UNKNOWN ? g_strdup (_("an unknown site")) : tm_trace_site_label (trace, site);
}

char *
tm_container_report_headline (const TmTrace *trace, const TmContainerReport *r)
{
  const TmContainer *c = tm_container_report_headline_container (trace, r);
  g_autofree char *name = NULL;
  g_autofree char *alloc = NULL;
  g_autofree char *bytes = NULL;
  g_autofree char *elements = NULL;
  g_autofree char *stalest = NULL;
  const char *how;

  if (c == NULL)
    return NULL;
  name = g_strdup_printf ("%s @%" G_GUINT64_FORMAT, tm_trace_type (trace, c->type)->name,
                          tm_trace_object_id (trace, c->head_object));
  alloc = site_text (trace, trace->obj_site[c->head_object]);
  bytes = tm_format_bytes ((double) c->bytes_at_end);
  elements = tm_format_count (c->elements_at_end);
  how = c->exact ? _("exact, from the recorded operations") : _("an upper bound from the reference graphs");
  if (c->sites->len > 0 && g_array_index (c->sites, TmContainerSite, 0).site != TM_UNKNOWN)
    stalest = tm_trace_site_label (trace, g_array_index (c->sites, TmContainerSite, 0).site);
  if (stalest != NULL)
    /* TRANSLATORS: container (type @object id), its allocation site, LC, MC, SC, how SC was found, size,
     * element count, the site that added its stalest elements */
    return g_strdup_printf (_("Most likely leaking container: %s allocated at %s (leak confidence %.2f: memory "
                              "contribution %.2f, staleness %.2f, %s), %s in %s elements, the stalest %s at %s."),
                            name, alloc, c->lc, c->mc, c->sc, how, bytes, elements,
                            c->exact ? _("added") : _("allocated"), stalest);
  /* TRANSLATORS: container (type @object id), its allocation site, LC, MC, SC, how SC was found, size,
   * element count */
  return g_strdup_printf (_("Most likely leaking container: %s allocated at %s (leak confidence %.2f: memory "
                            "contribution %.2f, staleness %.2f, %s), %s in %s elements."),
                          name, alloc, c->lc, c->mc, c->sc, how, bytes, elements);
}
