/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * libFuzzer target: any bytes as an HPROF heap dump through the importer,
 * the model builder and the graph reader (which parses the file again),
 * and the import once more applying objects on the parsing thread: the
 * same model.
 * The importer reads files, so each input is written to a scratch file. */
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <glib/gstdio.h>

#include "tidemark.h"
#include "tm-hprof-private.h"
#include "fuzz-common.h"

int LLVMFuzzerTestOneInput (const guint8 *data, size_t size);

int
LLVMFuzzerTestOneInput (const guint8 *data, size_t size)
{
  static char *path;
  g_autoptr(GError) error = NULL;
  g_autoptr(TmTrace) trace = NULL;
  TmLoadOptions options = { .memory_limit = TM_FUZZ_MEMORY_LIMIT };

  if (path == NULL)
    path = g_strdup_printf ("%s/tm-fuzz-hprof-%d.hprof", g_get_tmp_dir (), (int) getpid ());
  {
    FILE *f = fopen (path, "wb");   /* no fsync: this runs thousands of times a second */
    if (f == NULL)
      return 0;
    if (size > 0 && fwrite (data, 1, size, f) != size)
      {
        fclose (f);
        return 0;
      }
    fclose (f);
  }
  trace = tm_hprof_import_full (path, &options, NULL, NULL, NULL, &error);
  if (trace == NULL)
    {
      g_assert (error != NULL);
      g_unlink (path);
      return 0;
    }
  for (guint id = 1; id <= trace->gcs->len; id++)
    {
      const TmGc *gc = tm_trace_gc (trace, id);
      if (gc->has_graph)
        {
          g_autoptr(GError) gerr = NULL;
          TmHeapGraph *g = tm_heap_graph_read (trace, id, NULL, &gerr);
          g_assert (g != NULL);
          g_assert (g->n_nodes == gc->live_objects);
          for (guint32 r = 0; r < g->n_roots; r++)
            {
              g_assert (g->root_node[r] < g->n_nodes);
              (void) tm_heap_graph_root_label (g, g->root_node[r]);
            }
          for (guint32 v = 0; v < g->n_nodes; v++)
            for (guint64 e = tm_heap_graph_edge_begin (g, v), e_end = tm_heap_graph_edge_end (g, v); e < e_end; e++)
              {
                g_autofree char *l = tm_heap_graph_edge_label (g, v, g->edges[e]);
                g_assert (g->edges[e] < g->n_nodes);
              }
          tm_heap_graph_free (g);
        }
    }
  tm_fuzz_check_trace (trace);
  {
    /* applying objects on the parsing thread builds the same model */
    g_autoptr(TmTrace) one = NULL;
    hprof_parse_set_one_thread (TRUE);
    one = tm_hprof_import_full (path, &options, NULL, NULL, NULL, NULL);
    hprof_parse_set_one_thread (FALSE);
    g_assert (one != NULL);
    g_assert (one->n_objects == trace->n_objects && one->stop_offset == trace->stop_offset);
    g_assert (one->warnings->len == trace->warnings->len);
    for (guint i = 0; i < one->warnings->len; i++)
      g_assert (strcmp (g_array_index (one->warnings, TmWarning, i).message,
                        g_array_index (trace->warnings, TmWarning, i).message) == 0);
    for (guint64 i = 0; i < one->n_objects; i++)
      g_assert (one->obj_size[i] == trace->obj_size[i]
                && (one->obj_death ? one->obj_death[i] : 0) == (trace->obj_death ? trace->obj_death[i] : 0));
  }
  g_unlink (path);
  return 0;
}
