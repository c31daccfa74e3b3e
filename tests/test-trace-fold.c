/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Rows of survivors only, over many intervals and many 64-number blocks:
 * the same trace loaded folded and with a row per allocation (a
 * transaction kind keeps every row) must find the same object for every
 * id, give the same reachable memory at every graph and the same heap
 * states.  The trace is generated from a fixed seed; the answers come
 * from the full model, where a row is its allocation number.
 */
#include "tm-trace-loader.h"
#include "tm-trace-writer.h"
#include "tm-error.h"

#define N_GCS        14
/* intervals of 896 (14 blocks of 64) and 900 allocations: they start on
 * block boundaries and inside blocks */
#define PER_INTERVAL 900
#define N_OBJECTS    ((N_GCS + 1) * PER_INTERVAL - (N_GCS + 2) / 2 * 4)

static guint
interval_size (guint g)
{
  return g % 2 ? 896 : 900;
}

static TmTrace *
build_trace (gboolean keep_rows, guint32 seed)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GRand) rand = g_rand_new_with_seed (seed);
  g_autofree guint32 *death = g_new0 (guint32, N_OBJECTS + 1);   /* GC id, 0 alive */
  g_autoptr(GArray) dead = g_array_new (FALSE, FALSE, sizeof (guint64));
  g_autoptr(GArray) live = g_array_new (FALSE, FALSE, sizeof (guint64));
  TmTraceWriter *w = tm_trace_writer_new_for_memory (FALSE);
  TmTraceHeader h = { 1, 0, "test", "1", "test-trace-fold", 8, 0, TM_TRACE_FLAG_DEATHS };
  guint64 frame = 1, next_id = 1;
  TmTrace *trace;

  tm_trace_writer_header (w, &h);
  tm_trace_writer_space (w, 1, TM_SPACE_KIND_YOUNG, "eden");
  tm_trace_writer_type (w, 1, "A", 0);
  tm_trace_writer_type (w, 2, "B", 0);
  tm_trace_writer_frame (w, 1, "M.one()", "M.java", 1);
  tm_trace_writer_site (w, 1, 1, &frame);
  tm_trace_writer_thread (w, 1, "main");
  if (keep_rows)
    tm_trace_writer_tx_kind (w, 1, "M.run");

  for (guint g = 1; g <= N_GCS + 1; g++)
    {
      TmSpaceUsageRecord usage = { 1, 1000, 500, 4096 };

      for (guint i = 0; i < interval_size (g); i++, next_id++)
        {
          guint type = g_rand_int_range (rand, 1, 3);
          tm_trace_writer_alloc (w, next_id, type, 1, 1, type == 1 ? 16 : 40 + g_rand_int_range (rand, 0, 64), 0, 0);
        }
      if (g > N_GCS)
        break;
      tm_trace_writer_gc_start (w, g, g * G_GUINT64_CONSTANT (1000000000), TM_GC_KIND_MINOR, "test", "test");
      /* young objects mostly die in their first GC, old ones seldom;
       * runs of deaths and of survivors so that blocks are full, empty
       * and mixed */
      g_array_set_size (dead, 0);
      for (guint64 id = 1; id < next_id; id++)
        {
          gboolean young = id >= next_id - interval_size (g);
          guint p = young ? ((id / 200) % 3 == 0 ? 100 : (id / 200) % 3 == 1 ? 0 : 75) : 8;
          if (death[id] == 0 && (guint) g_rand_int_range (rand, 0, 100) < p)
            {
              death[id] = g;
              g_array_append_val (dead, id);
            }
        }
      tm_trace_writer_deaths (w, g, (const guint64 *) (gpointer) dead->data, dead->len);
      tm_trace_writer_gc_end (w, g, g * G_GUINT64_CONSTANT (1000000000) + 10000000, 10000000, 1, &usage);
      if (g % 3 == 0)
        {
          TmRootRecord roots[4];
          guint n_roots = 0;

          /* the heap after GC g: born before its start, not dead in it */
          g_array_set_size (live, 0);
          for (guint64 id = 1; id < next_id; id++)
            if (death[id] == 0)
              g_array_append_val (live, id);
          tm_trace_writer_graph_begin (w, g);
          for (guint i = 0; i < G_N_ELEMENTS (roots) && i < live->len; i++, n_roots++)
            roots[i] = (TmRootRecord) { g_array_index (live, guint64, g_rand_int_range (rand, 0, live->len)), 1, 1 };
          tm_trace_writer_roots (w, n_roots, roots);
          for (guint i = 0; i < live->len; i++)
            {
              guint64 targets[2];
              targets[0] = g_array_index (live, guint64, g_rand_int_range (rand, 0, live->len));
              targets[1] = g_array_index (live, guint64, g_rand_int_range (rand, 0, live->len));
              tm_trace_writer_refs (w, g_array_index (live, guint64, i), 1 + (i % 2), targets);
            }
          tm_trace_writer_graph_end (w, g, live->len);
        }
    }
  tm_trace_writer_end (w, N_OBJECTS, 0, N_GCS, (N_GCS + 2) * G_GUINT64_CONSTANT (1000000000));
  g_assert_true (tm_trace_writer_close (w, &error));
  g_assert_no_error (error);
  bytes = tm_trace_writer_steal_bytes (w);
  tm_trace_writer_free (w);
  trace = tm_trace_load_bytes (bytes, "fold", NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (trace);
  return trace;
}

