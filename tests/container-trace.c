/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The hand-built container trace (see container-trace.h), shared by the
 * library test and the GUI test.
 */
#include "container-trace.h"
#include "tm-trace-writer.h"

enum { T_BOX = 1, T_ITEM = 2, T_BIG = 3 };

#define SEC G_GUINT64_CONSTANT (1000000000)

/* items of each box after GC g */
guint
tm_test_container_items (guint box, guint g)
{
  switch (box)
    {
    case BOX_A: return g;
    case BOX_B: return 2;
    case BOX_C: return g == 2 ? 2 : 1;
    case BOX_D: return g < 5 ? 1 : 0;
    default: return 0;
    }
}

double
tm_test_container_total (guint g)
{
  double items = 0;

  for (guint box = BOX_A; box <= BOX_D; box++)
    items += tm_test_container_items (box, g);
  return 4 * 16 + 1000 + 100.0 * items;
}

static void
op (TmTraceWriter *w, gboolean with_ops, guint kind, double seconds, guint64 box, guint64 item)
{
  if (with_ops)
    tm_trace_writer_container_op (w, kind, (guint64) (seconds * SEC + 0.5), box, item, 4, 1);
}

GBytes *
tm_test_container_trace_bytes (gboolean with_ops, guint n_gcs)
{
  g_autoptr(GError) error = NULL;
  GBytes *bytes;
  TmTraceWriter *w = tm_trace_writer_new_for_memory (FALSE);
  TmTraceHeader h = { 1, 0, "test", "1", "test-containers", 8, 0, TM_TRACE_FLAG_GRAPHS | TM_TRACE_FLAG_DEATHS };
  guint64 f_leak = 1, f_cache = 2, f_other = 3, f_caller = 4, f_registry = 5, f_cache_new = 6, next = 10, allocs = 0, deaths = 0;
  /* current items of each box (ids) */
  g_autoptr(GArray) a = g_array_new (FALSE, FALSE, sizeof (guint64));
  guint64 b[2] = { 0, 0 }, c1 = 0, c2 = 0, d1 = 0;

  tm_trace_writer_header (w, &h);
  tm_trace_writer_type (w, T_BOX, "Box", 0);
  tm_trace_writer_type (w, T_ITEM, "Item", 0);
  tm_trace_writer_type (w, T_BIG, "Big", 0);
  tm_trace_writer_frame (w, 1, "Leaky.add()", "Leaky.java", 10);
  tm_trace_writer_frame (w, 2, "Cache.put()", "Cache.java", 20);
  tm_trace_writer_frame (w, 3, "Other.run()", "Other.java", 30);
  tm_trace_writer_site (w, 1, 1, &f_leak);
  tm_trace_writer_site (w, 2, 1, &f_cache);
  tm_trace_writer_site (w, 3, 1, &f_other);
  tm_trace_writer_frame (w, 4, "Caller.use()", "Caller.java", 40);
  tm_trace_writer_site (w, 4, 1, &f_caller);
  tm_trace_writer_frame (w, 5, "Registry.<init>()", "Registry.java", 50);
  tm_trace_writer_site (w, 5, 1, &f_registry);
  tm_trace_writer_frame (w, 6, "Cache.<init>()", "Cache.java", 60);
  tm_trace_writer_site (w, 6, 1, &f_cache_new);
  tm_trace_writer_thread (w, 1, "main");
  /* A at Registry.<init>, B at Cache.<init>, C and D at Other.run */
  for (guint64 id = BOX_A; id <= BOX_D; id++)
    tm_trace_writer_alloc (w, id, T_BOX, id == BOX_A ? 5 : id == BOX_B ? 6 : 3, 1, 16, 0, 0);
  tm_trace_writer_alloc (w, BIG, T_BIG, 3, 1, 1000, 0, 0);
  allocs = 5;

  for (guint g = 1; g <= n_gcs; g++)
    {
      g_autoptr(GArray) dead = g_array_new (FALSE, FALSE, sizeof (guint64));
      TmRootRecord roots[5];
      guint64 id;

      /* A gains one item */
      id = next++;
      tm_trace_writer_alloc (w, id, T_ITEM, 1, 1, 100, 0, 0);
      g_array_append_val (a, id);
      op (w, with_ops, g == 5 ? TM_CONTAINER_OP_ADD_OR_GET : TM_CONTAINER_OP_ADD, g - 0.5, BOX_A, id);
      /* B: a fresh pair, the old one dies */
      for (guint k = 0; k < 2; k++)
        {
          if (b[k] != 0)
            {
              g_array_append_val (dead, b[k]);
              op (w, with_ops, TM_CONTAINER_OP_REMOVE, g - 0.5, BOX_B, b[k]);
            }
          b[k] = next++;
          tm_trace_writer_alloc (w, b[k], T_ITEM, 2, 1, 100, 0, 0);
          op (w, with_ops, TM_CONTAINER_OP_ADD, g - 0.5, BOX_B, b[k]);
        }
      allocs += 3;
      /* C and D */
      if (g == 1)
        {
          c1 = next++;
          d1 = next++;
          tm_trace_writer_alloc (w, c1, T_ITEM, 3, 1, 100, 0, 0);
          tm_trace_writer_alloc (w, d1, T_ITEM, 3, 1, 100, 0, 0);
          op (w, with_ops, TM_CONTAINER_OP_ADD, g - 0.5, BOX_C, c1);
          op (w, with_ops, TM_CONTAINER_OP_ADD, g - 0.5, BOX_D, d1);
          allocs += 2;
        }
      if (g == 2)
        {
          c2 = next++;
          tm_trace_writer_alloc (w, c2, T_ITEM, 3, 1, 100, 0, 0);
          op (w, with_ops, TM_CONTAINER_OP_ADD, g - 0.5, BOX_C, c2);
          allocs++;
        }
      if (g == 3)
        {
          g_array_append_val (dead, c2);
          op (w, with_ops, TM_CONTAINER_OP_REMOVE, g - 0.5, BOX_C, c2);
        }
      if (g == 5)
        {
          g_array_append_val (dead, d1);
          op (w, with_ops, TM_CONTAINER_OP_REMOVE, g - 0.5, BOX_D, d1);
        }
      for (guint k = 0; k < 2; k++)
        op (w, with_ops, TM_CONTAINER_OP_GET, g - 0.02, BOX_B, b[k]);

      tm_trace_writer_gc_start (w, g, g * SEC - SEC / 100, TM_GC_KIND_MAJOR, "test", "test");
      tm_trace_writer_deaths (w, g, (guint64 *) (gpointer) dead->data, dead->len);
      deaths += dead->len;
      tm_trace_writer_gc_end (w, g, g * SEC, SEC / 100, 0, NULL);

      tm_trace_writer_graph_begin (w, g);
      for (guint r = 0; r < 5; r++)
        roots[r] = (TmRootRecord) { BOX_A + r, TM_ROOT_KIND_STATIC, 0 };
      tm_trace_writer_roots (w, 5, roots);
      tm_trace_writer_refs (w, BOX_A, a->len, (guint64 *) (gpointer) a->data);
      tm_trace_writer_refs (w, BOX_B, 2, b);
      {
        guint64 cs[2] = { c1, c2 };
        tm_trace_writer_refs (w, BOX_C, g == 2 ? 2 : 1, cs);
      }
      if (g < 5)
        tm_trace_writer_refs (w, BOX_D, 1, &d1);
      tm_trace_writer_graph_end (w, g, g < 5 ? 4 : 3);
    }
  tm_trace_writer_end (w, allocs, deaths, n_gcs, n_gcs * SEC);
  g_assert_true (tm_trace_writer_close (w, &error));
  bytes = tm_trace_writer_steal_bytes (w);
  tm_trace_writer_free (w);
  return bytes;
}

/* MC by the definition: trapezoids of deep/total over 1 s steps, / 4 s */
double
tm_test_container_mc (guint box)
{
  double area = 0;

  for (guint g = 1; g < 5; g++)
    {
      double y0 = (16 + 100.0 * tm_test_container_items (box, g)) / tm_test_container_total (g);
      double y1 = (16 + 100.0 * tm_test_container_items (box, g + 1)) / tm_test_container_total (g + 1);
      area += (y0 + y1) / 2;
    }
  return area / 4;
}