static void
test_same_objects (void)
{
  for (guint32 seed = 1; seed <= 3; seed++)
    {
      g_autoptr(TmTrace) full = build_trace (TRUE, seed);
      g_autoptr(TmTrace) folded = build_trace (FALSE, seed);
      guint64 rows = 0, index;

      g_assert_cmpuint (full->n_objects, ==, N_OBJECTS);
      g_assert_cmpuint (folded->total_allocs, ==, N_OBJECTS);
      /* folding happened, and left survivors in blocks of every kind */
      g_assert_cmpuint (folded->n_objects, <, full->n_objects / 2);
      g_assert_cmpuint (folded->n_seq_blocks, >, N_OBJECTS / 64 - 30);

      for (guint64 id = 0; id <= N_OBJECTS + 70; id++)
        {
          guint64 fi;
          gboolean in_full = tm_trace_object_index_for_id (full, id, &fi);
          gboolean has_row = in_full && full->obj_death[fi] != tm_trace_object_birth_gc (full, fi) + 1;
          gboolean found = tm_trace_object_index_for_id (folded, id, &index);

          g_assert_cmpint (in_full, ==, id >= 1 && id <= N_OBJECTS);
          g_assert_cmpint (found, ==, has_row);
          if (!found)
            continue;
          /* rows are in allocation order */
          g_assert_cmpuint (index, ==, rows);
          rows++;
          g_assert_cmpuint (tm_trace_object_id (folded, index), ==, id);
          g_assert_cmpuint (tm_trace_object_seq (folded, index), ==, id - 1);
          g_assert_cmpuint (folded->obj_death[index], ==, full->obj_death[fi]);
          g_assert_cmpuint (tm_trace_object_size (folded, index), ==, tm_trace_object_size (full, fi));
        }
      g_assert_cmpuint (rows, ==, folded->n_objects);

      g_assert_cmpuint (folded->n_graphs, ==, N_GCS / 3);
      for (guint g = 1; g <= N_GCS; g++)
        {
          const TmGc *a = tm_trace_gc (full, g), *b = tm_trace_gc (folded, g);
          g_assert_cmpint (a->has_graph, ==, b->has_graph);
          g_assert_cmpuint (a->reachable_objects, ==, b->reachable_objects);
          g_assert_cmpuint (a->reachable_bytes, ==, b->reachable_bytes);
          g_assert_cmpuint (a->live_objects, ==, b->live_objects);
          g_assert_cmpuint (a->live_bytes, ==, b->live_bytes);
          if (a->has_graph)
            g_assert_cmpuint (b->reachable_objects, >, 0);
        }
    }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/trace-fold/same-objects", test_same_objects);
  return g_test_run ();
}
